/**
 * The error table of `@hickory/core`: every error the kernel throws at a developer
 * (configuration, plugins, misuse) has a stable code listed here, once.
 *
 * HTTP errors that reach clients are {@link HTTPError}s, not these.
 */

/** Every code of this package, with the message template (`%s` is filled in order). */
export const CORE_ERRORS = Object.freeze({
  HICKORY_ERR_PLUGIN_NAME: 'A plugin needs a non-empty string `name`: build it with definePlugin({ name, apply }).',
  HICKORY_ERR_PLUGIN_APPLY: 'Plugin "%s" has no `apply(kernel, options)` function: build it with definePlugin({ name, apply }).',
  HICKORY_ERR_PLUGIN_DEPENDENCY: 'Plugin "%s" lists a dependency that is not a plugin (%s): `dependencies` takes plugin objects made by definePlugin().',
  HICKORY_ERR_PLUGIN_CYCLE: 'Plugins depend on each other in a cycle: %s. Remove one of the dependencies.',
  HICKORY_ERR_PLUGIN_FAILED: 'Plugin "%s" failed while starting: %s',
  HICKORY_ERR_PLUGIN_OPTIONS_AGAIN:
    'Plugin "%s" is already in use (%s), so the options given to it again would be ignored (%s): give a plugin its options once, in its first use(), before any plugin that depends on it (createApp() and a config file\'s `plugins` do this for you).',
  HICKORY_ERR_PLUGIN_OPTION: 'Plugin "%s" %s.',
  HICKORY_ERR_USE_AFTER_READY: 'use(%s) was called after ready(): register every plugin before the kernel starts.',
  HICKORY_ERR_TAP_AFTER_READY: 'Hook "%s" was tapped after ready(): tap hooks inside a plugin\'s apply(), before the kernel starts.',
  HICKORY_ERR_COOKIE: 'Cannot set the cookie %s: %s (names are tokens; values are percent-encoded for you; domain and path must be valid).',
  HICKORY_ERR_COOKIE_SIGNER:
    'Cannot sign the cookie %s (or read request.signed_cookies): no cookie signer is set. Add sessionPlugin from @hickory/session (kernel.use(sessionPlugin, { secret })), which signs with its secrets, or fill kernel.cookieSigner in a plugin of your own.',
  HICKORY_ERR_CONFIG_UNKNOWN_KEY: 'Unknown configuration key "%s"%s. Known keys: %s.',
  HICKORY_ERR_CONFIG_VALUE: 'Configuration key "%s" %s.',
  HICKORY_ERR_CONFIG_TRUST_PROXY:
    'Configuration key "trust_proxy" cannot be %s: %s. Use true (trust every proxy), a hop count (1: the one proxy in front of the app), or a list of addresses, CIDRs and the names loopback, linklocal, uniquelocal (["loopback", "10.0.0.0/8"]); leave it out when clients reach the app directly.',
  HICKORY_ERR_CONFIG_FILE: 'Cannot load the configuration file %s: %s',
  HICKORY_ERR_ROOT_RESOLVE: 'Cannot resolve root controller "%s": %s',
  HICKORY_ERR_MODULE_LOAD: 'Cannot load application module "%s" (from `modules`): %s',
  HICKORY_ERR_NO_RENDERER: 'No renderer for template "%s" (engine "%s"): add the plugin for that engine with kernel.use(), or set `default_renderer`.',
  HICKORY_ERR_CONTEXT_LOCALS_OFF:
    '`%s` is not available: this app runs with use_context_locals: false, so handlers receive the request and the response as their first two arguments (handler(request, response, ...)); use those, or set use_context_locals: true.',
  HICKORY_ERR_OUTSIDE_REQUEST: '`%s` was used outside of a request: it is only available while a request is being handled.',
  HICKORY_ERR_REQUEST_ENDED: 'request.beforeEnd() was called for %s after its response was decided (the request took longer than handler_timeout, or was answered already): nothing may be taken for it now.',
  HICKORY_ERR_BODY_NOT_LOADED: 'request.%s was read before the body was loaded: await request.load() first (the kernel does so before calling a handler).',
  HICKORY_ERR_HEADER_VALUE:
    'Invalid value for header "%s": header names must be tokens, and values only printable ASCII, spaces and tabs (no CR, LF, NUL or other control characters, no characters beyond ASCII: percent-encode them, or use contentDisposition() for file names).',
  HICKORY_ERR_REQUEST_HEADER_FRAMING:
    'request.set_header("%s") was refused: Content-Length and Transfer-Encoding say how the body is framed on the connection, which has been read by then. Rewrite other headers; to change the body, parse it in a parseBody tap.',
  HICKORY_ERR_STATUS: 'Invalid HTTP status %s: a status is an integer from 100 to 599.',
  HICKORY_ERR_ABORT_STATUS: 'abort(%s): abort() takes an error status from 400 to 599.',
  HICKORY_ERR_REDIRECT: 'Invalid redirect: %s',
  HICKORY_ERR_REDIRECT_EXTERNAL:
    'Refused a redirect to %s: it leaves the site. Pass redirect(url, { external: true }) where that is meant, or list the origin %s in the redirect_origins configuration.',
  HICKORY_ERR_REDIRECT_LOOP: 'Internal redirect loop: %s',
  HICKORY_ERR_NOT_READY: '%s needs the kernel to be ready: await kernel.ready() first.',
  HICKORY_ERR_CLOSED: 'The kernel is closed: %s',
  HICKORY_ERR_LISTEN: 'listen(): %s.',
  HICKORY_ERR_LOGGER_METHODS:
    'The `logger` object lacks %s: pass a pino-compatible logger (info, warn, error, debug and child methods), a console-like one (info, warn, error), pino options such as { level: "warn" }, true (pino to stdout) or false (silence).',
  HICKORY_ERR_LOGGER_LEVEL: 'The logger level %s is not one pino knows: use one of %s (or declare it in customLevels).',
  HICKORY_ERR_LOGGER_OPTIONS: 'The `logger` option is %s: it takes %s.',
  HICKORY_ERR_LOGGER_PINO: 'pino refused the `logger` options: %s. Fix them (see pino\'s options), or build the logger yourself and pass it as `logger`.',
} as const);

/** A code of {@link CORE_ERRORS}. */
export type CoreErrorCode = keyof typeof CORE_ERRORS;

/**
 * An error meant for the developer (never sent to a client), carrying a stable `code`.
 *
 * @example
 * ```ts
 * try { kernel.use({} as any); } catch (e) { if (e instanceof HickoryError) console.log(e.code); }
 * ```
 */
export class HickoryError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'HickoryError';
    this.code = code;
  }
}

/**
 * Builds a {@link HickoryError} from a code of a package's table, filling `%s` in order.
 *
 * @example
 * ```ts
 * throw coreError('HICKORY_ERR_PLUGIN_APPLY', plugin.name);
 * ```
 */
export function tableError<T extends Record<string, string>>(
  table: T,
  code: keyof T & string,
  ...args: unknown[]
): HickoryError {
  let i = 0;
  const message = table[code].replace(/%s/g, () => String(args[i++]));
  const cause = args.find((a) => a instanceof Error);
  return new HickoryError(code, message, cause ? { cause } : undefined);
}

/**
 * Builds a {@link HickoryError} of this package.
 *
 * @example
 * ```ts
 * throw coreError('HICKORY_ERR_USE_AFTER_READY', 'myPlugin');
 * ```
 */
export function coreError(code: CoreErrorCode, ...args: unknown[]): HickoryError {
  return tableError(CORE_ERRORS, code, ...args);
}
