import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asValue, createContainer, InjectionMode, type AwilixContainer } from 'awilix';
import { inject as lightInject, type InjectOptions, type Response as InjectResponse } from 'light-my-request';
import { CORE_CONFIG, resolveConfig, type ConfigRule, type KernelConfig, type ResolvedConfig } from './config.ts';
import { exchangeStorage, noteExplicitApp, type Exchange } from './current.ts';
import { coreError } from './errors.ts';
import { createHooks, sealHooks, type HooksOf } from './hooks.ts';
import { createHttpServer } from './http-server.ts';
import { importModule } from './load-module.ts';
import { resolveRoot } from './root.ts';
import { loggerAsPino, pinoAsLogger } from './log-adapters.ts';
import { guardLogger, type Logger } from './logger.ts';
import { loggingFor, type Logging } from './logger-option.ts';
import { isPinoLike, SILENT_LOG, type PinoLike } from './pino-like.ts';
import { RequestLogging } from './request-logging.ts';
import type { DebugSection, DebugSectionSource } from './debug-page.ts';
import { Pipeline } from './pipeline.ts';
import { checkPlugin, type PluginOf } from './plugin.ts';
import { Request, type RequestSettings } from './request.ts';
import { compileTrustProxy } from './trust-proxy.ts';
import { Response } from './response.ts';
import { answerInternalError, refuseWhileClosing } from './server-response.ts';
import { RenderEngines } from './render-engines.ts';

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

/** Options of {@link Kernel.listen}. */
export interface ListenOptions {
  /** Port to listen on (0 picks a free one). Default 8080. */
  port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
}

/** What {@link Kernel.listen} gives back. */
export interface Listening {
  server: Server;
  /** `http://host:port` of the listening server. */
  url: string;
}

type State = 'booting' | 'starting' | 'ready' | 'closing' | 'closed';

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
export class Kernel {
  /** The kernel's frozen hooks (see `hooks.ts` for each hook's type and contract). */
  readonly hooks: KernelHooks = createHooks<Kernel>();
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
    return this.guardedLogger;
  }
  set logger(logger: Logger | PinoLike) {
    const pino = isPinoLike(logger);
    this.guardedLogger = guardLogger(pino ? pinoAsLogger(logger) : logger);
    this.pinoLog = pino ? logger : loggerAsPino(this.guardedLogger);
  }
  private guardedLogger: Logger;

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
    return this.pinoLog;
  }
  private pinoLog: PinoLike;

  /**
   * True when the kernel writes a line per request and sends `X-Request-Id` (its `logger` is
   * `true`, pino's options or a pino-compatible logger); fixed when the kernel is made.
   *
   * @example
   * ```ts
   * if (!app.logsRequests) app.use(requestLog);
   * ```
   */
  readonly logsRequests: boolean;
  // A `logger` option pino refused: reported by ready(), where configuration mistakes surface.
  private readonly loggingError: unknown;

  private readonly initialConfig: KernelConfig;
  private resolvedConfig: ResolvedConfig | undefined;
  private readonly configRules: Record<string, ConfigRule> = { ...CORE_CONFIG };
  private readonly plugins = new Map<string, Plugin>();
  private readonly applying: Array<Promise<unknown>> = [];
  private state: State = 'booting';
  private booting: Promise<this> | undefined;
  private closingPromise: Promise<void> | undefined;
  private readonly servers = new Set<Server>();
  private inflight = 0;
  private drained: (() => void) | undefined;
  private RequestClass: typeof Request = Request;
  private ResponseClass: typeof Response = Response;
  private requestSettings: RequestSettings | undefined;
  // `use_context_locals`, read once at ready(): false → no AsyncLocalStorage per request.
  private contextLocals = true;
  // The request's way through the hooks, made at ready() (see `pipeline.ts`).
  private pipeline: Pipeline | undefined;

  constructor(config: KernelConfig = {}) {
    this.initialConfig = { ...config };
    let logging: Logging;
    try {
      logging = loggingFor(config.logger);
    } catch (error) {
      this.loggingError = error;
      logging = loggingFor(undefined);
    }
    this.guardedLogger = guardLogger(logging.logger);
    this.pinoLog = logging.log;
    this.logsRequests = logging.requests;
    this.container.register({ kernel: asValue(this) });
  }

  /** The configuration; complete (defaults, substitutions) once `ready()` has run. */
  get config(): ResolvedConfig {
    return this.resolvedConfig ?? (this.initialConfig as ResolvedConfig);
  }

  /** True once `ready()` has finished. */
  get isReady(): boolean {
    return this.state === 'ready';
  }

  /**
   * Registers a plugin (and, first, its missing dependencies) and calls its `apply`.
   * Chainable; a second plugin with a name already in use is skipped.
   *
   * @example
   * ```ts
   * createKernel(config).use(restPlugin).use(ejsRenderer, { cache: false });
   * ```
   */
  use<O>(plugin: Plugin<O>, options?: O): this {
    this.register(plugin, options, []);
    return this;
  }

  /** True when a plugin of that name is in use. */
  hasPlugin(name: string): boolean {
    return this.plugins.has(name);
  }

  private register(plugin: Plugin, options: unknown, chain: string[]): void {
    checkPlugin(plugin);
    if (this.state !== 'booting') throw coreError('HICKORY_ERR_USE_AFTER_READY', plugin.name);
    if (chain.includes(plugin.name)) throw coreError('HICKORY_ERR_PLUGIN_CYCLE', [...chain, plugin.name].join(' → '));
    if (this.plugins.has(plugin.name)) return;
    for (const dependency of plugin.dependencies ?? []) this.register(dependency, undefined, [...chain, plugin.name]);
    this.plugins.set(plugin.name, plugin);
    if (plugin.config) Object.assign(this.configRules, plugin.config);
    try {
      const pending = plugin.apply(this, options);
      if (pending && typeof (pending as Promise<void>).then === 'function') {
        const settled = (pending as Promise<void>).catch((error: Error) => {
          throw coreError('HICKORY_ERR_PLUGIN_FAILED', plugin.name, error?.message ?? error, error);
        });
        settled.catch(() => {}); // reported by ready()
        this.applying.push(settled);
      }
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('HICKORY_ERR_')) throw error;
      throw coreError('HICKORY_ERR_PLUGIN_FAILED', plugin.name, (error as Error)?.message ?? error, error);
    }
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
    await Promise.all(this.applying);
    const config = resolveConfig(this.initialConfig, this.configRules);
    if (this.loggingError !== undefined) throw this.loggingError;
    this.resolvedConfig = config;
    this.debugOn = this.debugEnabled(config.debug);
    this.container.register({ config: asValue(config) });
    for (const module of config.modules) {
      try {
        await importModule(module, config.confdir);
      } catch (error) {
        throw coreError('HICKORY_ERR_MODULE_LOAD', module, (error as Error).message, error);
      }
    }
    this.root = await resolveRoot(config.root, config.confdir);
    this.container.register({
      request_cls: asValue(config.request_cls),
      response_cls: asValue(config.response_cls),
    });
    // Resolved once: per-request work is a plain `new`, never a container lookup or scope.
    this.RequestClass = this.container.resolve<typeof Request>('request_cls');
    this.ResponseClass = this.container.resolve<typeof Response>('response_cls');
    this.requestSettings = {
      bodyLimit: config.body_limit,
      paramLimit: config.param_limit,
      bodyParsers: this.hooks.parseBody,
      useContextLocals: config.use_context_locals,
      trustProxy: compileTrustProxy(config.trust_proxy),
      requestIdHeader: config.request_id_header,
      requestLog: this.requestLog,
    };
    this.contextLocals = config.use_context_locals;
    if (!config.use_context_locals) noteExplicitApp();
    await this.hooks.ready.promise(this);
    this.engines.checkDefault(config.default_renderer);
    sealHooks(this.hooks);
    this.pipeline = new Pipeline(this.hooks, {
      handlerTimeout: config.handler_timeout,
      sendTimeout: config.send_timeout,
      redirectOrigins: new Set(config.redirect_origins),
      errorPaths: config.errors,
      logger: () => this.logger,
      newResponse: () => new this.ResponseClass(),
      closing: () => this.state === 'closing',
      debugSections: this.debugOn ? (request) => this.debugSectionsFor(request) : undefined,
      logging: this.logsRequests ? new RequestLogging(() => this.pinoLog, config.request_id_header === false ? undefined : headerName(config.request_id_header)) : undefined,
    });
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
    this.debugSources.push(source);
  }
  private readonly debugSources: DebugSectionSource[] = [];

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
    return this.debugOn;
  }
  private debugOn = false;

  // `debug: true` holds outside production only; there it is refused loudly rather than obeyed.
  private debugEnabled(debug: boolean): boolean {
    if (!debug) return false;
    if (process.env['NODE_ENV'] === 'production') {
      this.logger.warn('debug: true is refused because NODE_ENV=production: an unhandled error answers the plain 500 (the debug page shows stacks and request details)');
      return false;
    }
    // Stacks on the page then point at the TypeScript lines wherever source maps exist.
    process.setSourceMapsEnabled?.(true);
    return true;
  }

  private debugSectionsFor(request: Request): DebugSection[] {
    const sections: DebugSection[] = [];
    for (const source of this.debugSources) {
      try {
        const section = source(request);
        if (section !== undefined) sections.push(section);
      } catch (error) {
        this.logger.error('a debug section failed; the page is shown without it', error);
      }
    }
    return sections;
  }

  // `request.log`: a child of the kernel's log bound to the request id. A logger whose child()
  // fails leaves the request a silent one rather than failing it.
  private readonly requestLog = (request: Request): PinoLike => {
    try {
      return this.pinoLog.child({ reqId: request.id });
    } catch (error) {
      this.logger.error('the logger\'s child() failed; request.log writes nothing for this request', error);
      return SILENT_LOG;
    }
  };

  /**
   * Renders a template through the `render` hook: the engine is the `engine:` prefix of the name,
   * else its extension, else `default_renderer`.
   *
   * @example
   * ```ts
   * const html = await kernel.render('books/list.ejs', { books });
   * ```
   */
  render(template: string, namespace: Record<string, unknown>): Promise<string> {
    try {
      const text = this.renderNow(template, namespace);
      return typeof text === 'string' ? Promise.resolve(text) : text;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private readonly engines = new RenderEngines(
    this.hooks,
    () => this.config.default_renderer,
    () => this.state !== 'booting' && this.state !== 'starting',
  );

  /**
   * {@link Kernel.render} without a promise when the engine renders without waiting (a cached
   * template of a synchronous engine): the text itself, else a promise of it. May throw instead
   * of rejecting. For plugins on the request path, where every promise costs more.
   *
   * @example
   * ```ts
   * const html = kernel.renderNow('page.hbs', { title });
   * response.body = typeof html === 'string' ? html : await html;
   * ```
   */
  renderNow(template: string, namespace: Record<string, unknown>): string | Promise<string> {
    return this.engines.renderNow(template, namespace);
  }

  /**
   * The engine that would render `template` (see {@link Kernel.render}), and whether a plugin
   * renders it; lets routing plugins check templates at `ready()`.
   *
   * @example
   * ```ts
   * kernel.rendererFor('page.njk'); // { engine: 'njk', available: true }
   * ```
   */
  rendererFor(template: string): { engine: string; available: boolean } {
    return this.engines.rendererFor(template);
  }

  /**
   * The engine keys some renderer plugin handles (`ejs`, `njk`, `hbs`, …), sorted.
   *
   * @example
   * ```ts
   * createApp().renderEngines(); // ['ejs', 'handlebars', 'hbs', 'njk', 'nunjucks', …]
   * ```
   */
  renderEngines(): string[] {
    return this.engines.inUse();
  }

  /**
   * The `(req, res)` listener for `node:http` (call after `ready()`).
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

  private readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (this.state !== 'ready') {
      refuseWhileClosing(res);
      return;
    }
    let exchange: Exchange;
    try {
      exchange = { request: new this.RequestClass(req, this.requestSettings!), response: new this.ResponseClass() };
    } catch (error) {
      // A throwing request_cls/response_cls constructor must not reach uncaughtException.
      this.logger.error(`building the request objects for ${req.method} ${req.url} failed`, error);
      answerInternalError(res);
      return;
    }
    this.inflight++;
    let pending: Promise<void> | undefined;
    try {
      const serve = this.pipeline!.serve;
      pending = this.contextLocals ? exchangeStorage.run(exchange, serve, exchange, res) : serve(exchange, res);
    } catch (error) {
      pending = Promise.reject(error);
    }
    if (pending === undefined) this.settled();
    else pending.then(this.settled, (error: unknown) => this.failedAfterBuild(error, res));
  };

  private readonly settled = (): void => {
    if (--this.inflight === 0 && this.drained) this.drained();
  };

  // The last line of defence: whatever escaped the request's own error handling ends here, in a
  // 500 or a destroyed connection, and never throws (its caller is a promise nobody awaits).
  private failedAfterBuild(error: unknown, res: ServerResponse): void {
    this.settled();
    this.logger.error('a request failed after its response was built', error);
    answerInternalError(res);
  }

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
    const server = createHttpServer(this.config, this.callback());
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8080, host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
    this.servers.add(server);
    const { port } = server.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return { server, url: `http://${shownHost}:${port}` };
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
  async inject(options: InjectOptions | string): Promise<InjectResponse> {
    await this.ready();
    return lightInject(this.listener, options);
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
    const closed = [...this.servers].map((server) => new Promise<void>((done) => server.close(() => done())));
    for (const server of this.servers) server.closeIdleConnections();
    const drained = this.inflight === 0 ? Promise.resolve() : new Promise<void>((done) => (this.drained = done));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((done) => {
      timer = setTimeout(done, this.config.close_timeout ?? 5_000);
      timer.unref();
    });
    await Promise.race([drained.then(() => Promise.all(closed)), grace]);
    clearTimeout(timer);
    for (const server of this.servers) server.closeAllConnections();
    await Promise.all(closed);
    this.servers.clear();
    this.state = 'closed';
    await this.hooks.close.promise(this);
  }
}

// `x-request-id` → `X-Request-Id`, as headers are usually written.
function headerName(lowerCase: string): string {
  return lowerCase.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => dash + letter.toUpperCase());
}

/**
 * Creates a kernel from a configuration (see `KernelConfig` for every key).
 *
 * @example
 * ```ts
 * const app = createKernel({ root: new RootController(), template_path: './templates' }).use(restPlugin);
 * ```
 */
export function createKernel(config: KernelConfig = {}): Kernel {
  return new Kernel(config);
}
