"""Two server processes on one Redis: any process serves any game, and killing one loses
no acknowledged command."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import REDIS_URL, Node, Player, http, new_game, server_nodes, start_nodes

pytestmark = pytest.mark.redis


@pytest.fixture
def cluster_nodes(
    key_prefix: str, cluster_store: object, redis_cluster_url: str
) -> Iterator[list[Node]]:
    with server_nodes(key_prefix, redis_cluster_url) as started:
        yield started


async def test_player_on_a_spectator_on_b_and_a_dies(
    nodes: list[Node],
) -> None:
    await play_on_two_nodes(nodes)


@pytest.mark.cluster
async def test_two_nodes_on_a_redis_cluster(
    cluster_nodes: list[Node],
) -> None:
    """The same game on a 3-master Redis Cluster: appends routed to the game's master,
    the spectator on B woken by a sharded doorbell, and the lobby listing (one slot of
    its own) on both nodes."""
    gid = await play_on_two_nodes(cluster_nodes)
    async with http(cluster_nodes[1][1]) as c:
        games = (await c.get("/api/games")).json()["games"]
    assert [g["id"] for g in games] == [gid]


async def play_on_two_nodes(nodes: list[Node]) -> str:
    (proc_a, base_a), (_, base_b) = nodes
    async with http(base_a) as c:
        gid, tokens = await new_game(c, "high-card", {"players": 2})
    p0 = Player(base_a, gid, tokens[0])
    p1 = Player(base_a, gid, tokens[1])
    watcher = Player(base_b, gid)
    await p0.connect()
    await p1.connect()
    await watcher.connect()

    # moves made on A reach the spectator on B, via the doorbell and a catch-up
    acked = []
    reply = await p0.command({"type": "Draw"})
    acked.append(reply["version"])
    reply = await p1.command({"type": "Pass"})
    acked.append(reply["version"])
    await watcher.wait_version(acked[-1])
    assert watcher.view["deck_count"] == p0.view["deck_count"]
    assert watcher.view["hands"] == [None, None]  # still a spectator's view

    # a player's command sent to B is served there too
    card = p0.view["hands"][0][0]
    p0b = Player(base_b, gid, tokens[0])
    await p0b.connect(since=p0.version)
    reply = await p0b.command({"type": "PlayCard", "card": card})
    assert reply["type"] == "accepted"
    acked.append(reply["version"])
    await p1.wait_version(reply["version"])

    # kill A without warning; p1 continues on B with the same token, resuming
    proc_a.send_signal(signal.SIGKILL)
    proc_a.wait(10)
    seen = p1.version
    p1b = Player(base_b, gid, tokens[1])
    welcome = await p1b.connect(since=seen)
    assert welcome["version"] >= acked[-1]
    assert welcome["events"] == []  # nothing was missed
    legal = p1b.legal  # expanded from the welcome's compact form
    reply = await p1b.command(legal[0])
    assert reply["type"] == "accepted"
    await watcher.wait_version(reply["version"])

    # every acknowledged command is in the log, once, with gapless versions
    async with http(base_b) as c:
        log = (await c.get(f"/api/games/{gid}/events")).json()["events"]
    versions = [e["version"] for e in log]
    assert versions == list(range(1, len(log) + 1))
    assert set(acked) <= set(versions)
    for p in (p0, p1, p0b, p1b, watcher):
        with contextlib.suppress(Exception):
            await p.close()
    return gid


# -- every process killed and restarted: the clocks go on from the log ---------------------
WATCH = "0.2"
"""``CLOISTER_CLOCK_WATCH`` of these processes: they read the deadline index often, so the
test waits little."""


async def _log(base: str, gid: str) -> list[dict[str, Any]]:
    async with http(base) as c:
        events: list[dict[str, Any]] = (await c.get(f"/api/games/{gid}/events")).json()["events"]
    return events


async def _until_status(base: str, gid: str, status: str, timeout: float = 90) -> None:
    """Poll the game's summary (a load on that node) until it has ``status``: generous,
    for a loaded machine; returns as soon as it is so."""
    deadline = time.monotonic() + timeout
    async with http(base) as c:
        while (got := (await c.get(f"/api/games/{gid}")).json()["status"]) != status:
            assert time.monotonic() < deadline, f"{gid} still {got}"
            await asyncio.sleep(0.1)


def _table(p: Player) -> dict[str, Any]:
    for m in reversed(p.received):
        if m["type"] in ("welcome", "update") and m.get("table"):
            table: dict[str, Any] = m["table"]
            return table
    raise AssertionError(f"no table in {p.received[-3:]}")


def _kill(nodes: list[Node]) -> None:
    for proc, _ in nodes:
        proc.send_signal(signal.SIGKILL)
    for proc, _ in nodes:
        proc.wait(10)


async def test_every_process_killed_and_restarted_the_clocks_go_on_from_the_log(
    key_prefix: str, redis_store: object
) -> None:
    await clocks_across_a_restart(key_prefix, REDIS_URL)


@pytest.mark.cluster
async def test_every_process_killed_and_restarted_on_a_redis_cluster(
    key_prefix: str, cluster_store: object, redis_cluster_url: str
) -> None:
    """The same on a 3-master Redis Cluster: the deadline index (one slot of its own) and
    the start-up scan's read of every game's stream head (each on its game's master)."""
    await clocks_across_a_restart(key_prefix, redis_cluster_url)


async def clocks_across_a_restart(key_prefix: str, url: str) -> None:
    """Two processes on one Redis hold three games; both are killed (SIGKILL) and two new
    ones started. A fischer bank is what the log says, not a fresh one; a move clock that
    ran out while nobody was up times out once per decision, though both new processes
    load the game (the expected-version append decides), and the bots play it to its end;
    players who never came back are handed to bots as ``absent`` says."""
    with server_nodes(key_prefix, url, CLOISTER_CLOCK_WATCH=WATCH) as nodes:
        (_, base_a), (_, base_b) = nodes
        async with http(base_a) as c:
            bank, bank_tokens = await new_game(
                c, "high-card", {"players": 2, "clock": "fischer:1+0"}
            )
            moves, move_tokens = await new_game(c, "high-card", {"players": 2, "clock": "move:2"})
            away, away_tokens = await new_game(c, "high-card", {"players": 2, "absent": 2})
        players = [
            Player(base_a, bank, bank_tokens[0]),
            Player(base_a, moves, move_tokens[0]),
            Player(base_a, away, away_tokens[0]),
            Player(base_b, away, away_tokens[1]),
        ]
        watcher = Player(base_b, bank)
        for p in (*players, watcher):
            await p.connect()
        await asyncio.sleep(0.3)  # seat 0 spends some of its bank
        drew = await players[0].command({"type": "Draw"})
        assert drew["type"] == "accepted", drew
        assert (await players[1].command({"type": "Draw"}))["type"] == "accepted"
        await watcher.wait_version(drew["version"])
        before = _table(watcher)["seats"]
        assert not before[0]["running"] and before[0]["remaining"] < 60_000
        assert before[1]["running"]
        _kill(nodes)  # the clients' sockets die with them: nobody is connected now
        for p in (*players, watcher):
            with contextlib.suppress(Exception):
                await p.close()
        # the new processes, stopped by server_nodes after
        nodes[:] = start_nodes(key_prefix, 2, url, CLOISTER_CLOCK_WATCH=WATCH)
        (_, base_a), (_, base_b) = nodes

        # the bank and the running clock are the log's
        again = Player(base_a, bank)
        welcome = await again.connect()
        after = welcome["table"]["seats"]
        assert after[0]["remaining"] == before[0]["remaining"] and not after[0]["running"]
        assert after[1]["running"] and after[1]["deadline"] == before[1]["deadline"]
        await again.close()

        # the move clock: both timeouts once each, by one process, and the game ends
        await _until_status(base_b, moves, "finished")
        log = await _log(base_a, moves)
        assert [e["version"] for e in log] == list(range(1, len(log) + 1))
        expired = [e["data"] for e in log if e["type"] == "cloister.ClockExpired"]
        handed = [e["data"] for e in log if e["type"] == "cloister.SeatHandedToBot"]
        assert sorted(x["seat"] for x in expired) == [0, 1]
        assert [(h["seat"], h["reason"]) for h in handed] == [(x["seat"], "clock") for x in expired]
        drawn_at = next(e["data"]["at"] for e in log if e["type"] == "cloister.CommandAccepted")
        assert expired[0] == {"seat": 1, "at": expired[0]["at"]}
        assert expired[0]["at"] >= drawn_at + 2_000  # not before its decision ran out
        async with http(base_b) as c:
            verdict = (await c.get(f"/api/games/{moves}/verify")).json()
        assert verdict["verified"], verdict

        # the players who never came back
        await _until_status(base_a, away, "finished")
        log = await _log(base_b, away)
        handed = [e["data"] for e in log if e["type"] == "cloister.SeatHandedToBot"]
        assert sorted((h["seat"], h["reason"]) for h in handed) == [(0, "absent"), (1, "absent")]
