// Preload: the Hickory bench server is made by createApp (every first-party plugin in use, as an
// application gets it from `@hickory/app`) instead of the kernel with the plugins it needs.
(globalThis as { hickoryBenchApp?: boolean }).hickoryBenchApp = true;
export {};
