import type { DebugSection, Request } from '@hickory/core';
import { handlerCallOf } from './call.ts';
import { controllerName } from './names.ts';
import { walkedControllers } from './walk-trail.ts';

/**
 * Dispatch's part of the debug page (`debug: true`) of a request that failed: the handler found,
 * the controllers the walk went through (recorded while `debug` is on), the path and its arguments.
 *
 * @example
 * ```ts
 * kernel.addDebugSection(routeWalkedSection);
 * ```
 */
export function routeWalkedSection(request: Request): DebugSection | undefined {
  const call = handlerCallOf(request.lookup);
  const trail = walkedControllers(request);
  if (call === undefined && trail.length === 0) return undefined;
  const rows: Array<[string, string]> = [['path', request.path]];
  if (trail.length > 0) rows.push(['controllers walked', trail.map((controller) => controllerName(controller)).join(' → ')]);
  if (call !== undefined) rows.push(['handler', `${controllerName(call.controller)}.${call.handler.name || '(anonymous)'}`]);
  return { title: 'Route walked', rows };
}
