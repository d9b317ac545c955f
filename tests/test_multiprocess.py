"""Two server processes on one Redis: any process serves any game, and killing one loses
no acknowledged command."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

import pytest

from tests.support import Node, Player, http, new_game, server_nodes

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
