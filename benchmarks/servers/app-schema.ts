// Preload: the Hickory bench server is made by createApp (as `app.ts`) and declares response
// schemas on its JSON routes (as `schema.ts`).
(globalThis as { hickoryBenchApp?: boolean; hickoryBenchSchema?: boolean }).hickoryBenchApp = true;
(globalThis as { hickoryBenchSchema?: boolean }).hickoryBenchSchema = true;
export {};
