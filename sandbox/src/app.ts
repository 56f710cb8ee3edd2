import { fileURLToPath } from 'node:url';
import { loadConfig, type Kernel, type KernelConfig } from '@hickory/core';
import { createApp } from '@hickory/app';

/** The sandbox's config file (`npm start` serves it with `hickory serve`). */
export const SANDBOX_CONFIG = fileURLToPath(new URL('../config.ts', import.meta.url));

/**
 * Builds the sandbox app from its config file, ready to serve (also used by the tests).
 *
 * @example
 * ```ts
 * const app = await createSandbox({ logger: false });
 * (await app.inject('/')).statusCode; // 200
 * ```
 */
export async function createSandbox(overrides: KernelConfig = {}): Promise<Kernel> {
  const { app } = await loadConfig(SANDBOX_CONFIG);
  return createApp({ ...app, ...overrides }).ready();
}
