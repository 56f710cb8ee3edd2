import { fileURLToPath } from 'node:url';
import { definePlugin, loadConfig, type Kernel, type KernelConfig } from '@hickory/core';
import { TransactionHook } from '@hickory/hooks';
import { createApp } from '@hickory/app';
import { RootController } from './controllers/root.ts';
import { Library } from './store/library.ts';

/** The sandbox's config file (`npm start` serves it with `hickory serve`). */
export const SANDBOX_CONFIG = fileURLToPath(new URL('../config.ts', import.meta.url));

/**
 * Builds the sandbox app from its config file, ready to serve, on a fresh in-memory database
 * (the tests use it; `npm start` serves the config file itself, on `sandbox/data/books.sqlite`).
 *
 * @example
 * ```ts
 * const app = await createSandbox({ logger: false });
 * (await app.inject('/')).statusCode; // 200
 * ```
 */
export async function createSandbox(overrides: KernelConfig = {}): Promise<Kernel> {
  const { app } = await loadConfig(SANDBOX_CONFIG);
  // Each app its own database in memory: tests never touch sandbox/data/, nor each other's books.
  const library = new Library(':memory:');
  const closeLibrary = definePlugin({ name: 'sandbox-library', apply: (kernel) => kernel.hooks.close.tap('sandbox-library', () => library.close()) });
  return createApp({
    ...app,
    root: new RootController(library),
    hooks: [new TransactionHook(library.transactions)],
    plugins: [closeLibrary],
    ...overrides,
  }).ready();
}
