import type { EventEmitter } from 'node:events';
import { unlink } from 'node:fs/promises';

/**
 * The temporary files of one request's uploads. `removeAll()` deletes them; it runs when the
 * response has been sent and, as a backstop, when the connection closes (a client that went
 * away). After it ran, `add()` refuses new files.
 *
 * @example
 * ```ts
 * const temps = new TempFiles(request.raw.socket);
 * if (temps.add(path)) await open(path, 'wx');
 * temps.removeAll();
 * ```
 */
export class TempFiles {
  private readonly paths = new Set<string>();
  private done = false;

  constructor(private readonly connection?: EventEmitter | null) {
    connection?.once('close', this.removeAll);
  }

  /** Records a file about to be created; `false` when the request is over (do not create it). */
  add(path: string): boolean {
    if (this.done) return false;
    this.paths.add(path);
    return true;
  }

  /** How many files are recorded (for tests). */
  get size(): number {
    return this.paths.size;
  }

  /** Deletes every recorded file (missing ones are fine); safe to call more than once. */
  readonly removeAll = (): void => {
    this.done = true;
    this.connection?.off('close', this.removeAll);
    for (const path of this.paths) unlink(path).catch(() => {});
    this.paths.clear();
  };
}
