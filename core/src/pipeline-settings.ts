import type { DebugSection } from './debug-page.ts';
import type { HooksOf } from './hooks.ts';
import type { Logger } from './logger.ts';
import type { Request, RequestSettings } from './request.ts';
import type { RequestLogging } from './request-logging.ts';
import type { Response } from './response.ts';

/** The hooks a request passes through (none of them involves the kernel's own type). */
export type RequestHooks = Pick<HooksOf<unknown>, 'beforeRoute' | 'route' | 'afterLookup' | 'beforeHandle' | 'beforeSend' | 'onAbort' | 'onError' | 'onResponse'>;

/** What the {@link Pipeline} needs of its kernel, read once at `ready()`. */
export interface PipelineSettings {
  /**
   * `handler_timeout` in ms: a request whose routing, checks, hooks and handler together have not
   * finished then → 503 (time waiting for its body not counted).
   */
  readonly handlerTimeout: number;
  /** `send_timeout` in ms: a response the client does not take within it is cut. */
  readonly sendTimeout: number;
  /** `etag`: buffered GET/HEAD 200 answers get a weak ETag (left out: no tag is made). */
  readonly etag?: boolean;
  /** `redirect_origins`: where a redirect may leave the site to. */
  readonly redirectOrigins: ReadonlySet<string>;
  /** `errors`: status → path of the error document. */
  readonly errorPaths: Readonly<Record<number, string>> | undefined;
  /** The kernel's logger now (it may be replaced after `ready()`). */
  logger(): Logger;
  /** The configured `request_cls`, and what every request is made with. */
  readonly requestClass: typeof Request;
  readonly requestSettings: RequestSettings;
  /** The configured `response_cls`. */
  readonly responseClass: typeof Response;
  /** `use_context_locals`: each request runs inside its AsyncLocalStorage frame. */
  readonly contextLocals: boolean;
  /** True once the kernel is closing: responses then say `Connection: close`. */
  closing(): boolean;
  /** Aborts when the kernel starts closing: live streams (server-sent events) end then. */
  readonly closingSignal: AbortSignal;
  /** Throws the request's 400 when its Host is not a valid host[:port] or not in `allowed_hosts`. */
  readonly checkHost: (request: Request) => void;
  /** The line per request and the request id header, when the app logs through pino; left out: neither, at no cost. */
  readonly logging?: RequestLogging;
  /** With `debug: true` (refused in production): the plugins' sections of the debug page. */
  readonly debugSections?: (request: Request) => DebugSection[];
}
