// The `logger` option: what it accepts, the errors that name the fix, and the two faces of a logger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptRequestId, newRequestId, REQUEST_ID_LIMIT } from './request-id.ts';
import { createKernel, type KernelConfig } from './index.ts';
import { isPinoLike } from './pino-like.ts';
import { loggerAsPino, pinoAsLogger } from './log-adapters.ts';
import { capture, jsonLines } from './fixtures/harness.ts';

const MISTAKES: Array<[string, unknown, string, RegExp]> = [
  ['a level pino does not know', { level: 'verbose' }, 'HICKORY_ERR_LOGGER_LEVEL', /"verbose" is not one pino knows: use one of fatal, error, warn, info, debug, trace, silent/],
  ['a level that is not a string', { level: 30 }, 'HICKORY_ERR_LOGGER_LEVEL', /30 is not one pino knows/],
  ['a pino-like logger without debug()', { info() {}, warn() {}, error() {}, child() {} }, 'HICKORY_ERR_LOGGER_METHODS', /lacks debug\(\): pass a pino-compatible logger/],
  ['a console-like logger without error()', { info() {}, warn() {} }, 'HICKORY_ERR_LOGGER_METHODS', /lacks error\(\)/],
  ['a mistyped pino option', { levle: 'warn' }, 'HICKORY_ERR_LOGGER_OPTIONS', /an object with the key "levle": it takes pino's options \(.*level.*\), or a logger object/],
  ['a string', 'info', 'HICKORY_ERR_LOGGER_OPTIONS', /is "info": it takes true, false, pino options such as \{ level: "warn" \}, or a logger object/],
  ['a function', console.log, 'HICKORY_ERR_LOGGER_OPTIONS', /is a function/],
  ['options pino refuses', { transport: { target: 'no-such-pino-transport' } }, 'HICKORY_ERR_LOGGER_PINO', /pino refused the `logger` options: .*no-such-pino-transport.*build the logger yourself/],
];

for (const [what, logger, code, message] of MISTAKES) {
  test(`logger: ${what} fails at ready() with ${code}`, async () => {
    const app = createKernel({ logger } as KernelConfig);
    await assert.rejects(app.ready(), (error: Error & { code: string }) => {
      assert.equal(error.code, code);
      assert.match(error.message, message);
      return true;
    });
  });
}

test('logger accepts true, false, pino options, a pino-compatible logger, console and a console-like object', async () => {
  const out = jsonLines();
  const pinoLike = createKernel({ logger: { stream: out.stream } }).log;
  assert.ok(isPinoLike(pinoLike));
  for (const logger of [true, false, { level: 'warn', stream: out.stream }, { customLevels: { audit: 35 }, level: 'audit', stream: out.stream }, pinoLike, console, capture()]) {
    const app = createKernel({ logger } as KernelConfig);
    await app.ready();
    await app.close();
  }
});

test('kernel.logger on pino: an Error detail becomes err (type, message, stack), other details go in details', async () => {
  const out = jsonLines();
  const app = createKernel({ logger: { stream: out.stream } });
  app.logger.error('template failed', new TypeError('bad'), { template: 'a.ejs' });
  app.logger.warn('plain');
  const [failed, plain] = out.lines();
  assert.equal(failed!['msg'], 'template failed');
  assert.equal(failed!['level'], 50);
  assert.deepEqual([failed!['err'].type, failed!['err'].message], ['TypeError', 'bad']);
  assert.match(failed!['err'].stack, /TypeError: bad/);
  assert.deepEqual(failed!['details'], [{ template: 'a.ejs' }]);
  assert.deepEqual([plain!['level'], plain!['msg']], [40, 'plain']);
  app.log.info({ port: 1 }, 'listening');
  assert.deepEqual(out.lines()[2]!['port'], 1);
});

test('pinoAsLogger and loggerAsPino translate between the two call styles', () => {
  const seen: unknown[][] = [];
  const pinoStandIn = { info: (...args: unknown[]) => seen.push(args), warn() {}, error() {}, debug() {}, child: () => pinoStandIn };
  pinoAsLogger(pinoStandIn).info('hello');
  assert.deepEqual(seen, [['hello']]);
  const console = capture();
  const log = loggerAsPino(console).child({ reqId: 'r1' });
  log.info({ bookId: 7 }, 'book added');
  log.warn('plain %s', 'arg');
  log.error(new Error('e'));
  log.debug('dropped');
  assert.deepEqual(
    console.lines.map((line) => [line.level, line.message, line.details.length]),
    [['info', 'book added', 1], ['warn', 'plain %s', 2], ['error', 'e', 2]],
  );
  assert.deepEqual(console.lines[0]!.details, [{ reqId: 'r1', bookId: 7 }]);
});

test('setting kernel.logger to a pino-compatible logger changes kernel.log too', async () => {
  const out = jsonLines();
  const app = createKernel({ logger: false });
  app.logger = createKernel({ logger: { stream: out.stream } }).log;
  app.log.info('through log');
  app.logger.info('through logger');
  assert.deepEqual(out.lines().map((line) => line['msg']), ['through log', 'through logger']);
  app.logger = capture();
  assert.equal(isPinoLike(app.log), true);
});

test('acceptRequestId keeps 1 to 128 characters of [A-Za-z0-9._:-]; newRequestId makes distinct ids', () => {
  for (const good of ['a', 'req-1', '3f2a:77.9_x', 'x'.repeat(REQUEST_ID_LIMIT)]) assert.equal(acceptRequestId(good), good);
  for (const bad of ['', 'x'.repeat(REQUEST_ID_LIMIT + 1), 'a b', 'a,b', 'a\r\nb', 'ü', undefined, ['a'], 7]) assert.equal(acceptRequestId(bad), undefined, String(bad));
  const ids = new Set(Array.from({ length: 1000 }, newRequestId));
  assert.equal(ids.size, 1000);
  for (const id of ids) assert.equal(acceptRequestId(id), id);
});
