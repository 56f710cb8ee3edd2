/**
 * `@hickory/otel`: OpenTelemetry on `@opentelemetry/api` — a server span per request named by its
 * route (`GET /books/{id}`), and the `http.server.request.duration` histogram. The application
 * brings the SDK (tracer and meter providers, exporters).
 *
 * @example
 * ```ts
 * import { otelPlugin } from '@hickory/otel';
 * createApp({ root: new Root(), plugins: [otelPlugin] });
 * ```
 */
export { otelPlugin } from './plugin.ts';
export type { OtelOptions } from './options.ts';
export { OTEL_ERRORS, type OtelErrorCode } from './errors.ts';
