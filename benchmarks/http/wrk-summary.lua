-- wrk calls done() once, after the run: one JSON line with what benchmarks/http/wrk.ts keeps.
-- No request() or response() here: with those wrk would run Lua for every request, and slow down.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"duration_us":%d,"requests":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.duration, summary.requests, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
