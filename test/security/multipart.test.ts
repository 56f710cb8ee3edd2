import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTable, type Answer, type Case } from './harness.ts';

// Multipart bodies through the whole app: every malformed shape, names and file names that try
// to escape the upload directory or reach a prototype, and the limits.

const B = '----hickoryXsecurity9q';
const TYPE = { 'content-type': `multipart/form-data; boundary=${B}` };

type Part = { name?: string; value: string | Buffer; filename?: string; disposition?: string; headers?: string[] };

function form(parts: Part[], close = true, boundary = B): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const lines = [`--${boundary}`, `Content-Disposition: ${part.disposition ?? `form-data; name="${part.name}"${filename}`}`, ...(part.headers ?? [])];
    chunks.push(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const upload = (name: string, body: Buffer, status: number[], extra: Partial<Case> = {}): Case => ({
  name,
  method: 'POST',
  target: '/upload',
  headers: { ...TYPE, accept: 'application/json' },
  body,
  status,
  ...extra,
});

// A stored file name is a base name: no separators, no dot-dot, no control characters.
const safeNames = (answer: Answer) => {
  if (answer.status !== 200) return;
  const { fields } = JSON.parse(answer.body) as { fields: Record<string, { filename?: string }> };
  for (const value of Object.values(fields)) {
    const name = value?.filename;
    if (name === undefined) continue;
    assert.doesNotMatch(name, /[/\\\0\r\n]|^\.\.?$/, `unsafe stored file name ${JSON.stringify(name)}`);
  }
};

const cases: Case[] = [
  upload('a plain form with a file', form([{ name: 'a', value: '1' }, { name: 'f', value: 'hello', filename: 'a.txt' }]), [200], { runs: ['root.upload.post'], check: safeNames }),
  // Malformed shapes.
  upload('no boundary parameter', form([{ name: 'a', value: '1' }]), [400], { headers: { 'content-type': 'multipart/form-data' } }),
  upload('an empty boundary', form([{ name: 'a', value: '1' }]), [400], { headers: { 'content-type': 'multipart/form-data; boundary=' } }),
  upload('a boundary named __proto__', form([{ name: 'a', value: '1' }], true, '__proto__'), [200, 400], { headers: { 'content-type': 'multipart/form-data; boundary=__proto__' }, runs: ['root.upload.post'] }),
  upload('a boundary with forbidden characters', form([{ name: 'a', value: '1' }], true, 'a<b>'), [400], { headers: { 'content-type': 'multipart/form-data; boundary="a<b>"' } }),
  upload('a boundary over 70 characters', form([{ name: 'a', value: '1' }], true, 'b'.repeat(71)), [400], { headers: { 'content-type': `multipart/form-data; boundary=${'b'.repeat(71)}` } }),
  upload('a boundary the body does not use', form([{ name: 'a', value: '1' }]), [400], { headers: { 'content-type': 'multipart/form-data; boundary=other' } }),
  upload('two boundary parameters (a proxy may read the other)', form([{ name: 'a', value: '1' }]), [400], {
    headers: { 'content-type': `multipart/form-data; boundary=${B}; boundary=other`, accept: 'application/json' },
    check: (answer) => assert.equal((JSON.parse(answer.body) as { description: string }).description, 'Malformed multipart body: the Content-Type names a boundary more than once.'),
  }),
  upload('two boundary parameters, the other first', form([{ name: 'a', value: '1' }]), [400], { headers: { 'content-type': `multipart/form-data; BOUNDARY="other";boundary=${B}` } }),
  upload('no closing boundary', form([{ name: 'a', value: '1' }], false), [400]),
  // No body at all: nothing to parse, so the handler sees an empty form.
  upload('an empty body', Buffer.alloc(0), [200, 400], { runs: ['root.upload.post'] }),
  upload('only the closing boundary', Buffer.from(`--${B}--\r\n`), [200, 400], { runs: ['root.upload.post'] }),
  upload('garbage', Buffer.from('\x00\x01\x02 not multipart at all'), [400]),
  upload('a part header starting with whitespace', Buffer.from(`--${B}\r\n Content-Disposition: form-data; name="a"\r\n\r\n1\r\n--${B}--\r\n`), [400]),
  upload('a folded part header', Buffer.from(`--${B}\r\nContent-Disposition: form-data;\r\n name="a"\r\n\r\n1\r\n--${B}--\r\n`), [400]),
  upload('a part header without a colon', Buffer.from(`--${B}\r\nContent-Disposition form-data\r\n\r\n1\r\n--${B}--\r\n`), [400]),
  upload('a part without Content-Disposition', Buffer.from(`--${B}\r\nContent-Type: text/plain\r\n\r\n1\r\n--${B}--\r\n`), [200, 400], { runs: ['root.upload.post'] }),
  upload('a part without a name', form([{ value: '1', disposition: 'form-data' }]), [200, 400], { runs: ['root.upload.post'] }),
  upload('a part header of 20 KB', form([{ name: 'a', value: '1', headers: [`X-Long: ${'h'.repeat(20_000)}`] }]), [400, 413]),
  upload('2001 part header lines', form([{ name: 'a', value: '1', headers: Array.from({ length: 2001 }, (_, i) => `X-H${i}: v`) }]), [400, 413]),
  upload('11 files (over the default limit)', form(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, value: 'x', filename: `f${i}.txt` }))), [413]),
  upload('1001 fields', form(Array.from({ length: 1001 }, (_, i) => ({ name: `k${i}`, value: 'x' }))), [413]),
  upload('a body over body_limit is still bounded by the multipart limits', form([{ name: 'f', value: Buffer.alloc(11 * 1024 * 1024, 'z'), filename: 'big.bin' }]), [413]),
  // Names and file names that try to pollute or escape.
  ...['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__proto__[x]', 'constructor[prototype][x]', ''].flatMap((name) => [
    upload(`a field named ${JSON.stringify(name)}`, form([{ name: 'ok', value: '1' }, { name, value: 'x' }]), [200, 400], { runs: ['root.upload.post'], check: safeNames }),
    upload(`a file field named ${JSON.stringify(name)}`, form([{ name, value: 'x', filename: 'a.txt' }]), [200, 400], { runs: ['root.upload.post'], check: safeNames }),
  ]),
  ...[
    '../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '/etc/passwd',
    'C:\\x\\y.txt',
    '..',
    '.',
    '../',
    'a\u0000b.txt',
    '__proto__',
    'constructor',
    '%2e%2e%2fx',
    'a/../../b',
    '\u202etxt.exe',
  ].map((filename) => upload(`a file named ${JSON.stringify(filename)}`, form([{ name: 'f', value: 'x', filename }]), [200, 400], { runs: ['root.upload.post'], check: safeNames })),
  upload('a file name with CR/LF (filename*)', form([{ value: 'x', disposition: `form-data; name="f"; filename*=UTF-8''a%0d%0aSet-Cookie%3a%20x.txt` }]), [200, 400], { runs: ['root.upload.post'], check: safeNames }),
  upload('a file name with NUL (filename*)', form([{ value: 'x', disposition: `form-data; name="f"; filename*=UTF-8''..%2f..%2fa%00.txt` }]), [200, 400], { runs: ['root.upload.post'], check: safeNames }),
  upload('a file name in a bad charset', form([{ value: 'x', disposition: `form-data; name="f"; filename*=__proto__''a.txt` }]), [200, 400], { runs: ['root.upload.post'], check: safeNames }),
  upload('a name with a quote-escape trick', form([{ value: 'x', disposition: `form-data; name="a\\"; filename=\\"../../x"` }]), [200, 400], { runs: ['root.upload.post'], check: safeNames }),
  upload('duplicate name and filename parameters', form([{ value: 'x', disposition: `form-data; name="a"; name="__proto__"; filename="a"; filename="../../b"` }]), [200, 400], { runs: ['root.upload.post'], check: safeNames }),
  // Multipart to a handler that reads no body, and to a 404.
  { name: 'multipart to a 404', method: 'POST', target: '/nothing', headers: TYPE, body: form([{ name: '__proto__', value: 'x' }]), status: [404] },
];

test('bad multipart bodies: the right 4xx, safe names, nothing crashed, nothing polluted', (t) => runTable(t, cases));
