import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createKernel, definePlugin, type Kernel, type KernelConfig, type Logger, type Plugin } from '@hickory/core';

/** A temporary config directory whose `templates/` folder holds the fixtures. */
export interface Workspace {
  /** The directory used as `confdir`. */
  readonly confdir: string;
  /** `<confdir>/templates`, the template directory. */
  readonly root: string;
  /** Writes (or overwrites) a template file. */
  write(name: string, text: string): Promise<void>;
}

const made: string[] = [];

/**
 * Makes a temporary workspace holding `files` under `templates/`.
 *
 * @example
 * ```ts
 * const ws = await makeWorkspace({ 'hello.ejs': 'Hello <%= name %>!' });
 * ```
 */
export async function makeWorkspace(files: Readonly<Record<string, string>>): Promise<Workspace> {
  const confdir = await mkdtemp(join(tmpdir(), 'hickory-renderer-'));
  made.push(confdir);
  const root = join(confdir, 'templates');
  const write = async (name: string, text: string) => {
    const path = join(root, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  };
  await mkdir(root, { recursive: true });
  for (const [name, text] of Object.entries(files)) await write(name, text);
  return { confdir, root, write };
}

/**
 * Removes every workspace made so far.
 *
 * @example
 * ```ts
 * after(removeWorkspaces);
 * ```
 */
export async function removeWorkspaces(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** What a captured logger saw. */
export interface CapturedLog {
  readonly logger: Logger;
  /** Every `error()` call: the message and its details. */
  readonly errors: Array<{ message: string; details: unknown[] }>;
}

/**
 * A logger that keeps error lines for assertions.
 *
 * @example
 * ```ts
 * const log = captureLog(); createKernel({ logger: log.logger });
 * ```
 */
export function captureLog(): CapturedLog {
  const errors: CapturedLog['errors'] = [];
  const logger: Logger = { info() {}, warn() {}, error: (message, ...details) => void errors.push({ message, details }) };
  return { logger, errors };
}

/** A route of {@link renderRoutes}: the template and namespace to render, or a function that throws. */
export type RenderRoute = readonly [template: string, namespace: Record<string, unknown>] | (() => never);

/**
 * A plugin that answers fixed paths by rendering a template (a stand-in for a controller).
 *
 * @example
 * ```ts
 * kernel.use(renderRoutes({ '/page': ['page.ejs', { title: 'Books' }] }));
 * ```
 */
export function renderRoutes(routes: Readonly<Record<string, RenderRoute>>): Plugin {
  const table = new Map(Object.entries(routes));
  return definePlugin({
    name: 'conformance-routes',
    apply(kernel) {
      kernel.hooks.route.tap('conformance-routes', (request) => {
        const route = table.get(request.path);
        if (route === undefined) return undefined;
        return { target: request.path, handle: () => (typeof route === 'function' ? route() : kernel.render(route[0], route[1])) };
      });
    },
  });
}

/**
 * A ready kernel on a workspace, with the renderer under test and optional routes.
 *
 * @example
 * ```ts
 * const app = await kernelFor(ws, ejsRenderer, { template_cache: false });
 * ```
 */
export async function kernelFor(
  workspace: Workspace,
  plugin: Plugin,
  config: KernelConfig = {},
  routes?: Readonly<Record<string, RenderRoute>>,
  pluginOptions?: unknown,
): Promise<Kernel> {
  const kernel = createKernel({ logger: false, confdir: workspace.confdir, template_path: '%(confdir)s/templates', ...config });
  kernel.use(plugin, pluginOptions);
  if (routes) kernel.use(renderRoutes(routes));
  return kernel.ready();
}
