/**
 * `@hickory/core`: the kernel of Hickory. HTTP, the request/response objects, the plugin
 * system, the hooks and the DI container; routing and rendering come from plugins. What
 * applications import; plugin authors find the kernel's building blocks in `@hickory/core/kit`.
 *
 * @example
 * ```ts
 * import { createKernel, definePlugin } from '@hickory/core';
 * const hello = definePlugin({
 *   name: 'hello',
 *   apply: (k) => k.hooks.beforeRoute.tap('hello', () => 'Hello'),
 * });
 * const { url } = await createKernel().use(hello).listen({ port: 8080 });
 * ```
 */
export { createKernel, Kernel, type KernelHooks, type ListenOptions, type Listening, type Plugin } from './kernel.ts';
export { definePlugin } from './define-plugin.ts';
export type { PluginOf } from './plugin.ts';
export type { HookName, HooksOf, RenderJob, ResponseInfo } from './hooks.ts';
export { Request, type Lookup, type RequestSettings, type BodyParseResult } from './request.ts';
export type { BeforeEnd, EndOutcome } from './before-end.ts';
export { Response, type AppIter, type ResponseInit } from './response.ts';
export { request, response, type Exchange } from './current.ts';
export { HTTPError, abort, type ErrorHeaders } from './http-error.ts';
export { redirect, HTTPRedirect, InternalRedirect, type RedirectOptions } from './redirect.ts';
export { loadConfig, type HickoryConfigFile, type ServerConfig } from './load-config.ts';
export type { ConfigRule, KernelConfig, ResolvedConfig, RootSpec } from './config.ts';
export { CORE_ERRORS, HickoryError, type CoreErrorCode } from './errors.ts';
export type { Headers, HeaderValue } from './header-map.ts';
export { escapeHtml } from './error-body.ts';
export { contentDisposition, type ContentDispositionOptions } from './content-disposition.ts';
export { eventStream, type EventFeed, type EventStreamOptions, type ServerSentEvent } from './event-stream.ts';
export type { CookieOptions } from './cookies.ts';
export type { CookieSigner } from './cookie-signer.ts';
export type { Variables, VariableValue } from './variables.ts';
export { jsonify, type JsonEncoder } from './jsonify.ts';
export type { Logger } from './logger.ts';
export type { LogMethod, PinoLike } from './pino-like.ts';
export type { LoggerOption, PinoOptions } from './logger-option.ts';
export type { Environ } from './environ.ts';
export type { DebugSection, DebugSectionSource } from './debug-page.ts';
export type { TrustProxy } from './trust-proxy.ts';
export type { ClientConnection } from './client-connection.ts';
