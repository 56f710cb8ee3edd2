import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveLogger } from './serve-logger.ts';

test('serveLogger: JSON (logger: true) when stdout is piped, pino-pretty when it is a terminal', () => {
  assert.equal(serveLogger({}), true);
  assert.equal(serveLogger({ isTTY: false }), true);
  const pretty = serveLogger({ isTTY: true }) as { stream: NodeJS.WritableStream };
  assert.equal(typeof pretty.stream.write, 'function');
});
