/**
 * `@hickory/hooks`: Pecan's application hooks and transactions, on the kernel's tapable hooks.
 *
 * @example
 * ```ts
 * import { hooksPlugin, Hook } from '@hickory/hooks';
 * class Timing extends Hook { override before() {} override after() {} }
 * createKernel({ root, hooks: [new Timing()] }).use(hooksPlugin);
 * ```
 */
export { hooksPlugin } from './plugin.ts';
export { Hook, type HookState, type HookMethod } from './hook.ts';
export { hooks } from './controller-hooks.ts';
export { HOOKS_ERRORS, type HooksErrorCode } from './errors.ts';
export { TransactionHook, type TransactionFunctions, type TransactionState } from './transaction-hook.ts';
export { transactional, after_commit, after_rollback, type TransactionalOptions } from './transactional.ts';
export { secure, SecureController, unlocked, type PermissionCheck } from './secure.ts';
export { RequestViewerHook, REQUEST_VIEWER_ITEMS, type RequestViewerItem, type RequestViewerOptions } from './request-viewer.ts';
