// Options given to a first-party plugin take effect however the app is assembled: createApp()'s
// `plugins` and a config file's `app.plugins` (as `hickory serve` loads it: loadApp) give them to
// the plugin's first use() (the kernel applies a plugin once); options that cannot take effect
// (unknown, or a second, different set) fail ready() naming the plugin and the option.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { createApp, type PluginEntry } from '@hickory/app';
import { loadApp } from '@hickory/cli';
import { definePlugin, request, type Kernel, type Plugin } from '@hickory/core';
import { silentLogger } from '@hickory/core/kit';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { hooksPlugin } from '@hickory/hooks';
import { multipartPlugin, UploadedFile } from '@hickory/multipart';
import { restPlugin } from '@hickory/rest';
import { staticPlugin } from '@hickory/static';
import { ejsRenderer } from '@hickory/ejs';
import { nunjucksRenderer } from '@hickory/nunjucks';
import { handlebarsRenderer } from '@hickory/handlebars';

class Root {
  @expose('json')
  upload() {
    const file = request.POST['file'];
    assert.ok(file instanceof UploadedFile);
    return { size: file.size };
  }
}

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-plugin-options-'));
  await writeFile(join(dir, 'hello.txt'), 'static hello\n');
});
after(() => rm(dir, { recursive: true, force: true }));

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/plugin-options/${name}`, import.meta.url));

// A file of exactly `limit` bytes is taken; one byte more is a 413 naming the limit.
async function assertFileSizeLimit(app: Kernel, limit: number): Promise<void> {
  const at = await app.inject(upload(limit));
  assert.equal(at.statusCode, 200, at.body);
  assert.deepEqual(at.json(), { size: limit });
  const past = await app.inject(upload(limit + 1));
  assert.equal(past.statusCode, 413);
  assert.match(past.body, /fileSize/);
}

const BOUNDARY = 'hickoryoptions';
function upload(size: number) {
  return {
    method: 'POST' as const,
    url: '/upload',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.alloc(size, 0x61),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  };
}

test('multipart limits given in plugins take effect: lowered (413 one byte past) and raised past the 10 MiB default', async () => {
  const low = createApp({ root: new Root(), logger: false, plugins: [[multipartPlugin, { limits: { fileSize: 1000 } }]] });
  try {
    await assertFileSizeLimit(low, 1000);
  } finally {
    await low.close();
  }
  const MiB = 1024 * 1024;
  const high = createApp({ root: new Root(), logger: false, plugins: [[multipartPlugin, { limits: { fileSize: 12 * MiB } }]] });
  const defaults = createApp({ root: new Root(), logger: false });
  try {
    const big = await high.inject(upload(11 * MiB));
    assert.equal(big.statusCode, 200, big.body);
    assert.deepEqual(big.json(), { size: 11 * MiB });
    assert.equal((await defaults.inject(upload(11 * MiB))).statusCode, 413);
  } finally {
    await high.close();
    await defaults.close();
  }
});

test('static options given in plugins take effect (Cache-Control), the plugin keeping its place before hooks', async () => {
  const routed: string[] = [];
  const trace = { on_route: (state: { request: { path: string } }) => void routed.push(state.request.path) };
  const plugins: PluginEntry[] = [[staticPlugin, { maxAge: '1h', immutable: true, etag: false }]];
  const app = createApp({ root: new Root(), static_root: dir, hooks: [trace], logger: false, plugins });
  try {
    const file = await app.inject('/hello.txt');
    assert.deepEqual(routed, [], 'a static file is answered before on_route, as without options');
    assert.equal(file.statusCode, 200);
    assert.equal(file.body, 'static hello\n');
    assert.equal(file.headers['cache-control'], 'public, max-age=3600, immutable');
    assert.equal(file.headers.etag, undefined);
  } finally {
    await app.close();
  }
  const plain = createApp({ root: new Root(), static_root: dir, logger: false });
  try {
    const file = await plain.inject('/hello.txt');
    assert.equal(file.headers['cache-control'], 'public, max-age=0');
    assert.ok(file.headers.etag);
  } finally {
    await plain.close();
  }
});

test('a plugin that another entry depends on gets its options from the list, wherever it comes', async () => {
  const seen: unknown[] = [];
  const base = definePlugin<{ level: number } | undefined>({ name: 'base', apply: (_k, options) => void seen.push(options) });
  const top = definePlugin({ name: 'top', dependencies: [base as Plugin], apply() {} });
  const app = createApp({ root: new Root(), logger: false, plugins: [top, [base, { level: 3 }], [base, { level: 3 }]] });
  await app.ready();
  assert.deepEqual(seen, [{ level: 3 }]);
  await app.close();
});

test('an unknown option of any first-party plugin fails ready(), naming the plugin, the option and the known ones', async () => {
  const cases: Array<[PluginEntry, string, string]> = [
    [[multipartPlugin, { maxFileSize: 1 }], 'HICKORY_ERR_MULTIPART_OPTION', 'multipartPlugin option "maxFileSize" is unknown (known: limits, memoryThreshold, tmpdir).'],
    [[staticPlugin, { max_age: 1 }], 'HICKORY_ERR_STATIC_OPTION', 'staticPlugin option "max_age" is unknown (known: maxAge, immutable, cacheControl, etag, lastModified, required).'],
    [[dispatchPlugin, { strict: true }], 'HICKORY_ERR_PLUGIN_OPTION', 'Plugin "dispatch" has no option "strict" (it takes no options).'],
    [[restPlugin, { strict: true }], 'HICKORY_ERR_PLUGIN_OPTION', 'Plugin "rest" has no option "strict" (it takes no options).'],
    [[hooksPlugin, { hooks: [] }], 'HICKORY_ERR_PLUGIN_OPTION', 'Plugin "hooks" has no option "hooks" (it takes no options).'],
    [[ejsRenderer, { rmWhitespace: true }], 'HICKORY_ERR_RENDERER_OPTIONS', 'Renderer "ejs" got a bad option: `rmWhitespace` is not one of its options (cache).'],
    [[nunjucksRenderer, { filter: {} }], 'HICKORY_ERR_RENDERER_OPTIONS', 'Renderer "nunjucks" got a bad option: `filter` is not one of its options (cache, filters, globals).'],
    [[handlebarsRenderer, { helpers: { upper: 'UP' } }], 'HICKORY_ERR_RENDERER_OPTIONS', 'Renderer "handlebars" got a bad option: `helpers` must map names to functions ("upper" is string).'],
  ];
  for (const [entry, code, message] of cases) {
    const app = createApp({ logger: false, plugins: [entry] });
    await assert.rejects(app.ready(), { code, message });
    await app.close();
  }
});

test('one plugin given two different sets of options fails ready(), naming both the plugin and the option', async () => {
  const app = createApp({
    logger: false,
    plugins: [
      [multipartPlugin, { limits: { fileSize: 1000 } }],
      [multipartPlugin, { limits: { fileSize: 2000 } }],
    ],
  });
  await assert.rejects(app.ready(), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'HICKORY_ERR_PLUGIN_OPTIONS_AGAIN');
    assert.match(error.message, /^Plugin "multipart" is already in use \(used earlier with other options\), so the options given to it again would be ignored \(option limits\)/);
    return true;
  });
  await app.close();
});

test("a config file's app.plugins options take effect: multipart's fileSize (413 past it) and static caching", async () => {
  const { app } = await loadApp(fixture('config.ts'), silentLogger);
  try {
    await assertFileSizeLimit(app, 1000);
    const file = await app.inject('/hello.txt');
    assert.equal(file.statusCode, 200);
    assert.equal(file.body, 'static hello\n');
    assert.equal(file.headers['cache-control'], 'public, max-age=3600, immutable');
  } finally {
    await app.close();
  }
});

test('a config file with an unknown plugin option fails to load, naming the file, the plugin and the option', async () => {
  const file = fixture('config-unknown-option.ts');
  await assert.rejects(loadApp(file, silentLogger), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'HICKORY_ERR_CLI_CONFIG');
    assert.ok(error.message.includes(file), error.message);
    assert.ok(error.message.includes('multipartPlugin option "maxFileSize" is unknown (known: limits, memoryThreshold, tmpdir).'), error.message);
    return true;
  });
});
