import { abort, redirect, request, response, type Request } from '@hickory/core';
import { expose, when } from '@hickory/dispatch';
import { SecureController, unlocked } from '@hickory/hooks';
import { rate_limit } from '@hickory/app';
import { passwordMatches } from '../admin-password.ts';
import { isSignedIn, signIn, signOut } from '../admin-session.ts';
import type { Library } from '../store/library.ts';

/**
 * `/admin/`: the showcase's secured part. Every handler here and below runs only for a signed-in
 * client (`request.session`, from `@hickory/session`, kept in the showcase's database: see
 * `admin-session.ts`); `login` is `@unlocked`. A refused request is a 401, which the
 * configuration's `errors` turns into the login page.
 *
 * @example
 * ```ts
 * class Root { admin = AdminController.for(new Library(':memory:')); }
 * ```
 */
export class AdminController extends SecureController {
  /** The admin pages of `library`'s books. */
  static for(library: Library): AdminController {
    return new AdminController(library);
  }

  // The session was loaded before routing: the check reads no database.
  static override check_permissions(req: Request): boolean {
    return isSignedIn(req);
  }

  readonly #library: Library;

  protected constructor(library: Library) {
    super();
    this.#library = library;
  }

  @expose('admin/index.ejs')
  async index() {
    return { books: await this.#library.books().list() };
  }

  /** Deletes a book (POST from the list). */
  @expose()
  async delete(id: string) {
    if (request.method !== 'POST') abort(405, 'Delete with POST.', { Allow: 'POST' });
    if (!(await this.#library.books().remove(id))) abort(404, `No book with id ${JSON.stringify(id)}.`);
    return redirect('/admin/');
  }

  /** Signs out (POST, the button on /admin/): the session is deleted, on every instance at once. */
  @expose()
  logout() {
    if (request.method !== 'POST') abort(405, 'Sign out with POST (the button on /admin/).', { Allow: 'POST' });
    signOut(request);
    return redirect('/admin/login');
  }

  @unlocked
  @expose({ generic: true, template: 'admin/login.ejs' })
  login() {
    return { failed: false };
  }

  // Password guessing: 5 attempts a minute per client address (then 429 with Retry-After).
  @rate_limit({ points: 5, duration: 60, name: 'login' })
  @when('login', { method: 'POST', template: 'admin/login.ejs' })
  login_post(password?: string) {
    if (!passwordMatches(password)) {
      response.status = 401;
      return { failed: true };
    }
    signIn(request);
    return redirect('/admin/');
  }
}
