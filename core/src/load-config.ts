import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { coreError } from './errors.ts';
import { importModule } from './load-module.ts';
import type { KernelConfig } from './config.ts';

/** The `server` section of a config file. */
export interface ServerConfig {
  host: string;
  port: number;
}

/** A loaded config file: where to listen, and the kernel's configuration. */
export interface HickoryConfigFile {
  server: ServerConfig;
  app: KernelConfig;
}

/**
 * Loads a config file (`.js`, `.mjs`, `.ts` or `.json`) holding `server: { host, port }` and
 * `app: { ... }`. `app.confdir` becomes the file's directory, so that `%(confdir)s` and relative
 * module paths resolve from there. Problems are thrown as `HICKORY_ERR_CONFIG_FILE` naming the file.
 *
 * @example
 * ```ts
 * const { server, app } = await loadConfig('sandbox/config.ts');
 * await createKernel(app).use(dispatchPlugin).listen(server);
 * ```
 */
export async function loadConfig(path: string): Promise<HickoryConfigFile> {
  const file = resolve(path);
  let raw: unknown;
  try {
    if (extname(file) === '.json') {
      raw = JSON.parse(await readFile(file, 'utf8'));
    } else if (['.js', '.mjs', '.cjs', '.ts', '.mts'].includes(extname(file))) {
      const mod = await importModule(file, dirname(file));
      raw = mod.default ?? mod;
    } else {
      throw new Error('a config file ends in .js, .mjs, .ts or .json');
    }
  } catch (error) {
    throw coreError('HICKORY_ERR_CONFIG_FILE', file, (error as Error).message, error);
  }
  if (typeof raw !== 'object' || raw === null) throw coreError('HICKORY_ERR_CONFIG_FILE', file, 'it does not export an object');
  const { server = {}, app = {}, ...rest } = raw as { server?: Partial<ServerConfig>; app?: KernelConfig };
  const extra = Object.keys(rest).filter((k) => k !== 'default');
  if (extra.length) throw coreError('HICKORY_ERR_CONFIG_FILE', file, `unknown top-level key "${extra[0]}" (a config file has "server" and "app")`);
  if (typeof server !== 'object' || server === null) throw coreError('HICKORY_ERR_CONFIG_FILE', file, 'server must be an object such as { host, port }');
  const unknownServerKey = Object.keys(server).find((k) => k !== 'host' && k !== 'port');
  if (unknownServerKey) throw coreError('HICKORY_ERR_CONFIG_FILE', file, `unknown key "server.${unknownServerKey}" (server has "host" and "port")`);
  const port = server.port ?? 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw coreError('HICKORY_ERR_CONFIG_FILE', file, `server.port must be a port number (got ${String(port)})`);
  const host = server.host ?? '127.0.0.1';
  if (typeof host !== 'string' || !host) throw coreError('HICKORY_ERR_CONFIG_FILE', file, 'server.host must be a host name or address');
  return { server: { host, port }, app: { ...app, confdir: app.confdir ?? dirname(file) } };
}
