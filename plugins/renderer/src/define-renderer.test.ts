import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createKernel } from '@hickory/core';
import { defineRenderer, lazyEngine, namedFunctions, type RendererContext } from '@hickory/renderer';
import { templateStoreNow } from './template-store.ts';
import { kernelFor, makeWorkspace, removeWorkspaces } from '@hickory/renderer/conformance';

after(removeWorkspaces);

test('defineRenderer checks its definition', () => {
  const create = () => ({ render: async () => '' });
  assert.throws(() => defineRenderer({ name: '', extensions: ['x'], create }), { code: 'HICKORY_ERR_RENDERER_DEFINITION' });
  assert.throws(() => defineRenderer({ name: 'a:b', extensions: ['x'], create }), { code: 'HICKORY_ERR_RENDERER_DEFINITION' });
  assert.throws(() => defineRenderer({ name: 'x', extensions: [], create }), { code: 'HICKORY_ERR_RENDERER_DEFINITION' });
  assert.throws(() => defineRenderer({ name: 'x', extensions: ['.x'], create }), { code: 'HICKORY_ERR_RENDERER_DEFINITION' });
  assert.throws(() => defineRenderer({ name: 'x', extensions: ['x'] } as never), { code: 'HICKORY_ERR_RENDERER_DEFINITION' });
  assert.equal(defineRenderer({ name: 'x', extensions: ['x'], create }).name, 'x-renderer');
  assert.equal(defineRenderer({ name: 'x', extensions: ['x'], create, pluginName: 'acme-x' }).name, 'acme-x');
});

test('a bad plugin option fails ready(); with declared options, an unknown one too, naming the known ones', async () => {
  const plugin = defineRenderer({ name: 'x', extensions: ['x'], create: () => ({ render: async () => '' }) });
  const kernel = createKernel({ logger: false }).use(plugin, { cache: 'yes' as unknown as boolean });
  await assert.rejects(kernel.ready(), { code: 'HICKORY_ERR_RENDERER_OPTIONS', message: 'Renderer "x" got a bad option: `cache` must be true or false.' });
  // Undeclared: the engine's create() gets any option as given.
  let got: unknown;
  const open = defineRenderer<{ cache?: boolean; anything?: number }>({ name: 'y', extensions: ['y'], create: (_c, o) => ((got = o), { render: async () => '' }) });
  await createKernel({ logger: false }).use(open, { anything: 1 }).ready();
  assert.deepEqual(got, { anything: 1 });

  const declared = defineRenderer<{ cache?: boolean; helpers?: Record<string, () => string> }>({
    name: 'z',
    extensions: ['z'],
    options: { helpers: namedFunctions },
    create: () => ({ render: async () => '' }),
  });
  const cases: Array<[unknown, string]> = [
    [{ helper: {} }, 'Renderer "z" got a bad option: `helper` is not one of its options (cache, helpers).'],
    [{ helpers: { upper: 'x' } }, 'Renderer "z" got a bad option: `helpers` must map names to functions ("upper" is string).'],
    [{ helpers: [] }, 'Renderer "z" got a bad option: `helpers` must be an object mapping names to functions.'],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(createKernel({ logger: false }).use(declared, options as never).ready(), { code: 'HICKORY_ERR_RENDERER_OPTIONS', message });
  }
  await createKernel({ logger: false }).use(declared, { cache: false, helpers: { upper: () => 'X' } }).ready();
});

test('the context: template_path from confdir (default "templates"), cache flag, keys tapped', async () => {
  let seen: RendererContext | undefined;
  const plugin = defineRenderer({
    name: 'probe',
    extensions: ['pr', 'probe'],
    create: (context) => {
      seen = context;
      return { render: async (file, data) => `${file.name}:${String(data.x)}` };
    },
  });
  const ws = await makeWorkspace({});
  const kernel = createKernel({ logger: false, confdir: ws.confdir }).use(plugin, { cache: false });
  await kernel.ready();
  assert.equal(seen!.root, ws.root);
  assert.equal(seen!.cache, false);
  assert.equal(seen!.engine, 'probe');
  assert.equal(await kernel.render('a.pr', { x: 1 }), 'a.pr:1');
  assert.equal(await kernel.render('b.probe', { x: 2 }), 'b.probe:2');
  assert.equal(await kernel.render('probe:c.html', { x: 3 }), 'c.html:3');
  assert.deepEqual(kernel.rendererFor('page.pr'), { engine: 'pr', available: true });
  await kernel.close();
});

test('a renderer used before ready() says so', async () => {
  const plugin = defineRenderer({ name: 'early', extensions: ['early'], create: () => ({ render: async () => 'x' }) });
  const kernel = createKernel({ logger: false }).use(plugin);
  await assert.rejects(kernel.render('a.early', {}), { code: 'HICKORY_ERR_RENDERER_NOT_READY' });
});

test('an engine error without a position names the rendered template', async () => {
  const plugin = defineRenderer({
    name: 'fails',
    extensions: ['fails'],
    create: () => ({
      render: async () => {
        throw new RangeError('nope');
      },
    }),
  });
  const kernel = await kernelFor(await makeWorkspace({}), plugin);
  await assert.rejects(kernel.render('dir/a.fails', {}), {
    code: 'HICKORY_ERR_RENDERER_TEMPLATE_FAILED',
    template: 'dir/a.fails',
    engine: 'fails',
    line: undefined,
    message: 'Template "dir/a.fails" (engine "fails") failed: RangeError: nope',
  });
  await kernel.close();
});

test('an engine whose package is not installed names the package to install', async () => {
  // As the first-party engines are written: the library is an optional peer, loaded at the first render.
  const plugin = defineRenderer({
    name: 'absent',
    extensions: ['absent'],
    library: { name: 'hickory-no-such-engine', resolve: () => import.meta.resolve('hickory-no-such-engine') },
    create: () => lazyEngine(async () => {
      const specifier = 'hickory-no-such-engine';
      await import(specifier);
      return { render: () => 'never' };
    }),
  });
  const kernel = await kernelFor(await makeWorkspace({ 'page.absent': 'x' }), plugin);
  await assert.rejects(kernel.render('page.absent', {}), {
    code: 'HICKORY_ERR_RENDERER_TEMPLATE_FAILED',
    template: 'page.absent',
    engine: 'absent',
    message: 'Template "page.absent" (engine "absent") failed: it needs the package "hickory-no-such-engine", which is not installed: npm install hickory-no-such-engine',
  });
  await kernel.close();
});

test('templateStoreNow returns the compiled template itself on a cache hit, a promise otherwise', async () => {
  let compiles = 0;
  const file = { name: 'a.x', path: '/virtual/a.x' };
  const cached = templateStoreNow(true, async (f: { path: string }) => `compiled ${f.path} #${++compiles}`);
  const first = cached(file);
  assert.ok(first instanceof Promise);
  assert.equal(await first, 'compiled /virtual/a.x #1');
  assert.equal(cached(file), 'compiled /virtual/a.x #1');
  const uncached = templateStoreNow(false, async () => `fresh #${++compiles}`);
  const again = uncached(file);
  assert.ok(again instanceof Promise);
  assert.equal(await again, 'fresh #2');
});
