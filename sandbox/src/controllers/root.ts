import { expose } from '@hickory/dispatch';
import { AdminController } from './admin.ts';
import { bookControllers } from './books.ts';
import { LibraryController } from './library.ts';
import { LiveController } from './live.ts';
import { showcaseLibrary, type Library } from '../store/library.ts';
import { CatalogRootController } from './catalog.ts';
import { ErrorController } from './errors.ts';
import { FilesController } from './files.ts';
import type { UploadShelf } from '../upload-shelf.ts';
import { PagesController } from './pages.ts';
import { StatusController } from './status.ts';

// The landing page's body: `layout/page.ejs` puts the site's layout around it.
const LANDING = `<h1>Hickory sandbox</h1>
<p>Every link below is served by this app: a tree of controller objects walked by object dispatch.</p>
<h2>Object dispatch</h2>
<ul>
  <li><a href="/hours">/hours</a>: a method of the root controller</li>
  <li><a href="/catalog/">/catalog/</a>, <a href="/catalog/books/">/catalog/books/</a>, <a href="/catalog/books/bestsellers">/catalog/books/bestsellers</a>: child controllers</li>
  <li><a href="/catalog">/catalog</a>: redirected to its canonical <code>/catalog/</code></li>
  <li><a href="/opening-times">/opening-times</a> and <a href="/catalog/new-arrivals/">/catalog/new-arrivals/</a>: explicit routes for dashed segments</li>
  <li><a href="/catalog/books.json">/catalog/books.json</a>: content negotiation by extension</li>
</ul>
<h2>REST</h2>
<ul>
  <li><a href="/books/">/books/</a>: a RestController (list, new, edit, delete forms; custom action checkout)</li>
  <li><a href="/authors/">/authors/</a>: nested resources, <a href="/authors/1/books/">/authors/1/books/</a></li>
  <li><a href="/store/">/store/</a>: the generic-controller style over the same books; <code>POST /items/</code> answers a <code>uuid</code></li>
</ul>
<h2>Database, transactions and security</h2>
<ul>
  <li><a href="/library/">/library/</a>: the books in SQLite (or PostgreSQL with <code>DATABASE_URL</code>), one transaction per request; a write that fails is rolled back</li>
  <li><a href="/admin/">/admin/</a>: a <code>SecureController</code> behind a login form (a session kept in the database)</li>
  <li><a href="/live/">/live/</a>: books appear as they are added, on every open page (server-sent events, fanned out by PostgreSQL's <code>LISTEN/NOTIFY</code>)</li>
</ul>
<h2>Files</h2>
<ul>
  <li><a href="/files/">/files/</a>: upload a file, then download it back</li>
  <li><a href="/hello.txt">/hello.txt</a> and <a href="/style.css">/style.css</a>: static files from <code>static_root</code></li>
</ul>
<h2>Templates</h2>
<ul>
  <li><a href="/pages/ejs?comment=%3Cb%3Ehi%3C%2Fb%3E">ejs</a>, <a href="/pages/nunjucks?comment=%3Cb%3Ehi%3C%2Fb%3E">nunjucks</a>, <a href="/pages/handlebars?comment=%3Cb%3Ehi%3C%2Fb%3E">handlebars</a>: a layout, an include, a list and escaped input</li>
</ul>
<h2>Status codes and errors</h2>
<ul>
  <li><a href="/status/">/status/</a>: 403 and 203 set by controllers, <code>abort(418)</code>, a 500</li>
  <li><a href="/no/such/page">/no/such/page</a>: the custom 404 page (config <code>errors</code>)</li>
</ul>
<h2>Production</h2>
<ul>
  <li><a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a>: liveness, and readiness with a database check (<code>healthPlugin</code>)</li>
  <li><a href="/docs">/docs</a> and <a href="/openapi.json">/openapi.json</a>: the API, described (<code>openapiPlugin</code>)</li>
  <li>Security headers on every answer (<code>securityHeadersPlugin</code>), CORS for the JSON API (<code>corsPlugin</code>), and at most 5 sign-ins a minute per client (<code>@rate_limit</code>)</li>
</ul>
`;

/**
 * The root of the sandbox showcase: every feature of the framework, linked from `/`.
 *
 * @example
 * ```ts
 * createApp({ root: RootController, errors: { 404: '/error/404' } });
 * ```
 */
export class RootController extends CatalogRootController {
  // #private: routing follows every public field, and TypeScript's `private` is gone at run time
  // (a `private shelf` was routable as /shelf/books/, a second way into /books/).
  readonly #shelf: ReturnType<typeof bookControllers>;
  // Declared here, set by the constructor: the fields keep this order (the order of the route map).
  books: ReturnType<typeof bookControllers>['books'];
  authors: ReturnType<typeof bookControllers>['authors'];
  store: ReturnType<typeof bookControllers>['generic'];
  items: ReturnType<typeof bookControllers>['items'];
  library: LibraryController;
  live: LiveController;
  admin: AdminController;
  files: FilesController;
  pages = new PagesController();
  status = new StatusController();
  error = new ErrorController();

  /**
   * @param library the books' database: by default the one `npm start` serves (`showcaseLibrary()`).
   * @param uploads where `/files/` keeps uploads: by default the one `npm start` serves (`showcaseUploads()`).
   */
  constructor(library: Library = showcaseLibrary(), uploads?: UploadShelf) {
    super();
    this.#shelf = bookControllers(library);
    this.books = this.#shelf.books;
    this.authors = this.#shelf.authors;
    this.store = this.#shelf.generic;
    this.items = this.#shelf.items;
    this.library = new LibraryController(library);
    this.live = new LiveController(library);
    this.admin = AdminController.for(library);
    this.files = new FilesController(uploads);
  }

  @expose('layout/page.ejs')
  override index(): { title: string; body: string; home: boolean } {
    return { title: 'Hickory sandbox', body: LANDING, home: true };
  }
}
