// An app pays only for what it uses: createApp plugs in every first-party plugin, but the large
// libraries behind them (nunjucks, handlebars, busboy, send, proxy-addr, pino, and
// fast-json-stringify for response schemas) load on first use, so an app answering JSON never
// carries them in its heap. Run in a child
// process, so that nothing this test runner loaded counts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const child = new URL('./fixtures/lazy-modules/app.ts', import.meta.url).pathname;

test('createApp: the heavy libraries load on first use, not with the app', async () => {
  const { stdout } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', child], { timeout: 60_000 });
  const steps = JSON.parse(stdout.trim().split('\n').at(-1)!);
  assert.deepEqual(steps.ready, [], 'nothing heavy is loaded by importing @hickory/app and readying the app');
  assert.deepEqual(steps.json, { status: 200, body: '{"ok":true}', loaded: [] });
  assert.deepEqual(steps.page, { status: 200, body: '<h1>&lt;Books&gt;</h1>', loaded: ['nunjucks'] });
  assert.deepEqual(steps.file, { status: 200, body: 'hello', loaded: ['nunjucks', 'send'] });
  assert.deepEqual(steps.upload, { status: 200, body: '{"name":"Dune"}', loaded: ['nunjucks', 'busboy', 'send'] });
  assert.deepEqual(steps.schema, { status: 200, body: '{"ok":true}', loaded: ['nunjucks', 'busboy', 'send', 'fast-json-stringify'] });
});
