import assert from 'node:assert/strict';
import { after, beforeEach, test } from 'node:test';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { RPCType, setRPCMetadata, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, DataPointType, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { abort, createKernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { RestController, restPlugin } from '@hickory/rest';
import { otelPlugin } from './index.ts';

// What an application's SDK setup does: a context manager, the W3C propagator, a tracer provider.
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
const tracer = provider.getTracer('test');

// An in-memory metric reader: `collect()` gives what an exporter would receive.
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

after(async () => {
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});
beforeEach(() => exporter.reset());

class Books extends RestController {
  @expose('json') get_one(id: string) {
    // A span the handler starts is a child of the request's.
    tracer.startActiveSpan('load book', (span) => span.end());
    return { id };
  }
  @expose('json') get_all() { return []; }
}

class Root {
  books = new Books();
  @expose('json') show(id: string, format = 'short') { return { id, format }; }
  @expose() boom(): string { throw new TypeError('the handler failed'); }
  @expose() busy(): string { return abort(503); }
  @expose() teapot(): string { return abort(418); }
  @expose() async slow() {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return 'late';
  }
  _lookup(name: string, ...rest: string[]) { return name === 'wiki' ? [new Wiki(), rest] : undefined; }
}

class Wiki {
  @expose() page(name: string) { return `page ${name}`; }
}

async function app(options?: Parameters<typeof otelPlugin.apply>[1]) {
  const kernel = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(restPlugin).use(otelPlugin, options);
  await kernel.ready();
  return kernel;
}

function only(name?: string): ReadableSpan {
  const spans = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER && (name === undefined || span.name === name));
  assert.equal(spans.length, 1, `one server span${name ? ` named ${name}` : ''}: ${exporter.getFinishedSpans().map((s) => s.name).join(', ')}`);
  return spans[0]!;
}

test('a server span named after the route map template, with the HTTP conventions attributes', async () => {
  const kernel = await app();
  const res = await kernel.inject({ url: '/books/7?x=1', headers: { 'user-agent': 'tests/1.0', host: 'books.example:8080' } });
  assert.equal(res.statusCode, 200);
  const span = only();
  assert.equal(span.name, 'GET /books/{id}');
  assert.equal(span.status.code, SpanStatusCode.UNSET);
  assert.deepEqual(
    { ...span.attributes },
    {
      'http.request.method': 'GET',
      'http.route': '/books/{id}',
      'http.response.status_code': 200,
      'url.path': '/books/7',
      'url.scheme': 'http',
      'server.address': 'books.example',
      'server.port': 8080,
      'client.address': '127.0.0.1',
      'network.protocol.version': '1.1',
      'user_agent.original': 'tests/1.0',
    },
  );
});

test('a child span started in a handler is a child of the request span', async () => {
  const kernel = await app();
  await kernel.inject('/books/7');
  const server = only();
  const child = exporter.getFinishedSpans().find((span) => span.name === 'load book');
  assert.ok(child, 'the handler span was exported');
  assert.equal(child.spanContext().traceId, server.spanContext().traceId);
  assert.equal(child.parentSpanContext?.spanId, server.spanContext().spanId);
});

test('traceparent: the span continues the remote trace', async () => {
  const kernel = await app();
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';
  await kernel.inject({ url: '/books/', headers: { traceparent: `00-${traceId}-${parentId}-01` } });
  const span = only('GET /books/');
  assert.equal(span.spanContext().traceId, traceId);
  assert.equal(span.parentSpanContext?.spanId, parentId);
  assert.equal(span.parentSpanContext?.isRemote, true);
});

test('segments past a mapped path are named after the parameters they fill', async () => {
  const kernel = await app();
  await kernel.inject('/show/3');
  assert.equal(only().name, 'GET /show/{id}');
  exporter.reset();
  await kernel.inject('/show/3/long');
  assert.equal(only().attributes['http.route'], '/show/{id}/{format}');
});

test('a handler a _lookup returned: the template of the dynamic point, the most specific the map knows', async () => {
  const kernel = await app();
  const res = await kernel.inject('/wiki/page/Home');
  assert.equal(res.body, 'page Home');
  assert.equal(only().name, 'GET /*');
});

test('an exception: recorded, status ERROR, error.type its class; the 500 in the histogram', async () => {
  const reader = new TestReader();
  const kernel = await app({ meterProvider: new MeterProvider({ readers: [reader] }) });
  assert.equal((await kernel.inject('/boom')).statusCode, 500);
  const span = only();
  assert.equal(span.name, 'GET /boom');
  assert.equal(span.status.code, SpanStatusCode.ERROR);
  assert.equal(span.attributes['error.type'], 'TypeError');
  assert.equal(span.attributes['http.response.status_code'], 500);
  const [event] = span.events;
  assert.equal(event?.name, 'exception');
  assert.equal(event?.attributes?.['exception.message'], 'the handler failed');
  assert.equal(event?.attributes?.['exception.type'], 'TypeError');
  const points = await durations(reader);
  assert.deepEqual(points.map((p) => p.attributes), [{ 'http.request.method': 'GET', 'http.response.status_code': 500, 'url.scheme': 'http', 'http.route': '/boom', 'error.type': 'TypeError' }]);
});

test('a 5xx without an exception is an error by its status; a 4xx is not', async () => {
  const kernel = await app();
  assert.equal((await kernel.inject('/busy')).statusCode, 503);
  const busy = only();
  assert.equal(busy.status.code, SpanStatusCode.ERROR);
  assert.equal(busy.attributes['error.type'], '503');
  assert.equal(busy.events.length, 0);
  exporter.reset();
  assert.equal((await kernel.inject('/teapot')).statusCode, 418);
  assert.equal(only().status.code, SpanStatusCode.UNSET);
  assert.equal(only().attributes['error.type'], undefined);
});

test('a 404 is named by its method alone, without http.route', async () => {
  const kernel = await app();
  assert.equal((await kernel.inject('/nothing/here')).statusCode, 404);
  const span = only();
  assert.equal(span.name, 'GET');
  assert.equal(span.attributes['http.route'], undefined);
  assert.equal(span.attributes['http.response.status_code'], 404);
  assert.equal(span.status.code, SpanStatusCode.UNSET);
});

test('an error document does not name the request after its own route', async () => {
  const kernel = createKernel({ root: new Root(), logger: false, errors: { 404: '/show/missing' } }).use(dispatchPlugin).use(otelPlugin);
  await kernel.ready();
  const res = await kernel.inject('/nothing/here');
  assert.equal(res.statusCode, 404);
  assert.equal(res.body, '{"id":"missing","format":"short"}');
  const span = only();
  assert.equal(span.name, 'GET');
  assert.equal(span.attributes['http.route'], undefined);
});

test('an unknown method is _OTHER, named HTTP, with its original', async () => {
  const kernel = await app();
  await kernel.inject({ method: 'PURGE', url: '/nothing' });
  const span = only();
  assert.equal(span.name, 'HTTP');
  assert.equal(span.attributes['http.request.method'], '_OTHER');
  assert.equal(span.attributes['http.request.method_original'], 'PURGE');
});

test('http.server.request.duration: seconds, the conventions buckets, one series per route, method and status', async () => {
  const reader = new TestReader();
  const kernel = await app({ meterProvider: new MeterProvider({ readers: [reader] }) });
  await kernel.inject('/books/1');
  await kernel.inject('/books/2');
  await kernel.inject('/nothing');
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics[0]!.metrics[0] as HistogramMetricData;
  assert.equal(metric.descriptor.name, 'http.server.request.duration');
  assert.equal(metric.descriptor.unit, 's');
  assert.equal(metric.dataPointType, DataPointType.HISTOGRAM);
  assert.deepEqual(metric.dataPoints[0]!.value.buckets.boundaries, [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
  const series = metric.dataPoints.map((p) => [p.attributes['http.route'], p.attributes['http.response.status_code'], p.value.count]);
  assert.deepEqual(series, [['/books/{id}', 200, 2], [undefined, 404, 1]]);
  // Seconds: an in-process request takes well under one.
  assert.ok(metric.dataPoints[0]!.value.max! < 1 && metric.dataPoints[0]!.value.max! > 0);
});

test('with metrics: false no histogram is made', async () => {
  const reader = new TestReader();
  const kernel = await app({ meterProvider: new MeterProvider({ readers: [reader] }), metrics: false });
  await kernel.inject('/books/1');
  assert.deepEqual((await reader.collect()).resourceMetrics.scopeMetrics, []);
});

test('under the HTTP instrumentation: its active span is named and given the route, no second span', async () => {
  const kernel = await app();
  const instrumented = tracer.startSpan('GET', { kind: SpanKind.SERVER });
  const rpc: { type: RPCType; span: typeof instrumented; route?: string } = { type: RPCType.HTTP, span: instrumented };
  const active = setRPCMetadata(trace.setSpan(context.active(), instrumented), rpc);
  const res = await context.with(active, () => kernel.inject('/books/7'));
  assert.equal(res.statusCode, 200);
  instrumented.end();
  const servers = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);
  assert.deepEqual(servers.map((span) => span.name), ['GET /books/{id}']);
  assert.equal(servers[0]!.attributes['http.route'], '/books/{id}');
  assert.equal(rpc.route, '/books/{id}');
  const child = exporter.getFinishedSpans().find((span) => span.name === 'load book');
  assert.equal(child?.parentSpanContext?.spanId, instrumented.spanContext().spanId);
});

test('over a real socket: one span per request, ended once the response is sent', async () => {
  const kernel = await app();
  const { server } = await kernel.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = server.address() as AddressInfo;
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/books/9' }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
      });
      req.on('error', reject).end();
    });
    assert.equal(body, '{"id":"9"}');
    // onResponse runs once the response is written: give it its turn.
    await new Promise((resolve) => setImmediate(resolve));
    const span = only();
    assert.equal(span.name, 'GET /books/{id}');
    assert.equal(span.attributes['server.port'], port);
    assert.equal(span.ended, true);
  } finally {
    await kernel.close();
  }
});

test('a client that leaves before its response: status ERROR, error.type client_disconnected', async () => {
  const kernel = await app();
  const { server } = await kernel.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/slow' });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => req.destroy(), 50);
    });
    // The handler still runs for a while; the span ends when the kernel sees the client gone.
    for (let i = 0; i < 50 && exporter.getFinishedSpans().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const span = only();
    assert.equal(span.name, 'GET /slow');
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.attributes['error.type'], 'client_disconnected');
  } finally {
    await kernel.close();
  }
});

test('bad options fail ready(), naming the option', async () => {
  await assert.rejects(createKernel({ root: new Root(), logger: false }).use(otelPlugin, { metric: false } as never).ready(), { code: 'HICKORY_ERR_OTEL_OPTION', message: /"metric" is unknown/ });
  await assert.rejects(createKernel({ root: new Root(), logger: false }).use(otelPlugin, { tracerProvider: {} as never }).ready(), { code: 'HICKORY_ERR_OTEL_OPTION', message: /getTracer/ });
});

async function durations(reader: TestReader) {
  const { resourceMetrics } = await reader.collect();
  return (resourceMetrics.scopeMetrics[0]!.metrics[0] as HistogramMetricData).dataPoints;
}
