import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';

// How often the worst delay is taken from the histogram: a probe sees pressure at most this long
// after it began, and readiness stays refused this long after it ended.
const SAMPLE_MS = 50;
// The histogram's timer period. What it records is the time between two of its timers (so an
// idle loop shows about 10 ms): the delay is what exceeds it.
const RESOLUTION_MS = 10;

/**
 * How late the event loop runs, from `node:perf_hooks`' `monitorEventLoopDelay` (a histogram of
 * the intervals of a 10 ms timer, read and reset every 50 ms), and from how late the sampling
 * timer itself is: after `reset()` the histogram drops its next interval (measured on Node 20: a
 * 300 ms block right after a reset left `max` at 10 ms), and a block still under way when a probe
 * is read has not reached the histogram yet. Both are caught by the sampler's own lateness, to
 * within one sampling period.
 *
 * @example
 * ```ts
 * const loop = new LoopMonitor();
 * loop.start();
 * if (loop.delay() > 1000) answer503();
 * loop.stop();
 * ```
 */
export class LoopMonitor {
  private histogram: IntervalHistogram | undefined;
  private timer: NodeJS.Timeout | undefined;
  // The worst delay of the last full sampling period, in ms.
  private recent = 0;
  private sampledAt = 0;

  /** Starts measuring (at the kernel's `ready`). */
  start(): void {
    if (this.histogram !== undefined) return;
    this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.histogram.enable();
    this.sampledAt = performance.now();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  /** Stops measuring (at the kernel's `close`). */
  stop(): void {
    clearInterval(this.timer);
    this.histogram?.disable();
    this.histogram = undefined;
  }

  /** The worst event-loop delay in ms over the last sampling period or so, or the one under way. */
  delay(): number {
    const histogram = this.histogram;
    if (histogram === undefined) return 0;
    const now = performance.now();
    return Math.max(this.recent, worstOf(histogram), now - this.sampledAt - SAMPLE_MS);
  }

  private sample(): void {
    const histogram = this.histogram!;
    const now = performance.now();
    this.recent = Math.max(worstOf(histogram), now - this.sampledAt - SAMPLE_MS);
    histogram.reset();
    this.sampledAt = now;
  }
}

function worstOf(histogram: IntervalHistogram): number {
  return histogram.count > 0 ? Math.max(0, histogram.max / 1e6 - RESOLUTION_MS) : 0;
}
