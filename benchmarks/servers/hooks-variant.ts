// What benchmarks/instructions.ts preloads (`--import`) for variants of the Hickory server:
// `hooks-plugin.ts` (hooksPlugin in use, no hook anywhere: it must cost nothing), `one-hook.ts`
// (one application hook with four empty methods), `explicit.ts` (use_context_locals: false) and
// `app.ts` (the app made by createApp), `app-loaded.ts` (the bare kernel, every package of
// `@hickory/app` loaded but unused), `schema.ts` (response schemas on the JSON routes) and
// `app-schema.ts` (createApp with response schemas).
// The server reads the mode here.

/** The hooks variant of this process, if a preload set one. @example hooksVariant(); // 'one' */
export function hooksVariant(): 'plugin' | 'one' | undefined {
  return (globalThis as { hickoryBenchHooks?: 'plugin' | 'one' }).hickoryBenchHooks;
}

/** True when a preload asked for `use_context_locals: false`. @example explicitVariant(); // false */
export function explicitVariant(): boolean {
  return (globalThis as { hickoryBenchExplicit?: boolean }).hickoryBenchExplicit === true;
}

/** True when the server runs with `logger: true` writing to /dev/null (`hickory-logger.ts`). @example loggerVariant(); // false */
export function loggerVariant(): boolean {
  return (globalThis as { hickoryBenchLogger?: boolean }).hickoryBenchLogger === true;
}

/** True when a preload asked for the app made by `createApp` (`app.ts`). @example appVariant(); // false */
export function appVariant(): boolean {
  return (globalThis as { hickoryBenchApp?: boolean }).hickoryBenchApp === true;
}

/** True when a preload asked for `@hickory/app` loaded beside the bare kernel (`app-loaded.ts`). @example appLoadedVariant(); // false */
export function appLoadedVariant(): boolean {
  return (globalThis as { hickoryBenchLoadApp?: boolean }).hickoryBenchLoadApp === true;
}

/** True when a preload asked for response schemas on the JSON routes (`schema.ts`, `app-schema.ts`). @example schemaVariant(); // false */
export function schemaVariant(): boolean {
  return (globalThis as { hickoryBenchSchema?: boolean }).hickoryBenchSchema === true;
}
