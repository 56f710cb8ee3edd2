import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, describe, test } from 'node:test';
import type { Kernel, Plugin } from '@hickory/core';
import { inputObject, parseJsonBody } from '@hickory/core/kit';
import { TemplateError } from '../errors.ts';
import { OPTION_LIKE_KEYS, PAGE_HTML, PAGE_NAMESPACE, normalizeHtml, type ConformanceFixtures } from './fixtures.ts';
import { captureLog, kernelFor, makeWorkspace, removeWorkspaces, type RenderRoute } from './workspace.ts';

/** What {@link runRendererConformance} checks. */
export interface ConformanceOptions {
  /** The renderer plugin (made with `defineRenderer`). */
  readonly plugin: Plugin;
  /** The engine's name (the `engine:` prefix, and `TemplateError.engine`). */
  readonly engine: string;
  /** One extension the plugin renders, without the dot. */
  readonly extension: string;
  /** The engine's templates. */
  readonly fixtures: ConformanceFixtures;
}

const HTML = 'text/html; charset=utf-8';

/**
 * Registers the conformance tests of one renderer (with `node:test`): layout, include, loop,
 * autoescape, async use, caching on and off, the `engine:` prefix and `default_renderer`,
 * missing, misnamed, broken and throwing templates, option-like namespace keys, and
 * `extra_template_vars` — through `kernel.render()` and through `inject()`.
 *
 * @example
 * ```ts
 * runRendererConformance({ plugin: nunjucksRenderer, engine: 'nunjucks', extension: 'njk', fixtures });
 * ```
 */
export function runRendererConformance(options: ConformanceOptions): void {
  const { plugin, engine, fixtures } = options;
  const files = fixtures.files;
  const workspace = () => makeWorkspace(files);
  const app = async (config = {}, routes?: Parameters<typeof kernelFor>[3], pluginOptions?: unknown) =>
    kernelFor(await workspace(), plugin, config, routes, pluginOptions);

  describe(`renderer conformance: ${engine}`, () => {
    after(removeWorkspaces);

    test('renders a page with a layout, an include, a loop and escaped user input', async () => {
      const kernel = await app();
      const html = await kernel.render(fixtures.page, { ...PAGE_NAMESPACE });
      assert.equal(normalizeHtml(html), PAGE_HTML);
      assert.equal(html.includes('<script>'), false);
      await kernel.close();
    });

    test('serves the page through inject() and a route that renders', async () => {
      const kernel = await app({}, { '/page': [fixtures.page, { ...PAGE_NAMESPACE }] });
      const res = await kernel.inject({ method: 'GET', url: '/page' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], HTML);
      assert.equal(normalizeHtml(res.body), PAGE_HTML);
      await kernel.close();
    });

    test('renders with the engine: prefix and through default_renderer', async () => {
      const ws = await workspace();
      await ws.write('as-html/hello.html', files[fixtures.hello]!);
      const prefixed = await kernelFor(ws, plugin);
      assert.equal((await prefixed.render(`${engine}:as-html/hello.html`, { name: 'Ada' })).trim(), 'Hello Ada!');
      assert.equal((await prefixed.render(`${engine}:${fixtures.hello}`, { name: 'Ada' })).trim(), 'Hello Ada!');
      await prefixed.close();
      const byDefault = await kernelFor(ws, plugin, { default_renderer: engine });
      assert.equal((await byDefault.render('as-html/hello.html', { name: 'Ada' })).trim(), 'Hello Ada!');
      await byDefault.close();
    });

    test('renders concurrently without mixing namespaces (async use)', async () => {
      const kernel = await app();
      const names = Array.from({ length: 40 }, (_, i) => `user${i}`);
      const pending = names.map((name) => kernel.render(fixtures.hello, { name }));
      assert.ok(pending.every((p) => p instanceof Promise));
      assert.deepEqual((await Promise.all(pending)).map((s) => s.trim()), names.map((n) => `Hello ${n}!`));
      await kernel.close();
    });

    test('caches compiled templates by default: an edit on disk is not seen', async () => {
      const ws = await workspace();
      const kernel = await kernelFor(ws, plugin);
      assert.equal((await kernel.render(fixtures.hello, { name: 'Ada' })).trim(), 'Hello Ada!');
      await ws.write(fixtures.hello, fixtures.helloEdited);
      assert.equal((await kernel.render(fixtures.hello, { name: 'Ada' })).trim(), 'Hello Ada!');
      await kernel.close();
    });

    test('template_cache: false (or the cache: false option) sees an edit at once', async () => {
      for (const [config, pluginOptions] of [[{ template_cache: false }, undefined], [{}, { cache: false }]] as const) {
        const ws = await workspace();
        const kernel = await kernelFor(ws, plugin, config, undefined, pluginOptions);
        assert.equal((await kernel.render(fixtures.hello, { name: 'Ada' })).trim(), 'Hello Ada!');
        await ws.write(fixtures.hello, fixtures.helloEdited);
        assert.equal((await kernel.render(fixtures.hello, { name: 'Ada' })).trim(), 'Bye Ada!');
        await kernel.close();
      }
    });

    test('a missing template is an error naming it, and a generic 500 that is logged', async () => {
      const missing = `missing.${options.extension}`;
      const log = captureLog();
      const kernel = await app({ logger: log.logger }, { '/missing': [missing, {}], '/plain-500': () => failPlainly() });
      await assert.rejects(kernel.render(missing, {}), (error: unknown) => {
        assert.ok(error instanceof TemplateError);
        assert.equal(error.code, 'HICKORY_ERR_RENDERER_TEMPLATE_MISSING');
        assert.equal(error.template, missing);
        assert.equal(error.engine, engine);
        assert.match(error.message, new RegExp(`"${escapeRegExp(missing)}"`));
        return true;
      });
      await assertGeneric500(kernel, '/missing', log.errors, [missing, engine]);
      await kernel.close();
    });

    test('a name leaving template_path is an error, whatever the spelling', async () => {
      const kernel = await app();
      for (const name of [`../outside.${options.extension}`, `a/../../outside.${options.extension}`, `/../x.${options.extension}`, `x\0.${options.extension}`, `..\\x.${options.extension}`]) {
        await assert.rejects(kernel.render(`${engine}:${name}`, {}), (error: unknown) => {
          assert.ok(error instanceof TemplateError, name);
          assert.equal(error.code, 'HICKORY_ERR_RENDERER_TEMPLATE_NAME');
          assert.equal(error.engine, engine);
          return true;
        });
      }
      await kernel.close();
    });

    test('a broken template is an error naming the template, the engine and the line', async () => {
      const { template, line } = fixtures.broken;
      const log = captureLog();
      const kernel = await app({ logger: log.logger }, { '/broken': [template, { boom }], '/plain-500': () => failPlainly() });
      await assert.rejects(kernel.render(template, { boom }), (error: unknown) => {
        assert.ok(error instanceof TemplateError);
        assert.equal(error.code, 'HICKORY_ERR_RENDERER_TEMPLATE_FAILED');
        assert.equal(error.template, template);
        assert.equal(error.engine, engine);
        assert.equal(error.line, line);
        assert.match(error.message, new RegExp(`"${escapeRegExp(template)}" \\(engine "${engine}"\\) failed at line ${line}\\b`));
        return true;
      });
      await assertGeneric500(kernel, '/broken', log.errors, [template, engine, `line ${line}`]);
      await kernel.close();
    });

    test('a template whose code throws is an error naming the template and the engine', async () => {
      const { template, line } = fixtures.throwing;
      const log = captureLog();
      const kernel = await app({ logger: log.logger }, { '/throwing': [template, { boom }], '/plain-500': () => failPlainly() });
      await assert.rejects(kernel.render(template, { boom }), (error: unknown) => {
        assert.ok(error instanceof TemplateError);
        assert.equal(error.code, 'HICKORY_ERR_RENDERER_TEMPLATE_FAILED');
        assert.equal(error.template, template);
        assert.equal(error.engine, engine);
        assert.equal(error.line, line);
        assert.match(error.message, /kaboom/);
        return true;
      });
      await assertGeneric500(kernel, '/throwing', log.errors, [template, engine, 'kaboom']);
      await kernel.close();
    });

    test('a template that does not compile is an error naming its line, told once', { skip: fixtures.syntax ? false : 'the engine gives no syntax fixtures' }, async () => {
      const log = captureLog();
      const routes: Record<string, RenderRoute> = { '/plain-500': () => failPlainly() };
      for (const { template } of fixtures.syntax ?? []) routes[`/${template}`] = [template, {}];
      const kernel = await app({ logger: log.logger }, routes);
      for (const { template, line, says } of fixtures.syntax ?? []) {
        await assert.rejects(kernel.render(template, {}), (error: unknown) => {
          assert.ok(error instanceof TemplateError);
          assert.equal(error.template, template);
          assert.equal(error.line, line, error.message);
          assert.match(error.message, new RegExp(`^Template "${escapeRegExp(template)}" \\(engine "${engine}"\\) failed at line ${line}(, column \\d+)?: [^]*${escapeRegExp(says)}`));
          // What a log prints of it (message, stack, cause) says it once.
          assert.equal(inspect(error).split(says).length - 1, 1, inspect(error));
          return true;
        });
        await assertGeneric500(kernel, `/${template}`, log.errors, [template, engine, `line ${line}`, says]);
      }
      await kernel.close();
    });

    test('namespace keys that look like engine options are plain data', async () => {
      const kernel = await app();
      const html = await kernel.render(fixtures.hello, { ...OPTION_LIKE_KEYS, name: '<b>Ada</b>' });
      assert.equal(html.trim(), 'Hello &lt;b&gt;Ada&lt;/b&gt;!');
      const echoed = await kernel.render(fixtures.echo, { ...OPTION_LIKE_KEYS, site: 'S', name: 'Ada' });
      assert.equal(echoed.trim(), 'S|Ada|?|/etc/passwd|/');
      const polluting = JSON.parse('{"__proto__": {"polluted": "yes"}, "name": "Ada"}') as Record<string, unknown>;
      assert.equal((await kernel.render(fixtures.hello, polluting)).trim(), 'Hello Ada!');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      await kernel.close();
    });

    test('prints any value argument mapping makes from request input (JSON objects, kwargs)', async () => {
      const kernel = await app();
      const body = parseJsonBody('{"a":{"b":1},"list":[{"c":2},"d"]}') as Record<string, unknown>;
      assert.equal((await kernel.render(fixtures.hello, { name: body['a'] })).trim(), 'Hello [object Object]!');
      assert.equal((await kernel.render(fixtures.hello, { name: body['list'] })).trim(), 'Hello [object Object],d!');
      const kwargs = inputObject<string>();
      kwargs['page'] = '2';
      assert.equal((await kernel.render(fixtures.hello, { name: kwargs })).trim(), 'Hello [object Object]!');
      await kernel.close();
    });

    test('extra_template_vars are merged under the namespace (the namespace wins)', async () => {
      const extra = { site: 'Hickory', name: 'Extra', delimiter: 'd', filename: 'f', root: 'r' };
      const kernel = await app({ extra_template_vars: extra });
      assert.equal((await kernel.render(fixtures.echo, {})).trim(), 'Hickory|Extra|d|f|r');
      assert.equal((await kernel.render(fixtures.echo, { name: 'Ada', root: '/' })).trim(), 'Hickory|Ada|d|f|/');
      assert.deepEqual(extra, { site: 'Hickory', name: 'Extra', delimiter: 'd', filename: 'f', root: 'r' });
      await kernel.close();
    });

    test('an unknown engine prefix fails clearly; a default_renderer naming no engine fails at ready()', async () => {
      const kernel = await app();
      await assert.rejects(kernel.render(`no-such-engine:${fixtures.hello}`, {}), { code: 'HICKORY_ERR_NO_RENDERER' });
      await kernel.close();
      await assert.rejects(app({ default_renderer: 'no-such-engine' }), { code: 'HICKORY_ERR_CONFIG_VALUE', message: /default_renderer.*names engine "no-such-engine", but no renderer plugin handles it/ });
    });

    test('bad renderer configuration fails at ready() naming the key', async () => {
      await assert.rejects(app({ template_cache: 'no' }), { code: 'HICKORY_ERR_CONFIG_VALUE', message: /template_cache/ });
      await assert.rejects(app({ extra_template_vars: 'x' }), { code: 'HICKORY_ERR_CONFIG_VALUE', message: /extra_template_vars/ });
    });
  });
}

function boom(): never {
  throw new Error('kaboom');
}

function failPlainly(): never {
  throw new Error('a plain failure');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// The template's failure must look exactly like any other 500 to the client, and the log must
// say what failed.
async function assertGeneric500(kernel: Kernel, path: string, errors: Array<{ message: string; details: unknown[] }>, mentions: string[]) {
  const plain = await kernel.inject({ method: 'GET', url: '/plain-500' });
  const res = await kernel.inject({ method: 'GET', url: path });
  assert.equal(res.statusCode, 500);
  assert.equal(res.body, plain.body);
  assert.equal(res.headers['content-type'], plain.headers['content-type']);
  const logged = errors.find((entry) => entry.message.includes(path));
  assert.ok(logged, `an error line for ${path}`);
  const text = logged.details.map((d) => (d instanceof Error ? d.message : String(d))).join(' ');
  for (const mention of mentions) assert.ok(text.includes(mention), `the log line names ${mention}: ${text}`);
}
