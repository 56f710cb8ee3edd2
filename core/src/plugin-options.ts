import { isDeepStrictEqual } from 'node:util';
import { coreError } from './errors.ts';

/**
 * The option names on which two option values of one plugin differ (`[]`: they are the same;
 * functions and class instances compare by identity, plain data by value). A value that is not
 * an object is named `(options)`.
 *
 * @example
 * ```ts
 * differingOptions({ limits: { files: 1 } }, { limits: { files: 2 }, tmpdir: '/t' }); // ['limits', 'tmpdir']
 * ```
 */
export function differingOptions(first: unknown, again: unknown): string[] {
  if (isDeepStrictEqual(first, again)) return [];
  // Options left out and options given as {} ask for the same thing: the defaults.
  const a = first ?? {};
  const b = again ?? {};
  if (!isPlainRecord(a) || !isPlainRecord(b)) return isDeepStrictEqual(a, b) ? [] : ['(options)'];
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((name) => !isDeepStrictEqual(a[name], b[name]));
}

/**
 * For a plugin's `apply()`: checks that `options` is left out or an object whose keys are all in
 * `known`, else throws `HICKORY_ERR_PLUGIN_OPTION` naming the plugin, the option and the known
 * ones (`known` empty: the plugin takes no options). Values are the plugin's own to check.
 *
 * @example
 * ```ts
 * apply(kernel, options) {
 *   checkOptionNames('powered-by', options, ['value']);
 * }
 * ```
 */
export function checkOptionNames(plugin: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  const takes = known.length === 0 ? 'it takes no options' : `its options are ${known.join(', ')}`;
  if (!isPlainRecord(options)) throw coreError('HICKORY_ERR_PLUGIN_OPTION', plugin, `takes options as an object, not ${describe(options)} (${takes})`);
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) throw coreError('HICKORY_ERR_PLUGIN_OPTION', plugin, `has no option "${name}" (${takes})`);
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return typeof value === 'object' ? 'an instance of a class' : `the ${typeof value} ${String(value)}`;
}
