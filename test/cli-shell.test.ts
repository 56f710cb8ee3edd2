// `hickory shell <config>`: a REPL with the app loaded (Pecan's `pecan shell`), driven through its
// standard input as a user would type, with top-level await.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { BIN, REPO } from './fixtures/cli/harness.ts';

function shell(lines: string[], config = 'test/fixtures/cli/app/config.ts'): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'shell', config], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the shell did not exit; output so far:\n${out}\n${err}`));
    }, 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

test('hickory shell: app, root, config and inject in scope, top-level await, .exit closes it', async () => {
  const { code, out, err } = await shell([
    'root.constructor.name',
    '(await inject("/")).body',
    '(await inject({ url: "/nowhere" })).statusCode',
    'config.force_canonical',
    'typeof app.inject',
    '.exit',
  ]);
  assert.equal(code, 0, err);
  assert.match(out, /hickory shell: .*test\/fixtures\/cli\/app\/config\.ts\n  in scope: app, root, config, inject\(url \| options\)/);
  assert.match(out, /'CliRoot'/);
  assert.match(out, /'hello from the cli fixture'/);
  assert.match(out, /\b404\b/);
  assert.match(out, /\btrue\b/);
  assert.match(out, /'function'/);
});

test('hickory shell without a config file, or with one that does not exist, is a usage error', async () => {
  const missing = await shell([], 'no/such/config.ts');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /^hickory: .*no\/such\/config\.ts.*no such file/m);
});

test('hickory shell through a pipe evaluates each line once the one before has settled, awaits included', async () => {
  const { code, out, err } = await shell([
    'const order = []',
    'await new Promise((done) => setTimeout(done, 300)); order.push("first")',
    'order.push("second")',
    'function three() {',
    '  return "third"',
    '}',
    'order.push(three())',
    '',
    'await Promise.reject(new Error("refused on purpose"))',
    'const pages = [inject("/"), inject("/nowhere")]',
    '(await Promise.all(pages)).map((res) => res.statusCode).join(" ")',
    '"order: " + order.join(",")',
    '.exit',
  ]);
  assert.equal(code, 0, err);
  assert.match(out, /'order: first,second,third'/);
  assert.match(out, /Uncaught Error: refused on purpose/);
  assert.match(out, /'200 404'/);
});
