// The servers the benchmarks can measure: a framework, possibly with something preloaded that
// answers a question of its own (what a request context costs, what hooks cost, createApp against
// the bare kernel). `npm run bench` and `npm run bench:instructions` take these names.
import { FRAMEWORK_TITLES, type Framework } from './server.ts';

/** A server as measured: a framework, possibly with a file of `servers/` preloaded (`--import`). */
export interface Variant {
  framework: Framework;
  title: string;
  /** The name of the `servers/` file preloaded (without extension), if any. */
  preload?: string;
}

/** Every measurable server, by the name `--frameworks` takes. */
export const VARIANTS = {
  hickory: { framework: 'hickory', title: 'hickory, `createKernel()`' },
  'hickory-app': { framework: 'hickory', title: 'hickory, `createApp()`', preload: 'app' },
  'hickory-explicit': { framework: 'hickory', title: 'hickory, `createKernel()`, `use_context_locals: false`', preload: 'explicit' },
  'hickory-schema': { framework: 'hickory', title: 'hickory, `createKernel()`, response schemas', preload: 'schema' },
  'hickory-app-schema': { framework: 'hickory', title: 'hickory, `createApp()`, response schemas', preload: 'app-schema' },
  fastify: { framework: 'fastify', title: FRAMEWORK_TITLES.fastify },
  'fastify-etag': { framework: 'fastify', title: `${FRAMEWORK_TITLES.fastify} + @fastify/etag`, preload: 'fastify-etag' },
  node: { framework: 'node', title: FRAMEWORK_TITLES.node },
  'node-als': { framework: 'node', title: `${FRAMEWORK_TITLES.node} + AsyncLocalStorage`, preload: 'async-local-storage' },
  express: { framework: 'express', title: FRAMEWORK_TITLES.express },
  koa: { framework: 'koa', title: FRAMEWORK_TITLES.koa },
  hono: { framework: 'hono', title: FRAMEWORK_TITLES.hono },
  'hickory-hooks-plugin': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory} + hooksPlugin, no hook`, preload: 'hooks-plugin' },
  'hickory-one-hook': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory} + one empty hook`, preload: 'one-hook' },
  'hickory-app-loaded': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory}, every package of @hickory/app loaded, unused`, preload: 'app-loaded' },
  'hickory-logger': { framework: 'hickory-logger', title: FRAMEWORK_TITLES['hickory-logger'] },
  'fastify-logger': { framework: 'fastify-logger', title: FRAMEWORK_TITLES['fastify-logger'] },
} as const satisfies Record<string, Variant>;

/** A variant's name (`node-als`). */
export type VariantName = keyof typeof VARIANTS;

/** Every variant's name, in the order tables show them. */
export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

/**
 * A variant's title with its Markdown code marks taken out, for charts (plain SVG text).
 *
 * @example
 * ```ts
 * plainTitle('hickory-app'); // 'hickory, createApp()'
 * ```
 */
export function plainTitle(name: VariantName): string {
  return VARIANTS[name].title.replaceAll('`', '');
}
