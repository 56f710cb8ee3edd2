import { abort, redirect, request, response, type Request } from '@hickory/core';
import { expose, when } from '@hickory/dispatch';
import { SecureController, unlocked } from '@hickory/hooks';
import { rate_limit } from '@hickory/app';
import { endSession, hasSession, passwordMatches, startSession } from '../admin-session.ts';
import type { Library } from '../store/library.ts';

/**
 * `/admin/`: the showcase's secured part. Every handler here and below runs only for a signed-in
 * client (a session of the database's `sessions` table, see `admin-session.ts`); `login` is
 * `@unlocked`. A refused request is a 401, which the configuration's `errors` turns into the login
 * page. `check_permissions` is static, as a `SecureController`'s is: {@link AdminController.for}
 * makes the class whose check reads the sessions of one library.
 *
 * @example
 * ```ts
 * class Root { admin = AdminController.for(new Library(':memory:')); }
 * ```
 */
export class AdminController extends SecureController {
  /** The admin pages of `library`: a subclass whose check reads that library's sessions. */
  static for(library: Library): AdminController {
    const Bound = class extends AdminController {
      static override check_permissions(req: Request): Promise<boolean> {
        return hasSession(library, req);
      }
    };
    // Route maps and logs name a controller by its class: the same name as before.
    Object.defineProperty(Bound, 'name', { value: AdminController.name });
    return new Bound(library);
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

  /** Signs out (POST, the button on /admin/): the session's row is deleted, on every instance at once. */
  @expose()
  async logout() {
    if (request.method !== 'POST') abort(405, 'Sign out with POST (the button on /admin/).', { Allow: 'POST' });
    await endSession(this.#library.sessions(), request, response);
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
  async login_post(password?: string) {
    if (!passwordMatches(password)) {
      response.status = 401;
      return { failed: true };
    }
    await startSession(this.#library.sessions(), response);
    return redirect('/admin/');
  }
}
