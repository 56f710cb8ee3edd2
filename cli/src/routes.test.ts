import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatRoutes } from './routes.ts';

test('formatRoutes aligns the columns and prints secured and the plugins\' marks last', () => {
  const text = formatRoutes([
    { path: '/', methods: ['ANY'], handler: 'Root.index', renders: ['text/html'], params: [] },
    {
      path: '/admin/reports/refresh',
      methods: ['ANY'],
      handler: 'Reports.refresh',
      renders: ['text/html'],
      params: [],
      secured: true,
      annotations: { hooks: ['AuditHook', 'TimingHook'], transactional: true },
    },
  ]);
  assert.equal(
    text,
    'ANY  /                       Root.index       text/html  ()\n' +
      'ANY  /admin/reports/refresh  Reports.refresh  text/html  ()  secured  hooks: AuditHook,TimingHook  transactional\n',
  );
});
