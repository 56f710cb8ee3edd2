import { parseArgs } from 'node:util';
import { cliError } from './errors.ts';

/** What the command line asks for, once parsed and checked. */
export type CliCommand =
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | {
      readonly command: 'serve';
      readonly config: string;
      readonly port?: number;
      readonly host?: string;
      readonly reload: boolean;
      readonly workers?: number;
      /** `--tls-key`/`--tls-cert`: PEM files; HTTPS with both. */
      readonly tlsKey?: string;
      readonly tlsCert?: string;
      /** `--http2` (with TLS): HTTP/2, and HTTP/1.1 by ALPN. */
      readonly http2?: boolean;
      /** `--watch` globs: more files whose change restarts (with `--reload`). */
      readonly watch: readonly string[];
      /** `--ignore` globs: files and folders whose change never restarts (with `--reload`). */
      readonly ignore: readonly string[];
    }
  | { readonly command: 'create'; readonly name: string; readonly template: string; readonly explicit: boolean }
  | {
      readonly command: 'routes';
      readonly config: string;
      readonly format: RoutesFormat;
      /** `--title`, `--version`: the OpenAPI document's `info` (default: the app's package.json). */
      readonly title?: string;
      readonly version?: string;
    }
  | { readonly command: 'shell'; readonly config: string }
  | { readonly command: 'test'; readonly paths: readonly string[]; readonly nodeOptions: readonly string[] };

/** How `hickory routes` prints: aligned text, the route map as JSON, or an OpenAPI 3.1 document. */
export type RoutesFormat = 'text' | 'json' | 'openapi';

// The options each command accepts; any other option is a usage error naming it.
const OPTIONS = {
  serve: ['port', 'host', 'reload', 'workers', 'watch', 'ignore', 'tls-key', 'tls-cert', 'http2'],
  create: ['template', 'explicit'],
  routes: ['json', 'openapi', 'title', 'version'],
  shell: [],
} as const;

/**
 * The arguments that serve the same app again, for the child `--reload` runs (without the
 * supervisor's own options).
 *
 * @example
 * ```ts
 * serveArgs({ command: 'serve', config: 'config.ts', port: 0, reload: true, watch: [], ignore: [] });
 * // ['serve', 'config.ts', '--port', '0']
 * ```
 */
export function serveArgs(cli: Extract<CliCommand, { command: 'serve' }>): string[] {
  const args = ['serve', cli.config];
  if (cli.port !== undefined) args.push('--port', String(cli.port));
  if (cli.host !== undefined) args.push('--host', cli.host);
  if (cli.workers !== undefined) args.push('--workers', String(cli.workers));
  if (cli.tlsKey !== undefined) args.push('--tls-key', cli.tlsKey);
  if (cli.tlsCert !== undefined) args.push('--tls-cert', cli.tlsCert);
  if (cli.http2 === true) args.push('--http2');
  return args;
}

/**
 * Parses the arguments of the `hickory` command (without `node` and the script). Throws
 * `HICKORY_ERR_CLI_USAGE` with a one-line hint for an unknown command or option, a missing or
 * extra argument, or a bad number.
 *
 * @example
 * ```ts
 * parseCli(['serve', 'config.ts', '--workers', '2']);
 * // { command: 'serve', config: 'config.ts', reload: false, workers: 2, ... }
 * ```
 */
export function parseCli(argv: readonly string[]): CliCommand {
  if (argv[0] === 'test') return parseTest(argv.slice(1));
  // `hickory routes --version 1.2.0` names the document's version, not the command's.
  const routes = argv[0] === 'routes';
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        reload: { type: 'boolean' },
        workers: { type: 'string' },
        'tls-key': { type: 'string' },
        'tls-cert': { type: 'string' },
        http2: { type: 'boolean' },
        watch: { type: 'string', multiple: true },
        ignore: { type: 'string', multiple: true },
        template: { type: 'string' },
        explicit: { type: 'boolean' },
        json: { type: 'boolean' },
        openapi: { type: 'boolean' },
        title: { type: 'string' },
        version: routes ? { type: 'string' } : { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usage(describeParseError(error as Error & { code?: string }, argv));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version === true) return { command: 'version' };
  const [command, target, ...extra] = positionals;
  if (command === undefined) throw usage('missing command: hickory serve <config>, hickory routes <config>, hickory shell <config>, hickory test or hickory create <name>');
  if (command !== 'serve' && command !== 'create' && command !== 'routes' && command !== 'shell') throw usage(`unknown command "${command}"`);
  const given = Object.keys(values) as (keyof typeof values)[];
  const foreign = given.find((name) => !(OPTIONS[command] as readonly string[]).includes(name));
  if (foreign) throw usage(`hickory ${command} takes no --${foreign}`);
  if (extra.length) throw usage(`unexpected argument "${extra[0]}"`);
  if (command === 'create') {
    if (!target) throw usage('create needs a folder name: hickory create <name>');
    return { command, name: target, template: values.template ?? 'base', explicit: values.explicit ?? false };
  }
  if (command === 'routes') {
    if (!target) throw usage('routes needs a config file: hickory routes <config>');
    if (values.json && values.openapi) throw usage('hickory routes takes --json or --openapi, not both');
    const info = { title: values.title, version: values.version as string | undefined };
    for (const [name, value] of Object.entries(info)) {
      if (value !== undefined && !values.openapi) throw usage(`--${name} goes with --openapi`);
      if (value === '') throw usage(`--${name} needs a value`);
    }
    return { command, config: target, format: values.openapi ? 'openapi' : values.json ? 'json' : 'text', ...definedOnly(info) };
  }
  if (command === 'shell') {
    if (!target) throw usage('shell needs a config file: hickory shell <config>');
    return { command, config: target };
  }
  if (!target) throw usage('serve needs a config file: hickory serve <config>');
  const host = values.host;
  if (host !== undefined && !host) throw usage('--host needs an address');
  const reload = values.reload ?? false;
  const watch = values.watch ?? [];
  const ignore = values.ignore ?? [];
  const globs = [...watch.map((glob) => ['watch', glob]), ...ignore.map((glob) => ['ignore', glob])];
  if (globs.length && !reload) throw usage(`--${globs[0]![0]} goes with --reload`);
  const empty = globs.find(([, glob]) => !glob);
  if (empty) throw usage(`--${empty[0]} needs a glob, such as 'data/**'`);
  const tlsKey = values['tls-key'];
  const tlsCert = values['tls-cert'];
  if ((tlsKey === undefined) !== (tlsCert === undefined)) throw usage('--tls-key and --tls-cert go together: the private key and its certificate (PEM files)');
  if (tlsKey === '' || tlsCert === '') throw usage('--tls-key and --tls-cert need a file');
  if (values.http2 && tlsKey === undefined) throw usage('--http2 needs --tls-key and --tls-cert (browsers speak HTTP/2 only over TLS)');
  return {
    command,
    config: target,
    ...definedOnly({ tlsKey, tlsCert }),
    ...(values.http2 ? { http2: true } : {}),
    port: wholeNumber(values.port, 'port', 0, 65535),
    host,
    reload,
    workers: wholeNumber(values.workers, 'workers', 1, 1024),
    watch,
    ignore,
  };
}

// `hickory test`'s options are Node's test runner's own, passed on as they are: paths apart.
function parseTest(args: readonly string[]): CliCommand {
  if (args.includes('--help') || args.includes('-h')) return { command: 'help' };
  return {
    command: 'test',
    paths: args.filter((arg) => !arg.startsWith('-')),
    nodeOptions: args.filter((arg) => arg.startsWith('-')),
  };
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function usage(message: string) {
  return cliError('HICKORY_ERR_CLI_USAGE', message);
}

function wholeNumber(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw usage(`--${name} takes a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

// parseArgs's own messages are long and mention its API; say the same thing in a few words.
function describeParseError(error: Error & { code?: string }, argv: readonly string[]): string {
  const option = /'(-[^'\s]*)/.exec(error.message)?.[1] ?? argv.find((a) => a.startsWith('-')) ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`;
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /argument missing/.test(error.message) ? `${option.split(' ')[0]} needs a value` : `${option} takes no value`;
  }
  return error.message.split('\n')[0]!;
}
