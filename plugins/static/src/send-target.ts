import { PassThrough } from 'node:stream';

/**
 * What `send` writes to, standing in for Node's `ServerResponse`: it records the status and
 * headers `send` sets, and passes the file's bytes through (with backpressure) to whoever reads
 * it, here the kernel, which owns writing the real response.
 *
 * @example
 * ```ts
 * const target = new SendTarget();
 * send(req, '/a.css', { root }).pipe(target);
 * // later: target.statusCode, target.headerEntries(), and target as the body stream
 * ```
 */
export class SendTarget extends PassThrough {
  statusCode = 200;
  /** Never a real socket (read by `send`'s finish detection). */
  readonly socket = null;
  private readonly headers = new Map<string, { name: string; value: string | number | readonly string[] }>();

  /** Always false: the kernel sends the headers, later. */
  get headersSent(): boolean {
    return false;
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers.set(name.toLowerCase(), { name, value });
    return this;
  }

  getHeader(name: string): string | number | readonly string[] | undefined {
    return this.headers.get(name.toLowerCase())?.value;
  }

  getHeaderNames(): string[] {
    return [...this.headers.keys()];
  }

  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  /** The headers as set, with their original names. */
  headerEntries(): Array<[string, string | number | readonly string[]]> {
    return [...this.headers.values()].map(({ name, value }) => [name, value]);
  }
}
