import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { coreError } from './errors.ts';

const EXTENSIONS = ['', '.ts', '.mts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js', '/index.mjs'];

/**
 * Imports a module given as a path relative to `confdir`, an absolute path, or a package name.
 * TypeScript files load under tsx, or through tsx's loader API when Node runs plain JavaScript.
 *
 * @example
 * ```ts
 * const mod = await importModule('./controllers/root.ts', '/srv/app');
 * ```
 */
export async function importModule(specifier: string, confdir: string): Promise<Record<string, unknown>> {
  const isPath = specifier.startsWith('.') || isAbsolute(specifier);
  if (!isPath) return import(specifier);
  const file = findFile(resolve(confdir, specifier));
  if (!file) throw new Error(`no file ${resolve(confdir, specifier)}(${EXTENSIONS.filter(Boolean).join('|')})`);
  const url = pathToFileURL(file).href;
  // Before the first import: a failed import is cached by Node, so registering the loader after
  // an ERR_UNKNOWN_FILE_EXTENSION would only get the same failure again (the installed CLI did).
  if (TYPESCRIPT.test(file) && !typescriptLoaded()) await registerTypeScript();
  return import(url);
}

const TYPESCRIPT = /\.[cm]?ts$/;

// Running under tsx already (the monorepo, `node --import tsx`): no second loader.
function typescriptLoaded(): boolean {
  return process.execArgv.some((arg) => arg.includes('tsx')) || (process.env['NODE_OPTIONS'] ?? '').includes('tsx');
}

let typescriptRegistered: Promise<void> | undefined;

// Registered for the whole process, not as a scoped import: a scoped loader would give the app's
// modules their own copies of @hickory/* packages, and with them their own exposure registries.
function registerTypeScript(): Promise<void> {
  return (typescriptRegistered ??= import('tsx/esm/api').then(
    ({ register }) => {
      register();
    },
    (error: unknown) => {
      typescriptRegistered = undefined;
      // tsx is the CLI's dependency, optional for an app that embeds the kernel.
      throw new Error(`loading TypeScript files needs tsx: npm install tsx (${(error as Error).message})`);
    },
  ));
}

/**
 * Finds the file a module path names, trying the usual extensions and `index` files.
 *
 * @example
 * ```ts
 * findFile('/srv/app/controllers/root'); // '/srv/app/controllers/root.ts'
 * ```
 */
function findFile(base: string): string | undefined {
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (existsSync(candidate) && (ext !== '' || /\.[cm]?[jt]s$|\.json$/.test(candidate))) return candidate;
  }
  return undefined;
}

/**
 * Resolves a root controller given as `module#Export` or as a dotted path
 * (`sandbox.controllers.root.RootController` → `./sandbox/controllers/root` export `RootController`).
 * A class is instantiated; an object is used as it is.
 *
 * @example
 * ```ts
 * const root = await resolveExport('./controllers/root.ts#RootController', confdir);
 * ```
 */
export async function resolveExport(spec: string, confdir: string): Promise<unknown> {
  let modulePath: string;
  let exportName: string;
  const hash = spec.lastIndexOf('#');
  if (hash !== -1) {
    modulePath = spec.slice(0, hash);
    exportName = spec.slice(hash + 1) || 'default';
  } else {
    const parts = spec.split('.');
    if (parts.length < 2 || parts.some((p) => !/^[A-Za-z_$][\w$]*$/.test(p))) {
      throw new Error('write it as a dotted path ("app.controllers.root.RootController") or as "module#Export"');
    }
    exportName = parts.pop()!;
    modulePath = `./${join(...parts)}`;
  }
  const mod = await importModule(modulePath, confdir);
  if (!Object.hasOwn(mod, exportName)) throw new Error(`module "${modulePath}" has no export "${exportName}"`);
  return mod[exportName];
}

/**
 * Imports the application's `modules` in order, resolved from `confdir`; the first that fails
 * throws `HICKORY_ERR_MODULE_LOAD`, naming it.
 *
 * @example
 * ```ts
 * await importModules(['./models.ts'], '/srv/app');
 * ```
 */
export async function importModules(specifiers: readonly string[], confdir: string): Promise<void> {
  for (const specifier of specifiers) {
    try {
      await importModule(specifier, confdir);
    } catch (error) {
      throw coreError('HICKORY_ERR_MODULE_LOAD', specifier, (error as Error).message, error);
    }
  }
}
