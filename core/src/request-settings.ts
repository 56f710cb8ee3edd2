import type { AsyncSeriesBailHook, HookMap } from 'tapable';
import type { CookieSigner } from './cookie-signer.ts';
import type { PinoLike } from './pino-like.ts';
import type { Request } from './request.ts';
import type { TrustHop } from './trust-proxy.ts';
import type { Variables } from './variables.ts';

/** What a `parseBody` tap gives back: the body variables (`request.POST`). */
export type BodyParseResult = Variables;

/** The settings a {@link Request} needs from its kernel (limits and body parsers). */
export interface RequestSettings {
  /** Largest body read into memory, in bytes. */
  readonly bodyLimit: number;
  /** Most query or form parameters accepted. */
  readonly paramLimit: number;
  /** Streaming body parsers by media type (the kernel's `parseBody` hook map). */
  readonly bodyParsers: HookMap<AsyncSeriesBailHook<[Request], BodyParseResult | undefined>>;
  /** The app's `use_context_locals` (left out: `true`). */
  readonly useContextLocals?: boolean;
  /** The compiled `trust_proxy` (left out: no proxy is trusted, forwarding headers are never read). */
  readonly trustProxy?: TrustHop | undefined;
  /** `request_id_header`, lower-case (left out: `x-request-id`; `false`: no header is read). */
  readonly requestIdHeader?: string | false;
  /** Makes `request.log` when it is first read (left out: a logger that writes nothing). */
  readonly requestLog?: (request: Request) => PinoLike;
  /** Verifies `request.signed_cookies` and signs for this request's responses (`kernel.cookieSigner`). */
  readonly cookieSigner?: CookieSigner | undefined;
}
