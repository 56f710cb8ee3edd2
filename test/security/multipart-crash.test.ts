import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { makeApp } from './app.ts';
import { assertHealthy, assertNoLeak, assertNothingUncaught, injectCase, listening, rawExchange, requestBytes, runTable, type Case } from './harness.ts';

// The request that used to kill the server: a multipart text field declaring a charset the parser
// cannot decode (it handed the field no value, and the parser's result then failed inside a promise
// callback: an unhandled rejection, the request never answered). Then random part headers, fuzzed.

const B = 'XyZb';
const TYPE = `multipart/form-data; boundary=${B}`;

function textPart(name: string, value: string, headers: string[]): string {
  return [`--${B}`, `Content-Disposition: form-data; name="${name}"`, ...headers, '', value].join('\r\n');
}

const formOf = (...parts: string[]) => `${parts.join('\r\n')}\r\n--${B}--\r\n`;

const post = (name: string, body: string, status: number[], extra: Partial<Case> = {}): Case => ({
  name,
  method: 'POST',
  target: '/upload',
  headers: { 'content-type': TYPE, accept: 'application/json' },
  body,
  status,
  ...extra,
});

const description = (body: string) => (JSON.parse(body) as { description: string }).description;

const UNDECODED = ['shift_jis', 'gbk', 'euc-kr', 'iso-8859-2', 'windows-1251', 'koi8-r', 'utf-16be', 'x-bogus'];

const refused = UNDECODED.map((charset) =>
  post(`a text field in ${charset}`, formOf(textPart('a', 'hello', [`Content-Type: text/plain; charset=${charset}`])), [415], {
    check: (answer) => {
      assert.equal(answer.status, 415);
      assert.equal(
        description(answer.body),
        `A multipart text field declares charset "${charset}" that this server does not decode: send text fields as UTF-8 (or US-ASCII, ISO-8859-1, UTF-16LE).`,
      );
    },
  }),
);

const echoed = (expected: Record<string, unknown>) => (answer: { status: number; body: string }) => {
  assert.equal(answer.status, 200, answer.body);
  assert.deepEqual((JSON.parse(answer.body) as { fields: unknown }).fields, expected);
};

const cases: Case[] = [
  ...refused,
  post('the charset quoted and in capitals', formOf(textPart('a', 'x', ['Content-Type: text/plain; charset="Shift_JIS"'])), [415], {
    check: (answer) => assert.match(description(answer.body), /charset "shift_jis"/),
  }),
  post('a charset label that is no token is not echoed', formOf(textPart('a', 'x', ['Content-Type: text/plain; charset="<b>x</b>"'])), [415], {
    check: (answer) => assert.match(description(answer.body), /^A multipart text field declares a charset that/),
  }),
  post('UTF-8', formOf(textPart('a', 'café', ['Content-Type: text/plain; charset=utf-8'])), [200], { runs: ['root.upload.post'], check: echoed({ a: 'café' }) }),
  post('ISO-8859-1', `${textPart('a', '', ['Content-Type: text/plain; charset=iso-8859-1'])}caf\xe9\r\n--${B}--\r\n`, [200], {
    runs: ['root.upload.post'],
    // The body is sent as UTF-8 by the harness: the Latin-1 reading of "é" (C3 A9) is "Ã©".
    check: echoed({ a: 'cafÃ©' }),
  }),
  post('US-ASCII', formOf(textPart('a', 'plain', ['Content-Type: text/plain; charset=us-ascii'])), [200], { runs: ['root.upload.post'], check: echoed({ a: 'plain' }) }),
  post('no charset', formOf(textPart('a', 'plain', ['Content-Type: text/plain'])), [200], { runs: ['root.upload.post'], check: echoed({ a: 'plain' }) }),
  post(
    'a file in any charset keeps its bytes',
    formOf([`--${B}`, 'Content-Disposition: form-data; name="f"; filename="a.txt"', 'Content-Type: text/plain; charset=shift_jis', '', 'hello'].join('\r\n')),
    [200],
    { runs: ['root.upload.post'], check: echoed({ f: { filename: 'a.txt', size: 5 } }) },
  ),
  post(
    'an octet-stream part in any charset is a file',
    formOf(textPart('f', 'hello', ['Content-Type: application/octet-stream; charset=gbk'])),
    // busboy takes a nameless octet-stream part for a file left empty; it has content: 400.
    [400],
  ),
];

test('multipart text fields in charsets the parser cannot decode: 415 naming the charset, never a crash', (t) => runTable(t, cases));

// ---------------------------------------------------------------------------------------------

const seed = Number(process.env['HICKORY_FUZZ_SEED'] ?? 20261124);
const runs = Number(process.env['HICKORY_FUZZ_RUNS'] ?? 150);

const token = fc.oneof(
  fc.constantFrom('a', 'f', '__proto__', 'constructor', '', 'x y', 'é'),
  fc.string({ maxLength: 8 }).filter((s) => /^[\x20-\x7e]*$/.test(s) && !/["\r\n]/.test(s)),
);
const charset = fc.oneof(
  fc.constantFrom('utf-8', 'UTF-8', 'latin1', 'iso-8859-1', 'windows-1252', 'utf-16le', 'base64', 'shift_jis', 'gbk', 'utf-16be', 'x-bogus', '', '"utf-8"', '"gbk"', 'utf-8;charset=gbk'),
  fc.string({ maxLength: 12 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
);
const mediaType = fc.constantFrom('text/plain', 'application/octet-stream', 'application/json', 'multipart/mixed', 'text/html', 'garbage', '');
const disposition = fc.oneof(
  token.map((name) => `form-data; name="${name}"`),
  fc.tuple(token, token).map(([name, file]) => `form-data; name="${name}"; filename="${file}"`),
  fc.tuple(token, token).map(([name, file]) => `form-data; name="${name}"; filename*=UTF-8''${encodeURIComponent(file)}`),
  fc.constantFrom('attachment; name="a"', 'form-data', 'form-data; name=', 'inline', 'form-data; name="a"; name="b"'),
);
const encoding = fc.constantFrom('7bit', '8bit', 'binary', 'base64', 'quoted-printable', 'x-gzip');
const partHeaders = fc.record(
  {
    disposition,
    type: fc.tuple(mediaType, fc.option(charset)).map(([type, cs]) => (cs === null ? type : `${type}; charset=${cs}`)),
    encoding,
    extra: fc.array(fc.constantFrom('X-A: 1', 'Content-Type: text/plain; charset=gbk', 'Content-Disposition: form-data; name="z"', 'Content-ID: <x>'), { maxLength: 2 }),
  },
  { requiredKeys: ['disposition'] },
);
const partValue = fc.oneof(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')));
const nested = fc.constant(`Content-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\nContent-Disposition: file; filename="n.txt"\r\n\r\nx\r\n--inner--`);

const part = fc.oneof(
  fc.tuple(partHeaders, partValue).map(([h, value]) => {
    const lines = [`Content-Disposition: ${h.disposition}`];
    if (h.type !== undefined) lines.push(`Content-Type: ${h.type}`);
    if (h.encoding !== undefined) lines.push(`Content-Transfer-Encoding: ${h.encoding}`);
    lines.push(...(h.extra ?? []));
    return `--${B}\r\n${lines.join('\r\n')}\r\n\r\n${value}`;
  }),
  nested.map((inner) => `--${B}\r\nContent-Disposition: form-data; name="m"\r\n${inner}`),
);

test(`fuzzing multipart part headers (seed ${seed}, ${runs} runs): every request answered, nothing uncaught`, async () => {
  const app = makeApp();
  const port = await listening(app);
  let n = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 5 }), fc.boolean(), async (parts, closed) => {
        const body = `${parts.join('\r\n')}\r\n${closed ? `--${B}--\r\n` : ''}`;
        const c = post('fuzzed form', body, []);
        // Every answer is a deliberate one: 200, or a 4xx saying what was wrong; never a 5xx or a hang.
        const answers = [await injectCase(app, c)];
        if (n++ % 3 === 0) answers.push(await rawExchange(port, requestBytes(c)));
        for (const answer of answers) {
          assert.ok([200, 400, 413, 415].includes(answer.status), `status ${answer.status} for ${JSON.stringify(body)}: ${answer.body.slice(0, 200)}`);
          assertNoLeak(answer, body);
        }
        assertNothingUncaught(body);
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    await assertHealthy(app, port, 'after the multipart fuzzing');
  } finally {
    await app.close();
  }
});
