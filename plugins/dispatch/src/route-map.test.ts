import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request, Response } from '@hickory/core';
import { expose, routeMap } from './index.ts';

class Item {
  @expose() index(_request: Request, _response: Response) { return 'item'; }
}

class Root {
  @expose() show(_request: Request, _response: Response, id: string, format = 'html') { return `${id} ${format}`; }
  @expose() all(...parts: unknown[]) { return parts.length; }
  _lookup(id: string, ...remainder: string[]) { return [new Item(), remainder, id]; }
  _default(_request: Request, _response: Response, ...rest: string[]) { return rest.join('/'); }
}

test('routeMap lists the parameters the request fills: with use_context_locals: false, a handler\'s after the two', () => {
  const paramsOf = (routes: ReturnType<typeof routeMap>) => Object.fromEntries(routes.map((r) => [r.handler, r.params]));
  // _lookup picks a controller and receives segments only: the same in both modes.
  assert.deepEqual(paramsOf(routeMap(new Root(), { use_context_locals: false })), {
    'Root.show': ['id', 'format'],
    'Root.all': ['...parts'],
    'Root._lookup': ['id', '...remainder'],
    'Root._default': ['...rest'],
  });
  assert.deepEqual(paramsOf(routeMap(new Root())), {
    'Root.show': ['_request', '_response', 'id', 'format'],
    'Root.all': ['...parts'],
    'Root._lookup': ['id', '...remainder'],
    'Root._default': ['_request', '_response', '...rest'],
  });
});
