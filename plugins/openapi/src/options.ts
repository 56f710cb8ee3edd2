import { openapiError } from './errors.ts';

/**
 * Options of `openapiPlugin`.
 *
 * @example
 * ```ts
 * kernel.use(openapiPlugin, { json: '/api/openapi.json', ui: false, title: 'Books', version: '1.2.0' });
 * ```
 */
export interface OpenapiPluginOptions {
  /** Where the OpenAPI document is served, or `false` for nowhere. Default `/openapi.json`. */
  json?: string | false;
  /** Where the interactive page (Swagger UI) is served, or `false` for nowhere. Default `/docs`. */
  ui?: string | false;
  /** The document's `info.title`. Default `'Hickory application'`. */
  title?: string;
  /** The document's `info.version`. Default `'0.0.0'`. */
  version?: string;
}

/** The checked options: paths without a trailing slash. */
export interface OpenapiSettings {
  readonly json: string | undefined;
  readonly ui: string | undefined;
  readonly title: string | undefined;
  readonly version: string | undefined;
}

const KNOWN = ['json', 'ui', 'title', 'version'];
// A path of plain segments: it is compared with request paths as it is, never percent-decoded.
const PATH = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/;

/**
 * Checks the options (a coded error names the first bad one).
 *
 * @example
 * ```ts
 * checkOptions({ ui: '/api/docs' }); // { json: '/openapi.json', ui: '/api/docs', … }
 * ```
 */
export function checkOptions(options: OpenapiPluginOptions | undefined): OpenapiSettings {
  const given = options ?? {};
  if (typeof given !== 'object' || given === null) throw openapiError('HICKORY_ERR_OPENAPI_OPTION', 'options', "must be an object such as { json: '/openapi.json', ui: '/docs' }");
  for (const key of Object.keys(given)) {
    if (!KNOWN.includes(key)) throw openapiError('HICKORY_ERR_OPENAPI_OPTION', key, `is unknown (known: ${KNOWN.join(', ')})`);
  }
  const json = pathOption('json', given.json, '/openapi.json');
  const ui = pathOption('ui', given.ui, '/docs');
  if (json !== undefined && ui !== undefined && (json === ui || json.startsWith(`${ui}/`))) {
    throw openapiError('HICKORY_ERR_OPENAPI_OPTION', 'json', `must not be ${ui} or below it: the page's files are served there`);
  }
  for (const key of ['title', 'version'] as const) {
    if (given[key] !== undefined && (typeof given[key] !== 'string' || given[key] === '')) throw openapiError('HICKORY_ERR_OPENAPI_OPTION', key, 'must be a non-empty string');
  }
  return { json, ui, title: given.title, version: given.version };
}

function pathOption(name: string, value: unknown, fallback: string): string | undefined {
  if (value === false) return undefined;
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !PATH.test(value.replace(/\/$/, ''))) {
    throw openapiError('HICKORY_ERR_OPENAPI_OPTION', name, `must be a path such as "${fallback}" (plain segments, no query), or false`);
  }
  return value.replace(/\/$/, '');
}
