// `hickory` usage and config-file mistakes: exactly one line on stderr, exit code 1.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { run } from './fixtures/cli/harness.ts';

function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `one line on stderr, got:\n${stderr}`);
  return lines[0]!;
}

test('hickory --version prints the version of the package', async () => {
  const { code, stdout, stderr } = await run(['--version']);
  assert.equal(code, 0);
  assert.equal(stdout, '0.1.0\n');
  assert.equal(stderr, '');
});

test('hickory --help prints the usage with both commands', async () => {
  const { code, stdout } = await run(['--help']);
  assert.equal(code, 0);
  assert.match(stdout, /^Usage: hickory <command> \[options\]/);
  for (const words of ['serve <config>', '--port', '--host', '--reload', '--workers', 'create <name>', '--template', 'base or rest-api', '--explicit', 'use_context_locals: false']) {
    assert.ok(stdout.includes(words), words);
  }
});

const usage: Array<[string[], string]> = [
  [[], 'hickory: missing command: hickory serve <config>, hickory routes <config>, hickory shell <config>, hickory test or hickory create <name> (see hickory --help)'],
  [['routes'], 'hickory: routes needs a config file: hickory routes <config> (see hickory --help)'],
  [['routes', 'config.ts', '--port', '1'], 'hickory: hickory routes takes no --port (see hickory --help)'],
  [['deploy'], 'hickory: unknown command "deploy" (see hickory --help)'],
  [['--bogus'], 'hickory: unknown option --bogus (see hickory --help)'],
  [['serve', 'x.ts', '--prot', '80'], 'hickory: unknown option --prot (see hickory --help)'],
  [['serve'], 'hickory: serve needs a config file: hickory serve <config> (see hickory --help)'],
  [['serve', 'x.ts', '--port', 'eighty'], 'hickory: --port takes a whole number from 0 to 65535, got "eighty" (see hickory --help)'],
  [['serve', 'x.ts', '--workers', '0'], 'hickory: --workers takes a whole number from 1 to 1024, got "0" (see hickory --help)'],
  [['serve', 'x.ts', '--port'], 'hickory: --port needs a value (see hickory --help)'],
  [['serve', 'x.ts', '--template', 'base'], 'hickory: hickory serve takes no --template (see hickory --help)'],
  [['create'], 'hickory: create needs a folder name: hickory create <name> (see hickory --help)'],
  [['create', 'a', 'b'], 'hickory: unexpected argument "b" (see hickory --help)'],
];

test('an unknown command or option, or a missing argument, is one line of hint and exit code 1', async () => {
  const results = await Promise.all(usage.map(([args]) => run(args)));
  results.forEach(({ code, stdout, stderr }, i) => {
    const [args, line] = usage[i]!;
    assert.equal(code, 1, args.join(' '));
    assert.equal(stdout, '', args.join(' '));
    assert.equal(oneLine(stderr), line, args.join(' '));
  });
});

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-cli-errors-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

// [file, contents, what the one line must say after naming the file]
const broken: Array<[string, string | undefined, RegExp]> = [
  ['missing.ts', undefined, /no such file$/],
  ['syntax.ts', 'export default { server: { port: 0 }, app: {\n', /Expected/],
  ['syntax.json', '{ "server": { "port": 0 },\n', /JSON/],
  ['throws.mjs', "throw new Error('the config module fails');\n", /the config module fails$/],
  ['unknown-top.json', '{ "server": { "port": 0 }, "ap": {} }', /unknown top-level key "ap"/],
  ['unknown-app.js', 'export default { server: { port: 0 }, app: { rooot: "./x.ts#X" } };\n', /Unknown configuration key "rooot"/],
  ['bad-port.json', '{ "server": { "port": "eighty" }, "app": {} }', /server\.port must be a port number \(got eighty\)/],
  ['bad-value.json', '{ "server": { "port": 0 }, "app": { "root": "./nowhere.ts#Root", "force_canonical": "yes" } }', /"force_canonical" must be true or false/],
  ['bad-root.mjs', 'export default { server: { port: 0 }, app: { root: "./nowhere.ts#Root" } };\n', /Cannot resolve root controller "\.\/nowhere\.ts#Root"/],
];

test('a missing or broken config file is one line naming the file and the problem, exit code 1', async () => {
  for (const [name, text] of broken) if (text !== undefined) await writeFile(join(dir, name), text);
  const results = await Promise.all(broken.map(([name]) => run(['serve', join(dir, name), '--port', '0'])));
  results.forEach(({ code, stdout, stderr }, i) => {
    const [name, , problem] = broken[i]!;
    assert.equal(code, 1, name);
    assert.equal(stdout, '', name);
    const line = oneLine(stderr);
    assert.ok(line.startsWith('hickory: Cannot '), line);
    assert.ok(line.includes(join(dir, name)), `${line} names ${name}`);
    assert.match(line, problem, name);
  });
});

test('a broken config file stops --workers and --reload with the same one line, exit code 1', async () => {
  const file = join(dir, 'bad-root-again.mjs');
  await writeFile(file, 'export default { server: { port: 0 }, app: { root: "./nowhere.ts#Root" } };\n');
  for (const mode of [['--workers', '2'], ['--reload']]) {
    const { code, stderr } = await run(['serve', file, '--port', '0', ...mode]);
    assert.equal(code, 1, mode.join(' '));
    assert.match(oneLine(stderr), /^hickory: Cannot serve the configuration file .*bad-root-again\.mjs: Cannot resolve root controller/);
  }
});

test('an address in use is one line naming it, exit code 1', async () => {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const { code, stderr } = await run(['serve', 'test/fixtures/cli/app/config.ts', '--port', String(port)]);
    assert.equal(code, 1);
    assert.equal(oneLine(stderr), `hickory: Cannot listen on 127.0.0.1 port ${port}: the address is in use`);
  } finally {
    server.close();
  }
});
