import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from './index.ts';
import { handle } from './fixtures/harness.ts';
import { jsonify } from './jsonify.ts';

class Money {
  constructor(
    readonly cents: number,
    readonly currency: string,
  ) {}
  toJSON() {
    return 'toJSON is not asked when an encoder is registered';
  }
}
class Euro extends Money {}

test('built in: BigInt → string, Map → object, Set → array, Date → ISO string', () => {
  const when = new Date(Date.UTC(2026, 10, 24, 12, 0, 0));
  assert.equal(
    jsonify.encode({ big: 12345678901234567890n, map: new Map<string, unknown>([['a', 1], ['b', new Set([1, 2])]]), set: new Set(['x']), when }),
    '{"big":"12345678901234567890","map":{"a":1,"b":[1,2]},"set":["x"],"when":"2026-11-24T12:00:00.000Z"}',
  );
  assert.equal(jsonify.encode(undefined), 'null');
  assert.equal(jsonify.encode(5n), '"5"');
});

test('registered encoders win over toJSON, reach subclasses, and can be removed', () => {
  jsonify.register(Money, (m) => ({ amount: m.cents / 100, currency: m.currency }));
  try {
    assert.equal(jsonify.encode({ total: new Money(1250, 'EUR'), list: [new Euro(5, 'EUR')] }), '{"total":{"amount":12.5,"currency":"EUR"},"list":[{"amount":0.05,"currency":"EUR"}]}');
    jsonify.register(Euro, (e) => `€${e.cents / 100}`);
    assert.equal(jsonify.encode([new Euro(5, 'EUR'), new Money(1, 'USD')]), '["€0.05",{"amount":0.01,"currency":"USD"}]');
  } finally {
    jsonify.register(Money, undefined);
    jsonify.register(Euro, undefined);
  }
  assert.equal(jsonify.encode(new Money(1, 'USD')), '"toJSON is not asked when an encoder is registered"');
  assert.throws(() => jsonify.register('Money' as never, () => 1), TypeError);
});

test('response.json uses it; a cycle is a logged 500, never a crash', async () => {
  const errors: string[] = [];
  const app = createKernel({ logger: { info() {}, warn() {}, error: (m: string) => errors.push(m) } }).use(
    handle((req, res) => {
      if (req.path === '/cycle') {
        const a: Record<string, unknown> = {};
        a['self'] = a;
        res.json = a;
        return undefined;
      }
      res.json = { ids: new Set([1, 2]), n: 3n };
      return undefined;
    }),
  );
  try {
    const ok = await app.inject('/');
    assert.equal(ok.body, '{"ids":[1,2],"n":"3"}');
    assert.equal(ok.headers['content-type'], 'application/json; charset=utf-8');
    const cycle = await app.inject('/cycle');
    assert.equal(cycle.statusCode, 500);
    assert.equal(errors.length, 1);
  } finally {
    await app.close();
  }
});
