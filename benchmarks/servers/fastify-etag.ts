// Preload: the fastify bench server registers @fastify/etag at its defaults (a strong SHA-1 tag on
// every string or Buffer payload, 304 on a match), so that it does the work Hickory's default `etag`
// key does (a weak tag, CRC-32): the like-for-like row beside plain fastify.
(globalThis as { fastifyBenchEtag?: boolean }).fastifyBenchEtag = true;
export {};
