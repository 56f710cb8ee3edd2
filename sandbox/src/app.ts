import { createKernel, type Kernel } from '@hickory/core';
import { dispatchPlugin } from '@hickory/dispatch';
import { CatalogRootController } from './controllers/catalog.ts';

/**
 * Builds the sandbox app (also used by the tests).
 *
 * @example
 * ```ts
 * const app = await createSandbox();
 * (await app.inject('/')).statusCode; // 200
 * ```
 */
export async function createSandbox(): Promise<Kernel> {
  return createKernel({ root: CatalogRootController }).use(dispatchPlugin).ready();
}
