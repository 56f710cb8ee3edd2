import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expose } from '@hickory/dispatch';
import { RestController } from '@hickory/rest';
import { createApp } from './create-app.ts';

class Books extends RestController {
  @expose('json') get_one(id: string) { return { id }; }
  @expose('json') put(id: string, title = '') { return { id, title }; }
}

class Root {
  books = new Books();
  @expose() index() { return 'home'; }
}

test('app.routes() lists the routes once the app is ready, as hickory routes prints them', async () => {
  const app = createApp({ root: new Root(), logger: false });
  assert.throws(() => app.routes(), { code: 'HICKORY_ERR_NOT_READY', message: 'app.routes() needs the kernel to be ready: await kernel.ready() first.' });
  await app.ready();
  try {
    assert.deepEqual(
      app.routes().map((r) => `${r.methods.join(',')} ${r.path} ${r.handler} ${r.params.join(',')}`),
      ['ANY / Root.index ', 'ANY /index Root.index ', 'GET,HEAD /books/{id} Books.get_one id', 'PUT /books/{id} Books.put id,title'],
    );
    const doc = app.openapi({ title: 'Shop' });
    assert.deepEqual(doc['info'], { title: 'Shop', version: '0.0.0' });
    assert.deepEqual(Object.keys(doc.paths['/books/{id}']!), ['get', 'put']);
  } finally {
    await app.close();
  }
});
