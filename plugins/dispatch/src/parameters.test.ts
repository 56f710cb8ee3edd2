import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parametersOf } from '@hickory/dispatch/kit';

const names = (fn: Function) => parametersOf(fn).list.map((p) => `${p.rest ? '...' : ''}${p.name ?? '{}'}${p.required ? '' : '?'}`);

test('parameter names are read from compiled methods, functions and arrows', () => {
  class Sample {
    m(a: string, b = 'x,y', ...rest: string[]) { // a comment, with (parens)
      return [a, b, rest];
    }
    async load(/* id, ignored */ id: string, { deep }: { deep: string } = { deep: '' }) { return [id, deep]; }
    *gen([first]: string[], kwargs?: object) { yield [first, kwargs]; }
    'dash-name'(x: string) { return x; }
  }
  const p = Sample.prototype as unknown as Record<string, Function>;
  assert.deepEqual(names(p['m']!), ['a', 'b?', '...rest?']);
  assert.deepEqual(names(p['load']!), ['id', '{}?']);
  assert.deepEqual(names(p['gen']!), ['{}', 'kwargs']);
  assert.deepEqual(names(p['dash-name']!), ['x']);
  assert.deepEqual(names((a: string, b: string) => a + b), ['a', 'b']);
  assert.deepEqual(names(async (q: string) => q), ['q']);
  assert.deepEqual(names(function named(a = `,)`, b = Math.max(1, 2)) { return [a, b]; }), ['a?', 'b?']);
  // The exact runtime shape tsx gives a method (see DESIGN.md).
  const fromSource = new Function(`return ({ m(a,b="x,y",...rest){return a} }).m`)() as Function;
  assert.deepEqual(names(fromSource), ['a', 'b?', '...rest?']);
});

test('parsing happens once per function and counts positional slots', () => {
  function show(id: string, kwargs: object, format?: string) { return [id, kwargs, format]; }
  const first = parametersOf(show);
  assert.equal(parametersOf(show), first);
  assert.equal(first.positional, 2);
  assert.equal(first.rest, false);
  assert.deepEqual([...first.names], ['id', 'kwargs', 'format']);
  assert.equal(parametersOf(show.bind(null)).list.length, 3); // no source: its length, unnamed
});
