import { createReadStream } from 'node:fs';
import { copyFile, rename, unlink, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** Where an upload's bytes are: in memory (small files) or in a temporary file. */
export type UploadContent = { readonly chunks: readonly Buffer[] } | { readonly path: string };

/**
 * One uploaded file of a multipart form, as found in `request.POST[name]`.
 * Small files are kept in memory, larger ones in a temporary file that is deleted when the
 * response ends: read `file` or call `saveTo()` before that.
 *
 * @example
 * ```ts
 * const upload = request.POST['file'] as UploadedFile;
 * await pipeline(upload.file, createWriteStream(`./store/${upload.filename}`));
 * ```
 */
export class UploadedFile {
  /** The client's file name, base name only (never a path). */
  readonly filename: string;
  /** The media type the client declared (`application/octet-stream` when none). */
  readonly type: string;
  /** The part's `Content-Transfer-Encoding` (`7bit` when none). */
  readonly encoding: string;
  /** The size in bytes. */
  readonly size: number;
  /** True when the file was cut at a size limit (the plugin refuses such uploads with 413). */
  readonly truncated: boolean;
  // Truly private (#): the bytes or the server's temporary path never show in JSON.stringify,
  // util.inspect or a spread, only through the methods below.
  #content: UploadContent;
  #stream: Readable | undefined;

  constructor(info: { filename: string; type: string; encoding: string; size: number; truncated: boolean }, content: UploadContent) {
    this.filename = info.filename;
    this.type = info.type;
    this.encoding = info.encoding;
    this.size = info.size;
    this.truncated = info.truncated;
    this.#content = content;
  }

  /** The file on disk (a temporary file, or where `saveTo()` put it); `undefined` when in memory. */
  get path(): string | undefined {
    return 'path' in this.#content ? this.#content.path : undefined;
  }

  /** The file's bytes as a readable stream (the same stream on every access). */
  get file(): Readable {
    if (this.#stream) return this.#stream;
    const content = this.#content;
    const stream = 'path' in content ? createReadStream(content.path) : Readable.from(content.chunks, { objectMode: false });
    // A reader that forgets its error listener must not take the process down.
    stream.on('error', () => {});
    return (this.#stream = stream);
  }

  /**
   * Stores the file at `destination`: a temporary file is moved there (copied across devices),
   * a file held in memory is written.
   *
   * @example
   * ```ts
   * await upload.saveTo(join(storeDir, upload.filename));
   * ```
   */
  async saveTo(destination: string): Promise<void> {
    const content = this.#content;
    if (!('path' in content)) {
      await writeFile(destination, content.chunks);
      return;
    }
    try {
      await rename(content.path, destination);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(content.path, destination);
      await unlink(content.path).catch(() => {});
    }
    this.#content = { path: destination };
  }

  /**
   * What an upload is in JSON (a handler returning it, a log line): its name, media type and size,
   * never its bytes or where the server keeps them.
   *
   * @example
   * ```ts
   * JSON.stringify(upload); // '{"filename":"a.txt","type":"text/plain","size":5}'
   * ```
   */
  toJSON(): { filename: string; type: string; size: number } {
    return { filename: this.filename, type: this.type, size: this.size };
  }
}
