import { handlerStyle, type HandlerStyle } from './project-style.ts';

/**
 * The files the `base` project template adds: a root controller with an HTML page rendered by
 * ejs and a JSON endpoint, the page's template, and a test of both through `inject()`. Its
 * handlers are written in `style` (`hickory create --explicit`: they receive the request and the response).
 *
 * @example
 * ```ts
 * Object.keys(baseFiles()); // ['controllers/root.ts', 'templates/index.ejs', 'test/app.test.ts']
 * ```
 */
export function baseFiles(style: HandlerStyle = handlerStyle(false)): Record<string, string> {
  return {
    'controllers/root.ts': `${style.imports(['expose'])}
${style.note}
export class RootController {
  @expose('index.ejs')
  index(${style.params()}) {
    return { title: 'Welcome to Hickory' };
  }

  @expose('json')
  hello(${style.params("name = 'world'")}) {
    return { hello: name };
  }
}
`,
    'templates/index.ejs': `<!DOCTYPE html>
<html>
  <head><meta charset="utf-8"><title><%= title %></title></head>
  <body><h1><%= title %></h1><p><a href="/hello?name=you">/hello?name=you</a></p></body>
</html>
`,
    'test/app.test.ts': `import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createApp, loadConfig } from '@hickory/app';

test('the home page and /hello answer', async () => {
  const { app: config } = await loadConfig(fileURLToPath(new URL('../config.ts', import.meta.url)));
  const app = createApp({ ...config, logger: false });
  const home = await app.inject('/');
  assert.equal(home.statusCode, 200);
  assert.match(home.body, /<h1>Welcome to Hickory<\\/h1>/);
  const hello = await app.inject('/hello?name=Ada');
  assert.equal(hello.statusCode, 200);
  assert.deepEqual(hello.json(), { hello: 'Ada' });
  assert.equal((await app.inject('/no/such/page')).statusCode, 404);
  await app.close();
});
`,
  };
}

