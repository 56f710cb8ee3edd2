// Hickory: the kernel, object dispatch, the REST plugin and the ejs renderer, as an application
// would assemble them. Whatever a plugin does not export yet is skipped with a note instead of
// failing the whole suite.
import { createKernel, type Plugin } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { book, DEEP_TEXT, HELLO, PAGE_DATA, PAGE_TEMPLATE, TEMPLATE_DIR } from '../routes.ts';
import type { BenchServer } from './server.ts';
import { appLoadedVariant, appVariant, explicitVariant, hooksVariant, loggerVariant, schemaVariant } from './hooks-variant.ts';
import { z } from 'zod';
import { discardedLog } from './discarded-log.ts';

// /a/b/c/d/e/f/g/h: seven child controllers and an exposed method at the end.
class G {
  @expose({ content_type: 'text/plain' }) h() {
    return DEEP_TEXT;
  }
}
class F { g = new G(); }
class E { f = new F(); }
class D { e = new E(); }
class C { d = new D(); }
class B { c = new C(); }
class A { b = new B(); }

// The `hickory-schema` variants declare the JSON routes' response schemas, as the fastify server
// does (the depth-8 route answers text: no JSON to describe).
const HELLO_SCHEMA = z.object({ hello: z.string() });
const BOOK_SCHEMA = z.object({ id: z.string(), name: z.string() });
const helloJson = schemaVariant() ? expose('json', { response: HELLO_SCHEMA }) : expose('json');
const bookJson = schemaVariant() ? expose('json', { response: BOOK_SCHEMA }) : expose('json');

class Root {
  a = new A();

  @helloJson hello() {
    return HELLO;
  }

  @expose(PAGE_TEMPLATE) page() {
    return { ...PAGE_DATA };
  }
}

// use_context_locals: false — every handler takes the request and the response first (one that
// declares no parameter is refused at ready(), as Pecan's call of it fails).
class ExplicitG extends G {
  @expose({ content_type: 'text/plain' }) override h(_request?: unknown, _response?: unknown) {
    return DEEP_TEXT;
  }
}
class ExplicitRoot extends Root {
  constructor() {
    super();
    this.a.b.c.d.e.f.g = new ExplicitG();
  }

  @helloJson override hello(_request?: unknown, _response?: unknown) {
    return HELLO;
  }

  @expose(PAGE_TEMPLATE) override page(_request?: unknown, _response?: unknown) {
    return { ...PAGE_DATA };
  }
}

interface RestModule {
  restPlugin?: Plugin;
  RestController?: new () => object;
}

interface EjsModule {
  ejsRenderer?: Plugin;
}

/** `/books/<id>` through `RestController.get_one`, when `@hickory/rest` exports what it needs. */
function booksController(rest: RestModule): object | undefined {
  if (typeof rest.RestController !== 'function' || rest.restPlugin === undefined) return undefined;
  class Books extends rest.RestController {
    @bookJson get_one(id: string) {
      return book(id);
    }
  }
  // use_context_locals: false — the request and the response come first.
  class ExplicitBooks extends rest.RestController {
    @bookJson get_one(_request: unknown, _response: unknown, id: string) {
      return book(id);
    }
  }
  return explicitVariant() ? new ExplicitBooks() : new Books();
}

/** Starts the Hickory app on 127.0.0.1. @example const { port } = await start(); */
export async function start(): Promise<BenchServer> {
  const rest = (await import('@hickory/rest')) as RestModule;
  const ejs = (await import('@hickory/ejs')) as EjsModule;
  const skipped: BenchServer['skipped'] = {};
  const root = (explicitVariant() ? new ExplicitRoot() : new Root()) as Root & { books?: object };
  const books = booksController(rest);
  if (books) root.books = books;
  else skipped.rest = '@hickory/rest does not export RestController and restPlugin yet';
  if (ejs.ejsRenderer === undefined) skipped.page = '@hickory/ejs does not export ejsRenderer yet';

  const variant = hooksVariant();
  const { Hook, hooksPlugin } = await import('@hickory/hooks');
  class EmptyHook extends Hook {
    override on_route() {}
    override before() {}
    override after() {}
    override on_error() { return undefined; }
  }
  const hooks = variant === 'one' ? [new EmptyHook()] : [];
  const config = { root, template_path: TEMPLATE_DIR, logger: loggerVariant() ? { stream: discardedLog() } : false, use_context_locals: !explicitVariant(), ...(variant ? { hooks } : {}) };
  if (appLoadedVariant()) await import('@hickory/app');
  const app = appVariant() ? (await import('@hickory/app')).createApp(config) : createKernel(config).use(dispatchPlugin);
  if (variant !== undefined) app.use(hooksPlugin);
  if (rest.restPlugin) app.use(rest.restPlugin);
  if (ejs.ejsRenderer) app.use(ejs.ejsRenderer);
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: Number(new URL(url).port), skipped, close: () => app.close() };
}
