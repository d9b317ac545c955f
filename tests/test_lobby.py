"""The lobby listing is a projection kept by every append, never a load (``server.lobby``)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest

from domain import default_registry
from server.bots import BotRunner
from server.games import GameRecord, GameService, SeatClaim
from server.lobby import MemoryLobby, RedisLobby, item
from server.store.memory import MemoryStore
from server.store.redis import RedisStore
from tests.support import http, start_server_process


async def finished(service: GameService, n: int, type_: str = "high-card") -> list[GameRecord]:
    """``n`` games played to the end by bots in ``service`` (it needs a BotRunner)."""
    recs = []
    for _ in range(n):
        rec, _ = await service.create_table(
            type_, None, None, [SeatClaim(None, None, "random"), SeatClaim(None, None, "random")]
        )
        recs.append(rec)
    deadline = time.monotonic() + 60
    while not all(r.terminal for r in recs):
        assert time.monotonic() < deadline, "the bots did not finish"
        await asyncio.sleep(0.01)
    return recs


def cached(base: str) -> int:
    text = httpx.get(base + "/metrics").text
    line = next(x for x in text.splitlines() if x.startswith("cloister_games_cached "))
    return int(line.split()[1])


def wait_for(check: Any, what: str, timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture(params=["redis", "cluster"])
def store(request: pytest.FixtureRequest) -> RedisStore:
    """The session's Redis, and a local 3-master Redis Cluster (skipped without Redis 7)."""
    name = "redis_store" if request.param == "redis" else "cluster_store"
    found: RedisStore = request.getfixturevalue(name)
    return found


# -- in-process --------------------------------------------------------------------------------
async def test_every_own_append_updates_the_projection_newest_version_wins() -> None:
    store = MemoryStore()
    service = GameService(store, default_registry())
    lobby = MemoryLobby(store)
    service.listeners.append(lobby.on_entries)
    BotRunner(service)
    rec, _ = await service.create_table("high-card", None)
    await lobby.flush()
    [open_] = await lobby.listing(None, 10)
    assert b'"status":"open"' in open_ and b'"version":1' in open_
    await service.take_seat(rec, None, "ann")
    await service.take_seat(rec, None, None, "random")
    await lobby.flush()
    assert await lobby.listing("open", 10) == []
    [running] = await lobby.listing("running", 10)
    assert f'"version":{rec.version}'.encode() in running
    stale = (rec.id, 1, rec.created, "open", b"{}")
    await lobby._put([stale])  # an older write arriving late changes nothing
    assert await lobby.listing("running", 10) == [running]
    # a catch-up of another process's append (no command id) is that process's to write
    lobby.on_entries(rec, rec.log[-1:], None)
    assert not lobby._dirty


@pytest.mark.redis
async def test_redis_projection_lists_by_status_and_keeps_the_newest(store: RedisStore) -> None:
    redis_store = store
    service = GameService(redis_store, default_registry())
    BotRunner(service)
    lobby = RedisLobby(redis_store.redis, redis_store.prefix)
    service.listeners.append(lobby.on_entries)
    done = await finished(service, 3)
    waiting, _ = await service.create_table("high-card", None)
    await lobby.flush()
    listed = [orjson.loads(b) for b in await lobby.listing(None, 10)]
    assert {g["id"] for g in listed} == {r.id for r in [waiting, *done]}
    created = [g["created"] for g in listed]
    assert created == sorted(created, reverse=True)  # newest first (ms ties: any order)
    assert listed == [orjson.loads(item(service.games[g["id"]])[4]) for g in listed]
    assert len(await lobby.listing("finished", 10)) == 3
    assert len(await lobby.listing("open", 10)) == 1
    assert len(await lobby.listing(None, 2)) == 2
    first = done[0]
    await lobby._put([(first.id, 2, first.created, "running", b"{}")])
    assert len(await lobby.listing("finished", 10)) == 3  # not moved back
    assert await lobby.versions([first.id, "g-none"]) == [first.version, None]
    assert await lobby.heads([first.id, "g-none"]) == [first.version, 0]
    # every key but the global ones carries the {lobby} hash tag (one Cluster slot)
    keys = [k.decode() async for k in redis_store.redis.scan_iter(f"{redis_store.prefix}:*")]
    assert {k for k in keys if "{" not in k} == {f"{redis_store.prefix}:games"}
    assert any("{lobby}" in k for k in keys)


@pytest.mark.redis
async def test_the_scan_adds_missing_and_stale_games_without_caching_them(
    store: RedisStore,
) -> None:
    redis_store = store
    service = GameService(redis_store, default_registry())  # no lobby: "before the change"
    BotRunner(service)
    done = await finished(service, 4)
    waiting, _ = await service.create_table("high-card", None)
    lobby = RedisLobby(redis_store.redis, redis_store.prefix)
    behind = done[1]  # as if its process died between an append and its lobby write
    await lobby._put([(behind.id, 3, behind.created, "running", b"{}")])
    reader = GameService(redis_store, default_registry())
    assert await lobby.backfill(reader) == 5
    assert reader.games == {}  # nothing loaded into the serving cache
    listed = await lobby.listing(None, 10)
    assert sorted(listed) == sorted(item(r)[4] for r in [*done, waiting])
    assert await lobby.backfill(reader) == 0  # nothing left to do
    await redis_store.redis.set(lobby._scan, "1")  # another process is scanning
    await lobby._put([(behind.id, 4, behind.created, "running", b"{}")])
    assert await lobby.backfill(reader) == 0


# -- two server processes on one Redis --------------------------------------------------------
@pytest.fixture
def two(key_prefix: str, store: RedisStore) -> Iterator[list[str]]:
    """Two server processes on the session's Redis, or on a local Redis Cluster."""
    env = {**os.environ, "REDIS_URL": store.url, "CLOISTER_PREFIX": key_prefix}
    env["CLOISTER_BOT_DELAY"] = "0"
    procs = [start_server_process(env) for _ in range(2)]
    try:
        yield [base for _, base in procs]
    finally:
        for proc, _ in procs:
            proc.terminate()
        for proc, _ in procs:
            proc.wait(10)


@pytest.mark.redis
async def test_two_processes_list_each_others_games_and_load_none(two: list[str]) -> None:
    a, b = two
    async with http(a) as ca, http(b) as cb:
        bots = {"type": "high-card", "bots": [{}, {}]}
        played = [(await ca.post("/api/games", json=bots)).json()["id"] for _ in range(3)]
        waiting = (await ca.post("/api/games", json={"type": "high-card"})).json()["id"]

        def listed_on_b() -> Any:
            games = httpx.get(b + "/api/games?status=finished").json()["games"]
            return games if {g["id"] for g in games} == set(played) else None

        finished_games = await asyncio.to_thread(wait_for, listed_on_b, "finished on b")
        for g in finished_games:  # the summary is the game's own, at its last version
            assert g == (await ca.get(f"/api/games/{g['id']}")).json()
        assert cached(b) == 0  # b listed them all and loaded none
        # an append on b shows in a's listing
        r = await cb.post(f"/api/games/{waiting}/seats", json={"name": "ann"})
        assert r.status_code == 201

        def seated_on_a() -> bool:
            [g] = httpx.get(a + "/api/games?status=open").json()["games"]
            return bool(g["id"] == waiting and g["seats"][0]["name"] == "ann")

        await asyncio.to_thread(wait_for, seated_on_a, "b's append listed on a")
        r = await ca.get("/api/games", params={"limit": 2})
        newest = r.json()["games"]  # (created to the millisecond: the last two, any order)
        assert len(newest) == 2 and {g["id"] for g in newest} <= {waiting, *played}
        assert newest[0]["created"] >= newest[1]["created"]
        for bad in ("0", "1001", "x"):
            r = await ca.get("/api/games", params={"limit": bad})
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"


async def test_a_move_waits_for_the_lobby_a_status_change_does_not() -> None:
    """A summary changed only by a move may wait up to ``MOVE_SECONDS`` (a fast game
    would cost a write per move); seats, the start and the end are written at once, and a
    listing of this process writes every pending one first."""
    from server.lobby import MOVE_SECONDS

    store = MemoryStore()
    service = GameService(store, default_registry())
    lobby = MemoryLobby(store)
    service.listeners.append(lobby.on_entries)
    rec, _ = await service.create_table(
        "high-card", None, None, [SeatClaim("ann"), SeatClaim("bob")]
    )
    assert rec.id in lobby._dirty  # created and started: at once
    await lobby.flush(moves=False)

    async def move() -> None:
        seat = rec.to_act()[0]
        command = rec.game.legal_commands(rec.state, seat)[0]
        await service.command(rec, seat, f"c{rec.version}", rec.codec.encode_command(command))

    await move()
    assert rec.id in lobby._later and rec.id not in lobby._dirty
    written = lobby.written
    await lobby.flush(moves=False)  # what the background writer does before it is due
    assert lobby.written == written
    lobby._later_at -= MOVE_SECONDS  # due now
    await lobby.flush(moves=False)
    assert lobby.written == written + 1 and not lobby._later
    await move()
    [listed] = await lobby.listing(None, 10)
    assert b'"version":%d' % rec.version not in listed  # still waiting
    await lobby.flush()  # what a listing does first
    [listed] = await lobby.listing(None, 10)
    assert b'"version":%d' % rec.version in listed
    while not rec.terminal:
        await move()
    assert rec.id in lobby._dirty  # finished: at once
