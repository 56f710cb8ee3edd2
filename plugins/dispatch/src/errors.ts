import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/**
 * The error table of `@hickory/dispatch`: every mistake in exposing, routing or mounting
 * controllers has one stable code here. Definition mistakes throw when the class is defined,
 * tree mistakes at `ready()`, and mistakes only visible while routing become a logged 500.
 *
 * @example
 * ```ts
 * DISPATCH_ERRORS.HICKORY_ERR_DISPATCH_NO_ROOT; // the message template
 * ```
 */
export const DISPATCH_ERRORS = Object.freeze({
  HICKORY_ERR_DISPATCH_NO_ROOT:
    'No root controller: set `root` in the configuration, e.g. createKernel({ root: new RootController() }).',
  HICKORY_ERR_DISPATCH_ROOT_NOT_CONTROLLER:
    'The root controller (%s) has nothing routable: expose a method with @expose(), hold a child controller, or define _lookup/_default/_route.',
  HICKORY_ERR_DISPATCH_DECORATOR_TARGET:
    '@%s on %s: it decorates public instance methods only (this is %s).',
  HICKORY_ERR_DISPATCH_EXPOSE_ARGS: 'expose(%s): %s',
  HICKORY_ERR_DISPATCH_WHEN_ARGS: 'when(%s): %s',
  HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE: 'override_template(%s): %s',
  HICKORY_ERR_DISPATCH_WRAPPER:
    '%s is exposed as a (...args) wrapper, so argument mapping cannot see the parameters of the method it wraps (path segments would all go to it, variables nowhere): make the decorator return wraps(method)(wrapper) (from @hickory/dispatch).',
  HICKORY_ERR_DISPATCH_WRAPS_OPTIONS: 'wraps(%s, options): `%s` must be %s. See wraps() in docs/routing.md.',
  HICKORY_ERR_DISPATCH_EXPLICIT_HANDLER:
    '%s: with use_context_locals: false a handler receives the request and the response first, %s: declare %s.',
  HICKORY_ERR_DISPATCH_GENERIC_SPECIAL:
    '%s.%s is a special method (_lookup, _default, _route) and cannot be generic: remove `generic: true` from its expose().',
  HICKORY_ERR_DISPATCH_ROUTE_SPECIAL:
    '%s.%s is a special method (_lookup, _default, _route), found by name and never addressable by a URL: remove its explicit route "%s".',
  HICKORY_ERR_DISPATCH_WHEN_TARGET:
    '%s.%s: when("%s") names no generic method of that class: expose "%s" with @expose({ generic: true }).',
  HICKORY_ERR_DISPATCH_WHEN_DUPLICATE:
    '%s: two when() handlers for %s on "%s" (%s and %s): keep one.',
  HICKORY_ERR_DISPATCH_SEGMENT:
    'Invalid route segment %s: %s',
  HICKORY_ERR_DISPATCH_ROUTE_ARGS: 'route(%s): %s',
  HICKORY_ERR_DISPATCH_ROUTE_NOT_EXPOSED:
    'route(%s): %s is not exposed: expose it first, e.g. route("segment", expose()(fn)).',
  HICKORY_ERR_DISPATCH_ROUTE_TWICE:
    'Method %s already answers at route "%s"; it cannot also answer at "%s": one explicit route per method.',
  HICKORY_ERR_DISPATCH_ROUTE_LATE:
    'route(%s, %s, …) came after %s was first routed, so the mount would be ignored: call route() right after the class definition, before the kernel serves requests.',
  HICKORY_ERR_DISPATCH_ROUTE_COLLISION:
    'Segment "%s" of %s is claimed twice (%s and %s): choose another segment.',
  HICKORY_ERR_DISPATCH_NO_RENDERER:
    '%s.%s exposes template "%s", but no renderer handles engine "%s": add the renderer plugin with kernel.use(...) or set `default_renderer`.',
  HICKORY_ERR_DISPATCH_LEGACY_DECORATOR:
    '@%s on %s was called as a legacy decorator (target, name, descriptor), as TypeScript compiles decorators under "experimentalDecorators": true. Hickory\'s decorators are TC39 standard decorators: remove experimentalDecorators (and emitDecoratorMetadata) from tsconfig.json.',
  HICKORY_ERR_DISPATCH_TEMPLATE_PROBLEM: '%s.%s exposes template "%s", which cannot render: %s',
  HICKORY_ERR_DISPATCH_NO_TEMPLATE:
    '%s returned %s, but it is exposed without a template: return a string, or expose it with @expose(\'json\') or a template.',
  HICKORY_ERR_DISPATCH_BAD_NAMESPACE:
    '%s returned %s for template "%s": a template needs an object (its namespace) or a string.',
  HICKORY_ERR_DISPATCH_ROUTE_RESULT:
    "%s._route() returned %s: return [target, remainder], where target is an exposed method (of this controller or of one under it), routeTo(owner, 'name'), or a controller object, and remainder an array of strings.",
  HICKORY_ERR_DISPATCH_ROUTE_OWNER:
    "%s._route() returned %s, %s, so not which controller it runs on nor whose checks apply: return routeTo(owner, 'name') (routeTo(this.reports, 'index')), or the controller itself, [controller, remainder].",
  HICKORY_ERR_DISPATCH_ROUTE_TO:
    "routeTo(%s, %s): %s; give it the controller that holds the method and the method's name, e.g. routeTo(this.reports, 'index').",
  HICKORY_ERR_DISPATCH_LOOKUP_RESULT:
    '%s._lookup() returned %s: return [controller, remainder] (remainder an array of strings), or nothing when not found.',
  HICKORY_ERR_DISPATCH_NOT_A_SCHEMA:
    '%s: %s is %s, not a Standard Schema (an object with a "~standard" property holding version 1 and a validate function): pass a schema of zod, valibot, arktype or another library that implements Standard Schema, e.g. args: { id: z.coerce.number() }.',
  HICKORY_ERR_DISPATCH_ARGS_UNKNOWN:
    '%s: args names "%s", which is no parameter of the handler (its parameters: %s): rename the key or the parameter.',
  HICKORY_ERR_DISPATCH_RESPONSE_CONVERTER:
    '%s: its response schema (%s) offers no JSON Schema converter ("~standard".jsonSchema.output, Standard JSON Schema of @standard-schema/spec 1.1), which its serializer is compiled from: wrap a valibot schema with toStandardJsonSchema() from @valibot/to-json-schema, or use a library whose schemas convert themselves (zod 4.2 or later, arktype).',
  HICKORY_ERR_DISPATCH_RESPONSE_SCHEMA:
    '%s: its response schema cannot serve as a serializer: %s. Describe the JSON that is sent, without transforms (a Date is sent as its ISO string: z.iso.datetime()).',
  HICKORY_ERR_DISPATCH_RESPONSE_INVALID:
    '%s returned a value that its response schema rejects (checked outside production only, as the JSON sent): %s',
  HICKORY_ERR_DISPATCH_ARGS_PENDING:
    '%s: its schemas validate asynchronously, so its arguments are not known yet: await call.prepare(request, response) before call.argumentsFor(request, response).',
} as const);

/** A code of {@link DISPATCH_ERRORS}. */
export type DispatchErrorCode = keyof typeof DISPATCH_ERRORS;

/**
 * Builds a coded error of this package, filling `%s` in order.
 *
 * @example
 * ```ts
 * throw dispatchError('HICKORY_ERR_DISPATCH_NO_ROOT');
 * ```
 */
export function dispatchError(code: DispatchErrorCode, ...args: unknown[]): HickoryError {
  return tableError(DISPATCH_ERRORS, code, ...args);
}
