import { createKernel, definePlugin, type Kernel } from '@hickory/core';

/** Answers `/` until the object-dispatch plugin serves the sandbox's controllers. */
const welcome = definePlugin({
  name: 'sandbox-welcome',
  apply(kernel) {
    kernel.hooks.beforeRoute.tap('sandbox-welcome', (request) =>
      request.path === '/' ? '<!DOCTYPE html><title>Hickory</title><h1>Hickory sandbox</h1>\n' : undefined,
    );
  },
});

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
  return createKernel({}).use(welcome).ready();
}
