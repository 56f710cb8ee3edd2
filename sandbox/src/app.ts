import { fileURLToPath } from 'node:url';
import { loadConfig, type Kernel, type KernelConfig } from '@hickory/core';
import { createApp } from '@hickory/app';
import { RootController } from './controllers/root.ts';
import { showcasePlugins } from './production.ts';
import { Library } from './store/library.ts';
import { UploadShelf, type UploadShelfOptions } from './upload-shelf.ts';
import type { DatabaseOptions } from './store/database.ts';
import type { BookEventsOptions } from './store/book-events.ts';

/** The sandbox's config file (`npm start` serves it with `hickory serve`). */
export const SANDBOX_CONFIG = fileURLToPath(new URL('../config.ts', import.meta.url));

/**
 * Where {@link createSandbox}'s app keeps its data, the bounds of its database, and `seed: true`
 * for the few books `npm start` begins with (default: an empty shelf, which the tests count on).
 */
export interface SandboxDatabase extends DatabaseOptions {
  /** A `postgres://` URL, a SQLite file or `:memory:` (the default). */
  location?: string;
  /** How the live pages hear of new books (on a SQLite file: how often other processes' books are looked for). */
  events?: BookEventsOptions;
}

/**
 * Builds the sandbox app from its config file, ready to serve, on a fresh in-memory database
 * unless `database.location` names another (the tests use it; `npm start` serves the config file
 * itself, on `sandbox/data/books.sqlite` or `DATABASE_URL`). Hooks in `overrides.hooks` run
 * beside the showcase's own `TransactionHook`. Uploads go to a shelf of the app's own (bounded by
 * `uploads`), whose folder `app.close()` removes.
 *
 * @example
 * ```ts
 * const app = await createSandbox({ logger: false });
 * (await app.inject('/')).statusCode; // 200
 * const onPostgres = await createSandbox({ logger: false }, { location: 'postgres://127.0.0.1/books' });
 * const fewFiles = await createSandbox({ logger: false }, {}, { maxFiles: 3 });
 * const stocked = await createSandbox({ logger: false }, { seed: true }); // five books on the shelf
 * ```
 */
export async function createSandbox(overrides: KernelConfig = {}, database: SandboxDatabase = {}, uploads: UploadShelfOptions = {}): Promise<Kernel> {
  const { app } = await loadConfig(SANDBOX_CONFIG);
  // Each app its own database in memory: tests never touch sandbox/data/, nor each other's books.
  const { location = ':memory:', ...options } = database;
  const library = new Library(location, options);
  const shelf = new UploadShelf(uploads);
  const { hooks = [], ...rest } = overrides;
  return createApp({
    ...app,
    root: new RootController(library, shelf),
    hooks: [library.hook, ...(hooks as unknown[])],
    plugins: showcasePlugins(library, shelf),
    ...rest,
  }).ready();
}
