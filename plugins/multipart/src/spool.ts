import { randomUUID } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { UploadContent } from './uploaded-file.ts';

/**
 * A writable that keeps what it receives in memory up to `threshold` bytes, then moves it all
 * to a new temporary file (mode 0600) and writes the rest there, so memory stays flat whatever
 * the upload size. `onTempFile` is told the path before the file is created, so the caller can
 * delete it whatever happens next (it returns `false` to refuse: the request is over). A spool
 * destroyed before it finished deletes its own file.
 *
 * @example
 * ```ts
 * const spool = new Spool(64 * 1024, tmpdir(), (path) => temps.add(path));
 * await pipeline(fileStream, spool);
 * spool.content; // { chunks } or { path }
 * ```
 */
export class Spool extends Writable {
  /** Bytes received so far. */
  size = 0;
  private chunks: Buffer[] = [];
  private path: string | undefined;
  private handle: FileHandle | undefined;

  constructor(
    private readonly threshold: number,
    private readonly dir: string,
    private readonly onTempFile: (path: string) => boolean,
  ) {
    // Room for a few socket chunks while a disk write is in flight: fewer, larger writes (measured in benchmarks/upload.ts).
    super({ highWaterMark: 256 * 1024 });
  }

  /** Where the bytes are, once the spool has finished. */
  get content(): UploadContent {
    return this.path === undefined ? { chunks: this.chunks } : { path: this.path };
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.handle) {
      writeAll(this.handle, [chunk]).then(() => callback(), callback);
      return;
    }
    this.chunks.push(chunk);
    if (this.size <= this.threshold) {
      callback();
      return;
    }
    this.toDisk().then(() => callback(), callback);
  }

  override _writev(entries: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void): void {
    if (!this.handle) {
      // Before the switch to disk, chunks are only collected: take them one by one.
      let i = 0;
      const next = (error?: Error | null): void => {
        if (error || i === entries.length) return callback(error);
        this._write(entries[i++]!.chunk, 'binary', next);
      };
      next();
      return;
    }
    for (const { chunk } of entries) this.size += chunk.length;
    writeAll(this.handle, entries.map((e) => e.chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return callback();
    handle.close().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    // A finished spool is destroyed too (autoDestroy): keep its chunks, they are the upload.
    if (!this.writableFinished) this.chunks = [];
    const unfinished = !this.writableFinished && this.path !== undefined ? this.path : undefined;
    const closed = handle ? handle.close().catch(() => {}) : Promise.resolve();
    void closed
      .then(() => (unfinished ? unlink(unfinished).catch(() => {}) : undefined))
      .then(() => callback(error));
  }

  private async toDisk(): Promise<void> {
    const path = join(this.dir, `hickory-upload-${randomUUID()}`);
    if (!this.onTempFile(path)) throw new Error('the request is over: no temporary file is created');
    this.path = path;
    const handle = await open(path, 'wx', 0o600);
    if (this.destroyed) {
      // Destroyed while the file was being created: _destroy found no handle to close.
      await handle.close().catch(() => {});
      await unlink(path).catch(() => {});
      return;
    }
    this.handle = handle;
    const held = this.chunks;
    this.chunks = [];
    await writeAll(handle, held);
  }
}

// writev on a regular file writes everything or fails; a short write (disk full) is an error.
async function writeAll(handle: FileHandle, chunks: Buffer[]): Promise<void> {
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  const { bytesWritten } = await handle.writev(chunks);
  if (bytesWritten !== total) throw new Error(`short write to an upload's temporary file (${bytesWritten} of ${total} bytes)`);
}
