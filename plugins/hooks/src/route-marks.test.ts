import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expose, routeMap } from '@hickory/dispatch';
import { Hook } from './hook.ts';
import { hooks } from './controller-hooks.ts';
import { transactional } from './transactional.ts';
import './route-marks.ts';

class AuditHook extends Hook {
  override before() {}
}
class TimingHook extends Hook {
  override after() {}
}

@hooks(new TimingHook())
class Reports {
  @expose() index() { return 'reports'; }
  @transactional() @expose() refresh() { return 'refreshed'; }
}

@hooks(new AuditHook())
class Admin {
  reports = new Reports();
  @expose() index() { return 'admin'; }
}

class Root {
  admin = new Admin();
  @expose() index() { return 'home'; }
}

test('the route map lists the controller hooks on each route\'s way, and @transactional handlers', () => {
  const marks = routeMap(new Root()).map((r) => `${r.path} ${JSON.stringify(r.annotations ?? null)}`);
  assert.deepEqual(marks, [
    '/ null',
    '/index null',
    '/admin/ {"hooks":["AuditHook"]}',
    '/admin/index {"hooks":["AuditHook"]}',
    '/admin/reports/ {"hooks":["AuditHook","TimingHook"]}',
    '/admin/reports/index {"hooks":["AuditHook","TimingHook"]}',
    '/admin/reports/refresh {"hooks":["AuditHook","TimingHook"],"transactional":true}',
  ]);
});
