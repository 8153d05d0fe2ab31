// A fixed-window rate limiter as ioredis users write it, against the service's Redis protocol:
// INCR the window's key and EXPIRE it in one multi(), and let the request through if the count is
// within the limit.
//
// Run by RateLimiterClientsSuite:
//     node fixed-window-limiter.js PORT LIMIT PERIOD CONCURRENT REQUESTS_PER_CALLER
// Each request prints one JSON line: {"key": the window's key, "count": its count, "status": 200
// or 429}. A missing ioredis ends the script with status 2.
let Redis;
try {
  Redis = require('ioredis');
} catch (e) {
  console.error('ioredis is not installed: (cd slotted-server/src/test/node && npm ci)');
  process.exit(2);
}

const [port, limit, period, concurrent, requests] = process.argv.slice(2).map(Number);
const redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });

async function allow(user) {
  const key = `limiter:node:${Math.floor(Date.now() / 1000 / period)}:${user}`;
  const [[, count]] = await redis.multi().incr(key).expire(key, period + 1).exec();
  return { key, count, status: count <= limit ? 200 : 429 };
}

async function caller(c) {
  const lines = [];
  for (let i = 0; i < requests; i++) {
    lines.push(await allow(`user${c % 2}`));
  }
  return lines;
}

Promise.all(Array.from({ length: concurrent }, (_, c) => caller(c)))
  .then((all) => {
    all.flat().forEach((line) => console.log(JSON.stringify(line)));
    return redis.quit();
  })
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
