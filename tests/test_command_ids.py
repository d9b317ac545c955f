"""Issue 14, items 1 and 2, across two server processes on one Redis: command ids are each
seat's own (bots' included, and nobody can guess a bot's), an id reused for another
command is refused ``command_id_reused``, and ``expected_version`` refuses a command the
game has moved past (``stale``)."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import pytest

from tests.support import Node, Player, http, new_game

Nodes = list[Node]


async def review_log(base: str, gid: str) -> list[dict[str, Any]]:
    async with http(base) as c:
        events: list[dict[str, Any]] = (await c.get(f"/api/games/{gid}/events")).json()["events"]
        return events


@pytest.mark.redis
async def test_a_seat_reusing_another_seats_id_is_applied(nodes: Nodes) -> None:
    (_, base_a), (_, base_b) = nodes
    async with http(base_a) as c:
        gid, tokens = await new_game(c, "high-card", {"players": 2})
    p0 = Player(base_a, gid, tokens[0])
    p1 = Player(base_b, gid, tokens[1])
    await p0.connect()
    await p1.connect()
    said = await p0.chat("first", cid="shared-id")
    assert said["type"] == "accepted" and not said.get("duplicate")
    # the same id from the other seat, on the other process: its own command, applied
    said = await p1.chat("second", cid="shared-id")
    assert said["type"] == "accepted" and not said.get("duplicate"), said
    # and a game command under that id too
    reply = await p0.command({"type": "Draw"}, cid="shared-id-2")
    assert reply["type"] == "accepted"
    reply = await p1.command({"type": "Draw"}, cid="shared-id-2")
    assert reply["type"] == "accepted" and not reply.get("duplicate"), reply
    log = await review_log(base_a, gid)
    chats = [e["data"] for e in log if e["type"] == "cloister.Chat"]
    assert chats == [{"seat": 0, "text": "first"}, {"seat": 1, "text": "second"}]
    assert sum(e["type"] == "CardDrawn" for e in log) == 2
    await p0.close()
    await p1.close()


@pytest.mark.redis
async def test_same_id_other_command_is_refused_and_the_first_stands(nodes: Nodes) -> None:
    (_, base_a), (_, base_b) = nodes
    async with http(base_a) as c:
        gid, tokens = await new_game(c, "high-card", {"players": 2})
    p0a = Player(base_a, gid, tokens[0])
    p0b = Player(base_b, gid, tokens[0])
    await p0a.connect()
    await p0b.connect()
    reply = await p0a.command({"type": "Draw"}, cid="c-1")
    assert reply["type"] == "accepted"
    head = reply["version"]
    # the literal resend, on either process: a duplicate, nothing appended
    for p in (p0a, p0b):
        again = await p.command({"type": "Draw"}, cid="c-1")
        assert again == {**again, "type": "accepted", "version": head, "duplicate": True}
    # the same id with another command, on the process that did not apply it and on the
    # one that did: refused, the first command stands
    for p in (p0b, p0a):
        other = await p.command({"type": "Pass"}, cid="c-1")
        assert other["type"] == "rejected" and other["code"] == "command_id_reused", other
        chat = await p.chat("hello", cid="c-1")
        assert chat["type"] == "rejected" and chat["code"] == "command_id_reused", chat
    log = await review_log(base_b, gid)
    assert len(log) == head
    assert [e["type"] for e in log[-1:]] == ["CardDrawn"]
    await p0a.close()
    await p0b.close()


@pytest.mark.redis
async def test_chats_under_the_bots_ids_do_not_freeze_the_bot(nodes: Nodes) -> None:
    (_, base_a), (_, base_b) = nodes
    async with http(base_a) as c:
        r = await c.post(
            "/api/games",
            json={
                "type": "high-card",
                "options": {"players": 2},
                "join": {"name": "ann"},
                "bots": [{"level": "random"}],
            },
        )
        assert r.status_code == 201, r.text
        gid, token = r.json()["id"], r.json()["you"]["token"]
    pa = Player(base_a, gid, token)
    pb = Player(base_b, gid, token)
    await pa.connect()
    await pb.connect()
    # Every id a bot was ever given before issue 14, for the versions ahead, from both
    # processes: each is this seat's own id, so it takes nothing from the bot.
    for p in (pa, pb):
        for v in range(pa.version, pa.version + 60):
            said = await p.chat(f"v{v}", cid=f"bot:1:{v}")
            assert said["type"] == "accepted", said
    deadline = time.monotonic() + 60
    p = pa
    while p.status != "finished":
        assert time.monotonic() < deadline, "the bot froze"
        if p.legal:
            reply = await p.command(p.legal[0])
            assert reply["type"] == "accepted", reply
        else:
            await p.recv(30)
        p = pb if p is pa else pa  # alternate processes
        await p.wait_version((pa if p is pb else pb).version, 30)
    log = await review_log(base_a, gid)
    bot_moves = [e for e in log if e["type"] in ("CardDrawn", "Passed") and e["data"]["seat"] == 1]
    assert bot_moves, "the bot never moved"
    await pa.close()
    await pb.close()


@pytest.mark.redis
async def test_two_tabs_of_one_seat_racing_with_expected_version(nodes: Nodes) -> None:
    """Two tabs (one per process) send different commands for the same version at the
    same moment: exactly one is applied, the other is refused stale."""
    (_, base_a), (_, base_b) = nodes
    outcomes: list[tuple[str, str]] = []
    for _ in range(5):
        async with http(base_a) as c:
            gid, tokens = await new_game(c, "high-card", {"players": 2})
        tab1 = Player(base_a, gid, tokens[0])
        tab2 = Player(base_b, gid, tokens[0])
        await tab1.connect()
        await tab2.connect()
        v = tab1.version
        assert tab2.version == v

        def msg(command: str, v: int = v) -> dict[str, object]:
            return {
                "type": "command",
                "command_id": uuid.uuid4().hex,
                "command": {"type": command},
                "expected_version": v,
            }

        r1, r2 = await asyncio.gather(tab1.request(msg("Draw")), tab2.request(msg("Pass")))
        kinds = sorted([r1["type"], r2["type"]])
        assert kinds == ["accepted", "rejected"], (r1, r2)
        lost = r1 if r1["type"] == "rejected" else r2
        # without expected_version the loser would be not_your_turn here (the turn moved);
        # with it, the refusal says why: the game is no longer at the version looked at
        assert lost["code"] == "stale", lost
        outcomes.append((r1["type"], r2["type"]))
        log = await review_log(base_a, gid)
        won = r1 if r1["type"] == "accepted" else r2
        assert len(log) == won["version"]
        assert sum(e["type"] in ("CardDrawn", "Passed") for e in log) == 1  # one applied
        await tab2.wait_version(won["version"])
        fresh = msg("Draw", won["version"])
        # seat 0 is not to act now: the rules answer, not the version check
        reply = await tab2.request(fresh)
        assert reply["type"] == "rejected" and reply["code"] == "not_your_turn", reply
        await tab1.close()
        await tab2.close()


# -- in one process, on the in-memory store (no Redis) ------------------------------------
async def test_bot_ids_are_random_and_scoped_to_the_bots_seat() -> None:
    from domain import default_registry
    from server.bots import BotRunner
    from server.games import GameService, SeatClaim
    from server.store.memory import MemoryStore

    store = MemoryStore()
    service = GameService(store, default_registry())
    runner = BotRunner(service)
    claims = [SeatClaim(None, bot="random"), SeatClaim(None, bot="random")]
    rec, _seats = await service.create_table("high-card", {"players": 2}, None, claims)
    for _i in range(200):
        if rec.terminal:
            break
        await asyncio.sleep(0.01)
    assert rec.terminal
    await runner.close()
    ids = [e.command_id for e in await store.read(rec.id) if e.command_id.startswith(("0:", "1:"))]
    assert ids, "no bot command in the log"
    for cid in ids:
        seat, _, own = cid.partition(":")
        assert own.startswith("bot-") and len(own) == 4 + 24, cid
        assert own != f"bot:{seat}" and "bot:" not in own
    commands = [cid for i, cid in enumerate(ids) if i == 0 or ids[i - 1] != cid]
    assert len(set(commands)) == len(commands)  # one id per command, never reused


async def test_stale_and_reused_on_one_service() -> None:
    from domain import default_registry
    from server.errors import ServiceError
    from server.games import GameService, SeatClaim
    from server.store.memory import MemoryStore

    service = GameService(MemoryStore(), default_registry())
    rec, _seats = await service.create_table(
        "high-card", {"players": 2}, None, [SeatClaim("a"), SeatClaim("b")]
    )
    v = rec.version
    with pytest.raises(ServiceError) as err:
        await service.command(rec, 0, "x", {"type": "Draw"}, expected_version=v - 1)
    assert err.value.code == "stale" and str(v) in err.value.message
    with pytest.raises(ServiceError) as err:
        await service.command(rec, 0, "x", {"type": "Draw"}, expected_version=v + 5)
    assert err.value.code == "stale"
    assert rec.version == v
    version, dup = await service.command(rec, 0, "x", {"type": "Draw"}, expected_version=v)
    assert version > v and not dup
    # the resend (even with its now old expected_version) is a duplicate, not stale
    assert await service.command(rec, 0, "x", {"type": "Draw"}, expected_version=v) == (
        version,
        True,
    )
    with pytest.raises(ServiceError) as err:
        await service.command(rec, 0, "x", {"type": "Pass"})
    assert err.value.code == "command_id_reused"
    # a fresh service (another process) learns the id from the log, the digest from the store
    other = GameService(service.store, default_registry())
    rec2 = await other.load(rec.id)
    with pytest.raises(ServiceError) as err:
        await other.chat(rec2, 0, "x", "hi")
    assert err.value.code == "command_id_reused"
    assert await other.command(rec2, 0, "x", {"type": "Draw"}) == (version, True)
