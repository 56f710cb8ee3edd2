import { compileAllowedHosts } from './allowed-hosts.ts';
import type { ResolvedConfig } from './config.ts';
import type { CookieSigner } from './cookie-signer.ts';
import type { DebugSection } from './debug-page.ts';
import { hostCheck } from './host-check.ts';
import type { KernelLog } from './kernel-log.ts';
import type { Logger } from './logger.ts';
import type { PipelineSettings } from './pipeline-settings.ts';
import type { Request, RequestSettings } from './request.ts';
import type { Response } from './response.ts';
import { compileTrustProxy } from './trust-proxy.ts';

/** What of its kernel, beyond the resolved configuration, {@link pipelineSettingsOf} reads. */
export interface KernelParts {
  /** The configured `request_cls` and `response_cls`, resolved from the container once. */
  readonly requestClass: typeof Request;
  readonly responseClass: typeof Response;
  /** The kernel's `parseBody` hook map (streaming body parsers by media type). */
  readonly bodyParsers: RequestSettings['bodyParsers'];
  /** `kernel.logger` now: read per use, as it may be replaced after `ready()` (or overridden by a subclass). */
  logger(): Logger;
  /** The kernel's logs: each request's logger and the line per request. */
  readonly logs: KernelLog;
  /** `kernel.cookieSigner` as `ready()` found it. */
  readonly cookieSigner: CookieSigner | undefined;
  /** With the debug page on: the plugins' sections of it for a failed request. */
  readonly debugSections: ((request: Request) => DebugSection[]) | undefined;
  /** True once the kernel is closing. */
  closing(): boolean;
  /** Aborted as the kernel starts closing. */
  readonly closingSignal: AbortSignal;
}

/**
 * The {@link PipelineSettings} a kernel's pipeline is made with at `ready()`: the configuration
 * compiled once (`trust_proxy`, `allowed_hosts`, the request id header), so that a request reads
 * plain values and never the configuration itself.
 *
 * @example
 * ```ts
 * this.pipeline = new Pipeline(this.hooks, pipelineSettingsOf(config, parts));
 * ```
 */
export function pipelineSettingsOf(config: ResolvedConfig, parts: KernelParts): PipelineSettings {
  const logs = parts.logs;
  return {
    handlerTimeout: config.handler_timeout,
    sendTimeout: config.send_timeout,
    etag: config.etag,
    redirectOrigins: new Set(config.redirect_origins),
    errorPaths: config.errors,
    logger: parts.logger,
    // Resolved once: per-request work is a plain `new`, never a container lookup or scope.
    requestClass: parts.requestClass,
    responseClass: parts.responseClass,
    requestSettings: {
      bodyLimit: config.body_limit,
      paramLimit: config.param_limit,
      bodyParsers: parts.bodyParsers,
      useContextLocals: config.use_context_locals,
      trustProxy: compileTrustProxy(config.trust_proxy),
      requestIdHeader: config.request_id_header,
      requestLog: logs.forRequest,
      cookieSigner: parts.cookieSigner,
    },
    contextLocals: config.use_context_locals,
    closing: parts.closing,
    closingSignal: parts.closingSignal,
    checkHost: hostCheck(config.allowed_hosts === undefined ? undefined : compileAllowedHosts(config.allowed_hosts)),
    debugSections: parts.debugSections,
    logging: logs.requestLogging(config.request_id_header),
  };
}
