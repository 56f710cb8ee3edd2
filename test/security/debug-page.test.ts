// The debug page (issue #29): shown only where NODE_ENV is unset, development or test (trimmed,
// any case) — refused with a warning anywhere else, `Production`, `prod` and `"production "`
// included — and every credential-like header and query value is masked on it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createApp, expose } from '@hickory/app';

class Root {
  @expose() broken(): never {
    throw new Error('the bug is here');
  }
}

const savedEnv = process.env['NODE_ENV'];
function setEnv(value: string | undefined): void {
  if (value === undefined) delete process.env['NODE_ENV'];
  else process.env['NODE_ENV'] = value;
}
after(() => setEnv(savedEnv));

async function pageFor(nodeEnv: string | undefined, url = '/broken', headers: Record<string, string> = {}) {
  setEnv(nodeEnv);
  const warned: string[] = [];
  const app = createApp({ root: new Root(), debug: true, logger: { info() {}, warn: (m: string) => void warned.push(m), error() {} } });
  try {
    const res = await app.inject({ url, headers });
    return { status: res.statusCode, body: res.body, warned: warned.filter((w) => w.startsWith('debug: true')) };
  } finally {
    await app.close();
  }
}

test('the debug page only where NODE_ENV is unset, development or test (trimmed, any case)', async () => {
  for (const env of [undefined, '', 'development', 'Development ', ' TEST', 'test', 'DEVELOPMENT']) {
    const { status, body, warned } = await pageFor(env);
    assert.equal(status, 500, String(env));
    assert.match(body, /<h1>Error: the bug is here<\/h1>/, `NODE_ENV=${JSON.stringify(env)} shows the page`);
    assert.deepEqual(warned, [], String(env));
  }
  for (const env of ['production', 'Production', 'PRODUCTION', 'prod', 'production ', ' production\n', 'staging', 'live', 'dev']) {
    const { status, body, warned } = await pageFor(env);
    assert.equal(status, 500, env);
    assert.doesNotMatch(body, /the bug is here|Stack|debug-page\.test/, `NODE_ENV=${JSON.stringify(env)} must not show the page`);
    assert.deepEqual(warned, [
      `debug: true is refused because NODE_ENV is ${JSON.stringify(env)}, not a development setting (unset, "development" or "test"): an unhandled error answers the plain 500 (the debug page shows stacks and request details)`,
    ]);
  }
});

test('every credential-like header and query value is masked', async () => {
  const secrets: Record<string, string> = {
    authorization: 'Bearer s3cr3t-bearer',
    'proxy-authorization': 'Basic s3cr3t-basic',
    cookie: 'sid=s3cr3t-cookie',
    'x-session-id': 's3cr3t-session',
    'x-access-token': 's3cr3t-token',
    'x-client-secret': 's3cr3t-client',
    'x-api-key': 's3cr3t-apikey',
    'x-password': 's3cr3t-password',
    'x-custom-auth': 's3cr3t-custom',
    'X-Upstream-Key': 's3cr3t-upstream',
  };
  const query = '?page=2&token=s3cr3t-q-token&Password=s3cr3t-q-password&api_key=s3cr3t-q-key&session%5Fid=s3cr3t-q-session&access_token&user=ada';
  const { body } = await pageFor('development', `/broken${query}`, { ...secrets, 'x-trace': 'visible-trace', accept: 'text/html' });
  assert.doesNotMatch(body, /s3cr3t/);
  for (const [name, value] of Object.entries(secrets)) {
    assert.match(body, new RegExp(`<tr><th>${name.toLowerCase()}</th><td>••• \\(masked, ${value.length} characters\\)</td></tr>`), name);
  }
  assert.match(body, /<tr><th>x-trace<\/th><td>visible-trace<\/td><\/tr>/);
  assert.match(body, /<tr><th>url<\/th><td>\/broken\?page=2&amp;token=•••&amp;Password=•••&amp;api_key=•••&amp;session%5Fid=•••&amp;access_token&amp;user=ada<\/td><\/tr>/);
});
