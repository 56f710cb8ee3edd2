import { context, createContextKey, metrics, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Histogram, type Span, type Tracer } from '@opentelemetry/api';
import { definePlugin, type Lookup, type Request, type Response, type ResponseInfo } from '@hickory/core';
import { tapDirect } from '@hickory/core/kit';
import { handlerCallOf } from '@hickory/dispatch/kit';
import { checkOptions, type OtelOptions } from './options.ts';
import { RouteTemplates } from './route-templates.ts';
import * as semconv from './semconv.ts';

// What the HTTP instrumentation (@opentelemetry/instrumentation-http) puts in the context of the
// request it traces: its server span, and a `route` field a framework fills for it (its span name
// and metrics then carry the route). `@opentelemetry/core` defines the key; `createContextKey` is
// `Symbol.for(description)`, so the same description is the same key without depending on core.
const RPC_METADATA = createContextKey('OpenTelemetry SDK Context Key RPC_METADATA');

interface RpcMetadata {
  readonly type: string;
  readonly span?: Span;
  route?: string;
}

// One request's span: ours (`owned`), or the HTTP instrumentation's, which it ends itself.
interface RequestTrace {
  readonly span: Span;
  readonly context: Context;
  readonly owned: boolean;
  readonly method: string;
  readonly scheme: string;
  readonly rpc: RpcMetadata | undefined;
  route?: string;
  errorType?: string;
  // Set once an error is being answered: an error document routed then is not the request's route.
  failed?: true;
}

/**
 * OpenTelemetry for Hickory, on `@opentelemetry/api` only (the application brings the SDK): one
 * server span per request, named `METHOD route` (`GET /books/{id}`) with `http.route` the route
 * map's template of the handler the request reached, the HTTP semantic conventions' attributes
 * (`http.request.method`, `http.response.status_code`, `url.path`, `url.scheme`,
 * `server.address`, `client.address`, `user_agent.original`), its parent from the request's
 * `traceparent` (the global propagator), an exception that became a 500 recorded on it, status
 * ERROR for a 5xx, ended once the response is sent. The handler runs in the span's context, so a
 * span it starts is a child. When the HTTP instrumentation already traces the request, its span is
 * named and given `http.route` instead of a second one. Also records `http.server.request.duration`
 * (seconds, the conventions' buckets) by route, method and status.
 *
 * Use it first among the plugins that answer before routing: a request answered by an earlier
 * `beforeRoute` tap (a static file) still gets its span, started from its measured duration, but
 * without the context.
 *
 * @example
 * ```ts
 * import { otelPlugin } from '@hickory/otel';
 * createApp({ root: new Root(), plugins: [otelPlugin] });
 * ```
 */
export const otelPlugin = definePlugin<OtelOptions | undefined>({
  name: 'otel',
  apply(kernel, options) {
    const settings = checkOptions(options);
    const traces = new WeakMap<Request, RequestTrace>();
    let tracer: Tracer | undefined;
    let duration: Histogram | undefined;
    let templates: RouteTemplates | undefined;

    kernel.hooks.ready.tap('otel', () => {
      tracer = (settings.tracerProvider ?? trace.getTracerProvider()).getTracer('@hickory/otel');
      if (settings.metrics !== false) {
        const meter = (settings.meterProvider ?? metrics.getMeterProvider()).getMeter('@hickory/otel');
        duration = meter.createHistogram(semconv.METRIC_HTTP_SERVER_REQUEST_DURATION, {
          description: 'Duration of HTTP server requests.',
          unit: 's',
          advice: { explicitBucketBoundaries: semconv.DURATION_BUCKETS },
        });
      }
      templates = new RouteTemplates(kernel);
    });

    const begin = (request: Request, startTime?: number): RequestTrace => {
      const active = context.active();
      const method = semconv.knownMethod(request.method);
      const rpc = active.getValue(RPC_METADATA) as RpcMetadata | undefined;
      if (rpc?.type === 'http' && rpc.span !== undefined) {
        return { span: rpc.span, context: active, owned: false, method, scheme: request.scheme, rpc };
      }
      const parent = propagation.extract(active, request.raw.headers);
      const span = tracer!.startSpan(semconv.spanName(method, undefined), { kind: SpanKind.SERVER, attributes: requestAttributes(request, method), startTime }, parent);
      return { span, context: trace.setSpan(parent, span), owned: true, method, scheme: request.scheme, rpc: undefined };
    };

    tapDirect(kernel.hooks.beforeRoute, 'otel', (request) => {
      // Again for an internal redirect or an error document: the request keeps its first span.
      if (!traces.has(request)) traces.set(request, begin(request));
      return undefined;
    });

    tapDirect(kernel.hooks.afterLookup, 'otel', (lookup, request) => {
      const traced = traces.get(request);
      if (traced === undefined) return undefined;
      // An error document's route is not the one the request took.
      if (traced.failed === undefined) nameRoute(traced, templates?.templateOf(request, lookup));
      // Dispatch makes one lookup per request: its handler is wrapped for this request alone.
      if (handlerCallOf(lookup) !== undefined) runInContext(lookup, traced.context);
      return undefined;
    });

    tapDirect(kernel.hooks.onAbort, 'otel', (_error, request) => {
      const traced = traces.get(request);
      if (traced !== undefined) traced.failed = true;
      return undefined;
    });

    tapDirect(kernel.hooks.onError, 'otel', (error, request) => {
      const traced = traces.get(request);
      if (traced === undefined) return undefined;
      traced.failed = true;
      traced.span.recordException(error instanceof Error ? error : String(error));
      traced.errorType = error instanceof Error ? error.constructor.name : '_OTHER';
      return undefined;
    });

    kernel.hooks.onResponse.tap('otel', (request, _response, info) => {
      const traced = traces.get(request) ?? begin(request, Date.now() - info.duration);
      traces.delete(request);
      finish(traced, info, duration);
    });
  },
});

function requestAttributes(request: Request, method: string): Attributes {
  const { raw } = request;
  const { address, port } = semconv.splitHost(request.host);
  const url = raw.url ?? '/';
  const query = url.indexOf('?');
  const attributes: Attributes = {
    [semconv.ATTR_HTTP_REQUEST_METHOD]: method,
    [semconv.ATTR_URL_PATH]: query === -1 ? url : url.slice(0, query),
    [semconv.ATTR_URL_SCHEME]: request.scheme,
    [semconv.ATTR_SERVER_ADDRESS]: address,
    [semconv.ATTR_SERVER_PORT]: port ?? (request.scheme === 'https' ? 443 : 80),
    [semconv.ATTR_CLIENT_ADDRESS]: request.remote_addr,
    [semconv.ATTR_NETWORK_PROTOCOL_VERSION]: raw.httpVersion === '2.0' ? '2' : raw.httpVersion,
  };
  if (method === '_OTHER') attributes[semconv.ATTR_HTTP_REQUEST_METHOD_ORIGINAL] = request.method;
  const agent = raw.headers['user-agent'];
  if (agent !== undefined) attributes[semconv.ATTR_USER_AGENT_ORIGINAL] = agent;
  return attributes;
}

// Named as soon as the route is known: the HTTP instrumentation may end its span before the
// kernel's `onResponse` taps run.
function nameRoute(traced: RequestTrace, route: string | undefined): void {
  traced.route = route;
  if (route === undefined) return;
  traced.span.setAttribute(semconv.ATTR_HTTP_ROUTE, route);
  traced.span.updateName(semconv.spanName(traced.method, route));
  if (traced.rpc !== undefined) traced.rpc.route = route;
}

// The handler (and its rendering) runs inside the span's context: a span it starts is a child,
// and promises it makes keep that context (the context manager's AsyncLocalStorage).
function runInContext(lookup: Lookup, active: Context): void {
  const handle = lookup.handle;
  (lookup as { handle: Lookup['handle'] }).handle = (request: Request, response: Response) => context.with(active, handle, lookup, request, response);
}

// `error.type` of a response whose client left before it was complete (no exception names it).
const CLIENT_LEFT = 'client_disconnected';

function finish(traced: RequestTrace, info: ResponseInfo, duration: Histogram | undefined): void {
  const { span, route } = traced;
  const status = info.status;
  // Server spans: a 4xx is the client's error, only a 5xx is the server's; a response the client
  // did not receive whole is an error too (semantic conventions, HTTP spans: Status).
  if (status >= 500 || !info.completed) {
    traced.errorType ??= status >= 500 ? String(status) : CLIENT_LEFT;
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  if (!traced.owned) {
    if (traced.errorType !== undefined) span.setAttribute(semconv.ATTR_ERROR_TYPE, traced.errorType);
    return;
  }
  span.setAttribute(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (traced.errorType !== undefined) span.setAttribute(semconv.ATTR_ERROR_TYPE, traced.errorType);
  span.end();
  // The HTTP instrumentation records its own duration: recording one here too would count twice.
  if (duration === undefined) return;
  const attributes: Attributes = {
    [semconv.ATTR_HTTP_REQUEST_METHOD]: traced.method,
    [semconv.ATTR_HTTP_RESPONSE_STATUS_CODE]: status,
    [semconv.ATTR_URL_SCHEME]: traced.scheme,
  };
  if (route !== undefined) attributes[semconv.ATTR_HTTP_ROUTE] = route;
  if (traced.errorType !== undefined) attributes[semconv.ATTR_ERROR_TYPE] = traced.errorType;
  duration.record(info.duration / 1000, attributes);
}
