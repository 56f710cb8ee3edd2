import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { test } from 'node:test';
import { createKernel, definePlugin, type Kernel, type Request } from '@hickory/core';
import { multipartPlugin, UploadedFile, type MultipartOptions } from './index.ts';

const BOUNDARY = '----hickory7MA4YWxkTrZu0gW';

type Part = { name: string; value: string | Buffer; filename?: string; type?: string; headers?: string[]; disposition?: string };

function form(parts: Part[], boundary = BOUNDARY, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const lines = [`--${boundary}`, `Content-Disposition: ${part.disposition ?? `form-data; name="${part.name}"${filename}`}`];
    if (part.type) lines.push(`Content-Type: ${part.type}`);
    lines.push(...(part.headers ?? []));
    chunks.push(Buffer.from(lines.join('\r\n') + '\r\n\r\n'), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

// Answers every request with a JSON summary of request.POST (file contents read in full).
const echoPlugin = definePlugin({
  name: 'test-echo',
  apply(kernel) {
    kernel.hooks.route.tap('test-echo', () => ({
      target: 'echo',
      async handle(req: Request) {
        const post = req.POST;
        const out: Record<string, unknown> = {
          prototype: Object.getPrototypeOf(post),
        };
        for (const key of Object.keys(post)) {
          const values = ([] as unknown[]).concat(post[key]);
          const shown = [];
          for (const value of values) {
            if (value instanceof UploadedFile) {
              shown.push({
                filename: value.filename,
                type: value.type,
                size: value.size,
                truncated: value.truncated,
                onDisk: value.path !== undefined && existsSync(value.path),
                content: await text(value.file),
              });
            } else {
              shown.push(value);
            }
          }
          out[key] = Array.isArray(post[key]) ? shown : shown[0];
        }
        return out;
      },
    }));
  },
});

async function app(options?: MultipartOptions, withMultipart = true): Promise<Kernel> {
  const kernel = createKernel({ logger: false }).use(echoPlugin);
  if (withMultipart) kernel.use(multipartPlugin, options);
  return kernel.ready();
}

function post(kernel: Kernel, payload: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return kernel.inject({ method: 'POST', url: '/upload', headers: { 'content-type': contentType, accept: 'application/json' }, payload });
}

test('fields are strings, repeated names arrays, files UploadedFiles with a base name; POST has a null prototype', async () => {
  const kernel = await app();
  const res = await post(
    kernel,
    form([
      { name: 'title', value: 'Dune' },
      { name: 'tag', value: 'a' },
      { name: 'tag', value: 'b' },
      { name: 'doc', value: 'hello file', filename: 'C:\\Users\\ann\\notes.txt', type: 'text/plain' },
      { name: 'bin', value: Buffer.from([1, 2, 3]), filename: '../../etc/passwd', type: 'application/octet-stream' },
      { name: 'utf', value: 'x', filename: 'résumé ✓.txt', type: 'text/plain' },
    ]),
  );
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    prototype: null,
    title: 'Dune',
    tag: ['a', 'b'],
    doc: { filename: 'notes.txt', type: 'text/plain', size: 10, truncated: false, onDisk: false, content: 'hello file' },
    bin: { filename: 'passwd', type: 'application/octet-stream', size: 3, truncated: false, onDisk: false, content: '\u0001\u0002\u0003' },
    utf: { filename: 'résumé ✓.txt', type: 'text/plain', size: 1, truncated: false, onDisk: false, content: 'x' },
  });
  await kernel.close();
});

test('a file input left empty (filename="" and no bytes, as browsers send it) is treated as not sent', async () => {
  const kernel = await app();
  const res = await post(
    kernel,
    form([
      { name: 'title', value: 'Dune' },
      { name: 'cover', value: '', filename: '', type: 'application/octet-stream' },
    ]),
  );
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { prototype: null, title: 'Dune' });
  await kernel.close();
});

test('a file larger than memoryThreshold goes to a temporary file, deleted when the response ends', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-mp-'));
  const kernel = await app({ memoryThreshold: 1024, tmpdir: dir });
  const big = Buffer.alloc(200_000, 'z');
  const small = Buffer.alloc(1024, 's');
  const res = await post(
    kernel,
    form([
      { name: 'big', value: big, filename: 'big.bin', type: 'application/octet-stream' },
      { name: 'small', value: small, filename: 'small.bin', type: 'application/octet-stream' },
    ]),
  );
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.big.onDisk, true);
  assert.equal(body.big.size, 200_000);
  assert.equal(body.big.content, big.toString());
  assert.equal(body.small.onDisk, false);
  assert.equal(body.small.content, small.toString());
  await waitForEmpty(dir);
  assert.deepEqual(await readdir(dir), []);
  await kernel.close();
  await rm(dir, { recursive: true });
});

test('saveTo() moves a spooled upload and writes an in-memory one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-mp-'));
  const store = await mkdtemp(join(tmpdir(), 'hickory-store-'));
  const saver = definePlugin({
    name: 'test-saver',
    apply(kernel) {
      kernel.hooks.route.tap('test-saver', () => ({
        target: 'save',
        async handle(req: Request) {
          for (const key of ['big', 'small']) {
            const upload = req.POST[key] as UploadedFile;
            await upload.saveTo(join(store, upload.filename));
          }
          return 'saved';
        },
      }));
    },
  });
  const kernel = await createKernel({ logger: false }).use(saver).use(multipartPlugin, { memoryThreshold: 100, tmpdir: dir }).ready();
  const res = await post(
    kernel,
    form([
      { name: 'big', value: Buffer.alloc(5000, 'b'), filename: 'big.txt' },
      { name: 'small', value: 'tiny', filename: 'small.txt' },
    ]),
  );
  assert.equal(res.statusCode, 200);
  assert.deepEqual((await readdir(store)).sort(), ['big.txt', 'small.txt']);
  await waitForEmpty(dir);
  await kernel.close();
  await rm(dir, { recursive: true });
  await rm(store, { recursive: true });
});

const limitCases: Array<{ limit: string; options: MultipartOptions; ok: Part[]; over: Part[] }> = [
  {
    limit: 'parts',
    options: { limits: { parts: 3 } },
    ok: [1, 2, 3].map((i) => ({ name: `f${i}`, value: 'v' })),
    over: [1, 2, 3, 4].map((i) => ({ name: `f${i}`, value: 'v' })),
  },
  {
    limit: 'files',
    options: { limits: { files: 2 } },
    ok: [1, 2].map((i) => ({ name: `f${i}`, value: 'v', filename: `${i}.txt` })),
    over: [1, 2, 3].map((i) => ({ name: `f${i}`, value: 'v', filename: `${i}.txt` })),
  },
  {
    limit: 'fileSize',
    options: { limits: { fileSize: 100 } },
    ok: [{ name: 'f', value: Buffer.alloc(100, 'a'), filename: 'a.txt' }],
    over: [{ name: 'f', value: Buffer.alloc(101, 'a'), filename: 'a.txt' }],
  },
  {
    limit: 'fields',
    options: { limits: { fields: 2 } },
    ok: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }],
    over: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }, { name: 'c', value: '3' }],
  },
  {
    limit: 'fieldSize',
    options: { limits: { fieldSize: 10 } },
    ok: [{ name: 'a', value: '0123456789' }],
    over: [{ name: 'a', value: '0123456789X' }],
  },
  {
    limit: 'headerPairs',
    options: { limits: { headerPairs: 3 } },
    ok: [{ name: 'a', value: '1', headers: ['X-One: 1', 'X-Two: 2'] }],
    over: [{ name: 'a', value: '1', headers: ['X-One: 1', 'X-Two: 2', 'X-Three: 3'] }],
  },
];

for (const { limit, options, ok, over } of limitCases) {
  test(`limit "${limit}": at the limit → 200, past it → 413 naming the limit`, async () => {
    const kernel = await app(options);
    assert.equal((await post(kernel, form(ok))).statusCode, 200);
    const res = await post(kernel, form(over));
    assert.equal(res.statusCode, 413);
    assert.equal(res.headers['connection'], 'close');
    assert.match(res.json().description, new RegExp(`multipart limit "${limit}"`));
    await kernel.close();
  });
}

test('the default limits: 10 files, 10 MiB per file', async () => {
  const kernel = await app({ tmpdir: tmpdir() });
  const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, value: 'x', filename: `${i}.txt` }));
  assert.match((await post(kernel, form(eleven))).json().description, /more than 10 files/);
  const huge = [{ name: 'f', value: Buffer.alloc(10 * 1024 * 1024 + 1), filename: 'huge.bin' }];
  const res = await post(kernel, form(huge));
  assert.equal(res.statusCode, 413);
  assert.match(res.json().description, /larger than 10485760 bytes/);
  await kernel.close();
});

const badNames: Array<[string, Part]> = [
  ['field "__proto__"', { name: '__proto__', value: 'x' }],
  ['field "constructor"', { name: 'constructor', value: 'x' }],
  ['field "toString"', { name: 'toString', value: 'x' }],
  ['field "hasOwnProperty"', { name: 'hasOwnProperty', value: 'x' }],
  ['an empty field name', { name: '', value: 'x' }],
  ['a file field "__proto__"', { name: '__proto__', value: 'x', filename: 'a.txt' }],
  ['a file field "constructor"', { name: 'constructor', value: 'x', filename: 'a.txt' }],
  ['an empty file field name', { name: '', value: 'x', filename: 'a.txt' }],
  ['a file named "__proto__"', { name: 'f', value: 'x', filename: '__proto__' }],
  ['a file named "constructor"', { name: 'f', value: 'x', filename: 'constructor' }],
  ['a file named "valueOf"', { name: 'f', value: 'x', filename: 'valueOf' }],
  ['an empty file name', { name: 'f', value: 'x', filename: '', type: 'application/octet-stream' }],
  ['a file name that is a directory', { name: 'f', value: 'x', filename: '../' }],
  ['a file name with a control character', { name: 'f', value: 'x', disposition: `form-data; name="f"; filename*=UTF-8''a%01b.txt` }],
];

for (const [what, part] of badNames) {
  test(`${what} → 400, prototypes untouched`, async () => {
    const kernel = await app();
    const res = await post(kernel, form([{ name: 'ok', value: '1' }, part]));
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().description, /name/);
    assert.equal(({} as Record<string, unknown>)['x'], undefined);
    assert.equal(Object.prototype.toString.call({}), '[object Object]');
    await kernel.close();
  });
}

const malformedBodies: Array<[string, string, Buffer]> = [
  ['no boundary parameter', 'multipart/form-data', form([{ name: 'a', value: '1' }])],
  ['an empty boundary', 'multipart/form-data; boundary=', form([{ name: 'a', value: '1' }])],
  ['a boundary with forbidden characters', 'multipart/form-data; boundary="a<b>"', form([{ name: 'a', value: '1' }], 'a<b>')],
  ['a boundary longer than 70 characters', `multipart/form-data; boundary=${'b'.repeat(71)}`, form([{ name: 'a', value: '1' }], 'b'.repeat(71))],
  ['a boundary the body does not use', 'multipart/form-data; boundary=other', form([{ name: 'a', value: '1' }])],
  ['no closing boundary', `multipart/form-data; boundary=${BOUNDARY}`, form([{ name: 'a', value: '1' }], BOUNDARY, false)],
  [
    'a part header starting with whitespace',
    `multipart/form-data; boundary=${BOUNDARY}`,
    Buffer.from(`--${BOUNDARY}\r\n Content-Disposition: form-data; name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`),
  ],
  [
    'a folded part header line',
    `multipart/form-data; boundary=${BOUNDARY}`,
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data;\r\n name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`),
  ],
  [
    'a part header without a colon',
    `multipart/form-data; boundary=${BOUNDARY}`,
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\n1\r\n--${BOUNDARY}--\r\n`),
  ],
];

for (const [what, contentType, payload] of malformedBodies) {
  test(`malformed body: ${what} → 400`, async () => {
    const kernel = await app();
    const res = await post(kernel, payload, contentType);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().description, /^Malformed multipart body: /);
    await kernel.close();
  });
}

test('without the plugin a multipart body gets 415 naming the plugin', async () => {
  const kernel = await app(undefined, false);
  const res = await post(kernel, form([{ name: 'a', value: '1' }]));
  assert.equal(res.statusCode, 415);
  assert.match(res.json().description, /multipartPlugin/);
  assert.match(res.json().description, /@hickory\/multipart/);
  await kernel.close();
});

test('a bad or unknown option fails ready() naming it (and the known ones); so does a missing tmpdir', async () => {
  const limits = 'parts, files, fileSize, fields, fieldSize, totalFieldSize, headerPairs';
  const cases: Array<[unknown, string]> = [
    [{ limits: { files: 0 } }, 'multipartPlugin option "limits.files" must be a positive integer (got 0).'],
    [{ limits: { filez: 1 } }, `multipartPlugin option "limits.filez" is unknown (known: ${limits}).`],
    [{ limit: { fileSize: 1 } }, 'multipartPlugin option "limit" is unknown (known: limits, memoryThreshold, tmpdir).'],
    [{ limits: 5 }, `multipartPlugin option "limits" must be an object such as { fileSize: 50 * 1024 * 1024 } (known: ${limits}).`],
    ['big', 'multipartPlugin option "(options)" must be an object with limits, memoryThreshold, tmpdir.'],
  ];
  for (const [options, message] of cases) {
    const bad = createKernel({ logger: false }).use(multipartPlugin, options as never);
    await assert.rejects(bad.ready(), { code: 'HICKORY_ERR_MULTIPART_OPTION', message });
  }
  const kernel = createKernel({ logger: false }).use(multipartPlugin, { tmpdir: join(tmpdir(), 'hickory-does-not-exist-4711') });
  await assert.rejects(kernel.ready(), (error: Error & { code?: string; cause?: Error & { code?: string } }) => {
    const coded = error.code === 'HICKORY_ERR_MULTIPART_TMPDIR' ? error : error.cause;
    assert.equal(coded?.code, 'HICKORY_ERR_MULTIPART_TMPDIR');
    assert.match(coded!.message, /hickory-does-not-exist-4711/);
    return true;
  });
});

async function waitForEmpty(dir: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await readdir(dir)).length === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}
