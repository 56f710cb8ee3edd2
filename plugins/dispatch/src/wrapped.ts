// Which function a wrapper made with `wraps()` stands for: read by argument mapping (parameters.ts)
// and written by wraps.ts, kept apart so that neither imports the other.
const originals = new WeakMap<Function, Function>();
const plans = new WeakMap<Function, WrapPlan>();

/**
 * How a wrapper made with `wraps(original, options)` is called, summed over a stack of wrappers:
 * the parameters the wrappers pass themselves (`supplies`), how many leading parameters of the
 * original they insert (`inserts`), and whether they take every request variable last (`kwargs`).
 */
export interface WrapPlan {
  readonly supplies: ReadonlySet<string>;
  readonly inserts: number;
  readonly kwargs: boolean;
}

const NO_PLAN: WrapPlan = Object.freeze({ supplies: new Set<string>(), inserts: 0, kwargs: false });

/**
 * Records that `wrapper` stands for `original` (see `wraps`).
 *
 * @example
 * ```ts
 * markWrapped(wrapper, Books.prototype.show);
 * ```
 */
export function markWrapped(wrapper: Function, original: Function, plan?: WrapPlan): void {
  originals.set(wrapper, original);
  if (plan !== undefined) plans.set(wrapper, plan);
}

/**
 * The calling plan of `fn` through every layer of `wraps`: the supplied names of all layers,
 * the sum of their inserts, and `kwargs` when any layer takes the variables (the layers between
 * pass their arguments down, the variables object last).
 *
 * @example
 * ```ts
 * wrapPlanOf(Chassis.prototype.post); // { supplies: Set { 'chassis' }, inserts: 0, kwargs: true }
 * ```
 */
export function wrapPlanOf(fn: Function): WrapPlan {
  let supplies: Set<string> | undefined;
  let inserts = 0;
  let kwargs = false;
  let current = fn;
  for (let i = 0; i < 64; i++) {
    const plan = plans.get(current);
    if (plan !== undefined) {
      for (const name of plan.supplies) (supplies ??= new Set()).add(name);
      inserts += plan.inserts;
      kwargs ||= plan.kwargs;
    }
    const next = originals.get(current);
    if (next === undefined) break;
    current = next;
  }
  if (supplies === undefined && inserts === 0 && !kwargs) return NO_PLAN;
  return { supplies: supplies ?? NO_PLAN.supplies, inserts, kwargs };
}

/**
 * True when `fn` was made with `wraps()`.
 *
 * @example
 * ```ts
 * isMarkedWrapper(wrapper); // true
 * ```
 */
export function isMarkedWrapper(fn: Function): boolean {
  return originals.has(fn);
}

/**
 * The function whose parameters `fn` takes: the original it wraps (through every layer of
 * `wraps`), else `fn`.
 *
 * @example
 * ```ts
 * wrappedOriginal(Books.prototype.show); // the undecorated show
 * ```
 */
export function wrappedOriginal(fn: Function): Function {
  let current = fn;
  // Bounded: a chain longer than any real stack of decorators is cut short.
  for (let i = 0, next = originals.get(current); next !== undefined && i < 64; i++, next = originals.get(current)) current = next;
  return current;
}
