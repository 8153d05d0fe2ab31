-- wrk script: every request increments one of 100 counters by 1 over a keep-alive connection.
-- Counts the 200 answers so the runner can check them against the database afterwards.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"delta": 1}'

local counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, "/v1/counters/1/" .. (counter % 100) .. "/increment")
end

local threads = {}
setup = function(thread)
  table.insert(threads, thread)
end

response = function(status, headers, body)
  if status == 200 then
    ok = (ok or 0) + 1
  else
    failed = (failed or 0) + 1
  end
end

done = function(summary, latency, requests)
  local total_ok, total_failed = 0, 0
  for _, thread in ipairs(threads) do
    total_ok = total_ok + (thread:get("ok") or 0)
    total_failed = total_failed + (thread:get("failed") or 0)
  end
  io.write(string.format("acknowledged=%d failed=%d\n", total_ok, total_failed))
  io.write(string.format("p50_ms=%.3f p99_ms=%.3f max_ms=%.3f\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
