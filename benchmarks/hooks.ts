// What one application hook costs a request, in process (mitata): the work the kernel does per
// request with the hooks plugin's taps — a Request and a Response, beforeRoute (on_route), the
// route tap (dispatch, recording the walk for controller hooks), beforeHandle (before), the handler
// with its JSON rendering, beforeSend (after) — for an app with no hook and one with a hook of four
// empty methods. The difference is the hook's cost. No socket, no AsyncLocalStorage: only the code
// the hooks add is in the comparison.
//   node --conditions=source --import tsx benchmarks/hooks.ts
import type { IncomingMessage } from 'node:http';
import { measure } from 'mitata';
import { createKernel, Request, Response, type Kernel, type Lookup } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { Hook, hooksPlugin } from '@hickory/hooks';

class Root {
  @expose('json') hello() {
    return { hello: 'world' };
  }
}

class EmptyHook extends Hook {
  override on_route() {}
  override before() {}
  override after() {}
  override on_error() {
    return undefined;
  }
}

type Direct = (...args: unknown[]) => unknown;

// The taps of a hook as the kernel calls them (its bail runner calls `direct` taps directly).
function tapsOf(hook: { taps: unknown }): Direct[] {
  return (hook.taps as Array<{ direct?: Direct; fn: Direct }>).map((tap) => tap.direct ?? tap.fn);
}

async function perRequest(hooks: Hook[]): Promise<() => void> {
  const app: Kernel = createKernel({ root: new Root(), logger: false, hooks }).use(hooksPlugin);
  await app.ready();
  const beforeRoute = tapsOf(app.hooks.beforeRoute);
  const [route] = tapsOf(app.hooks.route);
  const beforeHandle = tapsOf(app.hooks.beforeHandle);
  const beforeSend = tapsOf(app.hooks.beforeSend);
  const raw = { method: 'GET', url: '/hello', headers: {} } as IncomingMessage;
  const settings = (app as unknown as { requestSettings: ConstructorParameters<typeof Request>[1] }).requestSettings;
  return () => {
    const request = new Request(raw, settings);
    const response = new Response();
    for (const tap of beforeRoute) tap(request, response);
    const lookup = route!(request, response) as Lookup;
    request.lookup = lookup;
    for (const tap of beforeHandle) tap(lookup, request, response);
    lookup.handle(request, response);
    for (const tap of beforeSend) tap(request, response);
    if (response.body === null) throw new Error('no body');
  };
}

const plain = await perRequest([]);
const hooked = await perRequest([new EmptyHook()]);
const rounds: Array<[number, number]> = [];
for (let round = 0; round < 5; round++) {
  const a = (await measure(plain, { min_cpu_time: 500e6 })).avg;
  const b = (await measure(hooked, { min_cpu_time: 500e6 })).avg;
  rounds.push([a, b]);
  console.log(`round ${round + 1}: no hook ${a.toFixed(0)} ns, one empty hook ${b.toFixed(0)} ns, difference ${(b - a).toFixed(0)} ns`);
}
const diffs = rounds.map(([a, b]) => b - a).sort((x, y) => x - y);
console.log(`median difference: ${diffs[2]!.toFixed(0)} ns per request (Node ${process.version})`);
