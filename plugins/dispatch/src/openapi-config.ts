import type { ConfigRule } from '@hickory/core';

/**
 * An OpenAPI security scheme (OpenAPI 3.1's Security Scheme Object): how a client passes the
 * app's `secure` checks — `{ type: 'apiKey', in: 'cookie', name: 'sid' }` for a session cookie,
 * `{ type: 'http', scheme: 'bearer' }` for a token.
 */
export interface OpenApiSecurityScheme {
  readonly type: 'apiKey' | 'http' | 'mutualTLS' | 'oauth2' | 'openIdConnect';
  readonly description?: string;
  /** apiKey: the cookie, header or query parameter's name. */
  readonly name?: string;
  /** apiKey: where it is sent. */
  readonly in?: 'cookie' | 'header' | 'query';
  /** http: the authorization scheme (`bearer`, `basic`). */
  readonly scheme?: string;
  readonly bearerFormat?: string;
  readonly flows?: Readonly<Record<string, unknown>>;
  readonly openIdConnectUrl?: string;
}

/**
 * The `openapi` configuration key (declared by `dispatchPlugin`): what the OpenAPI document
 * (`hickory routes --openapi`, `app.openapi()`, `openApiDocument`) says about the routes behind a
 * `secure` check, which Hickory cannot see inside: OpenAPI's `components.securitySchemes` and
 * `security`.
 *
 * @example
 * ```ts
 * createApp({
 *   root: new Root(),
 *   openapi: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
 * });
 * ```
 */
export interface OpenApiConfig {
  /** The schemes by name, listed in `components.securitySchemes` when a route is secured. */
  readonly securitySchemes?: Readonly<Record<string, OpenApiSecurityScheme>>;
  /**
   * The `security` requirement of each secured operation (OpenAPI's list: any one entry
   * suffices; the names in an entry all apply). Default: any one of `securitySchemes`.
   */
  readonly security?: ReadonlyArray<Readonly<Record<string, readonly string[]>>>;
}

const TYPES = new Set(['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect']);
const PLACES = new Set(['cookie', 'header', 'query']);
const EXAMPLE = "e.g. { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } }";

/**
 * The check of the `openapi` key, at `ready()`: a scheme OpenAPI would refuse, or a requirement
 * naming a scheme that is not declared, is a configuration error naming it.
 *
 * @example
 * ```ts
 * checkOpenApiConfig({ securitySchemes: { s: { type: 'apiKey', in: 'cookie' } } }); // '… needs `name` …'
 * ```
 */
export const checkOpenApiConfig: ConfigRule = (value) => {
  if (!isObject(value)) return `must be an object, ${EXAMPLE}`;
  for (const key of Object.keys(value)) {
    if (key !== 'securitySchemes' && key !== 'security') return `has "${key}": its keys are securitySchemes and security`;
  }
  const schemes = value['securitySchemes'];
  if (schemes !== undefined) {
    if (!isObject(schemes) || Object.keys(schemes).length === 0) return `securitySchemes must be an object naming at least one scheme, ${EXAMPLE}`;
    for (const [name, scheme] of Object.entries(schemes)) {
      const problem = schemeProblem(scheme);
      if (problem !== undefined) return `securitySchemes.${name} ${problem}`;
    }
  }
  const security = value['security'];
  if (security !== undefined) {
    if (schemes === undefined) return 'security names schemes, so securitySchemes must declare them';
    if (!Array.isArray(security) || security.length === 0) return "security must be a non-empty list of requirements such as [{ session: [] }]";
    for (const requirement of security as unknown[]) {
      if (!isObject(requirement)) return "security must be a list of requirements such as [{ session: [] }]";
      for (const [name, scopes] of Object.entries(requirement)) {
        if (!Object.prototype.hasOwnProperty.call(schemes, name)) return `security names "${name}", which securitySchemes does not declare`;
        if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string')) return `security's "${name}" must list scopes (strings; [] for none)`;
      }
    }
  }
  return undefined;
};

function schemeProblem(scheme: unknown): string | undefined {
  if (!isObject(scheme)) return 'must be a security scheme object';
  const type = scheme['type'];
  if (typeof type !== 'string' || !TYPES.has(type)) return `has type ${JSON.stringify(type)}: one of ${[...TYPES].join(', ')}`;
  if (type === 'apiKey') {
    if (typeof scheme['name'] !== 'string' || scheme['name'] === '') return "(apiKey) needs `name`: the cookie, header or query parameter's name";
    if (typeof scheme['in'] !== 'string' || !PLACES.has(scheme['in'])) return '(apiKey) needs `in`: cookie, header or query';
  }
  if (type === 'http' && (typeof scheme['scheme'] !== 'string' || scheme['scheme'] === '')) return '(http) needs `scheme`, such as bearer or basic';
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
