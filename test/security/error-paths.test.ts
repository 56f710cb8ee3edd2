import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Logger } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { assertNothingUncaught, listening, rawExchange } from './harness.ts';

// The kernel's own error path must never throw: a thrown value that cannot be printed (a `stack`
// getter that throws, a hostile Proxy), or a logger that fails, still gives that request a 500 and
// reaches neither `unhandledRejection` nor `uncaughtException`.

const unprintable = Object.create(Error.prototype, {
  stack: {
    get() {
      throw new Error('stack getter');
    },
  },
}) as Error;

const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('proxy get');
    },
    getPrototypeOf() {
      throw new Error('proxy prototype');
    },
    ownKeys() {
      throw new Error('proxy keys');
    },
  },
);

class Root {
  @expose() index(): string {
    return 'ok';
  }
  @expose() unprintable(): string {
    throw unprintable;
  }
  @expose() async unprintableLater(): Promise<string> {
    await Promise.resolve();
    throw unprintable;
  }
  @expose() hostile(): string {
    throw hostile;
  }
}

const failingLogger: Logger = {
  info() {
    throw new Error('logger info');
  },
  warn() {
    throw new Error('logger warn');
  },
  error() {
    throw new Error('logger error');
  },
};

for (const [name, logger] of [
  ['the default logger', undefined],
  ['a logger that throws', failingLogger],
] as const) {
  test(`thrown values that cannot be printed → 500, nothing uncaught (${name})`, async () => {
    const stderr = process.stderr.write;
    const written: string[] = [];
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    const app = createApp({ root: new Root(), ...(logger ? { logger } : {}) });
    try {
      const port = await listening(app);
      for (const path of ['/unprintable', '/unprintableLater', '/hostile']) {
        const injected = await app.inject({ method: 'GET', url: path });
        assert.equal(injected.statusCode, 500, path);
        assert.match(injected.body, /<title>500 Internal Server Error<\/title>/);
        const answer = await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        assert.equal(answer.status, 500, `${path} over a socket`);
        assertNothingUncaught(path);
      }
      assert.equal((await app.inject('/')).body, 'ok');
    } finally {
      process.stderr.write = stderr;
      await app.close();
    }
    // What could not be logged in full is still reported, as its message alone.
    assert.ok(written.some((line) => line.includes('/unprintable failed')), written.join(''));
  });
}
