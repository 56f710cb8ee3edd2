// Rendering overhead: a template page served through Hickory (listen + a controller exposed with
// the template, through object dispatch) versus the same engine called directly in a bare node:http server, for ejs,
// nunjucks and handlebars. The servers run in a child process; this process loads them with a
// keep-alive client loop on 127.0.0.1, in interleaved rounds.
//
//   node --conditions=source --import tsx benchmarks/render.ts [--rounds 3] [--seconds 2] [--connections 50]
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ejs from 'ejs';
import Handlebars from 'handlebars';
import nunjucks from 'nunjucks';
import { createKernel, type Plugin } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { ejsRenderer } from '@hickory/ejs';
import { handlebarsRenderer } from '@hickory/handlebars';
import { nunjucksRenderer } from '@hickory/nunjucks';

const ENGINES = ['ejs', 'nunjucks', 'handlebars'] as const;
type Engine = (typeof ENGINES)[number];
// A reference row: the same page as a constant string, so the kernel's own per-request cost
// can be told apart from the renderers'.
const ROWS = [...ENGINES, 'no-render'] as const;
type Row = (typeof ROWS)[number];

const NAMESPACE = {
  title: 'Books',
  user: '<script>alert("x")</script>',
  books: Array.from({ length: 20 }, (_, i) => `Book #${i} & <friends>`),
};

const TEMPLATES: Record<string, string> = {
  'ejs/header.ejs': '<!DOCTYPE html>\n<html><head><title><%= title %></title></head><body>\n<%- await include("nav.ejs") %>\n<main>\n',
  'ejs/nav.ejs': '<nav><a href="/">Home</a></nav>',
  'ejs/footer.ejs': '</main></body></html>\n',
  'ejs/page.ejs':
    '<%- await include("header.ejs") %><h1><%= title %></h1><ul>\n<% for (const book of books) { %><li><%= book %></li>\n<% } %></ul><p><%= user %></p><%- await include("footer.ejs") %>',
  'njk/layout.njk':
    '<!DOCTYPE html>\n<html><head><title>{{ title }}</title></head><body>\n{% include "njk/nav.njk" %}\n<main>{% block content %}{% endblock %}</main></body></html>\n',
  'njk/nav.njk': '<nav><a href="/">Home</a></nav>',
  'njk/page.njk':
    '{% extends "njk/layout.njk" %}{% block content %}<h1>{{ title }}</h1><ul>\n{% for book in books %}<li>{{ book }}</li>\n{% endfor %}</ul><p>{{ user }}</p>{% endblock %}',
  'partials/layout.hbs':
    '<!DOCTYPE html>\n<html><head><title>{{title}}</title></head><body>\n{{> nav}}\n<main>{{> @partial-block}}</main></body></html>\n',
  'partials/nav.hbs': '<nav><a href="/">Home</a></nav>',
  'hbs/page.hbs': '{{#> layout}}<h1>{{title}}</h1><ul>\n{{#each books}}<li>{{this}}</li>\n{{/each}}</ul><p>{{user}}</p>{{/layout}}',
};

const PAGE: Record<Engine, string> = { ejs: 'ejs/page.ejs', nunjucks: 'njk/page.njk', handlebars: 'hbs/page.hbs' };
const PLUGIN: Record<Engine, Plugin> = { ejs: ejsRenderer, nunjucks: nunjucksRenderer, handlebars: handlebarsRenderer };

// ---------------------------------------------------------------- servers (child process)

// The page as a user writes it: a root controller whose `index` is exposed with the template, so
// the request takes the framework's real path (object dispatch, then the renderer).
function pageController(engine: Row, constant: string): object {
  if (engine === 'no-render') {
    class ConstantPage {
      @expose() index() {
        return constant;
      }
    }
    return new ConstantPage();
  }
  const template = PAGE[engine];
  class TemplatePage {
    @expose(template) index() {
      return { ...NAMESPACE };
    }
  }
  return new TemplatePage();
}

async function hickoryServer(engine: Row, root: string, constant: string): Promise<string> {
  const app = createKernel({ logger: false, template_path: root, root: pageController(engine, constant) }).use(dispatchPlugin);
  if (engine !== 'no-render') app.use(PLUGIN[engine]);
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  return url;
}

// The same engine, configured as Hickory configures it, called straight from a handler.
async function directRenderer(engine: Engine, root: string): Promise<() => Promise<string>> {
  if (engine === 'ejs') {
    const options = { async: true as const, cache: true, root, views: [join(root, 'ejs')] };
    return () => ejs.renderFile(join(root, PAGE.ejs), { ...NAMESPACE }, options) as Promise<string>;
  }
  if (engine === 'nunjucks') {
    const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(root), { autoescape: true });
    return () => new Promise((resolve, reject) => env.render(PAGE.nunjucks, { ...NAMESPACE }, (e, s) => (e ? reject(e) : resolve(s!))));
  }
  const hbs = Handlebars.create();
  const { readFile } = await import('node:fs/promises');
  hbs.registerPartial('layout', hbs.compile(await readFile(join(root, 'partials/layout.hbs'), 'utf8')));
  hbs.registerPartial('nav', hbs.compile(await readFile(join(root, 'partials/nav.hbs'), 'utf8')));
  const template = hbs.compile(await readFile(join(root, PAGE.handlebars), 'utf8'));
  return async () => template({ ...NAMESPACE });
}

async function bareServer(engine: Row, root: string, constant: string): Promise<string> {
  const render = engine === 'no-render' ? async () => constant : await directRenderer(engine, root);
  const server: Server = createServer((req, res) => {
    render().then(
      (html) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html) });
        res.end(html);
      },
      () => {
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function serve(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'hickory-bench-render-'));
  for (const [name, text] of Object.entries(TEMPLATES)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), text);
  }
  const constant = await (await directRenderer('ejs', root))();
  const urls: Record<string, string> = {};
  for (const engine of ROWS) {
    urls[`${engine}/hickory`] = await hickoryServer(engine, root, constant);
    urls[`${engine}/bare`] = await bareServer(engine, root, constant);
  }
  process.stdout.write(`${JSON.stringify(urls)}\n`);
  // Stop when the parent closes our stdin (or goes away).
  process.stdin.resume();
  process.stdin.on('end', () => void rm(root, { recursive: true, force: true }).finally(() => process.exit(0)));
}

// ---------------------------------------------------------------- load (parent process)

async function load(url: string, connections: number, seconds: number): Promise<{ rps: number; bytes: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(url);
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  let bytes = 0;
  const once = () =>
    new Promise<void>((resolve) => {
      const req = httpRequest({ agent, hostname, port, path: '/', method: 'GET' }, (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => (size += chunk.length));
        res.on('end', () => {
          if (res.statusCode === 200) {
            done++;
            bytes = size;
          } else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { rps: done / elapsed, bytes, errors };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'boolean', default: false },
      rounds: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
    },
  });
  if (values.serve) return serve();
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);

  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server process exited (${code})`)));
  });
  const urls = JSON.parse(firstLine) as Record<string, string>;
  try {
    const samples: Record<string, number[]> = {};
    const sizes: Record<string, number> = {};
    for (const key of Object.keys(urls)) await load(urls[key]!, connections, 0.5); // warm-up: JIT and caches
    for (let round = 1; round <= rounds; round++) {
      for (const engine of ROWS) {
        // Alternate the order so neither side always runs first.
        const order = round % 2 ? ['hickory', 'bare'] : ['bare', 'hickory'];
        for (const kind of order) {
          const key = `${engine}/${kind}`;
          const result = await load(urls[key]!, connections, seconds);
          if (result.errors) throw new Error(`${key}: ${result.errors} failed requests`);
          (samples[key] ??= []).push(result.rps);
          sizes[key] = result.bytes;
        }
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`render overhead: ${connections} keep-alive connections, ${rounds} rounds × ${seconds}s, Node ${process.version}`);
    console.log('engine       hickory req/s   bare req/s   ratio   body bytes (hickory/bare)');
    for (const engine of ROWS) {
      const h = median(samples[`${engine}/hickory`]!);
      const b = median(samples[`${engine}/bare`]!);
      console.log(
        `${engine.padEnd(12)} ${h.toFixed(0).padStart(13)} ${b.toFixed(0).padStart(12)} ${(h / b).toFixed(2).padStart(6)}×   ${sizes[`${engine}/hickory`]}/${sizes[`${engine}/bare`]}`,
      );
    }
    console.log('target: ≥ 0.80× the bare throughput (median of the rounds); no-render = the kernel alone, a constant page');
  } finally {
    child.stdin!.end();
  }
}

await main();
