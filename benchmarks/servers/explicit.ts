// Preload: the Hickory bench server runs with use_context_locals: false (see hooks-variant.ts).
(globalThis as { hickoryBenchExplicit?: boolean }).hickoryBenchExplicit = true;
export {};
