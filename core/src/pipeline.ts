import type { IncomingMessage, ServerResponse } from 'node:http';
import { bailRunner, isThenable, seriesRunner, type BailRunner } from './bail-runner.ts';
import { adoptResponse, inExchange, serveInContext, type Exchange } from './current.ts';
import { cutOff } from './cut-off.ts';
import { writeDefaultError } from './error-body.ts';
import { enterErrorDocument, leaveErrorDocument } from './error-document.ts';
import { respondToError, type ErrorHost } from './error-responses.ts';
import { coreError } from './errors.ts';
import { HTTPError } from './http-error.ts';
import { InternalRedirect } from './redirect.ts';
import type { Lookup, Request } from './request.ts';
import { answeredOn, closeEnding } from './request-end.ts';
import type { Ending } from './before-end.ts';
import { Deadline } from './deadline.ts';
import { responseOutcome, answerInternalError } from './server-response.ts';
import type { PipelineSettings, RequestHooks } from './pipeline-settings.ts';
import type { RequestLogging } from './request-logging.ts';
import { applyResult, settle } from './step-result.ts';
import { writeFinal } from './write-step.ts';

const MAX_INTERNAL_REDIRECTS = 10;

// The step a request goes on to once a wait settled, with the exchange it goes on in.
type Next = (exchange: Exchange) => Promise<void> | undefined;

/**
 * One request's way through the kernel, in CONTRIBUTING's order: the request objects are made
 * (`accept`), then `beforeRoute` → `route` → `afterLookup` → body → `beforeHandle` → handler
 * (bounded by `handler_timeout`) → result applied → errors turned into responses (`fail`; an
 * error document is routed here again, internal redirects too) → `beforeSend` (`finish`: every
 * response passes it, error responses included) → written (`send`) → `onResponse` taps once the
 * client has it, and the line per request (`sent`). (A request's `afterResponse` callbacks wait
 * for its response on their own: see `after-response.ts`.)
 * Each step calls the next at once and waits only on a promise a tap, the body or the handler
 * returned, so a request that never waits makes no promise (`accept` gives `undefined`).
 *
 * @example
 * ```ts
 * const pipeline = new Pipeline(kernel.hooks, settings); // made by the kernel at ready()
 * const pending = pipeline.accept(req, res);
 * ```
 */
export class Pipeline {
  private readonly runners: { beforeRoute?: BailRunner; route?: BailRunner; afterLookup?: BailRunner; beforeHandle?: BailRunner; beforeSend?: BailRunner };
  // Whether `onResponse` taps wait for the client to have the response (then it is watched from the start).
  private readonly observed: boolean;
  private readonly logging: RequestLogging | undefined;
  private readonly errorHost: ErrorHost;
  // The response header that carries the request id back (only when requests are logged).
  private readonly idHeader: string | undefined;

  constructor(
    private readonly hooks: RequestHooks,
    private readonly settings: PipelineSettings,
  ) {
    // Made after the hooks are sealed: no runner for a hook without taps.
    this.runners = {
      beforeRoute: bailRunner(hooks.beforeRoute),
      route: bailRunner(hooks.route),
      afterLookup: bailRunner(hooks.afterLookup),
      beforeHandle: bailRunner(hooks.beforeHandle),
      beforeSend: seriesRunner(hooks.beforeSend),
    };
    const { logging } = settings;
    this.logging = logging;
    this.observed = hooks.onResponse.isUsed();
    this.idHeader = logging?.idHeader;
    this.errorHost = {
      hooks,
      logger: settings.logger,
      failed: logging !== undefined ? (request, error, message) => logging.failed(request, error, message) : (_request, error, message) => settings.logger().error(message, error),
      tapped: { onAbort: hooks.onAbort.isUsed(), onError: hooks.onError.isUsed() },
      errorPaths: settings.errorPaths,
      redirectOrigins: settings.redirectOrigins,
      debugSections: settings.debugSections,
    };
  }

  /**
   * Serves one request on `res`: `undefined` when it is all done, else a promise that settles
   * once the response is written (it rejects only if the error handling itself failed).
   */
  readonly accept = (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    let exchange: Exchange;
    try {
      const { settings } = this;
      exchange = { request: new settings.requestClass(req, settings.requestSettings), response: new settings.responseClass(), deadline: undefined };
      answeredOn(exchange.request, res);
    } catch (error) {
      // A throwing request_cls/response_cls constructor must not reach uncaughtException.
      this.settings.logger().error(`building the request objects for ${req.method} ${req.url} failed`, error);
      answerInternalError(res);
      return undefined;
    }
    return this.settings.contextLocals ? serveInContext(exchange, this.serve, res) : this.serve(exchange, res);
  };

  private readonly serve = (exchange: Exchange, res: ServerResponse): Promise<void> | undefined => {
    const started = this.logging !== undefined || this.observed ? performance.now() : 0;
    // Watched from the start when `onResponse` taps wait for the outcome: no event is missed.
    const outcome = this.observed ? responseOutcome(res) : undefined;
    let written: Promise<void> | undefined;
    try {
      // Before anything else: no tap, route or handler sees a request for a host it does not serve.
      this.settings.checkHost(exchange.request);
      const routed = this.dispatch(exchange, [], true);
      written = routed === undefined ? this.finish(exchange, res) : this.settledThen(this.bounded(routed, exchange, res), exchange, exchange.deadline, (current) => this.finish(current, res));
    } catch (error) {
      written = this.failThen(error, exchange, (current) => this.finish(current, res));
    }
    if (written === undefined) return this.sent(exchange, res, started, outcome);
    return written.then(
      () => this.sent(exchange, res, started, outcome),
      (error: unknown) => {
        // The error handling itself failed (the caller answers a 500): what the request holds is
        // still given back, once.
        void closeEnding(exchange.request)?.run({ ok: false, status: 500 });
        throw error;
      },
    );
  };

  // A request that had to wait is bounded by `handler_timeout` as a whole: routing, checks, hooks
  // and the handler (its body's arrival not counted). Past it → 503, or at once if the client
  // leaves meanwhile; either way the request is cut off there (see `cutOffThen`).
  private bounded(routed: Promise<void>, exchange: Exchange, res: ServerResponse): Promise<void> {
    const deadline = (exchange.deadline ??= new Deadline(this.settings.handlerTimeout));
    return deadline.bound(routed, (ms) => this.tooSlow(exchange.request, 'routing, checks, hooks and the handler', ms), res);
  }

  // Waits for a step that had to wait; what it threw becomes the response; then `next` (finish or
  // send). A wait that ran out of `deadline` cuts the request off instead.
  private async settledThen(pending: PromiseLike<unknown>, exchange: Exchange, deadline: Deadline | undefined, next: Next): Promise<void> {
    try {
      await pending;
    } catch (error) {
      if (deadline?.expired === true) return this.cutOffThen(error, exchange, next);
      return this.failThen(error, exchange, next);
    }
    return next(exchange);
  }

  // The request is answered without what its own code is still doing: that code keeps its
  // exchange, whose response is sealed, and the answer goes on in a new one (`cut-off.ts`).
  private cutOffThen(error: unknown, exchange: Exchange, next: Next): Promise<void> {
    const goingOn = cutOff(exchange, new this.settings.responseClass(), this.settings.logger());
    return inExchange(this.settings.contextLocals, goingOn, () => this.failThen(error, goingOn, next));
  }

  // Error handling (`onAbort`/`onError` taps: on_error hooks, error documents) gets a budget of its
  // own, `handler_timeout` again: past it the answer is a plain 503, made without them.
  private async failThen(error: unknown, exchange: Exchange, next: Next): Promise<void> {
    const failing = this.fail(error, exchange);
    const deadline = new Deadline(this.settings.handlerTimeout);
    try {
      await deadline.bound(failing, (ms) => this.tooSlow(exchange.request, 'the error handling', ms));
    } catch (failure) {
      if (!deadline.expired) throw failure;
      void failing.catch(() => undefined);
      const goingOn = cutOff(exchange, new this.settings.responseClass(), this.settings.logger());
      writeDefaultError(new HTTPError(503, 'The server took too long to answer.'), exchange.request.raw, goingOn.response);
      return inExchange(this.settings.contextLocals, goingOn, () => next(goingOn));
    }
    return next(exchange);
  }

  private tooSlow(request: Request, what: string, ms: number): void {
    this.settings.logger().warn(`${request.method} ${request.path}: ${what} did not finish within handler_timeout (${ms} ms); answered 503`);
  }

  // The response is written: `onResponse` taps run once the client has it (or has left), and the
  // request's line comes last, so that it times the whole exchange.
  private sent(exchange: Exchange, res: ServerResponse, started: number, outcome: Promise<boolean> | undefined): Promise<void> | undefined {
    if (outcome === undefined) {
      this.logging?.completed(exchange.request, res, started);
      return undefined;
    }
    return outcome.then((completed) => {
      // A request cut off was answered from the exchange that went on.
      let answered = exchange;
      while (answered.successor !== undefined) answered = answered.successor;
      this.observe(answered, res, started, completed);
      this.logging?.completed(exchange.request, res, started);
    });
  }

  private observe(exchange: Exchange, res: ServerResponse, started: number, completed: boolean): void {
    const info = { status: res.statusCode, duration: performance.now() - started, completed };
    try {
      this.hooks.onResponse.call(exchange.request, exchange.response, info);
    } catch (error) {
      this.settings.logger().error('an onResponse tap failed', error);
    }
  }

  // The response is final: `beforeSend` taps may change it (a tap that throws makes it a 500),
  // then it is written. At once unless a tap or the body must wait.
  private finish(exchange: Exchange, res: ServerResponse): Promise<void> | undefined {
    const beforeSend = this.runners.beforeSend;
    if (beforeSend !== undefined) {
      let ran: unknown;
      try {
        ran = beforeSend(exchange.request, exchange.response);
      } catch (error) {
        return this.failThen(error, exchange, (current) => this.send(current, res));
      }
      // `beforeSend` taps (after hooks) get a budget of their own; past it the response is a 503.
      if (isThenable(ran)) {
        const deadline = new Deadline(this.settings.handlerTimeout);
        const bounded = deadline.bound(ran, (ms) => this.tooSlow(exchange.request, 'a beforeSend tap', ms));
        return this.settledThen(bounded, exchange, deadline, (current) => this.send(current, res));
      }
    }
    return this.send(exchange, res);
  }

  // Gives back what the request holds (its `beforeEnd` callbacks) once the response is final, then
  // writes it. A request with nothing to give back goes straight to `write`.
  private send(exchange: Exchange, res: ServerResponse): Promise<void> | undefined {
    const ending = closeEnding(exchange.request);
    if (ending === undefined || ending.started) return writeFinal(exchange, res, this.settings, this.idHeader);
    return this.endThenWrite(ending, exchange, res);
  }

  // What the request holds is given back before any byte of the answer goes out, a streamed body
  // included (which is then read outside the transaction: a slow reader holds nothing), and within
  // `handler_timeout`: past it the answer is a 503, and the callbacks still finish once, logged.
  private async endThenWrite(ending: Ending, exchange: Exchange, res: ServerResponse): Promise<void> {
    const { request, response } = exchange;
    const gone = res.destroyed || (res.req as IncomingMessage | undefined)?.socket?.destroyed === true;
    const giving = ending.run({ ok: response.status < 400 && !gone, status: response.status });
    const deadline = new Deadline(this.settings.handlerTimeout);
    let failed: boolean;
    try {
      failed = await deadline.bound(giving, (ms) => this.tooSlow(request, 'giving back what it held (beforeEnd: commit, rollback, clear, after_commit/after_rollback actions)', ms));
    } catch {
      void giving.then((late) => this.settings.logger().warn(`${request.method} ${request.path}: what it held was given back${late ? ', with a failure,' : ''} after the request was answered 503`));
      return writeFinal(this.replacedBy(exchange, new HTTPError(503, 'The server took too long to answer.')), res, this.settings, this.idHeader);
    }
    // What the request did was not kept: the client must not be told it was.
    return writeFinal(failed ? this.replacedBy(exchange, new HTTPError(500)) : exchange, res, this.settings, this.idHeader);
  }

  private replacedBy(exchange: Exchange, error: HTTPError): Exchange {
    const replacement = new this.settings.responseClass();
    writeDefaultError(error, exchange.request.raw, replacement);
    adoptResponse(exchange, replacement);
    return exchange;
  }

  // Routing and the handler, synchronously as far as the taps and the handler allow: `undefined`
  // when done, else a promise from the first step that must wait. `readBody: false` for error
  // documents: the body may be what failed (413, 400), and an error page never needs it.
  private dispatch(exchange: Exchange, visited: string[], readBody: boolean): Promise<void> | undefined {
    try {
      const pending = this.beforeRouteStep(exchange, readBody);
      return pending === undefined ? undefined : this.redirectedLater(pending, exchange, visited, readBody);
    } catch (error) {
      return this.redirected(error, exchange, visited, readBody);
    }
  }

  // Each step calls the next at once, or once its tap's promise settled. A tap's answer ends the
  // request's routing there (see `applyResult`).
  private beforeRouteStep(exchange: Exchange, readBody: boolean): Promise<void> | undefined {
    const beforeRoute = this.runners.beforeRoute;
    if (beforeRoute === undefined) return this.routeStep(exchange, readBody);
    const answer = beforeRoute(exchange.request, exchange.response);
    if (isThenable(answer)) return settle(exchange, answer, (value) => (value !== undefined ? applyResult(exchange, value) : this.routeStep(exchange, readBody)));
    if (answer !== undefined) return applyResult(exchange, answer);
    return this.routeStep(exchange, readBody);
  }

  private routeStep(exchange: Exchange, readBody: boolean): Promise<void> | undefined {
    const route = this.runners.route;
    const found = route === undefined ? undefined : route(exchange.request, exchange.response);
    if (isThenable(found)) return settle(exchange, found, (lookup) => this.afterLookupStep(lookup as Lookup | undefined, exchange, readBody));
    return this.afterLookupStep(found as Lookup | undefined, exchange, readBody);
  }

  private afterLookupStep(lookup: Lookup | undefined, exchange: Exchange, readBody: boolean): Promise<void> | undefined {
    if (lookup === undefined) throw new HTTPError(404);
    const afterLookup = this.runners.afterLookup;
    if (afterLookup === undefined) return this.bodyStep(lookup, exchange, readBody);
    const answer = afterLookup(lookup, exchange.request, exchange.response);
    if (isThenable(answer)) return settle(exchange, answer, (value) => (value !== undefined ? applyResult(exchange, value) : this.bodyStep(lookup, exchange, readBody)));
    if (answer !== undefined) return applyResult(exchange, answer);
    return this.bodyStep(lookup, exchange, readBody);
  }

  private bodyStep(lookup: Lookup, exchange: Exchange, readBody: boolean): Promise<void> | undefined {
    const { request } = exchange;
    // Known before the body is read: an error reading it (413, 400) answers in the handler's format.
    request.lookup = lookup;
    if (readBody && lookup.loadBody !== false && !request.loaded && !request.bodyIgnoredFor(lookup.loadBody)) {
      const loading = request.load();
      if (!request.loaded) {
        const deadline = (exchange.deadline ??= new Deadline(this.settings.handlerTimeout));
        return settle(exchange, deadline.waitingForBody(loading), () => this.beforeHandleStep(lookup, exchange));
      }
    }
    return this.beforeHandleStep(lookup, exchange);
  }

  private beforeHandleStep(lookup: Lookup, exchange: Exchange): Promise<void> | undefined {
    const beforeHandle = this.runners.beforeHandle;
    if (beforeHandle === undefined) return this.handleStep(lookup, exchange);
    const answer = beforeHandle(lookup, exchange.request, exchange.response);
    if (isThenable(answer)) return settle(exchange, answer, (value) => (value !== undefined ? applyResult(exchange, value) : this.handleStep(lookup, exchange)));
    if (answer !== undefined) return applyResult(exchange, answer);
    return this.handleStep(lookup, exchange);
  }

  private handleStep(lookup: Lookup, exchange: Exchange): Promise<void> | undefined {
    const value: unknown = lookup.handle(exchange.request, exchange.response);
    // A late result (the request answered 503 meanwhile) is ignored.
    if (isThenable(value)) return settle(exchange, value, (result) => applyResult(exchange, result));
    return applyResult(exchange, value);
  }

  private async redirectedLater(pending: Promise<void>, exchange: Exchange, visited: string[], readBody: boolean): Promise<void> {
    try {
      await pending;
    } catch (error) {
      await this.redirected(error, exchange, visited, readBody);
    }
  }

  // An internal redirect routes the request again at its new location (with a loop guard);
  // any other error is thrown on.
  private redirected(error: unknown, exchange: Exchange, visited: string[], readBody: boolean): Promise<void> | undefined {
    if (!(error instanceof InternalRedirect)) throw error;
    // A late redirect of a request already answered 503 routes nothing.
    if (exchange.deadline?.expired === true) return undefined;
    const { request } = exchange;
    const trail = [...visited, request.url];
    if (trail.length > MAX_INTERNAL_REDIRECTS || trail.includes(error.location)) {
      throw coreError('HICKORY_ERR_REDIRECT_LOOP', [...trail, error.location].join(' → '));
    }
    request.rewrite(error.location);
    return this.dispatch(exchange, trail, readBody);
  }

  // The error becomes the response; an error document (`errors`) is routed here, as the request
  // was, but without reading the body (it may be what failed: 413, 400); if the document itself
  // fails, the default error body is sent.
  private async fail(error: unknown, exchange: Exchange): Promise<void> {
    const document = await respondToError(error, exchange, this.errorHost);
    if (document === undefined) return;
    const { error: documented, path } = document;
    // Past `handler_timeout` the plain error body is sent: routing a document would wait again.
    if (exchange.deadline?.expired === true) {
      writeDefaultError(documented, exchange.request.raw, exchange.response);
      return;
    }
    const visit = enterErrorDocument(exchange, documented, path, new this.settings.responseClass());
    let rendered = true;
    try {
      await this.dispatch(exchange, [], false);
    } catch (pageError) {
      this.settings.logger().error(`the error document ${path} for ${documented.status} failed; sending the default error body`, pageError);
      rendered = false;
    }
    leaveErrorDocument(exchange, visit, rendered);
    if (!rendered) writeDefaultError(documented, exchange.request.raw, exchange.response);
  }
}

