import { abort, redirect, request, response, type Request } from '@hickory/core';
import { expose, when } from '@hickory/dispatch';
import { SecureController, unlocked } from '@hickory/hooks';
import { endSession, hasSession, passwordMatches, startSession } from '../admin-session.ts';
import type { Library } from '../store/library.ts';

/**
 * `/admin/`: the showcase's secured part. Every handler here and below runs only for a signed-in
 * client (a signed session cookie, see `admin-session.ts`); `login` is `@unlocked`. A refused
 * request is a 401, which the configuration's `errors` turns into the login page.
 *
 * @example
 * ```ts
 * class Root { admin = new AdminController(new Library(':memory:')); }
 * ```
 */
export class AdminController extends SecureController {
  static override check_permissions(req: Request): boolean {
    return hasSession(req);
  }

  readonly #library: Library;

  constructor(library: Library) {
    super();
    this.#library = library;
  }

  @expose('admin/index.ejs')
  index() {
    return { books: this.#library.books.list() };
  }

  /** Deletes a book (POST from the list). */
  @expose()
  delete(id: string) {
    if (request.method !== 'POST') abort(405, 'Delete with POST.', { Allow: 'POST' });
    if (!this.#library.books.remove(id)) abort(404, `No book with id ${JSON.stringify(id)}.`);
    return redirect('/admin/');
  }

  @expose()
  logout() {
    endSession(response);
    return redirect('/admin/login');
  }

  @unlocked
  @expose({ generic: true, template: 'admin/login.ejs' })
  login() {
    return { failed: false };
  }

  @when('login', { method: 'POST', template: 'admin/login.ejs' })
  login_post(password?: string) {
    if (!passwordMatches(password)) {
      response.status = 401;
      return { failed: true };
    }
    startSession(response);
    return redirect('/admin/');
  }
}
