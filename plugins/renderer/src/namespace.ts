/**
 * The data a template sees: `extra_template_vars` under the controller's namespace (the
 * namespace wins), copied into a null-prototype object. Only own enumerable keys are copied and
 * `__proto__` never is, so nothing reaches a prototype and no key is read as an engine option.
 *
 * @example
 * ```ts
 * mergeNamespace({ site: 'Hickory', title: 'x' }, { title: 'Books' }); // { site: 'Hickory', title: 'Books' }
 * ```
 */
export function mergeNamespace(extra: Readonly<Record<string, unknown>> | undefined, namespace: unknown): Record<string, unknown> {
  const data: Record<string, unknown> = Object.create(null);
  if (extra) copyInto(data, extra);
  if (typeof namespace === 'object' && namespace !== null) copyInto(data, namespace as Record<string, unknown>);
  return data;
}

function copyInto(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(source)) {
    if (key !== '__proto__') target[key] = source[key];
  }
}
