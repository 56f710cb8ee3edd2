// Preload: the Hickory bench server is the bare kernel with its plugins, as usual, but with every
// package `@hickory/app` brings loaded (and left unused): what loaded code costs a request by
// itself (a larger heap for the garbage collector), apart from what createApp's plugins do.
(globalThis as { hickoryBenchLoadApp?: boolean }).hickoryBenchLoadApp = true;
export {};
