import { sessionError } from './errors.ts';

/**
 * Checks that `options` holds only the keys of `numbers` and `others`, and that each number given
 * is a whole number of at least its minimum (a coded error names the first bad one).
 *
 * @example
 * ```ts
 * checkStoreOptions('memoryStore', { max: 100 }, { max: 1, sweepBatch: 1, sweepInterval: 0 });
 * ```
 */
export function checkStoreOptions(store: string, options: object, numbers: Record<string, number>, others: readonly string[] = []): void {
  const known = [...Object.keys(numbers), ...others];
  for (const [key, value] of Object.entries(options)) {
    if (!known.includes(key)) throw sessionError('HICKORY_ERR_SESSION_STORE', `${store}: ${key}`, `is unknown (known: ${known.join(', ')})`);
    const min = numbers[key];
    if (min === undefined || value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      throw sessionError('HICKORY_ERR_SESSION_STORE', `${store}: ${key}`, `must be a whole number of at least ${min}, got ${JSON.stringify(value)}`);
    }
  }
}
