// Rendering overhead: a template page served through Hickory (listen + a controller exposed with
// the template, through object dispatch) versus the same engine called directly in a bare node:http server, for ejs,
// nunjucks and handlebars. Each server runs in its own child process (so one's async context or
// JIT state cannot favour another); this process loads them with autocannon on 127.0.0.1. In each
// round the two sides of an engine run back to back, in alternating order, and the reported ratio
// is the median over the rounds of those paired ratios. The servers' CPU time per request (from
// /proc) is shown too: it moves less than throughput on a shared machine.
//
//   node --conditions=source --import tsx benchmarks/render.ts [--rounds 7] [--seconds 2] [--connections 100] [--pipelining 10]
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
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
import { loadOnce } from './http/autocannon.ts';
import { processCpuMicros } from './http/process-cpu.ts';
import { median } from './stats.ts';

const ENGINES = ['ejs', 'nunjucks', 'handlebars'] as const;
type Engine = (typeof ENGINES)[number];
// A reference row: the same page as a constant string, so the kernel's own per-request cost
// can be told apart from the renderers'.
const ROWS = [...ENGINES, 'no-render'] as const;
type Row = (typeof ROWS)[number];
const KINDS = ['hickory', 'bare'] as const;
type Kind = (typeof KINDS)[number];

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
    // nunjucks' synchronous API, its fastest ordinary use (Hickory renders a warm page the same way).
    const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(root), { autoescape: true });
    return async () => env.render(PAGE.nunjucks, { ...NAMESPACE });
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

async function serve(row: Row, kind: Kind): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'hickory-bench-render-'));
  for (const [name, text] of Object.entries(TEMPLATES)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), text);
  }
  const constant = await (await directRenderer('ejs', root))();
  const url = kind === 'hickory' ? await hickoryServer(row, root, constant) : await bareServer(row, root, constant);
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  // Stop when the parent closes our stdin (or goes away).
  process.stdin.resume();
  process.stdin.on('end', () => void rm(root, { recursive: true, force: true }).finally(() => process.exit(0)));
}

// ---------------------------------------------------------------- load (parent process)

interface Child {
  url: string;
  pid: number;
  stop(): void;
}

async function startChild(row: Row, kind: Kind): Promise<Child> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve', row, kind], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the ${row}/${kind} server exited (${code})`)));
  });
  return { url: (JSON.parse(line) as { url: string }).url, pid: child.pid!, stop: () => child.stdin!.end() };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      serve: { type: 'string' },
      rounds: { type: 'string', default: '7' },
      seconds: { type: 'string', default: '2' },
      connections: { type: 'string', default: '100' },
      pipelining: { type: 'string', default: '10' },
    },
    allowPositionals: true,
  });
  if (values.serve) return serve(values.serve as Row, positionals[0] as Kind);
  const rounds = Number(values.rounds);
  const load = { duration: Number(values.seconds), connections: Number(values.connections), pipelining: Number(values.pipelining) };

  const children = new Map<string, Child>();
  for (const row of ROWS) for (const kind of KINDS) children.set(`${row}/${kind}`, await startChild(row, kind));
  try {
    const bodies: Record<string, number> = {};
    for (const [key, child] of children) {
      const res = await fetch(`${child.url}/`);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${key}: status ${res.status}`);
      bodies[key] = Buffer.byteLength(text);
      await loadOnce(`${child.url}/`, { ...load, duration: 1 }); // warm-up: JIT and caches
    }
    const rps: Record<string, number[]> = {};
    const cpu: Record<string, number[]> = {};
    const ratios: Record<Row, number[]> = { ejs: [], nunjucks: [], handlebars: [], 'no-render': [] };
    for (let round = 1; round <= rounds; round++) {
      for (const row of ROWS) {
        // Each pair runs back to back, the order alternating, so both sides see the same machine.
        const order = round % 2 ? KINDS : [...KINDS].reverse();
        const pair: Partial<Record<Kind, number>> = {};
        for (const kind of order) {
          const key = `${row}/${kind}`;
          const child = children.get(key)!;
          const before = processCpuMicros(child.pid);
          const sample = await loadOnce(`${child.url}/`, load);
          const after = processCpuMicros(child.pid);
          if (sample.failures) throw new Error(`${key}: ${sample.failures} failed requests`);
          pair[kind] = sample.rps;
          (rps[key] ??= []).push(sample.rps);
          if (before !== undefined && after !== undefined) (cpu[key] ??= []).push((after - before) / (sample.rps * load.duration));
        }
        ratios[row].push(pair.hickory! / pair.bare!);
      }
      console.log(`round ${round}/${rounds}: ${ROWS.map((row) => `${row} ${ratios[row].at(-1)!.toFixed(2)}×`).join(', ')}`);
    }
    console.log(
      `\nrender overhead: autocannon, ${load.connections} connections, pipelining ${load.pipelining}, ${rounds} rounds × ${load.duration}s, ` +
        `each server in its own process, Node ${process.version}; client and servers share the cores`,
    );
    console.log('engine       hickory req/s   bare req/s   ratio (range)        CPU µs/req hickory/bare   body bytes');
    let met = true;
    for (const row of ROWS) {
      const ratio = median(ratios[row]);
      if (row !== 'no-render' && ratio < 0.8) met = false;
      const range = `${Math.min(...ratios[row]).toFixed(2)}–${Math.max(...ratios[row]).toFixed(2)}`;
      const cpuText = cpu[`${row}/hickory`] ? `${median(cpu[`${row}/hickory`]!).toFixed(1)} / ${median(cpu[`${row}/bare`]!).toFixed(1)}` : 'n/a';
      console.log(
        `${row.padEnd(12)} ${median(rps[`${row}/hickory`]!).toFixed(0).padStart(13)} ${median(rps[`${row}/bare`]!).toFixed(0).padStart(12)} ` +
          `${ratio.toFixed(2).padStart(6)}× (${range})  ${cpuText.padStart(22)}   ${bodies[`${row}/hickory`]}/${bodies[`${row}/bare`]}`,
      );
    }
    console.log('ratio: the median over the rounds of hickory ÷ bare measured back to back; no-render = the kernel alone, a constant page');
    console.log(`target: ≥ 0.80× the bare throughput for each engine: ${met ? 'met' : 'NOT met'}`);
    if (!met) process.exitCode = 1;
  } finally {
    for (const child of children.values()) child.stop();
  }
}

await main();
