import type { Kernel } from '@hickory/core';
import { exposureOf, renderingsOf } from './exposure.ts';
import { parametersFor, type Parameter } from './parameters.ts';
import { routeTargets, type RouteTarget } from './route-map.ts';
import { schemaInfo } from './route-schemas.ts';
import { genericHandler } from './generic-handler.ts';
import { isStandardSchema, type SchemaDescription } from './standard-schema.ts';
import { declaredBodyNames } from './body-sources.ts';

type Json = Record<string, unknown>;

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  /** `info.title`; default `'Hickory application'`. */
  readonly title?: string;
  /** `info.version`; default `'0.0.0'`. */
  readonly version?: string;
}

// What a method exposed without `generic` answers: every method. HEAD and OPTIONS are left out,
// as OpenAPI documents usually do (HEAD mirrors GET).
const ANY_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
const VALIDATION_ERROR = { $ref: '#/components/schemas/ValidationError' };

/**
 * An OpenAPI 3.1 document of the routes of `kernel.root` (those {@link routeMap} lists): one
 * operation per path and HTTP method, path parameters for the leading required parameters (as
 * path segments fill them), query parameters for the others, each with its `args` schema as JSON
 * Schema; the request body schema; the response media types of its renderings, and the 400 of a
 * rejected input. Routes decided per request (`_lookup`, `_default`, `_route`, so REST resources)
 * cannot be listed by path: they are named in `x-hickory-dynamic`.
 *
 * @example
 * ```ts
 * await app.ready();
 * const doc = openApiDocument(app, { title: 'Books', version: '1.0.0' });
 * doc.paths['/show/{id}'].get.parameters; // [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }]
 * ```
 */
export function openApiDocument(kernel: Kernel, options: OpenApiOptions = {}): Json & { paths: Record<string, Record<string, Json>> } {
  const explicit = kernel.config.use_context_locals === false;
  const paths: Record<string, Record<string, Json>> = {};
  const dynamic: Json[] = [];
  for (const target of routeTargets(kernel.root!, kernel.config)) {
    const { info } = target;
    if (info.dynamic !== undefined) {
      dynamic.push({ path: info.path, handler: info.handler, decides: info.dynamic });
      continue;
    }
    for (const [method, fn] of operationsOf(target)) {
      const { template, parameters } = describeParameters(info.path, parametersFor(fn, explicit).list, schemaInfo(fn).schemas ?? {}, bodyNamesOf(fn));
      (paths[template] ??= {})[method] = operation(info.handler.split('.')[0]!, fn, target, method, parameters);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title ?? 'Hickory application', version: options.version ?? '0.0.0' },
    paths,
    components: { schemas: { ValidationError: validationErrorSchema() } },
    ...(dynamic.length > 0 ? { 'x-hickory-dynamic': dynamic } : {}),
  };
}

// Each HTTP method of a route with the function that answers it.
function operationsOf({ info, fn, table }: RouteTarget): Array<[string, Function]> {
  // A self-routing controller (REST) names the methods of each route itself.
  if (info.methods[0] !== 'ANY' && !exposureOf(fn)?.generic) return info.methods.filter((m) => m !== 'HEAD').map((m) => [m.toLowerCase(), fn]);
  if (!exposureOf(fn)?.generic) return ANY_METHODS.map((m) => [m, fn]);
  return info.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').map((m) => [m.toLowerCase(), genericHandler(table, fn, m)!]);
}

function operation(owner: string, fn: Function, target: RouteTarget, method: string, parameters: Json[]): Json {
  const generic = exposureOf(target.fn)?.generic ? target.fn : undefined;
  const info = schemaInfo(fn);
  const validates = info.schemas !== undefined || info.body !== undefined;
  const content: Json = {};
  for (const rendering of renderingsOf(fn, generic)) content[rendering.mediaType] ??= {};
  const op: Json = { summary: `${owner}.${fn.name}`, parameters };
  if (info.body !== undefined && method !== 'get') {
    const schema = openSchema(info.body);
    op['requestBody'] = { required: true, content: Object.fromEntries(BODY_TYPES.map((type) => [type, { schema }])) };
  }
  op['responses'] = {
    '200': { description: 'OK', content },
    ...(validates ? { '400': { description: 'The arguments or the body were rejected', content: { 'application/json': { schema: VALIDATION_ERROR } } } } : {}),
  };
  if (target.info.secured) op['x-hickory-secured'] = true;
  return op;
}

// Path segments fill the leading parameters; a route ending in `/` (an index) takes none by path.
// The leading required ones are path parameters, the rest query parameters (`kwargs` and a rest
// parameter have no single name to document). A parameter the body schema declares comes from the
// body alone (the request body documents it), and no segment may reach it or what follows.
function describeParameters(path: string, params: readonly Parameter[], schemas: Readonly<Record<string, SchemaDescription>>, fromBody: ReadonlySet<string>): { template: string; parameters: Json[] } {
  const parameters: Json[] = [];
  const segments: string[] = [];
  // A path that names its parameters already (`/books/{id}/edit`, from a RestController) takes no more.
  const named = new Set([...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!));
  let inPath = !path.endsWith('/') && named.size === 0;
  for (const param of params) {
    if (param.name === null || param.rest || param.name === 'kwargs' || fromBody.has(param.name)) {
      inPath = false;
      continue;
    }
    const own = Object.prototype.hasOwnProperty.call(schemas, param.name) ? schemas[param.name]! : undefined;
    const schema = own === undefined ? { type: 'string' } : openSchema(own);
    if (named.has(param.name)) {
      parameters.push({ name: param.name, in: 'path', required: true, schema });
      continue;
    }
    if (inPath && param.required) {
      segments.push(`{${param.name}}`);
      parameters.push({ name: param.name, in: 'path', required: true, schema });
      continue;
    }
    inPath = false;
    parameters.push({ name: param.name, in: 'query', required: param.required, schema });
  }
  return { template: segments.length > 0 ? `${path}/${segments.join('/')}` : path, parameters };
}

function bodyNamesOf(fn: Function): ReadonlySet<string> {
  const body = exposureOf(fn)?.bodySchema;
  return isStandardSchema(body) ? declaredBodyNames(body) : NO_NAMES;
}

const NO_NAMES: ReadonlySet<string> = new Set();

// `'schema'` (no JSON Schema from the library): any value, marked so that a reader knows a schema checks it.
function openSchema(description: SchemaDescription): Json {
  return description === 'schema' ? { 'x-hickory-schema': true } : description;
}

function validationErrorSchema(): Json {
  return {
    type: 'object',
    required: ['code', 'title', 'description', 'issues'],
    properties: {
      code: { const: 400 },
      title: { const: 'Bad Request' },
      description: { type: 'string' },
      issues: {
        type: 'array',
        items: {
          type: 'object',
          required: ['message', 'path'],
          properties: { message: { type: 'string' }, path: { type: 'array', items: { type: ['string', 'integer'] } } },
        },
      },
    },
  };
}
