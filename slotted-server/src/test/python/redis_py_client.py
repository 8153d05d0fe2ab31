"""redis-py against the service's Redis protocol, written as its users write it.

Run by OtherLanguageClientsSuite:
    /usr/bin/python3 redis_py_client.py PORT READ_TOKEN WRITE_TOKEN ADMIN_TOKEN BASE_ID SCENARIO
Each step prints one JSON line, {"step": answer}, or {"step": {"error": "Class: message"}} for a
command the scenario expects the server to refuse. Any other error ends the script with a traceback
and status 1; a missing redis-py, with status 2. A scenario uses the record ids BASE_ID, BASE_ID + 1,
...
"""
import json
import sys
from concurrent.futures import ThreadPoolExecutor

try:
    import redis
except ImportError:
    print("redis-py is not installed for /usr/bin/python3: apt-get install python3-redis", file=sys.stderr)
    sys.exit(2)

PORT, READ_TOKEN, WRITE_TOKEN, ADMIN_TOKEN = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]


def connect(token=None):
    return redis.Redis(port=PORT, password=token, decode_responses=True, socket_timeout=60)


def show(step, answer):
    print(json.dumps({step: answer}), flush=True)


def refused(step, command, *args):
    """Runs a command the server should refuse, showing the error as redis-py raises it."""
    try:
        show(step, command(*args))
    except (redis.ResponseError, redis.AuthenticationError) as e:
        show(step, {"error": f"{type(e).__name__}: {e}"})


def commands(base):
    # redis-py's incr and decr send INCRBY and DECRBY: INCR and DECR themselves go as raw commands.
    r, admin = connect(WRITE_TOKEN), connect(ADMIN_TOKEN)
    key, other, never = f"downloads:{base}", f"downloads:{base + 1}", f"downloads:{base + 2}"
    show("incr", r.execute_command("INCR", key))
    show("incrby", r.incrby(key, 41))
    show("decr", r.execute_command("DECR", key))
    show("decrby", r.decrby(key, 11))
    show("get", r.get(key))
    show("mget", r.mget(key, never, f"1:{base}"))
    show("hincrby", r.hincrby("downloads", base, 5))
    show("hget", r.hget("downloads", base))
    show("hmget", r.hmget("downloads", [base + 2, base]))
    show("incrby_other", r.incr(other, 3))
    show("exists", r.exists(key, other, never))
    show("set", admin.set(other, 1000))
    show("del", admin.delete(key, never))
    show("exists_after", r.exists(key, other, never))
    refused("incrbyfloat", r.incrbyfloat, other, 1.5)


def transaction(base):
    r = connect(WRITE_TOKEN)
    key, views = f"downloads:{base}", f"views:{base + 1}"
    r.incr(key, 100)
    pipe = r.pipeline()
    pipe.get(key).incr(key).hincrby("downloads", base, 10).incr(views, 7)
    pipe.mget(key, views, f"views:{base + 2}").decr(key, 2)
    show("transaction", pipe.execute())


def failed_transaction(base):
    r = connect(WRITE_TOKEN)
    key = f"downloads:{base}"
    pipe = r.pipeline()
    pipe.incr(key).incr(key, "1.5").incr(f"views:{base + 1}", 7)
    refused("transaction", pipe.execute)
    show("get_after", r.get(key))


def pipeline(base):
    r = connect(WRITE_TOKEN)
    pipe = r.pipeline(transaction=False)
    for _ in range(1000):
        pipe.incr(f"views:{base}")
    show("pipeline", pipe.execute())
    show("get_after", r.get(f"views:{base}"))


def concurrent(base):
    # 64 threads, each with its own client, add (c * 7 + i) % 13 + 1 to counter (c + i) % 8.
    # A total includes every increment acknowledged before it: this client's own, at least.
    def client(c):
        r, seen = connect(WRITE_TOKEN), [0] * 8
        for i in range(60):
            k, delta = (c + i) % 8, (c * 7 + i) % 13 + 1
            total = r.incrby(f"views:{base + k}", delta)
            if total < seen[k] + delta:
                raise AssertionError(f"client {c}, step {i}: total {total} < {seen[k]} + {delta}")
            seen[k] = total
        return 60

    with ThreadPoolExecutor(max_workers=64) as threads:
        show("increments", sum(threads.map(client, range(64))))


def errors(base):
    # The counter BASE_ID + 1 is full: the test sets it before running this.
    r = connect(WRITE_TOKEN)
    key, full = f"downloads:{base}", f"downloads:{base + 1}"
    refused("bad_number", r.incrby, key, "abc")
    refused("bad_key", r.incr, "downloads")
    with r.pipeline() as pipe:
        refused("watch", pipe.watch, key)
    refused("overflow", r.incr, full)
    refused("overflowing_amount", r.decrby, key, -9223372036854775808)
    show("get_after", r.get(key))
    show("get_full_after", r.get(full))


def stock(base):
    # Type 3 is kept at 0 or above (serve --limits 3=0..): 32 clients sell a stock of 500, one at a
    # time, until they are refused.
    r = connect(WRITE_TOKEN)
    key = f"3:{base}"
    show("restock", r.incrby(key, 500))

    def seller(c):
        mine, sold = connect(WRITE_TOKEN), 0
        while True:
            try:
                if mine.decr(key) < 0:
                    raise AssertionError("sold below 0")
                sold += 1
            except redis.ResponseError as e:
                if "limit exceeded" not in str(e):
                    raise
                return sold

    with ThreadPoolExecutor(max_workers=32) as threads:
        show("sold", sum(threads.map(seller, range(32))))
    refused("sold_out", r.decrby, key, 2)
    show("left", r.get(key))


def auth(base):
    key = f"downloads:{base}"
    refused("no_token", connect().incr, key)
    reader = connect(READ_TOKEN)
    show("read_token_get", reader.get(key))
    refused("read_token_incr", reader.incr, key)
    refused("write_token_set", connect(WRITE_TOKEN).set, key, 5)


def string_keys(base):
    # Keys as Redis users name them: type names nobody configured, ids that are paths, colons,
    # spaces, Unicode, and the longest id allowed (512 bytes); BASE_ID keeps them new for each run.
    r = connect(WRITE_TOKEN)
    path, post = f"views:/blog/hello-world-{base}", f"likes:post:8f3a-{base}"
    spaced, unicode = f"logins:alice smith {base}", f"cities:Zürich 東京 {base}"
    longest = "views:" + "é" * ((512 - len(str(base)) - 1) // 2) + "-" + str(base)
    longest = longest + "x" * (512 - len(longest[6:].encode()))
    show("incr_path", r.execute_command("INCR", path))
    show("incrby_path", r.incrby(path, 4))
    show("incrby_post", r.incrby(post, 2))
    show("hincrby_post", r.hincrby("likes", f"post:8f3a-{base}", 3))
    show("incr_spaced", r.execute_command("INCR", spaced))
    show("incrby_unicode", r.incrby(unicode, 7))
    show("incrby_longest", r.incrby(longest, 11))
    pipe = r.pipeline(transaction=False)
    for i in range(200):
        pipe.incrby((path, post, spaced, unicode)[i % 4], 1)
    pipe.execute()
    show("get_path", r.get(path))
    show("mget", r.mget(path, post, spaced, unicode, longest, f"views:never seen {base}"))
    show("hget_post", r.hget("likes", f"post:8f3a-{base}"))
    refused("too_long", r.incr, longest + "x")


SCENARIOS = {f.__name__: f for f in
             (commands, transaction, failed_transaction, pipeline, concurrent, errors, stock, auth, string_keys)}

if __name__ == "__main__":
    SCENARIOS[sys.argv[6]](int(sys.argv[5]))
