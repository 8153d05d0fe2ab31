"""A fixed-window rate limiter as redis-py users write it, against the service's Redis protocol:
INCR the window's key and EXPIRE it in one pipeline (redis-py's default, a MULTI), and let the
request through if the count is within the limit.

Run by RateLimiterClientsSuite:
    /usr/bin/python3 fixed_window_limiter.py PORT LIMIT PERIOD THREADS REQUESTS_PER_THREAD
Each request prints one JSON line: {"key": the window's key, "count": its count, "status": 200 or
429}. A missing redis-py ends the script with status 2.
"""
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor

try:
    import redis
except ImportError:
    print("redis-py is not installed for /usr/bin/python3: apt-get install python3-redis", file=sys.stderr)
    sys.exit(2)

PORT, LIMIT, PERIOD, THREADS, REQUESTS = (int(arg) for arg in sys.argv[1:6])
client = redis.Redis(port=PORT, decode_responses=True, socket_timeout=30)


def allow(user):
    key = f"limiter:py:{int(time.time()) // PERIOD}:{user}"
    with client.pipeline() as pipe:
        count, _ = pipe.incr(key).expire(key, PERIOD + 1).execute()
    return {"key": key, "count": count, "status": 200 if count <= LIMIT else 429}


def worker(t):
    return [allow(f"user{t % 2}") for _ in range(REQUESTS)]


with ThreadPoolExecutor(THREADS) as pool:
    for lines in pool.map(worker, range(THREADS)):
        for line in lines:
            print(json.dumps(line))
