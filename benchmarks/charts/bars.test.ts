import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barChart } from './bars.ts';

test('groups of one name with notes (a route on each Node line) show the name once, each note under its bars', () => {
  const svg = barChart({
    title: 't',
    yLabel: 'y',
    groups: ['hello', 'hello', 'page', 'page'],
    groupNotes: ['Node 20.20.2', 'Node 26.10.0', 'Node 20.20.2', 'Node 26.10.0'],
    series: ['a', 'b'],
    values: [[1, 2], [3, 4], [5, undefined], [7, 8]],
  });
  assert.equal(svg.match(/font-weight="600">hello</g)?.length, 1);
  assert.equal(svg.match(/font-weight="600">page</g)?.length, 1);
  assert.equal(svg.match(/>Node 26\.10\.0</g)?.length, 2);
  assert.match(svg, /<title>b · hello, Node 26\.10\.0: 4<\/title>/);
  assert.equal(svg.match(/>n\/a</g)?.length, 1);
});
