import type { ControlledTransaction, Kysely } from 'kysely';
import type { TransactionFunctions } from '@hickory/hooks';

/**
 * The functions of a `TransactionHook` over a Kysely instance, as docs/hooks.md's Kysely recipe
 * writes them: `start` a read-write transaction, `start_ro` a read-only one (on
 * `SqliteRequestDialect`: a plain `BEGIN`, no write lock), `commit`/`rollback` end it, and `clear`
 * rolls back whatever is still open (which gives the connection back).
 *
 * @example
 * ```ts
 * const tx = new TransactionHook(kyselyTransactions(db));
 * ```
 */
export function kyselyTransactions<Tables>(db: Kysely<Tables>): TransactionFunctions<ControlledTransaction<Tables>> {
  return {
    start: () => db.startTransaction().execute(),
    start_ro: () => db.startTransaction().setAccessMode('read only').execute(),
    commit: ({ transaction }) => transaction!.commit().execute(),
    rollback: ({ transaction }) => transaction!.rollback().execute(),
    clear: async ({ transaction }) => {
      if (transaction !== undefined && !transaction.isCommitted && !transaction.isRolledBack) await transaction.rollback().execute();
    },
  };
}
