import type { AsyncSeriesBailHook, HookMap } from 'tapable';
import type { CookieSigner } from './cookie-signer.ts';
import type { PinoLike } from './pino-like.ts';
import type { TrustHop } from './trust-proxy.ts';
import type { Variables } from './variables.ts';

/**
 * What a `parseBody` tap gives back: the body variables (`request.POST`).
 *
 * @example
 * ```ts
 * kernel.hooks.parseBody.for('text/csv').tapPromise('csv', async (request): Promise<BodyParseResult> => rowsOf(request.raw));
 * ```
 */
export type BodyParseResult = Variables;

/**
 * The settings a request of type `Req` needs from its kernel (limits and body parsers). Everyone
 * uses `RequestSettings` (`RequestSettingsOf<Request>`, from the request's module): the request
 * type is a parameter here so that this file never imports the request, which reads its settings
 * (one file importing the other both ways would be an import circle).
 *
 * @example
 * ```ts
 * const settings: RequestSettingsOf<Request> = { bodyLimit: 1_048_576, paramLimit: 1000, bodyParsers: kernel.hooks.parseBody };
 * ```
 */
export interface RequestSettingsOf<Req> {
  /** Largest body read into memory, in bytes. */
  readonly bodyLimit: number;
  /** Most query or form parameters accepted. */
  readonly paramLimit: number;
  /** Streaming body parsers by media type (the kernel's `parseBody` hook map). */
  readonly bodyParsers: HookMap<AsyncSeriesBailHook<[Req], BodyParseResult | undefined>>;
  /** The app's `use_context_locals` (left out: `true`). */
  readonly useContextLocals?: boolean;
  /** The compiled `trust_proxy` (left out: no proxy is trusted, forwarding headers are never read). */
  readonly trustProxy?: TrustHop | undefined;
  /** `request_id_header`, lower-case (left out: `x-request-id`; `false`: no header is read). */
  readonly requestIdHeader?: string | false;
  /** Makes `request.log` when it is first read (left out: a logger that writes nothing). */
  readonly requestLog?: (request: Req) => PinoLike;
  /** Verifies `request.signed_cookies` and signs for this request's responses (`kernel.cookieSigner`). */
  readonly cookieSigner?: CookieSigner | undefined;
}
