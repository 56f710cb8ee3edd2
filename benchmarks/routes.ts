// The routes every benchmark server answers, with the exact bodies they must send.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ejs from 'ejs';

/** A route of the HTTP benchmark, by its short name (used in options, results and charts). */
export type RouteName = 'hello' | 'depth8' | 'rest' | 'page';

/** Every route, in the order tables and charts show them. */
export const ROUTE_NAMES: readonly RouteName[] = ['hello', 'depth8', 'rest', 'page'];

/** The path each route is loaded with. */
export const ROUTE_PATHS: Readonly<Record<RouteName, string>> = {
  hello: '/hello',
  depth8: '/a/b/c/d/e/f/g/h',
  rest: '/books/42',
  page: '/page',
};

/** What each route is, for the README and the console. */
export const ROUTE_TITLES: Readonly<Record<RouteName, string>> = {
  hello: 'GET /hello (JSON)',
  depth8: 'depth-8 static path',
  rest: 'REST get_one /books/42',
  page: 'ejs page',
};

/** The hello route's object. */
export const HELLO = { hello: 'world' } as const;

/** The depth-8 route's text body. */
export const DEEP_TEXT = 'deep';

/** The book the REST route answers for an id (the same in every framework). */
export function book(id: string): { id: string; name: string } {
  return { id, name: `Book ${id}` };
}

/** The template of the page route, rendered by ejs in every framework. */
export const TEMPLATE_DIR = fileURLToPath(new URL('./servers/templates/', import.meta.url));
export const PAGE_TEMPLATE = 'page.ejs';

/** The page's data: a little escaping work and a loop, as a real page has. */
export const PAGE_DATA = Object.freeze({
  title: 'Books & more',
  user: '<guest>',
  books: Array.from({ length: 10 }, (_, i) => ({ id: String(i + 1), name: `Book "${i + 1}"`, author: `Author <${i + 1}>` })),
});

/**
 * The peers' page renderer: the same template compiled once with the options Hickory's ejs
 * renderer uses (`async: true`, escaping on), then called per request.
 */
export function compilePage(): (data: object) => Promise<string> {
  const source = readFileSync(`${TEMPLATE_DIR}${PAGE_TEMPLATE}`, 'utf8');
  return ejs.compile(source, { async: true, filename: PAGE_TEMPLATE }) as unknown as (data: object) => Promise<string>;
}

/** The exact body each route must answer with. */
export async function expectedBodies(): Promise<Record<RouteName, string>> {
  return {
    hello: JSON.stringify(HELLO),
    depth8: DEEP_TEXT,
    rest: JSON.stringify(book('42')),
    page: await compilePage()({ ...PAGE_DATA }),
  };
}
