// What benchmarks/instructions.ts preloads (`--import`) for the hooks variants of the Hickory
// server: `hooks-plugin.ts` (hooksPlugin in use, no hook anywhere: it must cost nothing) and
// `one-hook.ts` (one application hook with four empty methods). The server reads the mode here.

/** The hooks variant of this process, if a preload set one. @example hooksVariant(); // 'one' */
export function hooksVariant(): 'plugin' | 'one' | undefined {
  return (globalThis as { hickoryBenchHooks?: 'plugin' | 'one' }).hickoryBenchHooks;
}
