import type { Kernel, Lookup, Request } from '@hickory/core';
import { handlerCallOf, parametersFor, routeTargets, type RouteTable } from '@hickory/dispatch/kit';

// One way a handler is reached: the route map's path split into segments (`{id}` matches any
// segment), and the names of the handler's parameters that extra segments fill, in order.
interface Candidate {
  readonly segments: readonly string[];
  readonly positional: readonly string[];
  readonly rest: string | undefined;
}

// A `_lookup`, `_default` or `_route` the map cannot see past: its static prefix (`/wiki/`).
interface DynamicPrefix {
  readonly prefix: string;
  readonly template: string;
}

/**
 * The `http.route` of a request: the route map's template of the handler it reached
 * (`/books/{id}`), built once at `ready()` from dispatch's route map, and matched per request
 * against the path (a method reachable at several paths, an index at `/books/` and
 * `/books/index`, takes the one the request used). Segments past the mapped path that fill the
 * handler's leading parameters are named after them (`show(id)` at `/books/show` answers
 * `/books/show/{id}`). A handler the map does not list (one a `_lookup` or `_default` returned)
 * gets the template of the most specific dynamic point above it (`/wiki/*`): what the map
 * knows without running a handler.
 */
export class RouteTemplates {
  private readonly byHandler = new Map<Function, Candidate[]>();
  private readonly dynamic: DynamicPrefix[] = [];

  constructor(kernel: Kernel) {
    const root = kernel.root;
    if (root === undefined || root === null) return;
    const explicit = kernel.config.use_context_locals === false;
    for (const { info, fn, table } of routeTargets(root, kernel.config)) {
      if (info.dynamic !== undefined) {
        this.dynamic.push({ prefix: info.path.slice(0, -1), template: info.path });
        continue;
      }
      for (const handler of handlersOf(fn, table, info.methods)) this.add(handler, info.path, explicit);
    }
    // Longest prefix first: the most specific dynamic point wins.
    this.dynamic.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /**
   * The template of the route `request` took (the handler of `lookup`, what routing found for
   * it), `undefined` when it took none (a lookup dispatch did not make).
   */
  templateOf(request: Request, lookup: Lookup): string | undefined {
    const call = handlerCallOf(lookup);
    if (call === undefined) return undefined;
    const segments = request.path.split('/');
    for (const candidate of this.byHandler.get(call.handler) ?? []) {
      const template = matchTemplate(candidate, segments);
      if (template !== undefined) return template;
    }
    for (const { prefix, template } of this.dynamic) if (request.path.startsWith(prefix)) return template;
    return undefined;
  }

  private add(handler: Function, path: string, explicit: boolean): void {
    const named = new Set([...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!));
    const positional: string[] = [];
    let rest: string | undefined;
    parametersFor(handler, explicit).list.forEach((param, i) => {
      const name = param.name ?? `arg${i}`;
      if (named.has(name)) return;
      if (param.rest) rest = name;
      else if (rest === undefined) positional.push(name);
    });
    const candidates = this.byHandler.get(handler) ?? [];
    candidates.push({ segments: path.split('/'), positional, rest });
    this.byHandler.set(handler, candidates);
  }
}

// The function a generic route's request may call: the generic method, and each `when()` handler.
function handlersOf(fn: Function, table: RouteTable, methods: readonly string[]): Function[] {
  const found = [fn];
  for (const method of methods) {
    const handler = table.handlerFor(fn, method);
    if (handler !== undefined && !found.includes(handler)) found.push(handler);
  }
  return found;
}

function matchTemplate(candidate: Candidate, segments: readonly string[]): string | undefined {
  const route = candidate.segments;
  if (segments.length < route.length) return undefined;
  const last = route.length - 1;
  for (let i = 0; i < route.length; i++) {
    const expected = route[i]!;
    const actual = segments[i]!;
    if (expected.startsWith('{')) {
      if (actual === '') return undefined;
      continue;
    }
    // `/books/index.json`: an extension chose the rendering, the route is still `/books/index`.
    if (expected !== actual && !(i === last && i === segments.length - 1 && actual.startsWith(`${expected}.`))) return undefined;
  }
  const extra = segments.length - route.length;
  if (extra === 0) return route.join('/');
  if (extra > candidate.positional.length && candidate.rest === undefined) return undefined;
  const names = candidate.positional.slice(0, extra).map((name) => `{${name}}`);
  if (extra > candidate.positional.length) names.push(`{${candidate.rest!}}`);
  return [...route, ...names].join('/');
}
