// ioredis against the service's Redis protocol, written as its users write it.
//
// Run by OtherLanguageClientsSuite:
//   node ioredis-client.js PORT READ_TOKEN WRITE_TOKEN ADMIN_TOKEN BASE_ID SCENARIO
// Each step prints one JSON line, {"step": answer}, or {"step": {"error": "Class: message"}} for a
// command the scenario expects the server to refuse. Any other error ends the script with a stack
// trace and status 1; a missing ioredis, with status 2. A scenario uses the record ids BASE_ID,
// BASE_ID + 1, ...
'use strict';

let Redis;
try {
  Redis = require('ioredis');
} catch (e) {
  console.error('ioredis is not installed: (cd slotted-server/src/test/node && npm ci)');
  process.exit(2);
}

const [port, readToken, writeToken, adminToken, baseId, scenario] = process.argv.slice(2);
const base = Number(baseId);
const clients = [];

function connect(password) {
  const redis = new Redis({ port: Number(port), password });
  clients.push(redis);
  return redis;
}

function show(step, answer) {
  console.log(JSON.stringify({ [step]: answer }));
}

/** Runs a command the server should refuse, showing the error as ioredis rejects with it. */
async function refused(step, command) {
  try {
    show(step, await command());
  } catch (e) {
    if (!(e instanceof Redis.ReplyError)) throw e;
    const shown = { error: `${e.name}: ${e.message}` };
    if (e.previousErrors) shown.previousErrors = e.previousErrors.map((p) => `${p.name}: ${p.message}`);
    show(step, shown);
  }
}

/** The answers of a pipeline's or a transaction's exec(), failing on the first error among them. */
function answers(results) {
  return results.map(([err, answer]) => {
    if (err) throw err;
    return answer;
  });
}

const scenarios = {
  async commands() {
    const redis = connect(writeToken);
    const admin = connect(adminToken);
    const [key, other, never] = [`downloads:${base}`, `downloads:${base + 1}`, `downloads:${base + 2}`];
    show('incr', await redis.incr(key));
    show('incrby', await redis.incrby(key, 41));
    show('decr', await redis.decr(key));
    show('decrby', await redis.decrby(key, 11));
    show('get', await redis.get(key));
    show('mget', await redis.mget(key, never, `1:${base}`));
    show('hincrby', await redis.hincrby('downloads', base, 5));
    show('hget', await redis.hget('downloads', base));
    show('hmget', await redis.hmget('downloads', base + 2, base));
    show('incrby_other', await redis.incrby(other, 3));
    show('exists', await redis.exists(key, other, never));
    show('set', await admin.set(other, 1000));
    show('del', await admin.del(key, never));
    show('exists_after', await redis.exists(key, other, never));
    await refused('incrbyfloat', () => redis.incrbyfloat(other, 1.5));
  },

  async transaction() {
    const redis = connect(writeToken);
    const [key, views] = [`downloads:${base}`, `views:${base + 1}`];
    await redis.incrby(key, 100);
    const results = await redis.multi()
      .get(key).incr(key).hincrby('downloads', base, 10).incrby(views, 7)
      .mget(key, views, `views:${base + 2}`).decrby(key, 2)
      .exec();
    show('transaction', answers(results));
  },

  async failed_transaction() {
    const redis = connect(writeToken);
    const key = `downloads:${base}`;
    await refused('transaction', () => redis.multi()
      .incr(key).incrby(key, '1.5').incrby(`views:${base + 1}`, 7)
      .exec());
    show('get_after', await redis.get(key));
  },

  async pipeline() {
    const redis = connect(writeToken);
    const pipeline = redis.pipeline();
    for (let i = 0; i < 1000; i++) pipeline.incr(`views:${base}`);
    show('pipeline', answers(await pipeline.exec()));
    show('get_after', await redis.get(`views:${base}`));
  },

  async concurrent() {
    // 64 clients add (c * 7 + i) % 13 + 1 to counter (c + i) % 8, each waiting for its answers.
    // A total includes every increment acknowledged before it: this client's own, at least.
    const counting = Array.from({ length: 64 }, async (_, c) => {
      const redis = connect(writeToken);
      const seen = new Array(8).fill(0);
      for (let i = 0; i < 60; i++) {
        const [k, delta] = [(c + i) % 8, ((c * 7 + i) % 13) + 1];
        const total = await redis.incrby(`views:${base + k}`, delta);
        if (total < seen[k] + delta) {
          throw new Error(`client ${c}, step ${i}: total ${total} < ${seen[k]} + ${delta}`);
        }
        seen[k] = total;
      }
      return 60;
    });
    show('increments', (await Promise.all(counting)).reduce((a, b) => a + b));
  },

  async errors() {
    // The counter BASE_ID + 1 is full: the test sets it before running this.
    const redis = connect(writeToken);
    const [key, full] = [`downloads:${base}`, `downloads:${base + 1}`];
    await refused('bad_number', () => redis.incrby(key, 'abc'));
    await refused('bad_key', () => redis.incr('downloads'));
    await refused('watch', () => redis.watch(key));
    await refused('overflow', () => redis.incr(full));
    await refused('overflowing_amount', () => redis.decrby(key, '-9223372036854775808'));
    show('get_after', await redis.get(key));
    show('get_full_after', await redis.get(full));
  },

  async string_keys() {
    // Keys as Redis users name them: type names nobody configured, ids that are paths, colons,
    // spaces, Unicode, and the longest id allowed (512 bytes); BASE_ID keeps them new for each run.
    const redis = connect(writeToken);
    const [path, post] = [`views:/blog/hello-world-${base}`, `likes:post:8f3a-${base}`];
    const [spaced, unicode] = [`logins:alice smith ${base}`, `cities:Zürich 東京 ${base}`];
    let longest = 'views:' + 'é'.repeat(Math.floor((512 - String(base).length - 1) / 2)) + '-' + base;
    longest += 'x'.repeat(512 - Buffer.byteLength(longest.slice(6)));
    show('incr_path', await redis.incr(path));
    show('incrby_path', await redis.incrby(path, 4));
    show('incrby_post', await redis.incrby(post, 2));
    show('hincrby_post', await redis.hincrby('likes', `post:8f3a-${base}`, 3));
    show('incr_spaced', await redis.incr(spaced));
    show('incrby_unicode', await redis.incrby(unicode, 7));
    show('incrby_longest', await redis.incrby(longest, 11));
    const pipe = redis.pipeline();
    for (let i = 0; i < 200; i++) pipe.incrby([path, post, spaced, unicode][i % 4], 1);
    answers(await pipe.exec());
    show('get_path', await redis.get(path));
    show('mget', await redis.mget(path, post, spaced, unicode, longest, `views:never seen ${base}`));
    show('hget_post', await redis.hget('likes', `post:8f3a-${base}`));
    await refused('too_long', () => redis.incr(longest + 'x'));
  },

  async stock() {
    // Type 3 is kept at 0 or above (serve --limits 3=0..): 32 clients sell a stock of 500, one at a
    // time, until they are refused.
    const redis = connect(writeToken);
    const key = `3:${base}`;
    show('restock', await redis.incrby(key, 500));
    const selling = Array.from({ length: 32 }, async () => {
      const mine = connect(writeToken);
      let sold = 0;
      for (;;) {
        try {
          if ((await mine.decr(key)) < 0) throw new Error('sold below 0');
          sold++;
        } catch (e) {
          if (!(e instanceof Redis.ReplyError) || !e.message.includes('limit exceeded')) throw e;
          return sold;
        }
      }
    });
    show('sold', (await Promise.all(selling)).reduce((a, b) => a + b));
    await refused('sold_out', () => redis.decrby(key, 2));
    show('left', await redis.get(key));
  },

  async auth() {
    const key = `downloads:${base}`;
    // Without a token, ioredis's ready check (INFO) meets NOAUTH first: ioredis logs it on stderr as
    // an unhandled error event, as it does with a Redis that has requirepass.
    await refused('no_token', () => connect().incr(key));
    const reader = connect(readToken);
    show('read_token_get', await reader.get(key));
    await refused('read_token_incr', () => reader.incr(key));
    await refused('write_token_set', () => connect(writeToken).set(key, 5));
  },
};

scenarios[scenario]()
  .then(() => clients.forEach((redis) => redis.disconnect()))
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
