-- wrk script for the front-end benchmark (front-ends.sh). ROUTE picks what every request does:
--   healthz    GET /healthz, the service's route that does nothing but answer
--   handshake  GET /healthz with Connection: close, so every request opens a new connection (and,
--              over https, makes a new TLS handshake)
--   increment  POST /v1/counters/1/{0..99999}/increment, delta 1
--   read       GET /v1/counters/1/{0..99999}
--   batch      POST /v1/increments with 100 increments of 1 (ids spread over 100,000)
-- Counts the 200 answers, so the runner can check the database against them, and prints p50/p99.
local route = os.getenv("ROUTE") or "increment"
local counter = 0

local function batch_body(first)
  local items = {}
  for i = 0, 99 do
    items[#items + 1] = string.format('{"type":1,"id":%d,"delta":1}', (first + i * 1009) % 100000)
  end
  return '{"increments":[' .. table.concat(items, ",") .. ']}'
end

request = function()
  counter = counter + 1
  local id = (counter * 7919) % 100000
  if route == "healthz" then
    return wrk.format("GET", "/healthz")
  elseif route == "handshake" then
    return wrk.format("GET", "/healthz", {["Connection"] = "close"})
  elseif route == "read" then
    return wrk.format("GET", "/v1/counters/1/" .. id)
  elseif route == "batch" then
    return wrk.format("POST", "/v1/increments", {["Content-Type"] = "application/json"}, batch_body(id))
  end
  return wrk.format("POST", "/v1/counters/1/" .. id .. "/increment")
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
  io.write(string.format("route=%s ok=%d failed=%d rps=%.0f p50_ms=%.3f p99_ms=%.3f\n", route,
    total_ok, total_failed, total_ok / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
