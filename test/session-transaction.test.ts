// A session saved beside a request's transaction (issue #37, sessions; issue #36, the end of a
// request): the store is written after the transaction was committed and cleared, never while it
// holds the connection (SQLite has one writer), and not at all when the request failed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createApp, expose, Hook, memoryStore, request, SecureController, sessionPlugin, type HookState, type Request, type SessionStore } from '@hickory/app';
import { recordingTransaction } from './fixtures/recording-transaction.ts';

test('the session is stored after the commit and the clear; a 5xx stores nothing', async () => {
  const events: string[] = [];
  const memory = memoryStore();
  const store: SessionStore = {
    ...memory,
    get: (id) => memory.get(id),
    set: (id, data, expires) => {
      events.push(`store ${data}`);
      return memory.set(id, data, expires);
    },
    touch: (id, expires) => memory.touch(id, expires),
    destroy: (id) => memory.destroy(id),
    sweep: (now) => memory.sweep(now),
    sweepInterval: 0,
  };
  const tx = recordingTransaction(events);
  class Root {
    @expose('json') login(user: string) {
      (request as unknown as { session: Record<string, unknown> }).session['user'] = user;
      return user === 'broken' ? abort(500) : { user };
    }
  }
  const app = createApp({ root: new Root(), hooks: [tx], logger: false, plugins: [[sessionPlugin, { secret: 'x'.repeat(32), store }]] });
  try {
    const ok = await app.inject({ method: 'POST', url: '/login', payload: { user: 'ann' } });
    assert.equal(ok.statusCode, 200);
    assert.match(String(ok.headers["set-cookie"]), /^sid=/);
    assert.deepEqual(events, ['start', 'commit', 'clear', 'store {"user":"ann"}']);
    events.length = 0;
    const failed = await app.inject({ method: 'POST', url: '/login', payload: { user: 'broken' } });
    assert.equal(failed.statusCode, 500);
    assert.equal(failed.headers['set-cookie'], undefined);
    assert.deepEqual(events, ['start', 'rollback', 'clear']);
  } finally {
    await app.close();
  }
});

test('a guard (a SecureController\'s check) and an on_route hook read the session: it is loaded before routing', async () => {
  const seen: unknown[] = [];
  class Mark extends Hook {
    override on_route(state: HookState) {
      seen.push((state.request as unknown as { session: Record<string, unknown> }).session['user']);
    }
  }
  class Admin extends SecureController {
    static override check_permissions(req: Request) {
      return (req as unknown as { session: Record<string, unknown> }).session['user'] === 'admin';
    }
    @expose() index() {
      return 'secret';
    }
  }
  class Root {
    admin = new Admin();
    @expose() login() {
      (request as unknown as { session: Record<string, unknown> }).session['user'] = 'admin';
      return 'in';
    }
  }
  const app = createApp({ root: new Root(), hooks: [new Mark()], logger: false, plugins: [[sessionPlugin, { secret: 'y'.repeat(32) }]] });
  try {
    assert.equal((await app.inject('/admin/')).statusCode, 401);
    const login = await app.inject({ method: 'POST', url: '/login' });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const admin = await app.inject({ url: '/admin/', headers: { cookie } });
    assert.equal(admin.statusCode, 200);
    assert.equal(admin.body, 'secret');
    assert.deepEqual(seen, [undefined, undefined, 'admin']);
  } finally {
    await app.close();
  }
});
