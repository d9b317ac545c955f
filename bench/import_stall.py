"""How long a large import holds Redis up for everyone else.

Writes one new game's log of about ``--mb`` MB (table talk, as an import near the size
limit would be) twice: as one append (one script call) and with ``append_large`` (pipelined
XADDs of bounded size, then an O(1) rename). Meanwhile another connection sends PING in a
loop; the longest PING round trip during each write is the stall every other game saw
(and, for scale, during a second of doing nothing).
Keys go under a fresh prefix, deleted afterwards.

    python -m bench.import_stall [--mb 56] [--redis redis://127.0.0.1:6379/0]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import threading
import time
import uuid
from collections.abc import Awaitable, Callable

import redis

from server.store.base import AppendResult, NewEvent
from server.store.redis import RedisStore


async def stalled(write: Callable[[], Awaitable[AppendResult]], url: str) -> tuple[float, float]:
    """(the write's duration, the longest PING round trip meanwhile), in seconds. The PINGs
    come from a thread of their own, so the writer's own work never delays them."""
    pinger = redis.Redis.from_url(url)
    pinger.ping()
    done = threading.Event()
    worst = [0.0]

    def ping() -> None:
        while not done.is_set():
            t0 = time.perf_counter()
            pinger.ping()
            worst[0] = max(worst[0], time.perf_counter() - t0)
            time.sleep(0.001)

    thread = threading.Thread(target=ping)
    thread.start()
    start = time.perf_counter()
    result = await write()
    took = time.perf_counter() - start
    done.set()
    thread.join()
    pinger.close()
    assert result.status == "ok", result
    return took, worst[0]


async def run(mb: int, url: str) -> None:
    text = "á" * 450  # 900 bytes of UTF-8, as the import test pads its log
    n = mb * (1 << 20) // 1000
    events = [
        NewEvent("cloister.Chat", {"seat": 0, "text": text}, uuid.uuid4().hex) for _ in range(n)
    ]
    store = RedisStore(url, f"bench-stall-{uuid.uuid4().hex[:8]}")

    async def idle() -> AppendResult:
        await asyncio.sleep(1.0)
        return AppendResult("ok", 0)

    try:
        base = await stalled(idle, url)
        one = await stalled(lambda: store.append("g-one", 0, "import", events), url)
        chunked = await stalled(lambda: store.append_large("g-big", 0, "import", events), url)
        print(f"{n} events, about {mb} MB")
        print(f"nothing (1 s): longest PING meanwhile {base[1] * 1000:8.1f} ms (this machine)")
        print(f"one append:    {one[0]:6.2f} s, longest PING meanwhile {one[1] * 1000:8.1f} ms")
        print(
            f"append_large:  {chunked[0]:6.2f} s, longest PING meanwhile "
            f"{chunked[1] * 1000:8.1f} ms"
        )
    finally:
        await store.delete_prefix()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=56)
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    args = parser.parse_args()
    asyncio.run(run(args.mb, args.redis))


if __name__ == "__main__":
    main()
