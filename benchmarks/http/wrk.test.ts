import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { parseWrkOutput, runWrk, wrkCommand, wrkVersion } from './wrk.ts';

test('the command pins wrk with taskset, keeps whole seconds and loads only through the reporting script', () => {
  const command = wrkCommand('http://127.0.0.1:3000/hello', { connections: 256, threads: 2, duration: 7, cores: [1, 2] });
  assert.deepEqual(command.slice(0, 9), ['taskset', '-c', '1,2', 'wrk', '-t2', '-c256', '-d7s', '--timeout', '10s']);
  assert.equal(command[9], '-s');
  assert.match(command[10]!, /\/benchmarks\/http\/wrk-summary\.lua$/);
  assert.equal(command[11], 'http://127.0.0.1:3000/hello');
});

test("wrk's output is read from the summary line its done() printed, errors of every kind counted as failures", () => {
  const stdout = [
    'Running 7s test @ http://127.0.0.1:3000/hello',
    '  1 threads and 256 connections',
    '  350000 requests in 7.00s, 50.00MB read',
    '{"duration_us":7000000,"requests":350000,"connect":0,"read":1,"write":0,"status":2,"timeout":3,"p50_us":4500,"p99_us":12250}',
    '',
  ].join('\n');
  assert.deepEqual(parseWrkOutput(stdout), { rps: 50_000, requests: 350_000, p50: 4.5, p99: 12.25, failures: 6 });
  assert.throws(() => parseWrkOutput('Running 7s test\nunable to connect\n'), /wrk printed no summary: Running 7s test/);
});

test('a run on 127.0.0.1: keep-alive connections, one request in flight on each, non-2xx answers counted as failures', { skip: wrkVersion() === undefined ? 'wrk is not installed (apt-get install wrk)' : false }, async () => {
  let received = 0;
  let sockets = 0;
  const server = createServer((req, res) => {
    received++;
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain' }).end('ok');
  });
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const load = { connections: 4, threads: 1, duration: 1, cores: [availableParallelism() - 1] };
  try {
    const ok = await runWrk(`http://127.0.0.1:${port}/ok`, load);
    assert.ok(ok.requests > 100, `only ${ok.requests} requests in a second`);
    assert.equal(ok.failures, 0);
    assert.ok(Math.abs(ok.rps - ok.requests) < ok.requests * 0.1, `${ok.rps} requests/s for ${ok.requests} requests in about a second`);
    // Requests the server saw but wrk did not complete were in flight when it stopped: at most one a connection.
    assert.ok(received >= ok.requests && received <= ok.requests + load.connections, `server saw ${received}, wrk completed ${ok.requests}`);
    // Keep-alive: no connection beyond the ones asked for, and the one wrk opens first to check the address.
    assert.equal(sockets, load.connections + 1);
    const missing = await runWrk(`http://127.0.0.1:${port}/missing`, load);
    assert.ok(missing.requests > 0);
    assert.equal(missing.failures, missing.requests);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
