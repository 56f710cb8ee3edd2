import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { abort, contentDisposition, redirect, request, response, type Kernel, type KernelConfig } from '@hickory/core';
import { expose, when } from '@hickory/dispatch';
import { RestController } from '@hickory/rest';
import { UploadedFile } from '@hickory/multipart';
import { createApp } from '@hickory/app';

/**
 * The realistic application every hardening suite attacks: `createApp` (kernel, dispatch, REST,
 * multipart, static, the three renderers) with an index, child controllers, a `_lookup`, a
 * RestController, an upload, template pages, a `kwargs` JSON handler, downloads, redirects built
 * from input, and a few deliberately faulty handlers under `/faults/`.
 * Every handler counts its calls in {@link calls}, so a suite can prove nothing ran that should not.
 */

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Handler name → number of calls since the process started. */
export const calls = new Map<string, number>();

function count(name: string): void {
  calls.set(name, (calls.get(name) ?? 0) + 1);
}

/** Bytes produced by `/big` downloads so far (a slow reader must hold production back). */
export const produced = { big: 0 };

/** A copy of the counters, to compare before and after a case. */
export function snapshotCalls(): Map<string, number> {
  return new Map(calls);
}

/** Names whose counter grew between two snapshots. */
export function callsSince(before: Map<string, number>): string[] {
  return [...calls].filter(([name, n]) => n !== (before.get(name) ?? 0)).map(([name]) => name);
}

class ChildController {
  @expose() index(): string {
    count('child.index');
    return 'child';
  }

  @expose('json') info(): object {
    count('child.info');
    return { child: true };
  }
}

class ItemController {
  constructor(private readonly id: string) {}

  @expose('json') index(): object {
    count('item.index');
    return { id: this.id };
  }
}

class ItemsController {
  // Only numeric ids exist: anything else (prototype names included) is not found.
  _lookup(id: string, ...remainder: string[]): [object, string[]] | undefined {
    if (id === 'boom') throw new Error('lookup exploded at /srv/secret/items.ts:12');
    if (!/^\d{1,9}$/.test(id)) return undefined;
    count('items.lookup');
    return [new ItemController(id), remainder];
  }
}

class BooksController extends RestController {
  @expose('json') get_all(): object {
    count('books.get_all');
    return { books: ['Dune'] };
  }

  @expose('json') get_one(id: string): object {
    count('books.get_one');
    return { book: id };
  }

  @expose('json') post(name: string): object {
    count('books.post');
    return { created: name };
  }

  @expose('json') put(id: string, name: string): object {
    count('books.put');
    return { updated: [id, name] };
  }

  @expose('json') delete(id: string): object {
    count('books.delete');
    return { deleted: id };
  }
}

/** Handlers that fail on purpose (the fault suites). */
class FaultsController {
  @expose() throws(): string {
    count('faults.throws');
    throw new Error('exploded at /srv/secret/app.ts:42');
  }

  @expose() async rejects(): Promise<string> {
    count('faults.rejects');
    await Promise.resolve();
    throw new Error('rejected at /srv/secret/app.ts:43');
  }

  @expose() nonerror(): string {
    count('faults.nonerror');
    throw { secret: '/srv/secret/app.ts' } as unknown as Error;
  }

  @expose() async hangs(): Promise<string> {
    count('faults.hangs');
    return new Promise<string>(() => {});
  }

  @expose('boom.ejs') template(): object {
    count('faults.template');
    return { title: 'x' };
  }

  @expose() slow(ms = '50'): Promise<string> {
    count('faults.slow');
    return new Promise((done) => setTimeout(() => done('slow done'), Math.min(Number(ms) || 0, 5_000)));
  }
}

class RootController {
  child = new ChildController();
  items = new ItemsController();
  books = new BooksController();
  faults = new FaultsController();

  @expose() index(): string {
    count('root.index');
    return 'ok';
  }

  /** JSON handler taking every variable. */
  @expose('json') echo(kwargs: Record<string, unknown>): object {
    count('root.echo');
    return { keys: Object.keys(kwargs).sort(), proto: !(kwargs instanceof Object) };
  }

  @expose({ generic: true, template: 'json' }) upload(): object {
    count('root.upload.get');
    return { form: true };
  }

  @when('upload', { method: 'POST', template: 'json' })
  upload_post(): object {
    count('root.upload.post');
    const fields: Record<string, unknown> = {};
    for (const name of Object.keys(request.POST)) {
      const value = request.POST[name];
      fields[name] = value instanceof UploadedFile ? { filename: value.filename, size: value.size } : value;
    }
    return { fields, proto: Object.getPrototypeOf(request.POST) === null };
  }

  @expose('page.ejs') page(title = 'Page'): object {
    count('root.page');
    return { title };
  }

  @expose('page.njk') npage(title = 'Page'): object {
    count('root.npage');
    return { title };
  }

  @expose('page.hbs') hpage(title = 'Page'): object {
    count('root.hpage');
    return { title };
  }

  /** The namespace is whatever the client sent: engine-option look-alikes must stay data. */
  @expose('page.ejs') options(kwargs: Record<string, unknown>): object {
    count('root.options');
    return { title: 'opts', ...kwargs };
  }

  @expose('page.njk') noptions(kwargs: Record<string, unknown>): object {
    count('root.noptions');
    return { title: 'opts', ...kwargs };
  }

  @expose('page.hbs') hoptions(kwargs: Record<string, unknown>): object {
    count('root.hoptions');
    return { title: 'opts', ...kwargs };
  }

  /** A download whose name comes from the client. */
  @expose() download(name = 'report.csv'): string {
    count('root.download');
    response.headers['Content-Type'] = 'text/csv';
    response.headers['Content-Disposition'] = contentDisposition(name);
    return 'a,b\n1,2\n';
  }

  /** A large streamed download (`size` MiB, at most 256), made lazily. */
  @expose() big(size = '64'): void {
    count('root.big');
    const total = Math.min(Number(size) || 1, 256) * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'b');
    let sent = 0;
    response.headers['Content-Type'] = 'application/octet-stream';
    response.headers['Content-Length'] = String(total);
    response.app_iter = new Readable({
      highWaterMark: chunk.length,
      read() {
        if (sent >= total) return void this.push(null);
        sent += chunk.length;
        produced.big += chunk.length;
        this.push(chunk);
      },
    });
  }

  /** A redirect to a target chosen by the client (the app's mistake the framework must contain). */
  @expose() go(to: string): never {
    count('root.go');
    redirect(to);
  }

  /** `abort()` with whatever status the client names. */
  @expose() fail(code: string): never {
    count('root.fail');
    abort(Number(code));
  }

  /** Sets a header value straight from input. */
  @expose() header(value: string): string {
    count('root.header');
    response.headers['X-Echo'] = value;
    return 'header';
  }
}

/**
 * A fresh app over the fixtures (static files and templates), silent unless a logger is given.
 *
 * @example
 * ```ts
 * const app = makeApp({ body_limit: 64 * 1024 });
 * const res = await app.inject({ method: 'GET', url: '/' });
 * ```
 */
export function makeApp(config: KernelConfig = {}): Kernel {
  return createApp({
    root: new RootController(),
    static_root: `${fixtures}public`,
    template_path: `${fixtures}templates`,
    logger: false,
    ...config,
  });
}
