import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { otelError } from './errors.ts';

/**
 * Options of `otelPlugin`. Without providers, the global ones the application's SDK registered
 * (`trace.setGlobalTracerProvider`, `metrics.setGlobalMeterProvider`, or the Node SDK's `start()`),
 * read at `ready()`: a provider registered after the plugin was used, before `ready()`, is found.
 *
 * @example
 * ```ts
 * kernel.use(otelPlugin, { tracerProvider: provider, metrics: false });
 * ```
 */
export interface OtelOptions {
  /** Where spans go. Default: the global tracer provider. */
  tracerProvider?: TracerProvider;
  /** Where `http.server.request.duration` goes. Default: the global meter provider. */
  meterProvider?: MeterProvider;
  /** Record the `http.server.request.duration` histogram. Default true. */
  metrics?: boolean;
}

const KNOWN = ['tracerProvider', 'meterProvider', 'metrics'];

/**
 * Checks the options (a coded error names the first bad one).
 *
 * @example
 * ```ts
 * checkOptions({ metrics: false }); // ok
 * ```
 */
export function checkOptions(options: OtelOptions | undefined): OtelOptions {
  const given = options ?? {};
  if (typeof given !== 'object' || given === null) throw otelError('HICKORY_ERR_OTEL_OPTION', 'options', 'must be an object such as { metrics: false }');
  for (const key of Object.keys(given)) {
    if (!KNOWN.includes(key)) throw otelError('HICKORY_ERR_OTEL_OPTION', key, `is unknown (known: ${KNOWN.join(', ')})`);
  }
  if (given.tracerProvider !== undefined && typeof given.tracerProvider?.getTracer !== 'function') {
    throw otelError('HICKORY_ERR_OTEL_OPTION', 'tracerProvider', 'must be a TracerProvider (an object with getTracer()), such as the SDK\'s BasicTracerProvider');
  }
  if (given.meterProvider !== undefined && typeof given.meterProvider?.getMeter !== 'function') {
    throw otelError('HICKORY_ERR_OTEL_OPTION', 'meterProvider', 'must be a MeterProvider (an object with getMeter()), such as the SDK\'s MeterProvider');
  }
  if (given.metrics !== undefined && typeof given.metrics !== 'boolean') throw otelError('HICKORY_ERR_OTEL_OPTION', 'metrics', 'must be true or false');
  return given;
}
