// The servers `npm run bench:instructions` can count: a framework, possibly with something
// preloaded that answers a question of its own (what a request context costs, what hooks cost).
import { fileURLToPath } from 'node:url';
import { FRAMEWORK_TITLES, type Framework } from '../servers/server.ts';

/** A server as measured here: a framework, possibly with something preloaded. */
export interface Variant {
  framework: Framework;
  title: string;
  nodeArgs: string[];
}

const preload = (name: string) => ['--import', fileURLToPath(new URL(`../servers/${name}.ts`, import.meta.url))];

/** Every countable server, by the name `--frameworks` takes. */
export const VARIANTS = {
  hickory: { framework: 'hickory', title: FRAMEWORK_TITLES.hickory, nodeArgs: [] },
  fastify: { framework: 'fastify', title: FRAMEWORK_TITLES.fastify, nodeArgs: [] },
  node: { framework: 'node', title: FRAMEWORK_TITLES.node, nodeArgs: [] },
  'node-als': { framework: 'node', title: `${FRAMEWORK_TITLES.node} + AsyncLocalStorage`, nodeArgs: preload('async-local-storage') },
  'hickory-hooks-plugin': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory} + hooksPlugin, no hook`, nodeArgs: preload('hooks-plugin') },
  'hickory-one-hook': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory} + one empty hook`, nodeArgs: preload('one-hook') },
  'hickory-explicit': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory}, use_context_locals: false`, nodeArgs: preload('explicit') },
  'hickory-app': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory}, made by createApp (every first-party plugin)`, nodeArgs: preload('app') },
  'hickory-app-loaded': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory}, every package of @hickory/app loaded, unused`, nodeArgs: preload('app-loaded') },
  'hickory-logger': { framework: 'hickory-logger', title: FRAMEWORK_TITLES['hickory-logger'], nodeArgs: [] },
  'fastify-logger': { framework: 'fastify-logger', title: FRAMEWORK_TITLES['fastify-logger'], nodeArgs: [] },
} as const satisfies Record<string, Variant>;

/** A variant's name (`node-als`). */
export type VariantName = keyof typeof VARIANTS;

/** Every variant's name, in the order tables show them. */
export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

/** The variants counted when `--frameworks` is absent. */
// The Hickory variants and the logging ones answer questions of their own (what hooks cost, the
// explicit mode, what a line per request costs): asked for by name.
export const DEFAULT_VARIANTS = VARIANT_NAMES.filter((name) => !name.startsWith('hickory-') && !name.endsWith('-logger'));
