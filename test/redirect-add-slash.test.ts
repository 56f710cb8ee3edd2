// redirect(undefined, { add_slash: true }) in both modes: with context locals it completes the
// current request's path; with use_context_locals: false there is no current request, so the
// handler passes the one it received ({ request }). The answers are the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, expose, redirect, request as currentRequest, type Request, type Response } from '@hickory/app';
import { testInBothModes, type Mode } from './modes.ts';

// Each mode's own idiom, so the two roots differ in how they reach the request, not in what they do.
class ContextLocalsRoot {
  @expose() catalog() {
    return redirect(undefined, { add_slash: true });
  }
  @expose() passed() {
    return redirect(undefined, { add_slash: true, request: currentRequest });
  }
}

class ExplicitRoot {
  @expose() catalog(request: Request, _response: Response) {
    return redirect(undefined, { add_slash: true, request });
  }
  @expose() passed(request: Request, _response: Response) {
    return redirect(undefined, { add_slash: true, request });
  }
}

function appFor(mode: Mode, logger: unknown = false) {
  const root = mode.config.use_context_locals ? new ContextLocalsRoot() : new ExplicitRoot();
  return createApp({ root, logger: logger as false, ...mode.config });
}

testInBothModes('redirect(undefined, { add_slash: true }) answers 302 to the path with a slash, query kept', async (mode) => {
  const app = appFor(mode);
  try {
    for (const path of ['/catalog', '/passed']) {
      const res = await app.inject({ url: `${path}?page=2&q=a%20b`, headers: { host: 'attacker.example' } });
      assert.equal(res.statusCode, 302, path);
      assert.equal(res.headers.location, `${path}/?page=2&q=a%20b`, path);
      assert.equal(res.headers['content-length'], '0', path);
      assert.equal(res.body, '', path);
    }
    const head = await app.inject({ method: 'HEAD', url: '/catalog' });
    assert.equal(head.statusCode, 302);
    assert.equal(head.headers.location, '/catalog/');
  } finally {
    await app.close();
  }
});

// By contract, not a difference in behaviour: without context locals nothing can supply the
// request that was not passed, so the handler's mistake is a logged 500 that says what to pass.
test('use_context_locals: false, add_slash without a location or a request → 500, the log says to pass it', async () => {
  const errors: string[] = [];
  const logger = { info() {}, warn() {}, error: (_m: string, e?: unknown) => void errors.push((e as Error).message) };
  class Forgetful {
    @expose('json') catalog(_request: Request, _response: Response) {
      return redirect(undefined, { add_slash: true });
    }
  }
  const app = createApp({ root: new Forgetful(), use_context_locals: false, logger });
  try {
    const res = await app.inject({ url: '/catalog', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 500);
    assert.equal(res.headers.location, undefined);
    assert.deepEqual(res.json(), { code: 500, title: 'Internal Server Error', description: 'The server could not complete the request.' });
    assert.deepEqual(errors, [
      'Invalid redirect: add_slash without a location needs the request, and with use_context_locals: false there is no current one: pass the request the handler received, redirect(undefined, { add_slash: true, request }).',
    ]);
  } finally {
    await app.close();
  }
});
