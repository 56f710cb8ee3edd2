import { createReadStream } from 'node:fs';
import { abort, contentDisposition, redirect, response } from '@hickory/core';
import { expose, when } from '@hickory/dispatch';
import { UploadedFile } from '@hickory/multipart';
import { showcaseUploads, type UploadShelf } from '../upload-shelf.ts';

/**
 * `/files/`: an upload form (`multipart/form-data`), the list of kept files, and downloads that
 * stream each file back with `Content-Disposition: attachment`. Anyone may upload (it is the
 * showcase's multipart demo), so what is kept is bounded: the shelf keeps the latest files only
 * (`UploadShelf`: 20 files, 16 MiB in all by default), and its folder is removed when the app stops.
 *
 * @example
 * ```ts
 * const files = new FilesController(new UploadShelf({ maxFiles: 5 }));
 * ```
 */
export class FilesController {
  // #private: routing follows public fields, and TypeScript's `private` is gone at run time.
  readonly #shelf: UploadShelf;

  /** @param shelf where uploads are kept: by default the one `npm start` serves (`showcaseUploads()`). */
  constructor(shelf: UploadShelf = showcaseUploads()) {
    this.#shelf = shelf;
  }

  /** GET: the form and the list (`files/index.ejs`); POST: stores the upload, then back to the list (303). */
  @expose({ generic: true, template: 'files/index.ejs' })
  index() {
    const { maxFiles, maxBytes } = this.#shelf;
    const files = this.#shelf.list().map(({ id, filename, size, type }) => ({ id, filename, size, type }));
    return { files, maxFiles, maxMiB: +(maxBytes / 1048576).toFixed(1) };
  }

  // The form's file arrives as the argument of the same name (optional, so that a form without
  // one gets this message rather than the generic one for a missing argument).
  @when('index', { method: 'POST' })
  async store(file: unknown = undefined): Promise<never> {
    if (!(file instanceof UploadedFile)) abort(400, 'Choose a file to upload (form field "file").');
    await this.#shelf.add(file);
    redirect('/files/', { code: 303 });
  }

  /** `/files/download/<id>`: streams the stored bytes as an attachment with the original name. */
  @expose()
  download(id: string): void {
    const file = this.#shelf.get(id) ?? abort(404, `No stored file ${id}.`);
    response.headers['Content-Type'] = file.type;
    response.headers['Content-Length'] = String(file.size);
    response.headers['Content-Disposition'] = contentDisposition(file.filename);
    response.app_iter = createReadStream(file.path);
  }
}
