import { definePlugin, jsonify } from '@hickory/core';
import { tapDirect, withDefault, checkOptionNames } from '@hickory/core/kit';
import { checkControllerTree } from './check.ts';
import { planOf } from './plan.ts';
import { warnDeadEndChildren } from './dead-end-children.ts';
import { routeRequest, type DispatchSettings } from './dispatch.ts';
import { checkOpenApiConfig } from './openapi-config.ts';
import { invalidInputResponse } from './invalid-input.ts';
import { declaredSchemaCount } from './schema-options.ts';
import { declaredResponseCount } from './response-options.ts';
import { loadResponseCompiler } from './response-serializer.ts';
import { decideResponseChecks } from './response-json.ts';
import { recordWalks, trailSwitchOf } from './walk-trail.ts';
import { routeWalkedSection } from './debug-section.ts';

/**
 * Object dispatch for Hickory: at `ready()` it checks the controller tree of `root` (errors name
 * the cause and the fix; outside production, warnings name fields that put objects with nothing
 * routable in the URL space); per request it walks the tree (`route` hook), maps arguments (validating them
 * against the handler's schemas: a rejection is a JSON 400, through an `onAbort` tap), calls the
 * method and renders the result (JSON through the method's compiled serializer when it declares a
 * response schema: the serializer compiler is loaded at `ready()` only then). Declares
 * `force_canonical` and `guess_content_type_from_ext` (both default `true`), and `openapi` (the
 * security schemes of the OpenAPI document).
 *
 * @example
 * ```ts
 * const app = createKernel({ root: new RootController() }).use(dispatchPlugin);
 * await app.ready();
 * ```
 */
export const dispatchPlugin = definePlugin({
  name: 'dispatch',
  config: {
    force_canonical: withDefault(trueOrFalse, true),
    guess_content_type_from_ext: withDefault(trueOrFalse, true),
    openapi: checkOpenApiConfig,
  },
  apply(kernel, options) {
    // It has no options: any given would be ignored, so they fail ready() instead.
    checkOptionNames('dispatch', options, []);
    let root: object | undefined;
    const trail = trailSwitchOf(kernel);
    let settings: DispatchSettings = { forceCanonical: true, guessFromExtension: true, trail };
    // The serializer compiler, loaded only when some method declares a response schema, before
    // the tree is checked: each such schema is compiled there, so its mistakes surface at ready().
    kernel.hooks.ready.tapPromise('dispatch', async () => {
      if (declaredResponseCount() > 0) await loadResponseCompiler();
    });
    kernel.hooks.ready.tap('dispatch', () => {
      decideResponseChecks(kernel);
      root = checkControllerTree(kernel);
      // The static paths are compiled now, while nothing is being served.
      planOf(root);
      // For developers, as checkControllerTree's alias warning: not for production logs.
      if (process.env['NODE_ENV'] !== 'production') warnDeadEndChildren(kernel, root);
      settings = {
        forceCanonical: kernel.config.force_canonical !== false,
        guessFromExtension: kernel.config.guess_content_type_from_ext !== false,
        trail,
        defaultJson: kernel.config.default_renderer === 'json',
      };
      // Last among onAbort taps: an application's tap (or an on_error hook) may still answer a
      // rejected input its own way; otherwise its 400 is JSON with the issues. Without schemas
      // there is nothing to reject (and a JSON client still gets the issues without this tap).
      if (declaredSchemaCount() > 0) {
        kernel.hooks.onAbort.tap({ name: 'dispatch', stage: 1000 }, (error, _request, response) => invalidInputResponse(error, response));
      }
    });
    tapDirect(kernel.hooks.route, 'dispatch', (request, response) => routeRequest(kernel, root!, settings, request, response));
    // `default_renderer: 'json'` (as Pecan): a template that names no engine renders its namespace as JSON.
    if (kernel.config.default_renderer === 'json') kernel.hooks.render.for('json').tap('dispatch', (job) => jsonify.encode(job.namespace));
    // The debug page shows the walk: record it, but only while `debug` is on (it costs the fast path).
    kernel.addDebugSection(routeWalkedSection);
    kernel.hooks.ready.tap('dispatch', () => {
      if (kernel.debugging) recordWalks(kernel);
    });
  },
});

function trueOrFalse(value: unknown): string | undefined {
  return typeof value === 'boolean' ? undefined : `must be true or false (got ${typeof value === 'string' ? JSON.stringify(value) : String(value)})`;
}
