// The baseline: node:http with the routing written by hand.
import { createServer, type ServerResponse } from 'node:http';
import { book, compilePage, DEEP_TEXT, HELLO, PAGE_DATA } from '../routes.ts';
import { listenPlain, type BenchServer } from './server.ts';

const BOOKS_PREFIX = '/books/';

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Starts the node:http app on 127.0.0.1. @example const { port } = await start(); */
export async function start(): Promise<BenchServer> {
  const page = compilePage();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (req.method !== 'GET') return send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed');
    if (path === '/hello') return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(HELLO));
    if (path === '/a/b/c/d/e/f/g/h') return send(res, 200, 'text/plain; charset=utf-8', DEEP_TEXT);
    if (path.startsWith(BOOKS_PREFIX) && path.length > BOOKS_PREFIX.length && !path.includes('/', BOOKS_PREFIX.length)) {
      return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(book(decodeURIComponent(path.slice(BOOKS_PREFIX.length)))));
    }
    if (path === '/page') {
      page({ ...PAGE_DATA }).then(
        (html) => send(res, 200, 'text/html; charset=utf-8', html),
        () => send(res, 500, 'text/plain; charset=utf-8', 'Internal Server Error'),
      );
      return;
    }
    send(res, 404, 'text/plain; charset=utf-8', 'Not Found');
  });
  return listenPlain(server);
}
