// Preload: the Hickory bench server declares response schemas on its JSON routes (`/hello` and
// the REST `get_one`), as the fastify server does, so that both serialize through a serializer
// compiled ahead of time (see hooks-variant.ts).
(globalThis as { hickoryBenchSchema?: boolean }).hickoryBenchSchema = true;
export {};
