import type { KernelConfig } from './config.ts';
import { coreError } from './errors.ts';
import { resolveExport } from './load-module.ts';

/**
 * The root controller from the `root` configuration: an object as it is, a class instantiated, a
 * string (a dotted path or `module#Export`, from `confdir`) imported and then treated the same.
 * Anything else fails with `HICKORY_ERR_ROOT_RESOLVE`, naming what was given.
 *
 * @example
 * ```ts
 * await resolveRoot('sandbox.controllers.root.RootController', confdir); // a RootController
 * ```
 */
export async function resolveRoot(spec: KernelConfig['root'], confdir: string): Promise<object | undefined> {
  if (spec === undefined) return undefined;
  let value: unknown = spec;
  if (typeof spec === 'string') {
    try {
      value = await resolveExport(spec, confdir);
    } catch (error) {
      throw coreError('HICKORY_ERR_ROOT_RESOLVE', spec, (error as Error).message, error);
    }
  }
  if (typeof value === 'function') return new (value as new () => object)();
  if (typeof value === 'object' && value !== null) return value;
  throw coreError('HICKORY_ERR_ROOT_RESOLVE', String(spec), `it is ${typeof value}, not a controller object or class`);
}
