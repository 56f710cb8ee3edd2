// What happens around a rejected or broken schema: the error path, error documents, other taps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin, Response } from '@hickory/core';
import { dispatchPlugin, expose, InvalidInput } from '@hickory/dispatch';
import { z } from 'zod';

const throwing = { '~standard': { version: 1 as const, vendor: 'test', validate: () => { throw new Error('schema bug'); } } };

class Root {
  @expose({ template: 'json', args: { id: throwing } }) broken(id: string) { return id; }
  @expose({ template: 'json', args: { id: z.coerce.number() } }) show(id: number) { return id; }
  @expose({ args: { id: z.coerce.number() } }) page(id: number) { return `<p>${id}</p>`; }
  @expose({ route: '400' }) badRequestPage() { return 'custom 400 page'; }
  _lookup(name: string, ...rest: string[]) {
    if (name !== 'late') return undefined;
    class Late {
      // @ts-expect-error: the schema's output fits no parameter (index has none): the point of this test
      @expose({ args: { nope: z.string() } }) index() { return 'late'; }
    }
    return [new Late(), rest];
  }
}

test('a schema that throws is a logged 500, never a crash', async () => {
  const logged: unknown[] = [];
  const logger = { error: (...args: unknown[]) => logged.push(args), warn() {}, info() {}, debug() {} };
  const app = createKernel({ root: new Root(), logger }).use(dispatchPlugin);
  const res = await app.inject('/broken/1');
  assert.equal(res.statusCode, 500);
  assert.match(String(logged.flat().find((e) => e instanceof Error)), /schema bug/);
  await app.close();
});

test('a controller that only _lookup creates is checked on first use: a logged 500 naming the cause', async () => {
  const logged: unknown[] = [];
  const logger = { error: (...args: unknown[]) => logged.push(args), warn() {}, info() {}, debug() {} };
  const app = createKernel({ root: new Root(), logger }).use(dispatchPlugin);
  assert.equal((await app.inject('/late/')).statusCode, 500);
  assert.match(String(logged.flat().find((e) => e instanceof Error)), /Late\.index: args names "nope"/);
  await app.close();
});

test('the 400 is JSON even where an error document exists for 400; an onAbort tap of the app still wins', async () => {
  const app = createKernel({ root: new Root(), errors: { 400: '/400' }, logger: false }).use(dispatchPlugin);
  const res = await app.inject({ url: '/page/x', headers: { accept: 'text/html' } });
  assert.equal(res.statusCode, 400);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.json().issues.length, 1);
  await app.close();

  const custom = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  custom.use(definePlugin({
    name: 'problem-json',
    apply(kernel) {
      kernel.hooks.onAbort.tap('problem-json', (error) =>
        error instanceof InvalidInput ? new Response({ body: JSON.stringify({ errors: error.issues }), status: 422, headers: { 'Content-Type': 'application/problem+json' } }) : undefined,
      );
    },
  }));
  const mine = await custom.inject('/show/x');
  assert.equal(mine.statusCode, 422);
  assert.equal(mine.body, '{"errors":[{"message":"Invalid input: expected number, received NaN","path":["id"]}]}');
  await custom.close();
});

test('headers set before the rejection are kept; the request\'s other routes are untouched', async () => {
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  app.use(definePlugin({
    name: 'request-id',
    apply(kernel) {
      kernel.hooks.beforeRoute.tap('request-id', (_request, response) => {
        response.headers['X-Request-Id'] = 'r1';
      });
    },
  }));
  const res = await app.inject('/show/x');
  assert.equal(res.statusCode, 400);
  assert.equal(res.headers['x-request-id'], 'r1');
  assert.equal((await app.inject('/show/2')).body, '2');
  await app.close();
});
