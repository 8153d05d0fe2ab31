# Rack::Attack throttling requests against the service's Redis protocol, unchanged: its cache
# store is a redis-rb client, so each request pipelines INCRBY then EXPIRE on a key that holds the
# window's number, rack::attack:{now / period}:{name}:{ip}.
#
# Run by RateLimiterClientsSuite:
#     ruby rack_attack_throttle.rb PORT LIMIT PERIOD THREADS REQUESTS_PER_THREAD
# Each request prints one JSON line: {"key": the counter's key, "count": the count Rack::Attack
# got, "status": 200 or 429}. A missing gem ends the script with status 2.
require 'json'
begin
  require 'rack'
  require 'rack/mock'
  require 'rack/attack'
  require 'redis'
rescue LoadError => e
  warn "#{e.message}: apt-get install ruby ruby-rack-attack ruby-redis"
  exit 2
end

port, limit, period, threads, requests = ARGV.map(&:to_i)
Rack::Attack.cache.store = Redis.new(host: '127.0.0.1', port: port, timeout: 30)
Rack::Attack.throttle('login', limit: limit, period: period) { |request| request.ip }
app = Rack::Attack.new(->(_env) { [200, { 'Content-Type' => 'text/plain' }, ['ok']] })

lines = Queue.new
workers = Array.new(threads) do |t|
  Thread.new do
    requests.times do
      ip = "10.0.0.#{t % 2}"
      env = Rack::MockRequest.env_for('/login', 'REMOTE_ADDR' => ip)
      status, = app.call(env)
      data = env['rack.attack.throttle_data']['login']
      lines << { ip: ip, count: data[:count], status: status }.to_json
    end
  end
end
workers.each(&:join)
puts lines.pop until lines.empty?
