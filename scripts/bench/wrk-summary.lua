-- wrk calls done() once at the end of a run: print its summary as one JSON line for the bench
-- (scripts/bench/wrk.ts) to read. Durations and latencies are in microseconds. No request() or
-- response() function is defined, so wrk keeps its fast path (one prepared request, no Lua per
-- response).
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latencyUs":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max
  ))
end
