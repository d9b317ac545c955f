"""Issue 14, item 4: lost writes are noticed. Two server processes on one Redis; the last
entries of a game's stream are removed under them (what a failover to a replica that
lagged does). The process that held them notices on its next read or append, logs, counts
it in /metrics, reloads, and never appends on top of a history Redis does not have: both
processes then serve the same, gapless history."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from server.store.redis import RedisStore
from tests.support import Node, Player, http, new_game

pytestmark = pytest.mark.redis

Nodes = list[Node]


async def lose_last(store: RedisStore, gid: str, n: int, how: str) -> None:
    """Remove the game's last ``n`` stream entries. ``rewrite``: the stream without them, ids
    kept, as a replica that had not yet received them holds it after a failover; ``xdel``:
    deleted in place (the stream then still remembers its old last id)."""
    key = f"{store.prefix}:{{{gid}}}:events"
    entries = await store.redis.xrange(key)
    if how == "xdel":
        await store.redis.xdel(key, *[entry_id for entry_id, _ in entries[-n:]])
        return
    async with store.redis.pipeline(transaction=True) as pipe:
        pipe.delete(key)
        for entry_id, fields in entries[:-n]:
            pipe.xadd(key, fields, id=entry_id)
        await pipe.execute()


async def metric(base: str, name: str) -> int:
    async with http(base) as c:
        text = (await c.get("/metrics")).text
    [line] = [x for x in text.splitlines() if x.startswith(name + " ")]
    return int(line.split()[1])


async def events(base: str, gid: str) -> list[dict[str, Any]]:
    async with http(base) as c:
        out: list[dict[str, Any]] = (await c.get(f"/api/games/{gid}/events")).json()["events"]
        return out


@pytest.mark.parametrize("how", ["rewrite", "xdel"])
async def test_lost_writes_are_noticed_on_append_and_on_read(
    nodes: Nodes, redis_store: RedisStore, how: str
) -> None:
    (_, base_a), (_, base_b) = nodes
    async with http(base_a) as c:
        gid, tokens = await new_game(c, "high-card", {"players": 2})
    p0 = Player(base_a, gid, tokens[0])
    watcher = Player(base_b, gid)  # B holds the game too
    await p0.connect()
    await watcher.connect()
    reply = await p0.command({"type": "Draw"})
    assert reply["type"] == "accepted"
    held = reply["version"]
    await watcher.wait_version(held)
    assert await metric(base_a, "cloister_divergences_total") == 0

    before = await redis_store.head(gid)
    await lose_last(redis_store, gid, 2, how)
    assert (before, await redis_store.head(gid)) == (held, held - 2)

    # A holds events Redis lost: its next append notices, reloads, and decides again on
    # the history Redis has (seat 0 is to act there again: its Pass is applied on it). The
    # diverged game's connections are dropped: the reply may not reach p0.
    with contextlib.suppress(Exception):
        reply = await p0.command({"type": "Pass"}, cid="after-loss")
        assert reply["type"] in ("accepted", "rejected"), reply
    assert await metric(base_a, "cloister_divergences_total") == 1
    p0b = Player(base_a, gid, tokens[0])
    welcome = await p0b.connect()
    head = await redis_store.head(gid)
    assert welcome["version"] == head  # the history Redis has
    again = await p0b.command({"type": "Pass"}, cid="after-loss")  # resend: once
    assert again["type"] == "accepted", again
    head = await redis_store.head(gid)
    stored = await redis_store.read(gid)
    kinds = [e.type for e in stored]
    assert kinds.count("Passed") == 1 and "CardDrawn" not in kinds[held - 2 :]

    # B held the lost events too: its next read (the doorbell's catch-up, or a request)
    # notices, and it serves exactly what A serves
    log_a = await events(base_a, gid)
    for _ in range(50):
        log_b = await events(base_b, gid)
        if await metric(base_b, "cloister_divergences_total") >= 1 and log_b == log_a:
            break
        await asyncio.sleep(0.1)
    assert await metric(base_b, "cloister_divergences_total") >= 1
    assert log_b == log_a
    assert [e["version"] for e in log_a] == list(range(1, len(log_a) + 1))
    assert [e["type"] for e in log_a] == kinds
    for p in (p0, p0b, watcher):
        with contextlib.suppress(Exception):
            await p.close()


async def test_the_script_refuses_an_append_on_another_history(redis_store: RedisStore) -> None:
    from tests.store_contract import ev

    first, second = ev(1), ev(1)
    await redis_store.append("g1", 0, "c1", [first])
    # a caller holding another event at version 1 must not append on top of this one
    r = await redis_store.append("g1", 1, "c2", [ev(2)], head_uuid=second.uuid)
    assert (r.status, r.version) == ("diverged", 1)
    assert await redis_store.head("g1") == 1
    r = await redis_store.append("g1", 1, "c2", [ev(2)], head_uuid=first.uuid)
    assert r.status == "ok"
