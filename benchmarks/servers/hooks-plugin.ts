// Preload: the Hickory bench server uses hooksPlugin with no hook (see hooks-variant.ts).
(globalThis as { hickoryBenchHooks?: string }).hickoryBenchHooks = 'plugin';
export {};
