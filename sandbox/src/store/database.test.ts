import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HookState, TransactionState } from '@hickory/hooks';
import { databaseLocation, databaseOptions, isPostgresUrl, openShowcaseDatabase, transactionFunctions } from './database.ts';
import type { ShowcaseTransaction } from './tables.ts';

test('databaseLocation: DATABASE_URL first, then HICKORY_SANDBOX_DB, then the file under sandbox/data', () => {
  assert.equal(databaseLocation({ DATABASE_URL: ' postgres://127.0.0.1/books ', HICKORY_SANDBOX_DB: ':memory:' }), 'postgres://127.0.0.1/books');
  assert.equal(databaseLocation({ DATABASE_URL: '', HICKORY_SANDBOX_DB: ':memory:' }), ':memory:');
  assert.match(databaseLocation({}), /\/sandbox\/data\/books\.sqlite$/);
  assert.equal(isPostgresUrl('postgresql://x/y'), true);
  assert.equal(isPostgresUrl('POSTGRES://x/y'), true);
  assert.equal(isPostgresUrl('/srv/postgres/books.sqlite'), false);
});

test('a URL of another database is refused, naming what to do', async () => {
  await assert.rejects(openShowcaseDatabase('mysql://127.0.0.1/books'), {
    message: 'The showcase\'s database "mysql://…" is not supported: DATABASE_URL takes a postgres:// URL; unset it to use the SQLite file.',
  });
});

test('the transaction functions: start/commit keep a write, rollback drops one, clear gives the turn back once', async () => {
  const database = await openShowcaseDatabase(':memory:', { writeWaitMs: 100 });
  const fns = transactionFunctions(async () => database);
  const hookState = {} as HookState;
  const state = (transaction: ShowcaseTransaction | undefined) => ({ transaction }) as TransactionState<ShowcaseTransaction>;
  try {
    const kept = await fns.start(hookState);
    await kept.insertInto('books').values({ name: 'kept' }).execute();
    await fns.commit(state(kept));
    await fns.clear(state(kept));
    const dropped = await fns.start(hookState);
    await dropped.insertInto('books').values({ name: 'dropped' }).execute();
    await fns.rollback(state(dropped));
    // Rolled back already (by the request's time bound, say): a second rollback is not an error.
    await fns.rollback(state(dropped));
    await fns.clear(state(dropped));
    await fns.clear(state(dropped));
    // A start that failed has no transaction: its clear has nothing to give back.
    await fns.clear(state(undefined));
    // The read holds the one connection of :memory:: the next start waits for its clear.
    const read = await fns.start_ro(hookState);
    assert.deepEqual(await read.selectFrom('books').select('name').execute(), [{ name: 'kept' }]);
    const waiting = Promise.resolve(fns.start(hookState));
    await sleep(20);
    await fns.clear(state(read));
    const next = await waiting;
    await fns.clear(state(next));
    assert.equal(next.isRolledBack, true);
  } finally {
    await database.close();
  }
});

test('databaseOptions: HICKORY_SANDBOX_DB_WAIT_MS bounds every wait for the database; a bad value is refused, naming it', () => {
  assert.deepEqual(databaseOptions({}), {});
  assert.deepEqual(databaseOptions({ HICKORY_SANDBOX_DB_WAIT_MS: ' 800 ' }), { writeWaitMs: 800, readWaitMs: 800, connectionTimeoutMillis: 800 });
  for (const bad of ['0', '-5', '1.5', 'soon']) {
    assert.throws(() => databaseOptions({ HICKORY_SANDBOX_DB_WAIT_MS: bad }), {
      message: `HICKORY_SANDBOX_DB_WAIT_MS must be a whole number of milliseconds above 0 (got "${bad}"): how long a request waits for the database before a 503.`,
    });
  }
});
