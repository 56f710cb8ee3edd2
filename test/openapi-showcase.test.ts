// `hickory routes --openapi` on the showcase: a document an OpenAPI 3.1 validator accepts, whose
// info comes from --title/--version or the app's package.json, where an upload is a field of the
// body (never a path or query parameter), no body field is also a parameter, every secured
// operation has its 401 and a security requirement the document defines, and a response schema is
// its 200 answer's JSON Schema.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { BIN, REPO, start } from './fixtures/cli/harness.ts';

type Schema = { properties?: Record<string, unknown> };
interface Operation {
  parameters: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
  security?: Array<Record<string, string[]>>;
  'x-hickory-secured'?: true;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

// `hickory routes` loads the app, which opens its database: one in memory, not the shared file.
async function run(args: readonly string[]): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const cli = start(args, REPO, BIN, { HICKORY_SANDBOX_DB: ':memory:', DATABASE_URL: '' });
  try {
    const code = await cli.exited(30_000);
    return { code, stdout: cli.stdout(), stderr: cli.stderr() };
  } finally {
    cli.stop();
  }
}

async function openapi(...args: string[]): Promise<Document> {
  const out = await run(['routes', 'sandbox/config.ts', '--openapi', ...args]);
  assert.equal(out.code, 0, out.stderr);
  const doc = JSON.parse(out.stdout) as Document;
  const validator = new Validator();
  const result = await validator.validate(doc as unknown as Record<string, unknown>);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  assert.equal(validator.version, '3.1');
  return doc;
}

function operations(doc: Document): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [path, method, op] as [string, string, Operation]));
}

test('the showcase\'s OpenAPI document is valid OpenAPI 3.1, named after its package.json or --title/--version', async () => {
  const pkg = JSON.parse(await readFile(join(REPO, 'sandbox', 'package.json'), 'utf8')) as { name: string; version: string };
  const doc = await openapi();
  assert.deepEqual(doc.info, { title: pkg.name, version: pkg.version });
  assert.deepEqual((await openapi('--title', 'Books showcase', '--version', '2.3.0')).info, { title: 'Books showcase', version: '2.3.0' });
  const usage = await run(['routes', 'sandbox/config.ts', '--title', 'x']);
  assert.equal(usage.code, 1);
  assert.equal(usage.stderr, 'hickory: --title goes with --openapi (see hickory --help)\n');

  // The upload form's POST: the file is a field of the multipart body, not a parameter.
  const store = doc.paths['/files/']!['post']!;
  assert.deepEqual(store.parameters, []);
  assert.deepEqual(Object.keys(store.requestBody!.content['multipart/form-data']!.schema.properties!), ['file']);

  for (const [path, method, op] of operations(doc)) {
    const where = `${method.toUpperCase()} ${path}`;
    // Path parameters are exactly the path's placeholders.
    const placeholders = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    assert.deepEqual(op.parameters.filter((p) => p.in === 'path').map((p) => p.name), placeholders, where);
    // What the body holds is not a parameter as well (issue #31: body fields were also required query parameters).
    for (const { schema } of Object.values(op.requestBody?.content ?? {})) {
      const fields = Object.keys(schema.properties ?? {});
      assert.deepEqual(op.parameters.filter((p) => fields.includes(p.name)), [], where);
    }
    // A secured operation says how it is refused and what it requires; an open one neither.
    if (op['x-hickory-secured']) {
      assert.ok(op.responses['401'], where);
      assert.ok(op.security && op.security.length > 0, where);
      for (const requirement of op.security) for (const name of Object.keys(requirement)) assert.ok(doc.components.securitySchemes?.[name], `${where}: ${name}`);
    } else {
      assert.equal(op.responses['401'], undefined, where);
      assert.equal(op.security, undefined, where);
    }
  }
  // The catalog's JSON list declares its response schema: the 200 answer refers to its JSON
  // Schema, described once under components (issue #38).
  const listed = doc.paths['/catalog/books/']!['get']!.responses['200'] as { content: Record<string, { schema?: { $ref: string } }> };
  assert.deepEqual(Object.keys(listed.content), ['text/html', 'application/json']);
  const ref = listed.content['application/json']!.schema!.$ref;
  assert.match(ref, /^#\/components\/schemas\/[\w.-]+$/);
  assert.deepEqual(doc.components.schemas[ref.slice('#/components/schemas/'.length)], {
    type: 'array',
    items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'], additionalProperties: false },
  });
  const secured = operations(doc).filter(([, , op]) => op['x-hickory-secured']).map(([path, method]) => `${method} ${path}`);
  assert.ok(secured.includes('get /admin/'), secured.join(', '));
  assert.ok(!secured.some((op) => op.endsWith(' /admin/login')), 'the login form stays open');
});

test("the showcase's document declares its real session cookie, required by exactly the admin routes", async () => {
  const doc = await openapi();
  assert.deepEqual(doc.components.securitySchemes, {
    adminSession: { type: 'apiKey', in: 'cookie', name: 'hickory_admin', description: 'The signed session cookie that POST /admin/login sets (8 hours without use end it; POST /admin/logout ends it at once).' },
  });
  for (const [path, method, op] of operations(doc)) {
    const where = `${method.toUpperCase()} ${path}`;
    const admin = path.startsWith('/admin/') && path !== '/admin/login';
    assert.deepEqual(op.security, admin ? [{ adminSession: [] }] : undefined, where);
  }
  // The admin pages are there, and so are public ones.
  assert.ok(doc.paths['/admin/']?.['get']?.security, 'GET /admin/');
  assert.ok(doc.paths['/admin/login']?.['post'] && doc.paths['/admin/login']['post'].security === undefined, 'POST /admin/login');
  assert.ok(Object.keys(doc.paths).filter((path) => !path.startsWith('/admin/')).length > 5, Object.keys(doc.paths).join(', '));
});
