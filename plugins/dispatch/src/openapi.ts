import type { Kernel } from '@hickory/core';
import { exposureOf, renderingsOf } from './exposure.ts';
import { parametersFor, type Parameter } from './parameters.ts';
import { routeTargets, type RouteTarget } from './route-map.ts';
import { responseDescription, schemaInfo } from './route-schemas.ts';
import { genericHandler } from './generic-handler.ts';
import { isStandardSchema, type SchemaDescription } from './standard-schema.ts';
import { declaredBodyNames } from './body-sources.ts';
import type { OpenApiConfig } from './openapi-config.ts';
import { hasBinaryProperty, isBinary, SchemaComponents } from './openapi-components.ts';
import { STATUS_CODES } from 'node:http';

type Json = Record<string, unknown>;

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  /** `info.title`; default `'Hickory application'` (`hickory routes` gives the app's package.json name). */
  readonly title?: string;
  /** `info.version`; default `'0.0.0'` (`hickory routes` gives the app's package.json version). */
  readonly version?: string;
  /**
   * How a client passes the checks of secured routes (`secure`, `SecureController`), as OpenAPI
   * security schemes by name: each secured operation requires any one of them. Hickory cannot see
   * what a check reads, so without this (or the app's `openapi` configuration, see
   * {@link OpenApiConfig}) a secured operation names a stand-in `hickory` scheme (HTTP bearer)
   * whose description says to give the real one.
   */
  readonly securitySchemes?: Readonly<Record<string, Json>> | OpenApiConfig['securitySchemes'];
  /** The `security` requirement of each secured operation; default: any one of the schemes. */
  readonly security?: OpenApiConfig['security'];
}

// What a method exposed without `generic` answers: every method. HEAD and OPTIONS are left out,
// as OpenAPI documents usually do (HEAD mirrors GET).
const ANY_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
// The methods whose parameters a client sends in the body (a form, an upload, JSON): documented
// there rather than as path segments, which would take a file for a string.
const BODY_METHODS = new Set(['post', 'put', 'patch']);
const VALIDATION_ERROR = { $ref: '#/components/schemas/ValidationError' };
const STAND_IN_SCHEMES: Readonly<Record<string, Json>> = {
  hickory: {
    type: 'http',
    scheme: 'bearer',
    description: "A stand-in: these routes run a secure() check, whose credentials the route map cannot see. Declare the real scheme in the app's configuration: openapi: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } }.",
  },
};

/**
 * An OpenAPI 3.1 document of the routes of `kernel.root` (those {@link routeMap} lists): one
 * operation per path and HTTP method. For GET and DELETE, path parameters for the leading required
 * parameters (as path segments fill them) and query parameters for the others; for POST, PUT and
 * PATCH, the parameters are fields of the request body (JSON, urlencoded or multipart: an upload
 * is a field, never a path segment), or the body schema when the handler declares one; ids a
 * RestController names in its path stay path parameters. Each with its `args` schema as JSON
 * Schema; the response media types of its renderings (with the JSON Schema of a response schema,
 * `expose('json', { response })`), the 400 of a rejected input, and for a
 * secured route the 401 and its security requirement. Routes decided per request (`_lookup`,
 * `_default`, a `_route` that describes nothing) cannot be listed by path: they are named in
 * `x-hickory-dynamic`.
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
  // The options, else the app's `openapi` configuration (checked at ready()), else the stand-in.
  const declared = options.securitySchemes === undefined ? (kernel.config['openapi'] as OpenApiConfig | undefined) : options;
  const schemes = declared?.securitySchemes ?? STAND_IN_SCHEMES;
  const security = declared?.security ?? Object.keys(schemes).map((name) => ({ [name]: [] }));
  let secured = false;
  const components = new SchemaComponents({ ValidationError: validationErrorSchema() });
  for (const target of routeTargets(kernel.root!, kernel.config)) {
    const { info } = target;
    if (info.dynamic !== undefined) {
      dynamic.push({ path: info.path, handler: info.handler, decides: info.dynamic });
      continue;
    }
    for (const [method, fn] of operationsOf(target)) {
      const inBody = BODY_METHODS.has(method) && schemaInfo(fn).body === undefined;
      const described = describeParameters(info.path, parametersFor(fn, explicit).list, schemaInfo(fn).schemas ?? {}, bodyNamesOf(fn), inBody);
      const op = operation(info.handler.split('.')[0]!, fn, target, method, described, components);
      if (info.secured) {
        secured = true;
        op['security'] = security;
      }
      (paths[described.template] ??= {})[method] = op;
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title ?? 'Hickory application', version: options.version ?? '0.0.0' },
    paths,
    components: { schemas: components.schemas, ...(secured ? { securitySchemes: schemes } : {}) },
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

function operation(owner: string, fn: Function, target: RouteTarget, method: string, described: DescribedParameters, components: SchemaComponents): Json {
  const generic = exposureOf(target.fn)?.generic ? target.fn : undefined;
  const info = schemaInfo(fn);
  const validates = info.schemas !== undefined || info.body !== undefined;
  const name = `${owner}.${fn.name}`;
  const content: Json = {};
  for (const rendering of renderingsOf(fn, generic)) {
    const response = responseDescription(fn, rendering);
    if (response !== undefined) content[rendering.mediaType] = { schema: describedOnce(response, `${name}.response`, components) };
    else content[rendering.mediaType] ??= {};
  }
  const op: Json = { summary: name, parameters: described.parameters };
  if (info.body !== undefined && method !== 'get') {
    // A body with a file can only be a multipart form.
    const types = hasBinaryProperty(info.body) ? ['multipart/form-data'] : BODY_TYPES;
    const schema = describedOnce(info.body, `${name}.body`, components);
    op['requestBody'] = { required: true, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
  } else if (described.fields.length > 0) {
    op['requestBody'] = fieldsBody(described.fields);
  }
  // The success status the handler declares (`expose({ status: 201 })`), else 200.
  const success = exposureOf(fn)?.status ?? 200;
  op['responses'] = {
    [String(success)]: { description: STATUS_CODES[success] ?? 'Success', ...(success === 204 ? {} : { content }) },
    ...(validates ? { '400': { description: 'The arguments or the body were rejected', content: { 'application/json': { schema: VALIDATION_ERROR } } } } : {}),
    ...(target.info.secured ? { '401': { description: 'Refused by the route\'s secure() check' } } : {}),
  };
  if (target.info.secured) op['x-hickory-secured'] = true;
  return op;
}

/** A handler parameter a client sends as a field of the request body. */
interface BodyField {
  readonly name: string;
  readonly required: boolean;
  /** Its `args` schema, when it has one. */
  readonly schema: Json | undefined;
}

interface DescribedParameters {
  readonly template: string;
  readonly parameters: Json[];
  readonly fields: BodyField[];
}

// Path segments fill the leading parameters; a route ending in `/` (an index) takes none by path.
// The leading required ones are path parameters, the rest query parameters (`kwargs` and a rest
// parameter have no single name to document) — or, for a method that carries a body (`inBody`),
// fields of the body. A parameter the body schema declares comes from the body alone (the request
// body documents it), and no segment may reach it or what follows.
function describeParameters(path: string, params: readonly Parameter[], schemas: Readonly<Record<string, SchemaDescription>>, fromBody: ReadonlySet<string>, inBody: boolean): DescribedParameters {
  const parameters: Json[] = [];
  const fields: BodyField[] = [];
  const segments: string[] = [];
  // A path that names its parameters already (`/books/{id}/edit`, from a RestController) takes no more.
  const named = new Set([...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!));
  let inPath = !inBody && !path.endsWith('/') && named.size === 0;
  for (const param of params) {
    if (param.name === null || param.rest || param.supplied === true || param.name === 'kwargs' || fromBody.has(param.name)) {
      inPath = false;
      continue;
    }
    const own = Object.prototype.hasOwnProperty.call(schemas, param.name) ? openSchema(schemas[param.name]!) : undefined;
    const schema = own ?? { type: 'string' };
    if (named.has(param.name)) {
      parameters.push({ name: param.name, in: 'path', required: true, schema });
      continue;
    }
    if (inBody) {
      fields.push({ name: param.name, required: param.required, schema: own });
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
  return { template: segments.length > 0 ? `${path}/${segments.join('/')}` : path, parameters, fields };
}

// One object schema per body type: a field without a schema is a string in a urlencoded form, and
// any value in JSON or in a multipart form (where it may be a file). A field declared as a file
// (`{ type: 'string', format: 'binary' }`) makes the body a multipart form only.
function fieldsBody(fields: readonly BodyField[]): Json {
  const required = fields.filter((field) => field.required).map((field) => field.name);
  const objectOf = (fallback: Json): Json => ({
    type: 'object',
    properties: Object.fromEntries(fields.map((field) => [field.name, field.schema ?? fallback])),
    ...(required.length > 0 ? { required } : {}),
  });
  if (fields.some((field) => isBinary(field.schema))) return { required: required.length > 0, content: { 'multipart/form-data': { schema: objectOf({}) } } };
  return {
    required: required.length > 0,
    content: {
      'application/json': { schema: objectOf({}) },
      'application/x-www-form-urlencoded': { schema: objectOf({ type: 'string' }) },
      'multipart/form-data': { schema: objectOf({}) },
    },
  };
}

function bodyNamesOf(fn: Function): ReadonlySet<string> {
  const body = exposureOf(fn)?.bodySchema;
  return isStandardSchema(body) ? declaredBodyNames(body) : NO_NAMES;
}

const NO_NAMES: ReadonlySet<string> = new Set();

// A JSON Schema under `components.schemas`, referenced; the marker of a schema without one stays inline.
function describedOnce(description: SchemaDescription, name: string, components: SchemaComponents): Json {
  return description === 'schema' ? openSchema(description) : components.ref(description, name);
}

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
