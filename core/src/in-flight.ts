import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger.ts';
import { answerInternalError } from './server-response.ts';

/** Serves one request: `undefined` when it is all done, else a promise that settles once it is. */
export type Serve = (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined;

/**
 * Counts the requests being served, so that `close()` can wait for them; and is the last line of
 * defence: whatever escaped a request's own error handling ends here, in a 500 or a destroyed
 * connection, and never throws (nobody awaits the request's promise).
 *
 * @example
 * ```ts
 * const inFlight = new InFlight(() => kernel.logger);
 * inFlight.serve(pipeline.accept, req, res);
 * await inFlight.drained();
 * ```
 */
export class InFlight {
  private count = 0;
  private onDrained: (() => void) | undefined;

  constructor(private readonly logger: () => Logger) {}

  /** Serves a request through `serve`, counted until it has settled. */
  serve(serve: Serve, req: IncomingMessage, res: ServerResponse): void {
    this.count++;
    let pending: Promise<void> | undefined;
    try {
      pending = serve(req, res);
    } catch (error) {
      pending = Promise.reject(error);
    }
    if (pending === undefined) this.settled();
    else pending.then(this.settled, (error: unknown) => this.failed(error, res));
  }

  /** Settles once no request is being served (at once when none is). */
  drained(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise<void>((done) => (this.onDrained = done));
  }

  private readonly settled = (): void => {
    if (--this.count === 0 && this.onDrained) this.onDrained();
  };

  private failed(error: unknown, res: ServerResponse): void {
    this.settled();
    this.logger().error('a request failed after its response was built', error);
    answerInternalError(res);
  }
}
