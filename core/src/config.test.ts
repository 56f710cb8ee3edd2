import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confdirPath, CORE_CONFIG, resolveConfig } from './config.ts';
import { createKernel, definePlugin, Request, Response, type KernelConfig } from './index.ts';

// What the first-party plugins declare (test/plugin-config.test.ts checks the real ones).
const trueOrFalse = (v: unknown) => (typeof v === 'boolean' ? undefined : 'must be true or false');
const pluginKeys = definePlugin({
  name: 'plugin-keys',
  config: { static_root: confdirPath, template_path: confdirPath, force_canonical: trueOrFalse, guess_content_type_from_ext: trueOrFalse },
  apply() {},
});
const PLUGIN_KEYS = ['force_canonical', 'guess_content_type_from_ext', 'static_root', 'template_path'];

class Root {
  hello() {
    return 'hi';
  }
}

test('every key of the configuration table is accepted, with its defaults', async () => {
  const root = new Root();
  const config: KernelConfig = {
    root,
    modules: [],
    static_root: '/srv/static',
    template_path: '/srv/templates',
    request_cls: Request,
    response_cls: Response,
    force_canonical: false,
    guess_content_type_from_ext: false,
    default_renderer: 'ejs',
    errors: { 404: '/error/404', '500': '/error/500' },
    confdir: '/srv',
    body_limit: 10,
    param_limit: 5,
    headers_timeout: 1000,
    request_timeout: 2000,
    keep_alive_timeout: 300,
    close_timeout: 400,
    handler_timeout: 500,
    send_timeout: 600,
    redirect_origins: ['https://accounts.example.com', 'http://127.0.0.1:8081'],
    use_context_locals: false,
    debug: true,
    trust_proxy: ['loopback', '10.0.0.0/8'],
    allowed_hosts: ['books.example.com', '.example.org'],
    request_id_header: 'x-correlation-id',
    etag: false,
    logger: false,
  };
  assert.deepEqual([...Object.keys(CORE_CONFIG), ...PLUGIN_KEYS].sort(), Object.keys(config).sort());
  const ejs = definePlugin({ name: 'ejs-stand-in', apply: (k) => k.hooks.render.for('ejs').tap('ejs-stand-in', () => '') });
  const app = createKernel(config).use(ejs).use(pluginKeys);
  await app.ready();
  assert.equal(app.root, root);
  const { logger: _logger, ...rest } = config;
  for (const [key, value] of Object.entries(rest)) assert.deepEqual(app.config[key], value, key);
  await app.close();

  const defaults = createKernel({ logger: false });
  await defaults.ready();
  const c = defaults.config;
  assert.deepEqual(
    {
      modules: c.modules,
      errors: c.errors,
      confdir: c.confdir,
      body_limit: c.body_limit,
      param_limit: c.param_limit,
      headers_timeout: c.headers_timeout,
      request_timeout: c.request_timeout,
      keep_alive_timeout: c.keep_alive_timeout,
      close_timeout: c.close_timeout,
      handler_timeout: c.handler_timeout,
      send_timeout: c.send_timeout,
      redirect_origins: c.redirect_origins,
      use_context_locals: c.use_context_locals,
      debug: c.debug,
      trust_proxy: c.trust_proxy,
      allowed_hosts: c.allowed_hosts,
      request_id_header: c.request_id_header,
      etag: c.etag,
      request_cls: c.request_cls,
      response_cls: c.response_cls,
      root: defaults.root,
    },
    {
      modules: [],
      errors: {},
      confdir: process.cwd(),
      body_limit: 1024 * 1024,
      param_limit: 1000,
      headers_timeout: 60_000,
      request_timeout: 120_000,
      keep_alive_timeout: 5_000,
      close_timeout: 5_000,
      handler_timeout: 120_000,
      send_timeout: 30_000,
      redirect_origins: [],
      use_context_locals: true,
      debug: false,
      trust_proxy: false,
      allowed_hosts: undefined,
      request_id_header: 'x-request-id',
      etag: true,
      request_cls: Request,
      response_cls: Response,
      root: undefined,
    },
  );
  await defaults.close();
});

const BAD_VALUES: Array<[string, unknown, RegExp]> = [
  ['root', 42, /controller object, a class, or a string/],
  ['root', '', /controller object/],
  ['modules', 'app.ts', /list of module paths/],
  ['modules', [''], /list of module paths/],
  ['request_cls', class {}, /subclass of it/],
  ['response_cls', {}, /subclass of it/],
  ['default_renderer', null, /non-empty string/],
  ['errors', [], /must be an object/],
  ['errors', { 200: '/ok' }, /"200", which is not an error status/],
  ['errors', { 404: 'error/404' }, /paths starting with "\/"/],
  ['confdir', 3, /non-empty string/],
  ['body_limit', -1, /positive integer/],
  ['param_limit', 1.5, /positive integer/],
  ['headers_timeout', '60s', /positive integer/],
  ['request_timeout', 0, /positive integer/],
  ['keep_alive_timeout', Number.NaN, /positive integer/],
  ['close_timeout', Infinity, /positive integer/],
  ['handler_timeout', 0, /positive integer/],
  ['send_timeout', -5, /positive integer/],
  ['redirect_origins', 'https://a.example', /must be a list of origins/],
  ['use_context_locals', 'no', /must be true or false \(got "no"\)/],
  ['debug', 1, /must be true or false \(got 1\)/],
  ['redirect_origins', ['https://a.example/'], /"https:\/\/a\.example\/", which is not an origin: write it as scheme:\/\/host\[:port\]/],
  ['redirect_origins', ['javascript:x'], /not an origin/],
  ['trust_proxy', 'nope', /cannot be "nope": invalid IP address/],
  ['allowed_hosts', ['*.example.com'], /has "\*\.example\.com", which is a wildcard: write "\.example\.com" for a domain and all its subdomains/],
  ['allowed_hosts', [], /is an empty list, which would refuse every request/],
  ['request_id_header', 'x request id', /must be false or a header name such as "x-request-id" \(got "x request id"\)/],
  ['request_id_header', true, /must be false or a header name/],
  ['etag', 'weak', /must be true or false \(got "weak"\)/],
];
// Keys whose bad values have a coded error of their own (with the fix spelled out).
const OWN_CODES: Record<string, string> = { trust_proxy: 'HICKORY_ERR_CONFIG_TRUST_PROXY' };

test('a bad value fails at ready() with a message naming the key', async () => {
  for (const [key, value, problem] of BAD_VALUES) {
    const app = createKernel({ logger: false, [key]: value } as KernelConfig);
    await assert.rejects(app.ready(), (e: Error & { code: string }) => {
      assert.equal(e.code, OWN_CODES[key] ?? 'HICKORY_ERR_CONFIG_VALUE', key);
      assert.ok(e.message.startsWith(`Configuration key "${key}" `), e.message);
      assert.match(e.message, problem, key);
      return true;
    });
    await app.close();
  }
  const checked = new Set(BAD_VALUES.map(([key]) => key));
  const declared = createKernel({ logger: false, static_root: '' }).use(pluginKeys);
  await assert.rejects(declared.ready(), { code: 'HICKORY_ERR_CONFIG_VALUE', message: /"static_root" must be a non-empty string/ });
  await declared.close();
  // `logger` has its own error codes (HICKORY_ERR_LOGGER_*): see logging.test.ts.
  assert.deepEqual([...checked, 'logger'].sort(), Object.keys(CORE_CONFIG).sort(), 'every key has a bad-value case');
});

test('an unknown key fails at ready() naming it and listing the known keys', async () => {
  const app = createKernel({ logger: false, templates_path: './t' }).use(pluginKeys);
  await assert.rejects(app.ready(), (e: Error & { code: string }) => {
    assert.equal(e.code, 'HICKORY_ERR_CONFIG_UNKNOWN_KEY');
    assert.match(e.message, /^Unknown configuration key "templates_path"\. Known keys: .*template_path/);
    return true;
  });
  await app.close();
  // A key of a first-party plugin that is not in use names the plugin.
  const bare = createKernel({ logger: false, static_root: './public' });
  await assert.rejects(bare.ready(), {
    code: 'HICKORY_ERR_CONFIG_UNKNOWN_KEY',
    message: /^Unknown configuration key "static_root" \(it is read by staticPlugin \(@hickory\/static\), which is not in use: add it with \.use\(\), or use createApp, which has them all\)\. Known keys: /,
  });
  await bare.close();
  assert.throws(() => resolveConfig({ nope: 1 }, CORE_CONFIG), { code: 'HICKORY_ERR_CONFIG_UNKNOWN_KEY' });
});

test('plugins add configuration keys with their own checks', async () => {
  const plugin = definePlugin({ name: 'cache', config: { cache_size: (v) => (Number.isInteger(v) ? undefined : 'must be an integer') }, apply() {} });
  const ok = createKernel({ logger: false, cache_size: 10 }).use(plugin);
  await ok.ready();
  assert.equal(ok.config.cache_size, 10);
  await ok.close();
  const bad = createKernel({ logger: false, cache_size: 'big' }).use(plugin);
  await assert.rejects(bad.ready(), /Configuration key "cache_size" must be an integer/);
  await bad.close();
  const unused = createKernel({ logger: false, cache_size: 10 });
  await assert.rejects(unused.ready(), { code: 'HICKORY_ERR_CONFIG_UNKNOWN_KEY' });
  await unused.close();
});

test('%(confdir)s is replaced in the keys a plugin declares with confdirPath (static_root, template_path)', async () => {
  const app = createKernel({ logger: false, confdir: '/srv/app', static_root: '%(confdir)s/public', template_path: '%(confdir)s/templates/%(confdir)s' }).use(pluginKeys);
  await app.ready();
  assert.equal(app.config.static_root, '/srv/app/public');
  assert.equal(app.config.template_path, '/srv/app/templates//srv/app');
  await app.close();
});

function fixtureDir(t: { after(fn: () => void): void }, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hickory-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const ROOT_TS = 'export class RootController { readonly kind = "root"; }\nexport const instance = { kind: "instance" };\nexport default class DefaultRoot { readonly kind = "default"; }\n';

test('root as an object, a class, a dotted string or module#Export', async (t) => {
  const dir = fixtureDir(t, { 'app/controllers/root.ts': ROOT_TS, 'lib/plain.mjs': 'export class Plain { kind = "mjs"; }\n' });
  const cases: Array<[KernelConfig['root'], string]> = [
    [{ kind: 'object' }, 'object'],
    [class { kind = 'class'; }, 'class'],
    ['app.controllers.root.RootController', 'root'],
    ['app.controllers.root.instance', 'instance'],
    ['./app/controllers/root.ts#RootController', 'root'],
    ['./app/controllers/root#RootController', 'root'],
    ['./app/controllers/root.ts#', 'default'],
    [`${dir}/lib/plain.mjs#Plain`, 'mjs'],
  ];
  for (const [root, kind] of cases) {
    const app = createKernel({ logger: false, confdir: dir, root });
    await app.ready();
    assert.equal((app.root as { kind: string }).kind, kind, String(root));
    await app.close();
  }
});

test('a root that cannot be resolved fails at ready() naming it', async (t) => {
  const dir = fixtureDir(t, { 'root.ts': ROOT_TS });
  const cases: Array<[string, RegExp]> = [
    ['./root.ts#Missing', /has no export "Missing"/],
    ['./nowhere.ts#Root', /no file/],
    ['not a path', /dotted path/],
    ['root.missing', /no export "missing"|no file/],
  ];
  for (const [root, problem] of cases) {
    const app = createKernel({ logger: false, confdir: dir, root });
    await assert.rejects(app.ready(), (e: Error & { code: string }) => {
      assert.equal(e.code, 'HICKORY_ERR_ROOT_RESOLVE');
      assert.ok(e.message.includes(`"${root}"`), e.message);
      assert.match(e.message, problem);
      return true;
    });
    await app.close();
  }
  const instance = createKernel({ logger: false, confdir: dir, root: './root.ts#instance' });
  await instance.ready();
  await instance.close();
});

test('modules are loaded at ready(), resolved from confdir; a failing one names itself', async (t) => {
  const marker = `hickory_module_${process.pid}_${Date.now()}`;
  const dir = fixtureDir(t, {
    'models/setup.ts': `(globalThis as Record<string, unknown>)[${JSON.stringify(marker)}] = ((globalThis as Record<string, number>)[${JSON.stringify(marker)}] ?? 0) + 1;\nexport {};\n`,
    'broken.ts': 'throw new Error("module exploded");\n',
  });
  const app = createKernel({ logger: false, confdir: dir, modules: ['./models/setup'] });
  assert.equal((globalThis as Record<string, unknown>)[marker], undefined);
  await app.ready();
  assert.equal((globalThis as Record<string, unknown>)[marker], 1);
  await app.close();
  const bad = createKernel({ logger: false, confdir: dir, modules: ['./broken.ts'] });
  await assert.rejects(bad.ready(), (e: Error & { code: string }) => e.code === 'HICKORY_ERR_MODULE_LOAD' && /"\.\/broken\.ts".*module exploded/.test(e.message));
  await bad.close();
  const missing = createKernel({ logger: false, confdir: dir, modules: ['./absent'] });
  await assert.rejects(missing.ready(), { code: 'HICKORY_ERR_MODULE_LOAD' });
  await missing.close();
});
