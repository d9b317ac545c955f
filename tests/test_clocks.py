"""Turn clocks and absent players (issue 13, items 1 and 2): the ``clock`` and ``absent``
options, expiry handing the seat to the game's best bot, leaving and retaking a seat, and
clocks that go on from the log after a restart. Time is the test's own (``FakeTime``): the
server's clock keeper reads it, so no test waits for a clock to run down."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from domain import default_registry
from server.errors import ServiceError
from server.games import GameService
from server.store.memory import MemoryStore
from server.store.redis import RedisStore
from tests.support import Player, http, new_game, running_server, server_nodes

START = 1_800_000_000_000


class FakeTime:
    """A time source the test moves by hand (milliseconds since the epoch)."""

    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += int(seconds * 1000)


def events_of(p: Player, type_: str) -> list[dict[str, Any]]:
    return [
        e
        for m in p.received
        if m["type"] in ("welcome", "update")
        for e in m.get("events", [])
        if e["type"] == type_
    ]


async def until(p: Player, check: Callable[[], Any], timeout: float = 15) -> Any:
    """Read messages until ``check()`` is truthy; return its value."""
    deadline = time.monotonic() + timeout
    while not (result := check()):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out; last messages: {p.received[-3:]}"
        with contextlib.suppress(TimeoutError):
            await p.recv(min(left, 0.2))
    return result


def table_of(p: Player) -> dict[str, Any] | None:
    for m in reversed(p.received):
        if m["type"] in ("welcome", "update") and "table" in m:
            table: dict[str, Any] = m["table"]
            return table
    return None


# -- options ----------------------------------------------------------------------------------
@pytest.mark.parametrize("type_name", sorted(default_registry()))
def test_every_game_type_takes_clock_and_absent(type_name: str) -> None:
    service = GameService(MemoryStore(), default_registry())
    assert "clock" not in service.validated_options(type_name, {})  # default: none
    assert service.validated_options(type_name, {"clock": "none"}).get("clock") is None
    opts = service.validated_options(type_name, {"clock": "move:30", "absent": 60})
    assert opts["clock"] == "move:30" and opts["absent"] == 60
    assert service.validated_options(type_name, {"clock": "fischer:5+3"})["clock"] == "fischer:5+3"
    for bad, words in (
        ("move:0", "1 to"),
        ("move:ten", "must be 'none'"),
        ("fischer:5", "must be 'none'"),
        ("fischer:0+5", "1 to"),
        ("fischer:5+99999", "increment"),
        (30, "must be 'none'"),
        ("blitz", "must be 'none'"),
    ):
        with pytest.raises(ServiceError) as err:
            service.validated_options(type_name, {"clock": bad})
        assert err.value.code == "bad_option" and words in err.value.message, err.value.message
    for bad_absent in (0, -5, "60", True, 10**9):
        with pytest.raises(ServiceError) as err:
            service.validated_options(type_name, {"absent": bad_absent})
        assert err.value.code == "bad_option" and "'absent'" in err.value.message


pytestmark = pytest.mark.redis


async def _table(base: str, opts: dict[str, Any]) -> tuple[str, list[Player]]:
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card", {"players": 2, **opts})
    players = [Player(base, gid, t) for t in tokens]
    for p in players:
        await p.connect()
    return gid, players


# -- move clock ---------------------------------------------------------------------------------
async def test_move_clock_runs_out_and_the_best_bot_plays_on(key_prefix: str) -> None:
    now = FakeTime()
    with running_server(key_prefix, now=now, clock_tick=0.05) as base:
        gid, (p0, p1) = await _table(base, {"clock": "move:20"})
        table = table_of(p0)
        assert table is not None and table["clock"] == "move:20"
        s0, s1 = table["seats"]
        assert s0["running"] and s0["remaining"] == 20_000 and s0["deadline"] == START + 20_000
        assert not s1["running"] and s1["remaining"] == 20_000

        # seat 0 draws in time: its clock stops, seat 1's decision starts now
        now.advance(12)
        assert (await p0.command({"type": "Draw"}))["type"] == "accepted"
        table = await until(p1, lambda: p1.version == p0.version and table_of(p1))
        assert table["seats"][1]["deadline"] == now.ms + 20_000
        assert not table["seats"][0]["running"]

        # seat 1 does nothing: 19.9 s is still in time, 20 s is not
        now.advance(19.9)
        await asyncio.sleep(0.3)
        assert not events_of(p1, "cloister.ClockExpired")
        now.advance(0.1)
        expired = await until(p1, lambda: events_of(p1, "cloister.ClockExpired"))
        handed = await until(p1, lambda: events_of(p1, "cloister.SeatHandedToBot"))
        assert (
            expired[0]["data"]["seat"] == 1
            and expired[0]["text"] == "p1 (Player 2) ran out of time"
        )
        assert handed[0]["data"]["reason"] == "clock" and handed[0]["data"]["bot"] == "random"
        assert "plays on for p1 (Player 2), whose time ran out" in handed[0]["text"]
        assert table_of(p1)["seats"][1]["bot"] == "random"  # type: ignore[index]

        # the bot moved for seat 1 (the draw phase ended: everybody plays a card)
        await until(p1, lambda: p1.view["phase"] == "play")
        async with http(base) as c:
            summary = (await c.get(f"/api/games/{gid}")).json()
        assert summary["seats"][1]["stand_in"] == "random"
        assert summary["seats"][1]["bot"] is None  # still the person's seat
        # the player is offered no moves, and their own commands wait for a retake
        assert p1.legal == []
        reply = await p1.command({"type": "PlayCard", "card": p1.view["hands"][1][0]})
        assert reply["type"] == "rejected" and reply["code"] == "seat_handed"
        for p in (p0, p1):
            await p.close()


# -- fischer ---------------------------------------------------------------------------------
async def test_fischer_bank_spends_gains_and_runs_out(key_prefix: str) -> None:
    now = FakeTime()
    with running_server(key_prefix, now=now, clock_tick=0.05) as base:
        gid, (p0, p1) = await _table(base, {"clock": "fischer:1+5"})
        assert table_of(p0)["seats"][0]["remaining"] == 60_000  # type: ignore[index]
        now.advance(10)
        await p0.command({"type": "Draw"})
        await until(p1, lambda: p1.version == p0.version)
        seats = table_of(p1)["seats"]  # type: ignore[index]
        assert seats[0]["remaining"] == 60_000 - 10_000 + 5_000 and not seats[0]["running"]
        assert seats[1]["running"] and seats[1]["remaining"] == 60_000
        async with http(base) as c:  # the HTTP view at the head says the same
            view = (await c.get(f"/api/games/{gid}/view")).json()
            old = (await c.get(f"/api/games/{gid}/view", params={"version": 1})).json()
        assert view["table"]["seats"] == seats and old["table"] is None
        now.advance(59.99)
        await asyncio.sleep(0.3)
        assert not events_of(p1, "cloister.ClockExpired")
        now.advance(0.01)
        await until(p1, lambda: events_of(p1, "cloister.SeatHandedToBot"))
        for p in (p0, p1):
            await p.close()


# -- simultaneous phase ---------------------------------------------------------------------
async def test_in_a_simultaneous_phase_every_seat_still_to_act_has_a_running_clock(
    key_prefix: str,
) -> None:
    now = FakeTime()
    with running_server(key_prefix, now=now, clock_tick=0.05) as base:
        _, (p0, p1) = await _table(base, {"clock": "move:30"})
        await p0.command({"type": "Draw"})
        await until(p1, lambda: p1.version == p0.version)
        await p1.command({"type": "Draw"})
        await until(p0, lambda: p0.version == p1.version and p0.view["phase"] == "play")
        seats = table_of(p0)["seats"]  # type: ignore[index]
        assert seats[0]["running"] and seats[1]["running"]  # both choose a card at once
        now.advance(10)
        await p0.command(p0.legal[0])  # seat 0 commits; seat 1 still has to choose
        await until(p1, lambda: p1.version == p0.version)
        seats = table_of(p1)["seats"]  # type: ignore[index]
        assert not seats[0]["running"] and seats[1]["running"]
        assert seats[1]["deadline"] == START + 30_000  # its decision began with the phase
        now.advance(20)
        handed = await until(p1, lambda: events_of(p1, "cloister.SeatHandedToBot"))
        assert handed[0]["data"]["seat"] == 1
        # the bot chose for seat 1, the round was revealed
        await until(p0, lambda: events_of(p0, "ChoicesRevealed"))
        for p in (p0, p1):
            await p.close()


# -- leaving and retaking -------------------------------------------------------------------
async def test_leave_the_table_then_retake_the_seat(key_prefix: str) -> None:
    now = FakeTime()
    with running_server(key_prefix, now=now, clock_tick=0.05, bot_delay=0.2) as base:
        gid, (p0, p1) = await _table(base, {})  # no clock: leaving is always possible
        assert table_of(p0) is None  # nothing to show yet
        reply = await p1.request({"type": "leave", "command_id": "l1"})
        assert reply["type"] == "accepted"
        left = events_of(p1, "cloister.SeatHandedToBot")
        assert left[0]["data"]["reason"] == "left"
        assert left[0]["text"].endswith("plays on for p1 (Player 2), who left the table")
        await until(p0, lambda: events_of(p0, "cloister.SeatHandedToBot"))
        assert table_of(p0)["seats"][1]["bot"] == "random"  # type: ignore[index]
        again = await p1.request({"type": "leave", "command_id": "l2"})
        assert again["type"] == "rejected" and again["code"] == "already_handed"

        # seat 0 draws; the bot draws or passes for seat 1
        await p0.command({"type": "Draw"})
        await until(p1, lambda: p1.view["phase"] == "play")
        back = await p1.request({"type": "retake", "command_id": "r1"})
        assert back["type"] == "accepted"
        retaken = events_of(p1, "cloister.SeatRetaken")
        assert retaken[0]["text"] == "p1 (Player 2) is back and takes the seat again"
        assert table_of(p1)["seats"][1]["bot"] is None  # type: ignore[index]
        # the player plays again; nobody else may retake
        reply = await p1.command(p1.legal[0])
        assert reply["type"] == "accepted"
        twice = await p1.request({"type": "retake", "command_id": "r2"})
        assert twice["type"] == "rejected" and twice["code"] == "not_handed"
        # ids are the seat's own: another seat's "l1" is a new request, a resent one is not
        mine = await p0.request({"type": "leave", "command_id": "l1"})
        assert mine["type"] == "accepted"
        assert events_of(p0, "cloister.SeatHandedToBot")[-1]["data"]["seat"] == 0
        reused = await p1.request({"type": "retake", "command_id": "l1"})
        assert reused["type"] == "rejected" and reused["code"] == "command_id_reused"
        watcher = Player(base, gid)
        await watcher.connect()
        nope = await watcher.request({"type": "leave", "command_id": "w"})
        assert nope["code"] == "spectator"
        for p in (p0, p1, watcher):
            await p.close()


# -- absent -----------------------------------------------------------------------------------
async def test_a_player_away_longer_than_absent_is_replaced_by_a_bot(key_prefix: str) -> None:
    now = FakeTime()
    # the bot standing in waits long before moving: the seat stays to act meanwhile
    with running_server(key_prefix, now=now, clock_tick=0.05, bot_delay=30) as base:
        gid, (p0, p1) = await _table(base, {"absent": 30})
        await p1.close()  # seat 1 goes away; it is not its turn yet
        await asyncio.sleep(0.5)  # the server notices the disconnect at START (its time)
        now.advance(40)
        await p0.command({"type": "Draw"})  # now the game waits on seat 1
        # gone 40 s > 30 s: handed over at once
        handed = await until(p0, lambda: events_of(p0, "cloister.SeatHandedToBot"))
        assert handed[0]["data"] == {**handed[0]["data"], "seat": 1, "reason": "absent"}
        assert handed[0]["text"].endswith("who is away")
        # a connected player waiting on their turn is never absent
        assert all(e["data"]["seat"] == 1 for e in events_of(p0, "cloister.SeatHandedToBot"))

        # back with the token: the seat stays the bot's until an explicit retake
        p1b = Player(base, gid, p1.token)
        welcome = await p1b.connect()
        assert welcome["table"]["seats"][1]["bot"] == "random"
        assert welcome["to_act"] == [1] and welcome["legal"] == []  # the bot's to play
        reply = await p1b.command({"type": "Draw"})
        assert reply["type"] == "rejected" and reply["code"] == "seat_handed"
        assert (await p1b.request({"type": "retake", "command_id": "back"}))["type"] == "accepted"
        assert p1b.legal  # the player's own moves again
        for p in (p0, p1b):
            await p.close()


async def test_connected_players_are_not_absent(key_prefix: str) -> None:
    now = FakeTime()
    with running_server(key_prefix, now=now, clock_tick=0.05) as base:
        _, (p0, p1) = await _table(base, {"absent": 5})
        now.advance(60)  # seat 0 thinks for a minute, connected
        await asyncio.sleep(0.5)
        await p0.command({"type": "Draw"})
        await until(p1, lambda: p1.version == p0.version)
        assert not events_of(p1, "cloister.SeatHandedToBot")
        for p in (p0, p1):
            await p.close()


# -- restart ------------------------------------------------------------------------------------
async def test_clocks_go_on_from_the_log_after_a_restart(key_prefix: str) -> None:
    now = FakeTime()
    with running_server(key_prefix, now=now, clock_tick=0.05) as base:
        gid, (p0, p1) = await _table(base, {"clock": "fischer:1+5"})
        now.advance(10)
        await p0.command({"type": "Draw"})
        await until(p1, lambda: p1.version == p0.version)
        before = table_of(p1)
        for p in (p0, p1):
            await p.close()
    now.advance(25)  # seat 1's clock runs while no process is up
    with running_server(key_prefix, now=now, clock_tick=0.05) as base:
        watcher = Player(base, gid)
        welcome = await watcher.connect()
        seats = welcome["table"]["seats"]
        assert seats[0]["remaining"] == before["seats"][0]["remaining"] == 55_000  # type: ignore[index]
        assert seats[1]["running"] and seats[1]["remaining"] == 60_000 - 25_000
        now.advance(35)
        handed = await until(watcher, lambda: events_of(watcher, "cloister.SeatHandedToBot"))
        assert handed[0]["data"]["seat"] == 1 and handed[0]["data"]["at"] == now.ms
        await watcher.close()


async def _lobby_entry(base: str, gid: str) -> dict[str, Any]:
    """The game's summary from the lobby listing: a projection, which loads no game."""
    async with http(base) as c:
        games = (await c.get("/api/games")).json()["games"]
    found: dict[str, Any] = next(g for g in games if g["id"] == gid)
    return found


async def _until_lobby(
    base: str, gid: str, check: Callable[[dict[str, Any]], bool], timeout: float = 30
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while not check(summary := await _lobby_entry(base, gid)):
        assert time.monotonic() < deadline, f"timed out; the lobby has {summary}"
        await asyncio.sleep(0.1)
    return summary


async def _expired_while_down(
    key_prefix: str,
    now: FakeTime,
    while_down: Callable[[str], Awaitable[None]] | None = None,
    *,
    absent: bool = False,
) -> list[dict[str, Any]]:
    """A two-seat game created, its server stopped, ``while_down`` done to it, and then,
    while no process is up, seat 0's decision run out (25 s of a ``move:20`` clock) or,
    with ``absent``, both players away too long (61 s of ``absent: 60``, no clock); then a
    fresh process with no client, until the bot holds seat 0 (every seat, with ``absent``):
    the game's log as it then says."""
    options: dict[str, Any] = {"players": 2, **({"absent": 60} if absent else {"clock": "move:20"})}
    with running_server(key_prefix, now=now, clock_tick=0.05) as base:
        async with http(base) as c:
            gid, _tokens = await new_game(c, "high-card", options)
    if while_down is not None:
        await while_down(gid)
    now.advance(61 if absent else 25)
    with running_server(key_prefix, now=now, clock_tick=0.05, clock_watch=0.05) as base:
        if absent:
            await _until_lobby(base, gid, lambda g: all(s["stand_in"] for s in g["seats"]))
        else:
            summary = await _until_lobby(base, gid, lambda g: g["seats"][0]["stand_in"] is not None)
            assert summary["seats"][0]["stand_in"] == "random"
        async with http(base) as c:
            events: list[dict[str, Any]] = (await c.get(f"/api/games/{gid}/events")).json()[
                "events"
            ]
    return events


async def test_a_game_nobody_loads_times_out_after_a_restart(key_prefix: str) -> None:
    """Nobody comes back to the game after its server stopped: a fresh process, with no
    client at all, finds the game in the deadline index and hands the seat to the bot."""
    now = FakeTime()
    log = await _expired_while_down(key_prefix, now)
    expired = [e["data"] for e in log if e["type"] == "cloister.ClockExpired"]
    assert expired == [{"seat": 0, "at": now.ms}]


async def test_a_game_nobody_comes_back_to_hands_the_absent_seat_over_after_a_restart(
    key_prefix: str,
) -> None:
    """No clock, and its players never connect again: their absence runs out while no
    process is up, and a fresh process finds the game in the deadline index."""
    log = await _expired_while_down(key_prefix, FakeTime(), absent=True)
    handed = [e["data"] for e in log if e["type"] == "cloister.SeatHandedToBot"]
    # seat 0 first; then (the bot drew for it) seat 1, away as long
    assert [(h["seat"], h["reason"]) for h in handed] == [(0, "absent"), (1, "absent")]


async def _forget_index_entry(store: RedisStore, gid: str, version: int | None = None) -> None:
    """As if the game's index entry was never written (``version`` None: a game older than
    the index), or was dropped at ``version`` and the process died before writing the
    append after it."""
    await store.redis.zrem(f"{store.prefix}:{{clocks}}:due", gid)
    if version is None:
        await store.redis.hdel(f"{store.prefix}:{{clocks}}:ver", gid)
    else:
        await store.redis.hset(f"{store.prefix}:{{clocks}}:ver", gid, version)


async def test_a_game_missing_from_the_deadline_index_times_out_after_a_restart(
    key_prefix: str, redis_store: RedisStore
) -> None:
    """The index is a cache of the logs: a game it lacks is found at start-up and its
    clock runs out as its log says (once), and the best bot plays on for the seat."""
    now = FakeTime()

    async def forget(gid: str) -> None:
        await _forget_index_entry(redis_store, gid)

    log = await _expired_while_down(key_prefix, now, forget)
    expired = [e["data"] for e in log if e["type"] == "cloister.ClockExpired"]
    assert expired == [{"seat": 0, "at": now.ms}]
    handed = [e["data"] for e in log if e["type"] == "cloister.SeatHandedToBot"]
    assert [(h["seat"], h["reason"]) for h in handed] == [(0, "clock")]


async def test_an_absent_seat_is_handed_over_after_a_restart_lost_the_index_write(
    key_prefix: str, redis_store: RedisStore
) -> None:
    """No clock; the game started with the append after the one its entry was dropped at
    (open, nothing to look at), and its process died before writing the entry again."""

    async def drop_at_creation(gid: str) -> None:
        await _forget_index_entry(redis_store, gid, version=1)

    log = await _expired_while_down(key_prefix, FakeTime(), drop_at_creation, absent=True)
    handed = [e["data"] for e in log if e["type"] == "cloister.SeatHandedToBot"]
    assert [(h["seat"], h["reason"]) for h in handed] == [(0, "absent"), (1, "absent")]


async def test_two_fresh_processes_time_out_a_game_nobody_loads_exactly_once(
    key_prefix: str,
) -> None:
    """Both processes find the stopped game due in the deadline index and load it; the
    expected-version append lets exactly one hand each seat over, and the stand-ins play
    the game to its end."""
    from server.games import now_ms

    frozen = FakeTime()
    frozen.ms = now_ms()  # stands still while the game is made: nothing expires yet
    with running_server(key_prefix, now=frozen) as base:
        async with http(base) as c:
            gid, _tokens = await new_game(c, "high-card", {"players": 2, "clock": "move:1"})
    # they read the deadline index every 0.2 s (CLOISTER_CLOCK_WATCH), not every 5
    with server_nodes(key_prefix, CLOISTER_CLOCK_WATCH="0.2") as ((_, base_a), (_, base_b)):
        await _until_lobby(base_a, gid, lambda g: g["status"] == "finished", timeout=60)
        async with http(base_b) as c:
            log = (await c.get(f"/api/games/{gid}/events")).json()["events"]
        expired = [e["data"]["seat"] for e in log if e["type"] == "cloister.ClockExpired"]
        handed = [e["data"]["seat"] for e in log if e["type"] == "cloister.SeatHandedToBot"]
        assert sorted(expired) == sorted(handed) == [0, 1]  # once each, by one process
        async with http(base_a) as c:
            verdict = (await c.get(f"/api/games/{gid}/verify")).json()
        assert verdict["verified"], verdict


# -- two processes ----------------------------------------------------------------------------
async def test_with_two_processes_exactly_one_appends_each_timeout(key_prefix: str) -> None:
    with server_nodes(key_prefix) as ((_, base_a), (_, base_b)):
        async with http(base_a) as c:
            gid, _tokens = await new_game(c, "high-card", {"players": 2, "clock": "move:1"})
        # both processes hold the game and watch its clocks; nobody plays
        watchers = [Player(base_a, gid), Player(base_b, gid)]
        for w in watchers:
            await w.connect()
        await until(watchers[1], lambda: watchers[1].status == "finished", timeout=30)
        async with http(base_b) as c:
            log = (await c.get(f"/api/games/{gid}/events")).json()["events"]
        expired = [e["data"]["seat"] for e in log if e["type"] == "cloister.ClockExpired"]
        handed = [e["data"]["seat"] for e in log if e["type"] == "cloister.SeatHandedToBot"]
        assert sorted(expired) == sorted(handed) == [0, 1]  # once each, by one process
        assert [e["version"] for e in log] == list(range(1, len(log) + 1))
        async with http(base_a) as c:
            verdict = (await c.get(f"/api/games/{gid}/verify")).json()
        assert verdict["verified"], verdict  # timeouts and stand-ins re-decide exactly
        for w in watchers:
            await w.close()


# -- the Python client ------------------------------------------------------------------------
async def test_python_client_shows_clocks_leaves_and_retakes(key_prefix: str) -> None:
    from clients.client import GameClient
    from protocol import Accepted

    now = FakeTime()
    with running_server(key_prefix, now=now, clock_tick=0.05, bot_delay=0.2) as base:
        async with http(base) as c:
            gid, tokens = await new_game(c, "high-card", {"players": 2, "clock": "move:45"})
        async with GameClient(base, gid, tokens[1]) as client:
            left = client.clock(0)
            assert left is not None and 44 < left <= 45
            assert client.clock(1) == 45 and client.stand_in() is None
            assert isinstance(await client.leave(), Accepted)
            assert client.stand_in() == "random"
            assert isinstance(await client.retake(), Accepted)
            assert client.stand_in() is None
            texts = [e.text for e in client.events]
            assert any(t.endswith("who left the table") for t in texts)
            assert "p1 (Player 2) is back and takes the seat again" in texts
