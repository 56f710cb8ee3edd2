// express 5.
import { createServer } from 'node:http';
import express from 'express';
import { book, compilePage, DEEP_TEXT, HELLO, PAGE_DATA } from '../routes.ts';
import { listenPlain, type BenchServer } from './server.ts';

/** Starts the express app on 127.0.0.1. @example const { port } = await start(); */
export async function start(): Promise<BenchServer> {
  const page = compilePage();
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get('/hello', (_req, res) => {
    res.json(HELLO);
  });
  app.get('/a/b/c/d/e/f/g/h', (_req, res) => {
    res.type('text/plain').send(DEEP_TEXT);
  });
  app.get('/books/:id', (req, res) => {
    res.json(book(req.params.id));
  });
  app.get('/page', async (_req, res) => {
    res.type('html').send(await page({ ...PAGE_DATA }));
  });
  return listenPlain(createServer(app));
}
