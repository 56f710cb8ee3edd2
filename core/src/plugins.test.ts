import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, definePlugin, HickoryError, type Plugin } from './index.ts';
import { checkOptionNames } from './kit.ts';

const noop = () => {};

test('use() is chainable and idempotent per name', async () => {
  const applied: string[] = [];
  const a = definePlugin({ name: 'a', apply: () => void applied.push('a') });
  const again = definePlugin({ name: 'a', apply: () => void applied.push('a again') });
  const app = createKernel({ logger: false });
  assert.equal(app.use(a).use(a).use(again), app);
  await app.ready();
  assert.deepEqual(applied, ['a']);
  assert.equal(app.hasPlugin('a'), true);
  await app.close();
});

test('use() registers missing dependencies first, once, and passes options', async () => {
  const applied: Array<[string, unknown]> = [];
  const base = definePlugin<{ x?: number } | undefined>({ name: 'base', apply: (_k, o) => void applied.push(['base', o]) });
  const mid = definePlugin({ name: 'mid', dependencies: [base], apply: (_k, o) => void applied.push(['mid', o]) });
  const top = definePlugin<{ y: number }>({ name: 'top', dependencies: [mid, base], apply: (_k, o) => void applied.push(['top', o]) });
  const app = createKernel({ logger: false }).use(top, { y: 1 });
  await app.ready();
  assert.deepEqual(applied, [
    ['base', undefined],
    ['mid', undefined],
    ['top', { y: 1 }],
  ]);
  await app.close();
});

test('a dependency already registered with options keeps them', async () => {
  const seen: unknown[] = [];
  const base = definePlugin<{ x: number }>({ name: 'base', apply: (_k, o) => void seen.push(o) });
  const top = definePlugin({ name: 'top', dependencies: [base as Plugin], apply: noop });
  const app = createKernel({ logger: false }).use(base, { x: 7 }).use(top);
  await app.ready();
  assert.deepEqual(seen, [{ x: 7 }]);
  await app.close();
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof HickoryError, `expected a HickoryError, got ${String(error)}`);
    assert.ok(error.message.length > 10);
    return error.code;
  }
  return undefined;
}

test('plugins without a name or apply, and broken dependencies, are coded errors', () => {
  const app = createKernel({ logger: false });
  assert.equal(codeOf(() => definePlugin({ name: '', apply: noop })), 'HICKORY_ERR_PLUGIN_NAME');
  assert.equal(codeOf(() => app.use({ apply: noop } as unknown as Plugin)), 'HICKORY_ERR_PLUGIN_NAME');
  assert.equal(codeOf(() => app.use(null as unknown as Plugin)), 'HICKORY_ERR_PLUGIN_NAME');
  assert.equal(codeOf(() => app.use({ name: 'x' } as unknown as Plugin)), 'HICKORY_ERR_PLUGIN_APPLY');
  assert.equal(codeOf(() => definePlugin({ name: 'x', dependencies: ['dispatch'] as unknown as Plugin[], apply: noop })), 'HICKORY_ERR_PLUGIN_DEPENDENCY');
  assert.equal(codeOf(() => app.use({ name: 'x', dependencies: [undefined], apply: noop } as unknown as Plugin)), 'HICKORY_ERR_PLUGIN_DEPENDENCY');
  assert.equal(codeOf(() => app.use({ name: 'x', dependencies: 'nope', apply: noop } as unknown as Plugin)), 'HICKORY_ERR_PLUGIN_DEPENDENCY');
  assert.match(String((() => { try { app.use({ name: 'named', dependencies: [{}], apply: noop } as unknown as Plugin); } catch (e) { return (e as Error).message; } })()), /"named"/);
});

test('a dependency cycle is a coded error naming the chain', () => {
  const aDeps: Plugin[] = [];
  const a = definePlugin({ name: 'cycle-a', dependencies: aDeps, apply: noop });
  const b = definePlugin({ name: 'cycle-b', dependencies: [a], apply: noop });
  aDeps.push(b);
  let error: HickoryError | undefined;
  try {
    createKernel({ logger: false }).use(a);
  } catch (e) {
    error = e as HickoryError;
  }
  assert.equal(error?.code, 'HICKORY_ERR_PLUGIN_CYCLE');
  assert.match(error!.message, /cycle-a → cycle-b → cycle-a/);
});

test('a plugin whose apply throws fails ready(), naming it; use() goes on', async () => {
  const bad = definePlugin({ name: 'bad', apply: () => { throw new Error('boom'); } });
  const applied: string[] = [];
  const later = definePlugin({ name: 'later', apply: () => void applied.push('later') });
  const app = createKernel({ logger: false }).use(bad).use(later);
  assert.deepEqual(applied, ['later']);
  await assert.rejects(app.ready(), { code: 'HICKORY_ERR_PLUGIN_FAILED', message: 'Plugin "bad" failed while starting: boom' });
  // A coded error of the plugin's own (a bad option) passes as it is.
  const coded = definePlugin<{ b?: number }>({ name: 'coded', apply: (_k, o) => checkOptionNames('coded', o, ['a']) });
  await assert.rejects(createKernel({ logger: false }).use(coded, { b: 1 }).ready(), {
    code: 'HICKORY_ERR_PLUGIN_OPTION',
    message: 'Plugin "coded" has no option "b" (its options are a).',
  });
});

test('options given again: the same ones (or none) are a no-op; others fail ready() naming the plugin and the options', async () => {
  const seen: unknown[] = [];
  const base = definePlugin<{ x?: number; y?: number } | undefined>({ name: 'base', apply: (_k, o) => void seen.push(o) });
  const top = definePlugin({ name: 'top', dependencies: [base as Plugin], apply: noop });
  const same = createKernel({ logger: false }).use(base, { x: 1 }).use(base, { x: 1 }).use(base).use(top);
  await same.ready();
  assert.deepEqual(seen, [{ x: 1 }]);
  await createKernel({ logger: false }).use(base).use(base, {}).ready();

  const again = (kernel: ReturnType<typeof createKernel>, how: string, what: string) =>
    assert.rejects(kernel.ready(), {
      code: 'HICKORY_ERR_PLUGIN_OPTIONS_AGAIN',
      message: `Plugin "base" is already in use (${how}), so the options given to it again would be ignored (${what}): give a plugin its options once, in its first use(), before any plugin that depends on it (createApp() and a config file's \`plugins\` do this for you).`,
    });
  await again(createKernel({ logger: false }).use(base, { x: 1 }).use(base, { x: 2, y: 3 }), 'used earlier with other options', 'options x, y');
  await again(createKernel({ logger: false }).use(base, { x: 1, y: 3 }).use(base, { x: 1, y: 4 }), 'used earlier with other options', 'option y');
  await again(createKernel({ logger: false }).use(base).use(base, { x: 2 }), 'used earlier without options', 'option x');
  await again(createKernel({ logger: false }).use(top).use(base, { x: 2 }), 'added without options as a dependency of "top"', 'option x');
  const impostor = definePlugin({ name: 'base', apply: noop });
  await again(createKernel({ logger: false }).use(base).use(impostor, {} as never), 'by a different plugin of the same name', 'its options');
  await again(createKernel({ logger: false }).use(base).use(impostor, { z: 1 } as never), 'by a different plugin of the same name', 'option z');
  // Only the first set was applied each time.
  assert.equal(seen.length, 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1);
});

test('checkOptionNames: left out or known names pass; an unknown name or a non-object names the plugin and what it takes', () => {
  checkOptionNames('p', undefined, []);
  checkOptionNames('p', {}, []);
  checkOptionNames('p', { a: 1 }, ['a', 'b']);
  const cases: Array<[unknown, readonly string[], string]> = [
    [{ c: 1 }, ['a', 'b'], 'Plugin "p" has no option "c" (its options are a, b).'],
    [{ a: 1 }, [], 'Plugin "p" has no option "a" (it takes no options).'],
    [[1], [], 'Plugin "p" takes options as an object, not a list (it takes no options).'],
    ['x', ['a'], 'Plugin "p" takes options as an object, not the string "x" (its options are a).'],
    [null, ['a'], 'Plugin "p" takes options as an object, not null (its options are a).'],
    [3, ['a'], 'Plugin "p" takes options as an object, not the number 3 (its options are a).'],
  ];
  for (const [options, known, message] of cases) {
    assert.throws(() => checkOptionNames('p', options, known), { code: 'HICKORY_ERR_PLUGIN_OPTION', message });
  }
});

test('use() after ready() is a coded error', async () => {
  const app = createKernel({ logger: false });
  await app.ready();
  assert.equal(codeOf(() => app.use(definePlugin({ name: 'late', apply: noop }))), 'HICKORY_ERR_USE_AFTER_READY');
  await app.close();
});

test('ready() awaits an async apply, and reports its failure', async () => {
  let done = false;
  const slow = definePlugin({
    name: 'slow',
    async apply(kernel) {
      await new Promise((r) => setImmediate(r));
      kernel.hooks.beforeRoute.tap('slow', () => 'tapped after an await');
      done = true;
    },
  });
  const app = createKernel({ logger: false }).use(slow);
  assert.equal(done, false);
  await app.ready();
  assert.equal(done, true);
  assert.equal((await app.inject('/')).body, 'tapped after an await');
  await app.close();

  const failing = definePlugin({ name: 'failing', apply: async () => { throw new Error('no database'); } });
  const broken = createKernel({ logger: false }).use(failing);
  await assert.rejects(broken.ready(), (e: HickoryError) => e.code === 'HICKORY_ERR_PLUGIN_FAILED' && /"failing".*no database/.test(e.message));
  await assert.rejects(broken.inject('/'), { code: 'HICKORY_ERR_PLUGIN_FAILED' });
  await broken.close();
});

test('ready() is idempotent and runs the ready hook once', async () => {
  let readies = 0;
  const app = createKernel({ logger: false }).use(definePlugin({ name: 'r', apply: (k) => k.hooks.ready.tap('r', () => void readies++) }));
  const [x, y] = await Promise.all([app.ready(), app.ready()]);
  assert.equal(x, app);
  assert.equal(y, app);
  assert.equal(app.isReady, true);
  assert.equal(readies, 1);
  await app.close();
});

test('callback() before ready() is a coded error', async () => {
  const app = createKernel({ logger: false });
  assert.equal(codeOf(() => app.callback()), 'HICKORY_ERR_NOT_READY');
  await app.ready();
  assert.equal(typeof app.callback(), 'function');
  await app.close();
});
