import type { IncomingMessage, ServerResponse } from 'node:http';
import { asValue, createContainer, InjectionMode, type AwilixContainer } from 'awilix';
import { inject as lightInject, type InjectOptions, type Response as InjectResponse } from 'light-my-request';
import { emptyPathRedirect, type InjectRequest } from './inject-empty-path.ts';
import { CORE_CONFIG, resolveConfig, type KernelConfig, type ResolvedConfig } from './config.ts';
import { currentExchange, noteExplicitApp } from './current.ts';
import { findSignersWith, type CookieSigner } from './cookie-signer.ts';
import { coreError } from './errors.ts';
import { createHooks, sealHooks, type HooksOf } from './hooks.ts';
import { importModules } from './load-module.ts';
import { resolveRoot } from './root.ts';
import { KernelLog } from './kernel-log.ts';
import { pipelineSettingsOf } from './kernel-pipeline.ts';
import type { Logger } from './logger.ts';
import type { PinoLike } from './pino-like.ts';
import type { DebugSectionSource } from './debug-page.ts';
import { DebugSections } from './debug-sections.ts';
import { Pipeline } from './pipeline.ts';
import { checkPlugin, type PluginOf } from './plugin.ts';
import { PluginRegistry } from './plugin-registry.ts';
import { InFlight } from './in-flight.ts';
import { whenItsTurn } from './pipelined-turn.ts';
import type { Request } from './request.ts';
import { cookieSignerOf } from './request-end.ts';
import type { Response } from './response.ts';
import { refuseWhileClosing } from './server-response.ts';
import { Servers, type ListenOptions, type Listening } from './servers.ts';
import { KernelRendering } from './kernel-rendering.ts';

/** The frozen hooks object of a kernel (see `createHooks` in `hooks.ts` for each hook). */
export type KernelHooks = HooksOf<Kernel>;

/**
 * A Hickory plugin: a name, the plugins it needs, the configuration keys it reads, and an
 * `apply(kernel, options)` that taps the kernel's hooks (under the plugin's own name).
 *
 * @example
 * ```ts
 * const hello: Plugin = { name: 'hello', apply: (kernel) => kernel.hooks.beforeRoute.tap('hello', () => 'Hello') };
 * ```
 */
export type Plugin<Options = any> = PluginOf<Kernel, Options>;

export type { ListenOptions, Listening } from './servers.ts';

type State = 'booting' | 'starting' | 'ready' | 'closing' | 'closed';

// A signed cookie set during a request is signed by that request's kernel.
findSignersWith(() => {
  const exchange = currentExchange();
  return exchange === undefined ? undefined : cookieSignerOf(exchange.request);
});

/**
 * The Hickory kernel: HTTP, the request/response objects, plugins, hooks and the DI container.
 * It knows nothing of controllers: routing, rendering engines and body formats come from plugins
 * tapping {@link Kernel.hooks}. Make one with {@link createKernel}.
 *
 * A value produced by a `beforeRoute`/`afterLookup` tap or a lookup's `handle()` is applied to the
 * response: a `Response` replaces it, a string or bytes become the body, another object is sent as
 * JSON, `undefined` leaves it as it is (a 200 with no body becomes 204).
 *
 * @example
 * ```ts
 * const app = createKernel({ root: new RootController() }).use(dispatchPlugin);
 * await app.ready();
 * const res = await app.inject({ method: 'GET', url: '/' });
 * ```
 */
export class Kernel extends KernelRendering {
  /** The kernel's frozen hooks (see `hooks.ts` for each hook's type and contract). */
  readonly hooks: KernelHooks;
  /** The awilix container: `request_cls`, `response_cls`, `kernel`, `config` and plugin services. */
  readonly container: AwilixContainer = createContainer({ injectionMode: InjectionMode.CLASSIC, strict: true });
  /** The root controller, resolved from `config.root` by `ready()` (routing plugins read it). */
  root: object | undefined;
  /**
   * Where the kernel and plugins log (`logger.error(message, ...details)`); guarded so that logging
   * never throws (see `guardLogger`). Setting it after `ready()` keeps the line per request as
   * configured.
   */
  get logger(): Logger {
    return this.logs.logger;
  }
  set logger(logger: Logger | PinoLike) {
    this.logs.replace(logger);
  }

  /**
   * The same logger, pino-style (`log.info({ fields }, 'message')`, `log.child(bindings)`), as
   * fastify's `app.log`: pino itself when the app logs through pino, else a face over `logger`.
   *
   * @example
   * ```ts
   * app.log.info({ port }, 'listening');
   * ```
   */
  get log(): PinoLike {
    return this.logs.log;
  }

  /**
   * True when the kernel writes a line per request and sends `X-Request-Id` (its `logger` is
   * `true`, pino's options or a pino-compatible logger); fixed when the kernel is made.
   *
   * @example
   * ```ts
   * if (!app.logsRequests) app.use(requestLog);
   * ```
   */
  get logsRequests(): boolean {
    return this.logs.requests;
  }
  private readonly logs: KernelLog;

  /**
   * Signs `response.set_cookie(…, { signed: true })` and verifies `request.signed_cookies`:
   * empty until a plugin fills it in `apply()` (`sessionPlugin` does, with its secrets); read
   * once, at `ready()`.
   *
   * @example
   * ```ts
   * apply(kernel) { kernel.cookieSigner = hmacSigner(secrets); }
   * ```
   */
  get cookieSigner(): CookieSigner | undefined {
    return this.signer;
  }
  set cookieSigner(signer: CookieSigner | undefined) {
    if (this.state !== 'booting' && this.state !== 'starting') throw coreError('HICKORY_ERR_USE_AFTER_READY', 'kernel.cookieSigner =');
    this.signer = signer;
  }
  private signer: CookieSigner | undefined;

  private readonly initialConfig: KernelConfig;
  private resolvedConfig: ResolvedConfig | undefined;
  private readonly plugins = new PluginRegistry<Kernel>(this);
  private state: State = 'booting';
  private booting: Promise<this> | undefined;
  private closingPromise: Promise<void> | undefined;
  // Aborted as closing begins: what never ends by itself (an event stream) ends then.
  private readonly closingNow = new AbortController();
  private readonly servers = new Servers();
  private readonly inFlight = new InFlight(() => this.logger);
  // The request's way through the hooks, made at ready() (see `pipeline.ts`).
  private pipeline: Pipeline | undefined;

  constructor(config: KernelConfig = {}) {
    // Made before `super`: the rendering side reads the `render` hook map.
    const hooks = createHooks<Kernel>();
    super(hooks);
    this.hooks = hooks;
    this.initialConfig = { ...config };
    this.logs = new KernelLog(config.logger);
    this.container.register({ kernel: asValue(this) });
  }

  /** The configuration; complete (defaults, substitutions) once `ready()` has run. */
  get config(): ResolvedConfig {
    return this.resolvedConfig ?? (this.initialConfig as ResolvedConfig);
  }

  /**
   * Aborted as `close()` begins, before in-flight requests are waited for: what never ends by
   * itself (a WebSocket, a stream of your own) is ended on it, or `close()` would wait for it up
   * to `close_timeout`.
   *
   * @example
   * ```ts
   * kernel.closingSignal.addEventListener('abort', () => socket.close(1001), { once: true });
   * ```
   */
  get closingSignal(): AbortSignal {
    return this.closingNow.signal;
  }

  /** True once `ready()` has finished. */
  get isReady(): boolean {
    return this.state === 'ready';
  }

  /**
   * Registers a plugin (and, first, its missing dependencies) and calls its `apply` with
   * `options`. Chainable. A plugin whose name is in use already is not applied again: given
   * without options (or with the same ones) that is a no-op; given other options, which would be
   * ignored, `ready()` fails (`HICKORY_ERR_PLUGIN_OPTIONS_AGAIN`, naming the plugin and the
   * options). What `apply` throws (a bad option included) also fails `ready()`.
   *
   * @example
   * ```ts
   * createKernel(config).use(restPlugin).use(ejsRenderer, { cache: false });
   * ```
   */
  use<O>(plugin: Plugin<O>, options?: O): this {
    checkPlugin(plugin);
    if (this.state !== 'booting') throw coreError('HICKORY_ERR_USE_AFTER_READY', plugin.name);
    this.plugins.register(plugin, options);
    return this;
  }

  /** True when a plugin of that name is in use. */
  hasPlugin(name: string): boolean {
    return this.plugins.has(name);
  }

  /**
   * Finishes booting: awaits plugins' async setup, checks the configuration (unknown keys and bad
   * values fail here, naming the key), loads `modules` and `root`, resolves `request_cls` and
   * `response_cls` from the container once, runs the `ready` hook and seals the hooks.
   *
   * @example
   * ```ts
   * await createKernel({ root: RootController }).use(dispatchPlugin).ready();
   * ```
   */
  ready(): Promise<this> {
    return (this.booting ??= this.boot());
  }

  private async boot(): Promise<this> {
    this.state = 'starting';
    await this.plugins.applied();
    const config = resolveConfig(this.initialConfig, { ...CORE_CONFIG, ...this.plugins.configRules });
    // A `logger` option pino refused surfaces here, with the other configuration mistakes.
    if (this.logs.error !== undefined) throw this.logs.error;
    this.resolvedConfig = config;
    const debugging = this.debug.decide(config.debug, this.logger);
    this.container.register({ config: asValue(config) });
    await importModules(config.modules, config.confdir);
    this.root = await resolveRoot(config.root, config.confdir);
    this.container.register({
      request_cls: asValue(config.request_cls),
      response_cls: asValue(config.response_cls),
    });
    if (!config.use_context_locals) noteExplicitApp();
    await this.hooks.ready.promise(this);
    this.checkDefaultRenderer(config.default_renderer);
    sealHooks(this.hooks);
    this.pipeline = new Pipeline(
      this.hooks,
      pipelineSettingsOf(config, {
        requestClass: this.container.resolve<typeof Request>('request_cls'),
        responseClass: this.container.resolve<typeof Response>('response_cls'),
        bodyParsers: this.hooks.parseBody,
        logger: () => this.logger,
        logs: this.logs,
        cookieSigner: this.signer,
        debugSections: debugging ? (request) => this.debug.sectionsFor(request, this.logger) : undefined,
        closing: () => this.state === 'closing',
        closingSignal: this.closingNow.signal,
      }),
    );
    this.state = 'ready';
    return this;
  }

  /**
   * Adds a section to the debug page (`debug: true`) of a request that failed: what a plugin knows
   * of it (dispatch: the route walked; hooks: the hooks that ran). Call in `apply()`.
   *
   * @example
   * ```ts
   * kernel.addDebugSection((request) => ({ title: 'Tenant', rows: [['id', String(request.context['tenant'])]] }));
   * ```
   */
  addDebugSection(source: DebugSectionSource): void {
    if (this.state !== 'booting' && this.state !== 'starting') throw coreError('HICKORY_ERR_USE_AFTER_READY', 'addDebugSection()');
    this.debug.add(source);
  }
  private readonly debug = new DebugSections();

  /**
   * True from `ready()` on when unhandled errors answer the debug page: `debug: true`, outside
   * production. Plugins read it in a `ready` tap to collect what their debug section shows.
   *
   * @example
   * ```ts
   * kernel.hooks.ready.tap('audit', () => { if (kernel.debugging) recordWalks(kernel); });
   * ```
   */
  get debugging(): boolean {
    return this.debug.enabled;
  }

  /**
   * The `(req, res)` listener for `node:http` (call after `ready()`). It is made for a server's
   * `request` event: on Node 24 and later the request's async context stays current until the
   * code that called it returns to Node's event loop — another `request` listener after it, or code
   * of your own calling it directly, sees it (use `inject()` to serve a request in-process).
   *
   * @example
   * ```ts
   * await app.ready();
   * http.createServer(app.callback()).listen(8080);
   * ```
   */
  callback(): (req: IncomingMessage, res: ServerResponse) => void {
    if (this.state === 'booting' || this.state === 'starting') throw coreError('HICKORY_ERR_NOT_READY', 'callback()');
    return this.listener;
  }

  // A request pipelined behind a response still being written waits for its turn (and is never
  // served when the connection closes first); the state is read when its turn comes.
  private readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    whenItsTurn(req, res, this.serveNow);
  };

  private readonly serveNow = (req: IncomingMessage, res: ServerResponse): void => {
    if (this.state === 'ready') this.inFlight.serve(this.pipeline!.accept, req, res);
    else refuseWhileClosing(res);
  };

  /**
   * Starts an HTTP server on `host:port` (after `ready()`), with the configured timeouts.
   *
   * @example
   * ```ts
   * const { url } = await app.listen({ port: 8080, host: '127.0.0.1' });
   * ```
   */
  async listen(options: ListenOptions = {}): Promise<Listening> {
    await this.ready();
    if (this.state !== 'ready') throw coreError('HICKORY_ERR_CLOSED', 'listen() after close()');
    return this.servers.listen(this.config, this.callback(), options, this);
  }

  /**
   * Handles a request in-process, without a socket (light-my-request); calls `ready()` first.
   *
   * @example
   * ```ts
   * const res = await app.inject({ method: 'POST', url: '/books/', payload: { name: 'Dune' } });
   * res.statusCode; res.json();
   * ```
   */
  async inject(options: InjectRequest | string): Promise<InjectResponse> {
    await this.ready();
    const toRoot = emptyPathRedirect(options as InjectOptions | string);
    if (toRoot !== undefined) return lightInject(toRoot.answer, toRoot.options);
    // After the `await` above, this runs as a promise continuation of its own: the request's async
    // context, entered and not left (see `serveInContext`), ends with it, and the caller keeps its own.
    return lightInject(this.listener, options as InjectOptions | string);
  }

  /**
   * Shuts down gracefully: stops accepting connections, answers new requests on open connections
   * with 503 and `Connection: close`, lets in-flight requests finish (up to `close_timeout`), then
   * destroys what is left and runs the `close` hook.
   *
   * @example
   * ```ts
   * process.once('SIGTERM', () => app.close());
   * ```
   */
  close(): Promise<void> {
    return (this.closingPromise ??= this.shutdown());
  }

  private async shutdown(): Promise<void> {
    if (this.booting) await this.booting.catch(() => {});
    this.state = 'closing';
    this.closingNow.abort();
    await this.servers.close(this.inFlight.drained(), this.config.close_timeout ?? 5_000);
    this.state = 'closed';
    await this.hooks.close.promise(this);
  }
}

/**
 * Creates a kernel from a configuration (see `KernelConfig` for every key).
 *
 * @example
 * ```ts
 * const app = createKernel({ root: new RootController(), template_path: './templates' }).use(restPlugin).use(ejsRenderer);
 * ```
 */
export function createKernel(config: KernelConfig = {}): Kernel {
  return new Kernel(config);
}
