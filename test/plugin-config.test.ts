// The configuration keys that belong to a plugin are declared by it: with the plugin they are
// accepted, checked and (for paths) resolved from confdir; without it a kernel refuses them,
// naming the plugin to add.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { ejsRenderer } from '@hickory/ejs';
import { staticPlugin } from '@hickory/static';

class Root {
  @expose('json') index() {
    return { ok: true };
  }
}

test('dispatchPlugin declares force_canonical and guess_content_type_from_ext (default true), checked at ready()', async () => {
  const app = createKernel({ root: Root, logger: false, force_canonical: false, guess_content_type_from_ext: false }).use(dispatchPlugin);
  await app.ready();
  assert.equal(app.config.force_canonical, false);
  assert.equal(app.config.guess_content_type_from_ext, false);
  await app.close();
  const defaults = createKernel({ root: Root, logger: false }).use(dispatchPlugin);
  await defaults.ready();
  assert.equal(defaults.config.force_canonical, true);
  assert.equal(defaults.config.guess_content_type_from_ext, true);
  // `/index.json` renders JSON: the extension is guessed.
  assert.equal((await defaults.inject('/index.json')).body, '{"ok":true}');
  await defaults.close();
  const wrong = createKernel({ root: Root, logger: false, force_canonical: 'yes' as unknown as boolean }).use(dispatchPlugin);
  await assert.rejects(wrong.ready(), { code: 'HICKORY_ERR_CONFIG_VALUE', message: 'Configuration key "force_canonical" must be true or false (got "yes").' });
  await wrong.close();
});

test('staticPlugin declares static_root and the renderers template_path, both resolved from confdir', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hickory-plugin-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const app = createKernel({ root: Root, logger: false, confdir: dir, static_root: '%(confdir)s', template_path: '%(confdir)s/views' })
    .use(dispatchPlugin)
    .use(staticPlugin)
    .use(ejsRenderer);
  await app.ready();
  assert.equal(app.config.static_root, dir);
  assert.equal(app.config.template_path, `${dir}/views`);
  await app.close();
});

test('a kernel without the plugin refuses its keys and names the plugin', async () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['static_root', './public', /it is read by staticPlugin \(@hickory\/static\), which is not in use/],
    ['template_path', './views', /it is read by a renderer plugin \(ejsRenderer, nunjucksRenderer or handlebarsRenderer\), which is not in use/],
    ['force_canonical', false, /it is read by dispatchPlugin \(@hickory\/dispatch\), which is not in use/],
    ['guess_content_type_from_ext', false, /it is read by dispatchPlugin/],
  ];
  for (const [key, value, hint] of cases) {
    const app = createKernel({ logger: false, [key]: value });
    await assert.rejects(app.ready(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'HICKORY_ERR_CONFIG_UNKNOWN_KEY', key);
      assert.ok(error.message.startsWith(`Unknown configuration key "${key}" (`), error.message);
      assert.match(error.message, hint);
      return true;
    });
    await app.close();
  }
});
