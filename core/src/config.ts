import { checkAllowedHosts } from './allowed-hosts.ts';
import { coreError } from './errors.ts';
import { Request } from './request.ts';
import { Response } from './response.ts';
import { compileTrustProxy, type TrustProxy } from './trust-proxy.ts';
import { checkLoggerOption, type LoggerOption } from './logger-option.ts';
import { checkRequestIdHeader } from './request-id.ts';

/**
 * A check of one configuration value: returns what is wrong with it (finishing the sentence
 * "Configuration key "x" …"), or `undefined` when it is fine. A key with a coded error of its own
 * may throw it instead (`trust_proxy` throws `HICKORY_ERR_CONFIG_TRUST_PROXY`).
 *
 * @example
 * ```ts
 * const positive: ConfigRule = (v) => (typeof v === 'number' && v > 0 ? undefined : 'must be a positive number');
 * ```
 */
export type ConfigRule = (value: unknown) => string | undefined;

/** A root controller: an instance, a class to instantiate, or a dotted path / `module#Export`. */
export type RootSpec = object | (new () => object) | string;

/**
 * The kernel's configuration (the `app` section of a config file). Plugins add keys of their own.
 *
 * @example
 * ```ts
 * const config: KernelConfig = { root: RootController, template_path: '%(confdir)s/templates' };
 * ```
 */
export interface KernelConfig {
  /** Root controller: object, class, dotted path (`sandbox.controllers.root.RootController`) or `module#Export`. */
  root?: RootSpec;
  /** Application modules imported at start, resolved from `confdir`. */
  modules?: string[];
  /** Directory of static files; `%(confdir)s` is replaced by `confdir` (declared by `staticPlugin`). */
  static_root?: string;
  /** Directory of templates; `%(confdir)s` is replaced by `confdir` (declared by the renderer plugins). */
  template_path?: string;
  /** Subclass of `Request` built for every request. */
  request_cls?: typeof Request;
  /** Subclass of `Response` built for every request. */
  response_cls?: typeof Response;
  /** Redirect an index reached without its trailing slash (default `true`; declared by `dispatchPlugin`). */
  force_canonical?: boolean;
  /** Let `.json` / `.html` / `.txt` … select the rendering (default `true`; declared by `dispatchPlugin`). */
  guess_content_type_from_ext?: boolean;
  /** Engine for templates whose extension names no engine. */
  default_renderer?: string;
  /** Error documents: `{ 404: '/error/404' }` renders the 404 response by an internal request. */
  errors?: Record<string | number, string>;
  /** The directory relative paths are resolved from (a config file's directory; default: the working directory). */
  confdir?: string;
  /** Largest body read into memory, in bytes (default 1 MiB → 413 beyond). */
  body_limit?: number;
  /** Most query or form parameters (default 1000 → 413 beyond). */
  param_limit?: number;
  /** Milliseconds to receive the request headers (default 60 000). */
  headers_timeout?: number;
  /** Milliseconds to receive the whole request (default 120 000 → 408). */
  request_timeout?: number;
  /** Milliseconds an idle keep-alive connection stays open (default 5 000). */
  keep_alive_timeout?: number;
  /** Milliseconds `close()` waits for in-flight requests before destroying connections (default 5 000). */
  close_timeout?: number;
  /** Milliseconds an asynchronous handler may take before the request gets 503 (default 120 000). */
  handler_timeout?: number;
  /** Milliseconds a response may make no write progress (a client reading nothing) before its connection is closed (default 30 000). */
  send_timeout?: number;
  /** Origins (`https://accounts.example.com`) that `redirect()` may send clients to without `external: true`. */
  redirect_origins?: readonly string[];
  /**
   * Which proxies in front of the app may report the client's scheme, host and address
   * (`X-Forwarded-*`, `Forwarded`): `true` all, a hop count, or addresses, CIDRs and the names
   * `loopback`, `linklocal`, `uniquelocal`. Default `false`: those headers are never believed.
   */
  trust_proxy?: TrustProxy;
  /**
   * The host names the app answers for (`['books.example.com', '.example.org']`: a leading dot
   * allows the domain and its subdomains; any port). A request for another host — by its `Host`
   * header, or with `trust_proxy` the host a trusted proxy reports — is answered 400. Default: off,
   * any valid host is served (a `Host` that is not a valid `host[:port]` is a 400 either way).
   */
  allowed_hosts?: readonly string[];
  /**
   * `false`: handlers receive `(request, response, ...arguments)` and no AsyncLocalStorage is
   * used (the importable `request`/`response` then throw). Default `true` (Pecan's option).
   */
  use_context_locals?: boolean;
  /**
   * Development only: an unhandled error answers an HTML page with the stack, the request (credential
   * headers and query values masked), the route and what plugins add. Allowed only where `NODE_ENV`
   * is unset, `development` or `test`; refused with a warning anywhere else. Default `false`: the plain 500.
   */
  debug?: boolean;
  /**
   * Where the kernel logs. `true`: pino, JSON lines to stdout, one per request (`hickory serve`'s
   * default); pino's options (`{ level: 'warn', stream }`); a pino-compatible logger (also one line
   * per request); a `console`-like object (warnings and errors only); `false`: silence.
   * Default: warnings and errors to stderr.
   */
  logger?: LoggerOption;
  /**
   * The header a request id is read from and sent back in when requests are logged (default
   * `x-request-id`); `false`: never read one (ids are generated) nor send one.
   */
  request_id_header?: string | false;
  /**
   * Weak `ETag`s (default `true`, as Express): a GET or HEAD 200 with a string or bytes body gets
   * `W/"<length>-<hash>"` unless it has an `ETag`, and a matching `If-None-Match` is answered 304
   * without a body. `false`: no tag is made (a tag the application sets is still honoured).
   */
  etag?: boolean;
  /** Keys declared by plugins. */
  [key: string]: unknown;
}

/** The configuration after `ready()`: defaults filled in, paths substituted, classes checked. */
export interface ResolvedConfig extends KernelConfig {
  readonly modules: string[];
  readonly errors: Record<string, string>;
  readonly confdir: string;
  readonly body_limit: number;
  readonly param_limit: number;
  readonly headers_timeout: number;
  readonly request_timeout: number;
  readonly keep_alive_timeout: number;
  readonly close_timeout: number;
  readonly handler_timeout: number;
  readonly send_timeout: number;
  readonly redirect_origins: readonly string[];
  readonly use_context_locals: boolean;
  readonly debug: boolean;
  readonly trust_proxy: TrustProxy;
  readonly request_id_header: string | false;
  readonly etag: boolean;
  readonly request_cls: typeof Request;
  readonly response_cls: typeof Response;
}

const isString: ConfigRule = (v) => (typeof v === 'string' && v.length > 0 ? undefined : `must be a non-empty string (got ${show(v)})`);
const isBoolean: ConfigRule = (v) => (typeof v === 'boolean' ? undefined : `must be true or false (got ${show(v)})`);
const isPositiveInt: ConfigRule = (v) =>
  Number.isInteger(v) && (v as number) > 0 ? undefined : `must be a positive integer (got ${show(v)})`;
const isSubclass =
  (base: typeof Request | typeof Response): ConfigRule =>
  (v) =>
    typeof v === 'function' && (v === base || v.prototype instanceof base)
      ? undefined
      : `must be ${base.name} or a subclass of it (class X extends ${base.name}), got ${show(v)}`;

/**
 * The rule of a configuration key that names a directory or a file: a non-empty string, in which
 * `%(confdir)s` is replaced by the config file's directory when the configuration is resolved.
 * For plugins declaring such a key.
 *
 * @example
 * ```ts
 * definePlugin({ name: 'uploads', config: { upload_dir: confdirPath }, apply() {} });
 * ```
 */
export const confdirPath: ConfigRule = Object.assign((v: unknown) => isString(v), { confdirPath: true as const });

/**
 * A configuration rule with a default: when the key is left out, the resolved configuration has
 * `value` (a plugin's key thus reads like the kernel's own in `kernel.config`).
 *
 * @example
 * ```ts
 * definePlugin({ name: 'pager', config: { page_size: withDefault(positiveInteger, 20) }, apply() {} });
 * ```
 */
export function withDefault(rule: ConfigRule, value: unknown): ConfigRule {
  const withValue = (v: unknown) => rule(v);
  return Object.assign(withValue, rule, { defaultValue: value });
}

// The keys first-party plugins declare: an unknown key among them names the plugin to use.
const PLUGIN_KEYS: Readonly<Record<string, string>> = {
  static_root: 'staticPlugin (@hickory/static)',
  template_path: 'a renderer plugin (ejsRenderer, nunjucksRenderer or handlebarsRenderer)',
  template_cache: 'a renderer plugin (ejsRenderer, nunjucksRenderer or handlebarsRenderer)',
  extra_template_vars: 'a renderer plugin (ejsRenderer, nunjucksRenderer or handlebarsRenderer)',
  force_canonical: 'dispatchPlugin (@hickory/dispatch)',
  guess_content_type_from_ext: 'dispatchPlugin (@hickory/dispatch)',
  openapi: 'dispatchPlugin (@hickory/dispatch)',
  hooks: 'hooksPlugin (@hickory/hooks)',
};

/**
 * The kernel's own configuration keys and their checks. Plugins extend the table through
 * their `config` field.
 *
 * @example
 * ```ts
 * CORE_CONFIG.force_canonical!(true); // undefined: fine
 * ```
 */
export const CORE_CONFIG: Readonly<Record<string, ConfigRule>> = Object.freeze({
  root: (v) =>
    (typeof v === 'object' && v !== null) || typeof v === 'function' || (typeof v === 'string' && v.length > 0)
      ? undefined
      : `must be a controller object, a class, or a string such as "app.controllers.root.RootController" or "./root.ts#RootController" (got ${show(v)})`,
  modules: (v) => (Array.isArray(v) && v.every((m) => typeof m === 'string' && m) ? undefined : `must be a list of module paths (got ${show(v)})`),
  request_cls: isSubclass(Request),
  response_cls: isSubclass(Response),
  use_context_locals: isBoolean,
  debug: isBoolean,
  default_renderer: isString,
  errors: (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `must be an object such as { 404: '/error/404' } (got ${show(v)})`;
    for (const [status, path] of Object.entries(v)) {
      const code = Number(status);
      if (!Number.isInteger(code) || code < 400 || code > 599) return `has "${status}", which is not an error status from 400 to 599`;
      if (typeof path !== 'string' || !path.startsWith('/')) return `maps ${status} to ${show(path)}: error documents are paths starting with "/"`;
    }
    return undefined;
  },
  confdir: isString,
  body_limit: isPositiveInt,
  param_limit: isPositiveInt,
  headers_timeout: isPositiveInt,
  request_timeout: isPositiveInt,
  keep_alive_timeout: isPositiveInt,
  close_timeout: isPositiveInt,
  handler_timeout: isPositiveInt,
  send_timeout: isPositiveInt,
  redirect_origins: (v) => {
    if (!Array.isArray(v)) return `must be a list of origins such as ["https://accounts.example.com"] (got ${show(v)})`;
    for (const origin of v) {
      if (typeof origin !== 'string' || originOf(origin) !== origin) return `has ${show(origin)}, which is not an origin: write it as scheme://host[:port], no path or trailing slash`;
    }
    return undefined;
  },
  trust_proxy: (v) => {
    compileTrustProxy(v);
    return undefined;
  },
  allowed_hosts: checkAllowedHosts,
  // Throws its own coded errors (HICKORY_ERR_LOGGER_*), which name the fix for each mistake.
  logger: (v) => {
    checkLoggerOption(v);
    return undefined;
  },
  request_id_header: checkRequestIdHeader,
  etag: isBoolean,
});

/**
 * Checks every key of `config` against `rules`, throwing a coded error that names the first
 * unknown key or bad value, and returns the configuration with defaults and `%(confdir)s` filled in.
 *
 * @example
 * ```ts
 * resolveConfig({ force_canonical: 'no' }, CORE_CONFIG); // throws: "force_canonical" must be true or false
 * ```
 */
export function resolveConfig(config: KernelConfig, rules: Readonly<Record<string, ConfigRule>>): ResolvedConfig {
  for (const key of Object.keys(config)) {
    const rule = rules[key];
    if (!rule) {
      const owner = PLUGIN_KEYS[key];
      const hint = owner === undefined ? '' : ` (it is read by ${owner}, which is not in use: add it with .use(), or use createApp, which has them all)`;
      throw coreError('HICKORY_ERR_CONFIG_UNKNOWN_KEY', key, hint, Object.keys(rules).sort().join(', '));
    }
    if (config[key] === undefined) continue;
    const problem = rule(config[key]);
    if (problem) throw coreError('HICKORY_ERR_CONFIG_VALUE', key, problem);
  }
  if (config.headers_timeout !== undefined && config.headers_timeout > (config.request_timeout ?? 120_000)) {
    throw coreError('HICKORY_ERR_CONFIG_VALUE', 'headers_timeout', `must not be longer than request_timeout (${config.headers_timeout} > ${config.request_timeout ?? 120_000} ms)`);
  }
  const confdir = config.confdir ?? process.cwd();
  const resolved: ResolvedConfig = {
    ...config,
    modules: config.modules ?? [],
    errors: { ...(config.errors ?? {}) },
    confdir,
    body_limit: config.body_limit ?? 1024 * 1024,
    param_limit: config.param_limit ?? 1000,
    // Node refuses a headers timeout longer than the request timeout: the default follows a short request_timeout.
    headers_timeout: config.headers_timeout ?? Math.min(60_000, config.request_timeout ?? 120_000),
    request_timeout: config.request_timeout ?? 120_000,
    keep_alive_timeout: config.keep_alive_timeout ?? 5_000,
    close_timeout: config.close_timeout ?? 5_000,
    // As long as a client may take to send its request: a handler that never settles does not hang it forever.
    handler_timeout: config.handler_timeout ?? 120_000,
    send_timeout: config.send_timeout ?? 30_000,
    redirect_origins: config.redirect_origins ?? [],
    use_context_locals: config.use_context_locals ?? true,
    debug: config.debug ?? false,
    trust_proxy: config.trust_proxy ?? false,
    request_id_header: typeof config.request_id_header === 'string' ? config.request_id_header.toLowerCase() : (config.request_id_header ?? 'x-request-id'),
    etag: config.etag ?? true,
    request_cls: config.request_cls ?? Request,
    response_cls: config.response_cls ?? Response,
  };
  for (const [key, rule] of Object.entries(rules) as Array<[string, ConfigRule & { confdirPath?: true; defaultValue?: unknown }]>) {
    const value = config[key];
    if (value === undefined && 'defaultValue' in rule) resolved[key] = rule.defaultValue;
    else if (typeof value === 'string' && rule.confdirPath) resolved[key] = value.replace(/%\(confdir\)s/g, confdir);
  }
  return resolved;
}

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}
