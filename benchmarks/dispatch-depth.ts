// Object dispatch against a radix router as paths get deeper, and inject() against fastify.
// Run: node --conditions=source --import tsx benchmarks/dispatch-depth.ts
import Fastify from 'fastify';
import FindMyWay from 'find-my-way';
import { measure } from 'mitata';
import { createKernel, type Request } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { resolvePath } from '@hickory/dispatch/kit';

const DEPTHS = [1, 2, 4, 8, 16, 32, 64];

// A chain of controllers: /s1/s2/…/leaf has `depth` segments; the last one is an exposed method.
function chain(depth: number): { root: object; path: string } {
  const leaf = expose()(function leaf() {
    return 'leaf';
  });
  let controller: object = { leaf };
  const names = ['leaf'];
  for (let i = depth - 1; i >= 1; i--) {
    controller = { [`s${i}`]: controller };
    names.unshift(`s${i}`);
  }
  return { root: controller, path: `/${names.join('/')}` };
}

const fakeRequest = {} as Request;
const rows: Array<{ depth: number; hickory: number; fmw: number }> = [];
for (const depth of DEPTHS) {
  const { root, path } = chain(depth);
  const found = await resolvePath(root, path, fakeRequest);
  if (!found) throw new Error(`depth ${depth}: ${path} did not resolve`);
  const router = FindMyWay();
  router.on('GET', path, () => 'leaf');
  if (!router.find('GET', path)) throw new Error(`find-my-way: ${path} not found`);
  const hickory = await measure(() => resolvePath(root, path, fakeRequest), { min_cpu_time: 300e6 });
  const fmw = await measure(() => router.find('GET', path), { min_cpu_time: 300e6 });
  rows.push({ depth, hickory: hickory.avg, fmw: fmw.avg });
}

function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return num / den;
}

console.log('\nresolve a static path (ns per lookup)');
console.log('depth | hickory resolvePath | find-my-way find | ratio');
for (const r of rows) console.log(`${String(r.depth).padStart(5)} | ${r.hickory.toFixed(0).padStart(12)} | ${r.fmw.toFixed(0).padStart(16)} | ${(r.hickory / r.fmw).toFixed(2)}`);
console.log(`slope (ns per extra segment, linear fit): hickory ${slope(rows.map((r) => [r.depth, r.hickory])).toFixed(1)}, find-my-way ${slope(rows.map((r) => [r.depth, r.fmw])).toFixed(1)}`);

// inject() of a depth-8 route, both through light-my-request.
const { root, path } = chain(8);
const app = createKernel({ root, logger: false }).use(dispatchPlugin);
await app.ready();
const fastify = Fastify({ logger: false });
fastify.get(path, async (_request, reply) => reply.type('text/html; charset=utf-8').send('leaf'));
await fastify.ready();
const [h, f] = [await app.inject(path), await fastify.inject(path)];
if (h.body !== 'leaf' || f.body !== 'leaf') throw new Error('the depth-8 route does not answer');
// Batches of injects, each batch ending with a turn of the event loop: light-my-request queues a
// setImmediate per request, and a loop that never yields lets them (and every request they hold)
// pile up, so that the run would measure the garbage collector rather than either framework.
const BATCH = 64;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const batchOf = (inject: () => Promise<unknown>) => async () => {
  for (let i = 0; i < BATCH; i++) await inject();
  await yieldToLoop();
};
const hickoryBatch = batchOf(() => app.inject(path));
const fastifyBatch = batchOf(() => fastify.inject(path));
// Interleaved rounds; the median per framework.
const hickoryTimes: number[] = [];
const fastifyTimes: number[] = [];
for (let round = 0; round < 3; round++) {
  hickoryTimes.push((await measure(hickoryBatch, { min_cpu_time: 400e6 })).avg / BATCH);
  fastifyTimes.push((await measure(fastifyBatch, { min_cpu_time: 400e6 })).avg / BATCH);
}
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const hickoryInject = { avg: middle(hickoryTimes) };
const fastifyInject = { avg: middle(fastifyTimes) };
const perSecond = (ns: number) => 1e9 / ns;
console.log('\ninject() of a depth-8 route (median of 3 interleaved rounds)');
console.log(`hickory  ${hickoryInject.avg.toFixed(0)} ns  ${perSecond(hickoryInject.avg).toFixed(0)} req/s`);
console.log(`fastify  ${fastifyInject.avg.toFixed(0)} ns  ${perSecond(fastifyInject.avg).toFixed(0)} req/s`);
console.log(`ratio (hickory / fastify throughput): ${(fastifyInject.avg / hickoryInject.avg).toFixed(2)}×`);
await app.close();
await fastify.close();
