import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roundOrder } from './load.ts';

test('the servers take turns in an order that rotates every round: over as many rounds as servers, each runs once in every place', () => {
  const servers = ['hickory', 'hickory-app', 'fastify', 'node'];
  assert.deepEqual(roundOrder(servers, 0), servers);
  assert.deepEqual(roundOrder(servers, 1), ['hickory-app', 'fastify', 'node', 'hickory']);
  const orders = servers.map((_, round) => roundOrder(servers, round));
  for (let place = 0; place < servers.length; place++) {
    assert.deepEqual(orders.map((order) => order[place]).sort(), [...servers].sort());
  }
  assert.deepEqual(roundOrder(servers, servers.length), servers);
});
