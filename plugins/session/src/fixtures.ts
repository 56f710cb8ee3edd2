// Shared by this package's tests: a small app with a session, and a cookie jar.
import { createKernel, request, response, abort, type Kernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { sessionPlugin, type SessionOptions } from './index.ts';

export const SECRET = 'a-test-secret-of-at-least-32-characters';
export const OLD_SECRET = 'an-older-secret-also-32-characters-long';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Root {
  @expose() index() {
    return 'home';
  }
  @expose('json') count() {
    const visits = Number(request.session['visits'] ?? 0) + 1;
    request.session['visits'] = visits;
    return { visits };
  }
  @expose('json') read() {
    return { ...request.session };
  }
  @expose('json') put(key: string, value: string) {
    request.session[key] = value;
    return { ok: true };
  }
  // Waits a little before writing: concurrent requests interleave.
  @expose('json') async mark(value: string, delay: string) {
    const before = request.session['mark'];
    await wait(Number(delay));
    request.session['mark'] = value;
    return { before: before ?? null };
  }
  @expose() login(user: string) {
    request.session.regenerate();
    request.session['user'] = user;
    return 'in';
  }
  @expose() logout() {
    request.session.destroy();
    return 'out';
  }
  @expose() slow() {
    request.session['late'] = 'yes';
    return wait(300).then(() => 'late');
  }
  @expose() fails() {
    request.session['broken'] = 'yes';
    throw new Error('boom');
  }
  @expose() refused() {
    request.session['flash'] = 'no such book';
    abort(404);
  }
  @expose() sign(value: string) {
    response.set_cookie('cart', value, { signed: true });
    return 'signed';
  }
  @expose('json') signed() {
    return { ...request.signed_cookies };
  }
}

/**
 * A kernel with dispatch and the session plugin.
 *
 * @example
 * ```ts
 * const app = sessionApp({ secret: SECRET });
 * ```
 */
export function sessionApp(options: SessionOptions, config: Record<string, unknown> = {}): Kernel {
  return createKernel({ root: new Root(), logger: false, ...config }).use(dispatchPlugin).use(sessionPlugin, options);
}

/**
 * The `name=value` of a `Set-Cookie` header for `name`, and its attributes.
 *
 * @example
 * ```ts
 * const sid = setCookie(res.headers['set-cookie'], 'sid');
 * ```
 */
export function setCookie(header: string | string[] | undefined, name: string): { pair: string; value: string; attributes: string } | undefined {
  const all = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const line = all.find((value) => value.startsWith(`${name}=`));
  if (line === undefined) return undefined;
  const semi = line.indexOf(';');
  const pair = semi === -1 ? line : line.slice(0, semi);
  return { pair, value: decodeURIComponent(pair.slice(name.length + 1)), attributes: semi === -1 ? '' : line.slice(semi + 1).trim() };
}
