/**
 * `@hickory/core/kit`: the kernel's building blocks, for plugin authors: the first-party plugins,
 * the app and the CLI are built with them (hot-path taps, error tables, the current exchange, body
 * parsers, error-body helpers, headers). Application code needs none of them: it imports
 * `@hickory/core` (or `@hickory/app`). `docs/plugins.md` tells when to reach for them.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@hickory/core';
 * import { tapDirect } from '@hickory/core/kit';
 *
 * export const timing = definePlugin({
 *   name: 'timing',
 *   apply(kernel) {
 *     tapDirect(kernel.hooks.beforeRoute, 'timing', (_request, response) => {
 *       response.headers['X-Started'] = String(Date.now());
 *     });
 *   },
 * });
 * ```
 */
export { tapDirect, APP_HOOKS_STAGE, type DirectTap, type DirectTapOf, type DirectTapOptions } from './hooks.ts';
export { confdirPath, withDefault } from './config.ts';
export { isThenable } from './bail-runner.ts';
export { loadOnce } from './load-once.ts';
export { coreError, tableError } from './errors.ts';
export { checkOptionNames } from './plugin-options.ts';
export { checkPlugin } from './plugin.ts';
export { currentExchange } from './current.ts';
export { stampCookieSigner } from './cookie-signer.ts';
export { HeaderMap, assertHeaderValue } from './header-map.ts';
export { describe } from './http-error.ts';
export { NoVariablesInBody } from './request-body-rules.ts';
export { requestEnded } from './request-end.ts';
export { discardBody } from './discard-body.ts';
export { BODY_HEADERS, dropBodyHeaders, writeDefaultError } from './error-body.ts';
export { preferredType } from './accept.ts';
export { parseUrlEncoded, type UrlEncodedSource } from './variables.ts';
export { parseJsonBody } from './json-body.ts';
export { inputObject } from './input-object.ts';
export { refuseContentEncoding } from './content-encoding.ts';
export { silentLogger, stderrLogger } from './logger.ts';
export { isDevelopment } from './development.ts';
export { acceptUpgrades, takeUpgrade, type UpgradeAcceptor } from './upgrade.ts';
export { answerConditional } from './etag.ts';
export { varyOn } from './vary.ts';
