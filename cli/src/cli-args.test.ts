import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCli, serveArgs } from './cli-args.ts';

test('parseCli reads serve with every option, and create with a template', () => {
  assert.deepEqual(parseCli(['serve', 'app.ts', '--port=0', '--host', '0.0.0.0', '--workers', '3', '--reload']), {
    command: 'serve', config: 'app.ts', port: 0, host: '0.0.0.0', reload: true, workers: 3, watch: [], ignore: [],
  });
  assert.deepEqual(parseCli(['serve', 'app.json']), { command: 'serve', config: 'app.json', port: undefined, host: undefined, reload: false, workers: undefined, watch: [], ignore: [] });
  assert.deepEqual(parseCli(['serve', 'app.ts', '--reload', '--watch', '*.yaml', '--ignore=data/**', '--ignore', 'uploads']), {
    command: 'serve', config: 'app.ts', port: undefined, host: undefined, reload: true, workers: undefined, watch: ['*.yaml'], ignore: ['data/**', 'uploads'],
  });
  assert.deepEqual(parseCli(['create', 'shop', '--template', 'rest-api']), { command: 'create', name: 'shop', template: 'rest-api', explicit: false });
  assert.deepEqual(parseCli(['create', 'shop']), { command: 'create', name: 'shop', template: 'base', explicit: false });
  assert.deepEqual(parseCli(['create', 'shop', '--explicit']), { command: 'create', name: 'shop', template: 'base', explicit: true });
  assert.deepEqual(parseCli(['shell', 'app.ts']), { command: 'shell', config: 'app.ts' });
  assert.deepEqual(parseCli(['routes', 'app.ts']), { command: 'routes', config: 'app.ts', format: 'text' });
  assert.deepEqual(parseCli(['routes', 'app.ts', '--openapi', '--title', 'Shop', '--version', '1.2.0']), {
    command: 'routes', config: 'app.ts', format: 'openapi', title: 'Shop', version: '1.2.0',
  });
  assert.deepEqual(parseCli(['-h']), { command: 'help' });
  assert.deepEqual(parseCli(['serve', 'x', '--version']), { command: 'version' });
});

test('parseCli throws HICKORY_ERR_CLI_USAGE with a one-line hint', () => {
  const cases: Array<[string[], string]> = [
    [['serve', 'x', '--port', '70000'], '--port takes a whole number from 0 to 65535, got "70000" (see hickory --help)'],
    [['serve', 'x', '--workers', '1.5'], '--workers takes a whole number from 1 to 1024, got "1.5" (see hickory --help)'],
    [['serve', 'x', '--reload=yes'], '--reload takes no value (see hickory --help)'],
    [['create', 'x', '--port', '1'], 'hickory create takes no --port (see hickory --help)'],
    [['create', 'x', '--explicit=yes'], '--explicit takes no value (see hickory --help)'],
    [['serve', 'x', '--explicit'], 'hickory serve takes no --explicit (see hickory --help)'],
    [['serve', 'x', '--host='], '--host needs an address (see hickory --help)'],
    [['shell'], 'shell needs a config file: hickory shell <config> (see hickory --help)'],
    [['shell', 'x', '--json'], 'hickory shell takes no --json (see hickory --help)'],
    [['serve', 'x', '--ignore', 'data/**'], '--ignore goes with --reload (see hickory --help)'],
    [['routes', 'x', '--json', '--version', '1'], '--version goes with --openapi (see hickory --help)'],
    [['routes', 'x', '--openapi', '--title='], '--title needs a value (see hickory --help)'],
    [['routes', 'x', '--openapi', '--version'], '--version needs a value (see hickory --help)'],
    [['serve', 'x', '--reload', '--watch='], "--watch needs a glob, such as 'data/**' (see hickory --help)"],
    [['serve', 'x', '--reload', '--watch'], '--watch needs a value (see hickory --help)'],
  ];
  for (const [argv, message] of cases) {
    assert.throws(() => parseCli(argv), { code: 'HICKORY_ERR_CLI_USAGE', message }, argv.join(' '));
  }
});

test('serveArgs gives the --reload child the serve options, not the supervisor\'s', () => {
  const cli = parseCli(['serve', 'app.ts', '--reload', '--port=0', '--host', '127.0.0.1', '--watch', '*.yaml', '--ignore', 'data']);
  assert.ok(cli.command === 'serve');
  assert.deepEqual(serveArgs(cli), ['serve', 'app.ts', '--port', '0', '--host', '127.0.0.1']);
});

test('serve --tls-key/--tls-cert/--http2: taken together, refused apart, passed on to a --reload child', () => {
  const cli = parseCli(['serve', 'app.ts', '--tls-key', 'key.pem', '--tls-cert', 'cert.pem', '--http2', '--reload']);
  assert.deepEqual(serveArgs(cli as Extract<typeof cli, { command: 'serve' }>), ['serve', 'app.ts', '--tls-key', 'key.pem', '--tls-cert', 'cert.pem', '--http2']);
  assert.throws(() => parseCli(['serve', 'app.ts', '--tls-key', 'key.pem']), /--tls-key and --tls-cert go together/);
  assert.throws(() => parseCli(['serve', 'app.ts', '--http2']), /--http2 needs --tls-key and --tls-cert/);
  assert.throws(() => parseCli(['routes', 'app.ts', '--http2']), /hickory routes takes no --http2/);
});
