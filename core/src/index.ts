/**
 * `@hickory/core`: the kernel of Hickory. HTTP, the request/response objects, the plugin
 * system, the hooks and the DI container; routing and rendering come from plugins.
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
export { createHooks, tapDirect, type DirectTap, type DirectTapOf, type HookName, type HooksOf, type RenderJob, type ResponseInfo } from './hooks.ts';
export { Request, NoVariablesInBody, BODYLESS_METHODS, type Lookup, type RequestSettings, type BodyParseResult } from './request.ts';
export { Response, withCharset, type AppIter, type ResponseInit } from './response.ts';
export { request, response, currentExchange, type Exchange } from './current.ts';
export { HTTPError, abort, describe, type ErrorHeaders } from './http-error.ts';
export { redirect, HTTPRedirect, InternalRedirect, type RedirectOptions } from './redirect.ts';
export { loadConfig, type HickoryConfigFile, type ServerConfig } from './load-config.ts';
export { importModule, resolveExport } from './load-module.ts';
export { CORE_CONFIG, confdirPath, resolveConfig, withDefault, type ConfigRule, type KernelConfig, type ResolvedConfig, type RootSpec } from './config.ts';
export { CORE_ERRORS, HickoryError, coreError, tableError, type CoreErrorCode } from './errors.ts';
export { isThenable } from './bail-runner.ts';
export { HeaderMap, assertHeaderValue, type Headers, type HeaderValue } from './header-map.ts';
export { BODY_HEADERS, dropBodyHeaders, escapeHtml, prefersJson, writeDefaultError } from './error-body.ts';
export { contentDisposition, type ContentDispositionOptions } from './content-disposition.ts';
export { parseCookies, setCookieValue, type CookieOptions } from './cookies.ts';
export { parseUrlEncoded, parseUrlEncodedBody, mergeVariables, type UrlEncodedSource, type Variables, type VariableValue } from './variables.ts';
export { parseJsonBody } from './json-body.ts';
export { jsonify, type JsonEncoder } from './jsonify.ts';
export { refuseContentEncoding } from './content-encoding.ts';
export { INPUT_OBJECT_PROTOTYPE, inputObject } from './input-object.ts';
export { silentLogger, stderrLogger, type Logger } from './logger.ts';
export { isPinoLike, SILENT_LOG, type LogMethod, type PinoLike } from './pino-like.ts';
export { loggerAsPino, pinoAsLogger } from './log-adapters.ts';
export { checkLoggerOption, loggingFor, type Logging, type LoggerOption, type PinoOptions } from './logger-option.ts';
export { acceptRequestId, newRequestId, REQUEST_ID_LIMIT } from './request-id.ts';
export { routeOf } from './request-logging.ts';
export type { Environ } from './environ.ts';
export { debugPage, maskedHeaders, type DebugSection, type DebugSectionSource } from './debug-page.ts';
export { compileTrustProxy, type TrustHop, type TrustProxy } from './trust-proxy.ts';
export { clientConnection, type ClientConnection } from './client-connection.ts';
