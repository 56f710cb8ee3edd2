import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abort } from '@hickory/core';
import type { UploadedFile } from '@hickory/multipart';

/** One kept upload. */
export interface StoredFile {
  readonly id: string;
  readonly filename: string;
  readonly type: string;
  readonly size: number;
  readonly path: string;
}

/** The bounds of an {@link UploadShelf}. */
export interface UploadShelfOptions {
  /** How many uploads are kept at most (default 20): past it, the oldest are dropped. */
  maxFiles?: number;
  /** How many bytes they hold in all at most (default 16 MiB): past it, the oldest are dropped. */
  maxBytes?: number;
}

const MiB = 1024 * 1024;

/**
 * Where the showcase keeps what visitors upload at `/files/`: a temporary folder of its own (made
 * at the first upload), at most `maxFiles` files and `maxBytes` bytes — the oldest are dropped to
 * make room, so what anyone sends has a ceiling — and removed, folder and all, by `clear()` (the
 * showcase calls it when the app closes: SIGTERM under `hickory serve` included). Files are stored
 * under ids, never under the names clients send. Each process (each `--workers` worker) has its own.
 *
 * @example
 * ```ts
 * const shelf = new UploadShelf({ maxFiles: 5 });
 * const stored = await shelf.add(file); // in a handler, `file` an UploadedFile
 * shelf.list(); // oldest first
 * await shelf.clear();
 * ```
 */
export class UploadShelf {
  readonly maxFiles: number;
  readonly maxBytes: number;
  // Insertion order is age: the first entry is the oldest.
  readonly #files = new Map<string, StoredFile>();
  #bytes = 0;
  #nextId = 1;
  #dir: string | undefined;

  constructor({ maxFiles = 20, maxBytes = 16 * MiB }: UploadShelfOptions = {}) {
    this.maxFiles = maxFiles;
    this.maxBytes = maxBytes;
  }

  /** The folder the files are in, `undefined` before the first upload and after `clear()`. */
  get folder(): string | undefined {
    return this.#dir;
  }

  /** The bytes the kept files hold. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Keeps `file` (moved or copied into the shelf's folder), then drops the oldest files until
   * both bounds hold again. A file larger than `maxBytes` on its own is refused with 413.
   */
  async add(file: UploadedFile): Promise<StoredFile> {
    if (file.size > this.maxBytes) abort(413, `A file of ${file.size} bytes is more than the ${this.maxBytes} bytes this showcase keeps.`);
    this.#dir ??= mkdtempSync(join(tmpdir(), 'hickory-sandbox-files-'));
    const dir = this.#dir;
    const id = String(this.#nextId++);
    const path = join(dir, id);
    await file.saveTo(path);
    // Cleared while saving (the app is closing): nothing is kept.
    if (this.#dir !== dir) {
      await rm(dir, { recursive: true, force: true });
      abort(503, 'The server is stopping.', { 'Retry-After': '1' });
    }
    const stored: StoredFile = { id, filename: file.filename, type: file.type || 'application/octet-stream', size: file.size, path };
    this.#files.set(id, stored);
    this.#bytes += stored.size;
    const dropped: string[] = [];
    for (const [oldId, old] of this.#files) {
      if (this.#files.size <= this.maxFiles && this.#bytes <= this.maxBytes) break;
      if (oldId === id) continue;
      this.#files.delete(oldId);
      this.#bytes -= old.size;
      dropped.push(old.path);
    }
    // A download of a dropped file that already started keeps its open descriptor (Linux unlinks lazily).
    await Promise.all(dropped.map((oldPath) => rm(oldPath, { force: true })));
    return stored;
  }

  /** The kept file `id`, if it is still kept. */
  get(id: string): StoredFile | undefined {
    return this.#files.get(id);
  }

  /** The kept files, oldest first. */
  list(): StoredFile[] {
    return [...this.#files.values()];
  }

  /** Forgets every file and removes the folder (the next upload makes a new one). */
  async clear(): Promise<void> {
    const dir = this.#dir;
    this.#dir = undefined;
    this.#files.clear();
    this.#bytes = 0;
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}

let shared: UploadShelf | undefined;

/**
 * The upload shelf `npm start` serves (one per process), created on first call.
 *
 * @example
 * ```ts
 * export default { app: { plugins: [showcasePlugin(showcaseLibrary(), showcaseUploads())] } };
 * ```
 */
export function showcaseUploads(): UploadShelf {
  return (shared ??= new UploadShelf());
}
