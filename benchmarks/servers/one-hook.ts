// Preload: the Hickory bench server has one hook with four empty methods (see hooks-variant.ts).
(globalThis as { hickoryBenchHooks?: string }).hickoryBenchHooks = 'one';
export {};
