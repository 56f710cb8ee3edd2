import { readFileSync } from 'node:fs';
import { PROJECT_TEMPLATES } from './project-files.ts';
import { RELOAD_EXTENSIONS } from './reload-filter.ts';

/**
 * The text of `hickory --help`.
 *
 * @example
 * ```ts
 * console.log(HELP);
 * ```
 */
export const HELP = `Usage: hickory <command> [options]

Commands:
  serve <config>      Serve the app of a config file (.js, .mjs, .ts or .json)
      --port <n>          Port (overrides server.port; 0 picks a free one)
      --host <addr>       Address (overrides server.host)
      --reload            Restart when a source file under the config file's folder changes:
                          ${RELOAD_EXTENSIONS.code.join(' ')}, templates
                          ${RELOAD_EXTENSIONS.templates.join(' ')} (never in node_modules, dist, hidden folders)
      --watch <glob>      With --reload: also restart for these files ('*.yaml'; repeatable)
      --ignore <glob>     With --reload: never restart for these files or folders ('data/**')
      --workers <n>       Run n supervised worker processes, each replaced if it dies (default: one
                          per core with NODE_ENV=production, else the app runs in this process)
      --tls-key <file>    With --tls-cert: HTTPS, with this private key (PEM)
      --tls-cert <file>   The certificate (PEM) of --tls-key
      --http2             With TLS: HTTP/2, and HTTP/1.1 for clients that do not offer it (ALPN)
  routes <config>     Print every route of the app, without running a handler
      --json              As JSON, for tools
      --openapi           As an OpenAPI 3.1 document (paths, parameters and body with their schemas)
      --title <t>         With --openapi: info.title (default: the app's package.json name)
      --version <v>       With --openapi: info.version (default: the app's package.json version)
  shell <config>      A REPL with the app loaded (app, root, config, inject; top-level await)
  test [paths]        Run every *.test.ts (.mts, .js, .mjs) under the paths (default test/) with
                      Node's test runner and tsx; other options go to Node (--test-name-pattern=x)
  create <name>       Make a new project in the new folder <name>
      --template <t>      ${PROJECT_TEMPLATES.join(' or ')} (default base)
      --explicit          Handlers receive (request, response, ...arguments): the config sets
                          use_context_locals: false

Options:
  -v, --version       Print the version
  -h, --help          Print this help
`;

/**
 * The version of the `hickory` package (its package.json).
 *
 * @example
 * ```ts
 * hickoryVersion(); // '0.1.0'
 * ```
 */
export function hickoryVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
