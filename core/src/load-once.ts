/**
 * Loads something once, on first use: `load` (typically a dynamic `import()` of a large library)
 * runs at the first call; until it settles each call returns the same promise, and from then on
 * the value itself, so that the hot path after the first use waits for nothing. A failed load is
 * not kept: the next call runs `load` again (though a module whose evaluation threw stays failed
 * in Node's module cache). For a plugin whose library a given app may never need (a template
 * engine, a multipart parser, a file sender), so that such an app never loads it.
 *
 * @example
 * ```ts
 * const loadSend = loadOnce(async () => (await import('send')).default);
 * const send = loadSend(); // a promise the first time, the function itself once loaded
 * ```
 */
export function loadOnce<T>(load: () => Promise<T>): () => T | Promise<T> {
  let loaded: { value: T } | undefined;
  let loading: Promise<T> | undefined;
  return () => {
    if (loaded !== undefined) return loaded.value;
    loading ??= load().then(
      (value) => {
        loaded = { value };
        return value;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}
