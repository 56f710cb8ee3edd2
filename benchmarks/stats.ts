// Small statistics used by the suite.

/**
 * The median (the mean of the two middle values for an even count).
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Least-squares line through the points: `y = intercept + slope · x`.
 *
 * @example
 * ```ts
 * linearFit([[1, 10], [2, 20]]); // { slope: 10, intercept: 0 }
 * ```
 */
export function linearFit(points: ReadonlyArray<readonly [number, number]>): { slope: number; intercept: number } {
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  return { slope, intercept: my - slope * mx };
}

/**
 * The median of some rounds' numbers, with the lowest and the highest (`undefined` for none).
 *
 * @example
 * ```ts
 * spread([3, 1, 2]); // { median: 2, min: 1, max: 3 }
 * ```
 */
export function spread(values: readonly number[]): { median: number; min: number; max: number } | undefined {
  if (values.length === 0) return undefined;
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}
