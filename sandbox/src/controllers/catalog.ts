import { expose, renderingFor, route } from '@hickory/dispatch';
import { z } from 'zod';

interface Book {
  id: string;
  name: string;
}

const BOOKS: readonly Book[] = Object.freeze([
  { id: '1', name: 'Dune' },
  { id: '2', name: 'Emma' },
]);

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What `layout/page.ejs` renders: the site's layout around a body built here. */
interface Page {
  title: string;
  body: string;
}

const page = (title: string, body: string): Page => ({ title, body });

// The JSON list's schema: serialized by a compiled serializer, and shown in the OpenAPI document.
const BookList = z.array(z.object({ id: z.string(), name: z.string() }));

/** `/catalog/books/`: HTML by default; JSON for `/catalog/books/index.json` or `Accept: application/json`. */
export class BooksController {
  @expose('layout/page.ejs')
  @expose('json', { response: BookList })
  index(): Page | readonly Book[] {
    if (renderingFor()?.mediaType === 'application/json') return BOOKS;
    return page('Catalog books', `<h1>Books</h1><ul>${BOOKS.map((b) => `<li>${escape(b.name)}</li>`).join('')}</ul>\n<p>As JSON: <a href="/catalog/books.json">/catalog/books.json</a>.</p>\n`);
  }

  /** `/catalog/books/bestsellers` */
  @expose('layout/page.ejs')
  bestsellers(): Page {
    return page('Bestsellers', '<h1>Bestsellers</h1><ol><li>Dune</li></ol>\n');
  }
}

/** `/catalog/new-arrivals/`: a page under a dashed segment, mounted with `route()`. */
export class NewArrivalsController {
  @expose('layout/page.ejs')
  index(): Page {
    return page('New arrivals', '<h1>New arrivals</h1>\n<p>Nothing new this week.</p>\n');
  }
}

/** `/catalog/`: the catalog, holding the books. */
export class CatalogController {
  books = new BooksController();

  @expose('layout/page.ejs')
  index(): Page {
    return page('Catalog', '<h1>Catalog</h1><ul><li><a href="books/">Books</a></li><li><a href="books/bestsellers">Bestsellers</a></li><li><a href="new-arrivals/">New arrivals</a></li></ul>\n');
  }
}
route(CatalogController, 'new-arrivals', new NewArrivalsController());

/**
 * The root of the spec's catalog example: `/`, `/hours`, `/catalog/`, `/catalog/books/`,
 * `/catalog/books/bestsellers`, and dashed segments mounted with `route()`:
 * `/opening-times` and `/catalog/new-arrivals/`.
 *
 * @example
 * ```ts
 * createKernel({ root: new CatalogRootController() }).use(dispatchPlugin);
 * ```
 */
export class CatalogRootController {
  catalog = new CatalogController();

  @expose('layout/page.ejs')
  index(): Page {
    return page('Hickory sandbox', '<h1>Hickory sandbox</h1>\n');
  }

  @expose()
  hours(): string {
    return 'Open 9-5, Monday to Saturday.\n';
  }
}
route(
  CatalogRootController,
  'opening-times',
  expose({ content_type: 'text/plain' })(function openingTimes() {
    return 'Open 9-5, Monday to Saturday.\n';
  }),
);
