import { createReadStream } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abort, contentDisposition, escapeHtml, redirect, response } from '@hickory/core';
import { expose, when } from '@hickory/dispatch';
import { UploadedFile } from '@hickory/multipart';

interface StoredFile {
  readonly id: string;
  readonly filename: string;
  readonly type: string;
  readonly size: number;
  readonly path: string;
}

/**
 * `/files/`: an upload form (`multipart/form-data`), the list of stored files, and downloads that
 * stream each file back with `Content-Disposition: attachment`. Files are stored under ids, never
 * under the names clients send.
 *
 * @example
 * ```ts
 * const files = new FilesController(); // stores in a fresh temporary folder
 * ```
 */
export class FilesController {
  // #private: routing follows public fields, and TypeScript's `private` is gone at run time.
  readonly #stored = new Map<string, StoredFile>();
  #nextId = 1;
  readonly #dir: string;

  constructor(dir = join(tmpdir(), `hickory-sandbox-files-${process.pid}`)) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  /** GET: the form and the list; POST: stores the upload, then back to the list (303). */
  @expose({ generic: true })
  index(): string {
    const rows = [...this.#stored.values()]
      .map((f) => `<li><a href="download/${f.id}">${escapeHtml(f.filename)}</a> (${f.size} bytes, ${escapeHtml(f.type)})</li>`)
      .join('\n');
    return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Files</title></head><body>
<h1>Files</h1>
<form method="POST" action="/files/" enctype="multipart/form-data">
  <input type="file" name="file" required>
  <button type="submit">Upload</button>
</form>
<ul id="files">
${rows || '<li>No files yet.</li>'}
</ul>
<p><a href="/">Home</a></p>
</body></html>
`;
  }

  // The form's file arrives as the argument of the same name (optional, so that a form without
  // one gets this message rather than the generic one for a missing argument).
  @when('index', { method: 'POST' })
  async store(file: unknown = undefined): Promise<never> {
    if (!(file instanceof UploadedFile)) abort(400, 'Choose a file to upload (form field "file").');
    const id = String(this.#nextId++);
    const path = join(this.#dir, id);
    await file.saveTo(path);
    this.#stored.set(id, { id, filename: file.filename, type: file.type || 'application/octet-stream', size: file.size, path });
    redirect('/files/', { code: 303 });
  }

  /** `/files/download/<id>`: streams the stored bytes as an attachment with the original name. */
  @expose()
  download(id: string): void {
    const file = this.#stored.get(id) ?? abort(404, `No stored file ${id}.`);
    response.headers['Content-Type'] = file.type;
    response.headers['Content-Length'] = String(file.size);
    response.headers['Content-Disposition'] = contentDisposition(file.filename);
    response.app_iter = createReadStream(file.path);
  }

  /** Deletes the stored files (for tests and shutdown). */
  async clear(): Promise<void> {
    this.#stored.clear();
    await rm(this.#dir, { recursive: true, force: true });
  }
}
