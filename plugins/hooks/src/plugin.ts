import { definePlugin, HTTPError, Response, type Kernel, type Request } from '@hickory/core';
import { tapDirect, writeDefaultError, checkOptionNames } from '@hickory/core/kit';
import { dispatchPlugin } from '@hickory/dispatch';
import { handlerCallOf, recordWalks, walkedControllers, type HandlerCall } from '@hickory/dispatch/kit';
import { declaredHookCount } from './controller-hooks.ts';
import { hooksRunSection } from './debug-section.ts';
import type { Hook } from './hook.ts';
import { byPriority, checkHookList, hookListProblem } from './hook-list.ts';
import { hooksInForce } from './hooks-in-force.ts';
import { hookStateOf, startRequest, type RequestHooks } from './request-hooks.ts';
import { reversed, runErrorHooks, runHooks } from './run-hooks.ts';
// On a line of its own: the import line above is also edited by the plugin-options change on main.
import { APP_HOOKS_STAGE } from '@hickory/core/kit';
// The route map's marks (hooks, transactional) come with the plugin.
import './route-marks.ts';

/**
 * Pecan's application hooks for Hickory. Reads the `hooks` configuration key (a list,
 * application-wide) and the `@hooks(...)` declarations of controllers, and runs them on the
 * kernel's hooks: `on_route` on `beforeRoute`, `before` on `beforeHandle` (routed, body read),
 * `on_error` on `onAbort`/`onError`, `after` on `beforeSend` — these three at
 * `APP_HOOKS_STAGE`, before every plugin's taps of the default stage. With no hooks anywhere it
 * taps nothing, so requests pay nothing. Depends on dispatch (the walk says which controllers a request
 * went through).
 *
 * @example
 * ```ts
 * const app = createKernel({ root, hooks: [new TimingHook()] }).use(hooksPlugin);
 * ```
 */
export const hooksPlugin = definePlugin({
  name: 'hooks',
  dependencies: [dispatchPlugin],
  config: {
    hooks: (value) => {
      const problem = hookListProblem(value);
      return problem === undefined ? undefined : `must be a list of hooks (Hook instances, or objects with on_route, before, after or on_error methods): ${problem}`;
    },
  },
  apply(kernel, options) {
    // It has no options: any given would be ignored, so they fail ready() instead.
    checkOptionNames('hooks', options, []);
    kernel.addDebugSection(hooksRunSection);
    kernel.hooks.ready.tap('hooks', () => {
      const appHooks = byPriority(checkHookList(kernel.config['hooks'] ?? []));
      if (appHooks.length === 0 && declaredHookCount() === 0) return;
      recordWalks(kernel);
      tapRequestHooks(kernel, appHooks);
    });
  },
});

// Taps the kernel's request hooks (inside its `ready` tap: before the hooks are sealed).
function tapRequestHooks(kernel: Kernel, appHooks: readonly Hook[]): void {
  const { hooks } = kernel;
  tapDirect(hooks.beforeRoute, 'hooks', (request, response) => {
    const known = hookStateOf(request);
    // An error page routed for this request is part of its error response: no hooks of its own.
    if (known !== undefined && (known.phase === 'failed' || known.phase === 'done')) return undefined;
    // A new routing (first, or after an internal redirect, as Pecan's recursive call) starts anew.
    const state = startRequest(request, response, appHooks, kernel.logger);
    const ran = runHooks(appHooks, 'on_route', state);
    return ran === undefined ? undefined : ran.then(nothing);
  });
  tapDirect(hooks.beforeHandle, 'hooks', (lookup, request, response) => {
    const state = hookStateOf(request);
    if (state === undefined || state.phase !== 'routing') return undefined;
    const call = handlerCallOf(lookup);
    state.controller = call?.handler ?? (typeof lookup.target === 'function' ? lookup.target : undefined);
    // `before` hooks see the arguments as the handler will: validated by dispatch's schemas.
    const preparing = call?.prepare(request, response);
    if (preparing !== undefined) return preparing.then(() => runBefore(state, appHooks, call, request, response));
    return runBefore(state, appHooks, call, request, response);
  });
  const onError = async (error: unknown, request: Request, response: Response): Promise<Response | undefined> => {
    const state = hookStateOf(request);
    if (state === undefined || state.phase === 'failed' || state.phase === 'done') return undefined;
    state.phase = 'failed';
    state.error = error;
    state.response = response;
    try {
      const answer = await runErrorHooks(state.hooks, state, error);
      return answer instanceof Response ? answer : undefined;
    } catch (hookError) {
      kernel.logger.error(`an on_error hook failed for ${request.method} ${request.path}`, hookError);
      return internalError(request);
    }
  };
  // At APP_HOOKS_STAGE: plugins (stage 0) wrap the hooks, as WSGI middleware wraps a Pecan app,
  // and see what on_error and after hooks left, whenever they tapped.
  hooks.onAbort.tapPromise({ name: 'hooks', stage: APP_HOOKS_STAGE }, onError);
  hooks.onError.tapPromise({ name: 'hooks', stage: APP_HOOKS_STAGE }, onError);
  tapDirect(hooks.beforeSend, 'hooks', (request, response) => {
    const state = hookStateOf(request);
    if (state === undefined || state.phase === 'done') return undefined;
    state.phase = 'done';
    state.response = response;
    return runHooks(reversed(state.hooks), 'after', state);
  }, { stage: APP_HOOKS_STAGE });
}

// The `before` hooks of a routed request, once its arguments are known.
function runBefore(state: RequestHooks, appHooks: readonly Hook[], call: HandlerCall | undefined, request: Request, response: Response): Promise<undefined> | undefined {
  state.arguments = call === undefined ? NO_ARGUMENTS : call.argumentsFor(request, response);
  state.hooks = hooksInForce(appHooks, walkedControllers(request));
  state.response = response;
  state.phase = 'handling';
  const ran = runHooks(state.hooks, 'before', state);
  return ran === undefined ? undefined : ran.then(nothing);
}

function internalError(request: Request): Response {
  const response = new Response();
  writeDefaultError(new HTTPError(500), request.raw, response);
  return response;
}

function nothing(): undefined {
  return undefined;
}

const NO_ARGUMENTS: readonly unknown[] = Object.freeze([]);
