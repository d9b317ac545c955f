"""Undo, fork and report through the server (issue 13, items 3 and 6): the service's fold,
snapshots, reloads, replays, imports, the HTTP routes and what every viewer is told."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from domain import SPECTATOR, Rng, default_registry, seat_viewer
from server import games as games_module
from server.errors import ServiceError
from server.fairness import Mismatch, replay
from server.games import GameRecord, GameService
from server.snapshots import Snapshot, loads_state
from server.store.redis import RedisStore
from server.undo import UNDONE, fold_log, undo, undo_options
from tests.support import REDIS_URL, Player, http, new_game, running_server

pytestmark = pytest.mark.redis

REGISTRY = default_registry()


async def settle(service: GameService) -> None:
    while service._snapshot_tasks:
        await asyncio.gather(*service._snapshot_tasks)


async def play_with_undos(
    service: GameService, name: str, options: dict[str, Any], seed: int, steps: int = 400
) -> tuple[GameRecord, int]:
    """Random commands, every seat a person; the last mover often takes back some of its
    moves. Checks at each undo that the state is the one before the undone commands."""
    rec = await service.create(name, options, f"undo-{seed}")
    for seat in range(len(rec.seats)):
        await service.take_seat(rec, seat, f"p{seat}")
    rng = Rng(seed)
    undos = 0
    from server.hub import names_for

    for _ in range(steps):
        if rec.terminal:
            break
        seat = rng.choice(sorted(rec.game.to_act(rec.state)))
        command = rng.choice(list(rec.game.legal_commands(rec.state, seat)))
        await service.command(rec, seat, uuid.uuid4().hex, rec.codec.encode_command(command))
        if rec.terminal:
            break
        targets = undo_options(rec.game, rec.log, seat, names_for(rec, seat_viewer(seat))).targets
        if targets and rng.randint(0, 1):
            target = rng.choice(list(targets))
            before = rec.state_at(target)
            version, dup = await undo(service, rec, seat, target)
            assert not dup and version == rec.version
            assert rec.state == before
            undos += 1
    return rec, undos


async def test_undo_folds_everywhere_snapshots_and_reloads(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games_module, "SNAPSHOT_EVERY", 5)
    service = GameService(redis_store, REGISTRY)
    rec, undos = await play_with_undos(service, "high-card", {"players": 3}, seed=4)
    assert undos >= 3
    await settle(service)
    # a fresh node: from the newest snapshot (every 5 events) and from the whole log
    loaded = await GameService(redis_store, REGISTRY).load(rec.id)
    assert loaded.state == rec.state and loaded.version == rec.version
    assert fold_log(rec.game, rec.options, rec.log) == rec.state
    # the snapshot holds the fold with the undone events skipped, and it follows undos
    snap = Snapshot.from_fields(await redis_store.get_snapshot(rec.id) or {})
    assert snap is not None
    assert any(e.type == UNDONE for e in rec.log[: snap.version])
    assert loads_state(snap.state) == fold_log(rec.game, rec.options, rec.log, snap.version)
    assert loads_state(snap.state) == rec.state_at(snap.version)
    # the finished game re-decides (cloister verify) and imports, undos and all
    assert rec.terminal
    exported = [{"version": e.version, "type": e.type, "data": e.data} for e in rec.log]
    replayed = replay(REGISTRY, orjson.loads(orjson.dumps(exported)))
    assert replayed.state == rec.state
    imported = await service.import_log(orjson.loads(orjson.dumps(exported)))
    assert imported.state == rec.state
    # an undo the server would refuse there is named
    undone_at = next(e.version for e in rec.log if e.type == UNDONE)
    forged = orjson.loads(orjson.dumps(exported))
    forged[undone_at - 1]["data"]["to_version"] = 3
    with pytest.raises(Mismatch, match=f"version {undone_at}: an undo the server refuses"):
        replay(REGISTRY, forged)
    # a replay at a version inside an undone stretch shows what was seen then
    undone = [e for e in rec.log if e.type == UNDONE]
    last = undone[-1]
    inside = last.version - 1
    assert inside > last.data["to_version"]
    assert rec.state_at(inside) != rec.state_at(last.version)
    assert rec.state_at(last.version) == rec.state_at(last.data["to_version"])


async def test_a_refused_undo_names_the_horizon_and_leaves_the_stream_alone(
    redis_store: RedisStore,
) -> None:
    service = GameService(redis_store, REGISTRY)
    rec = await service.create("high-card", {"players": 2}, "refuse")
    for seat in range(2):
        await service.take_seat(rec, seat, f"p{seat}")
    seat = min(rec.game.to_act(rec.state))
    with pytest.raises(ServiceError) as nothing:
        await undo(service, rec, seat)
    assert nothing.value.code == "undo_not_allowed"
    assert "is dealt" in nothing.value.message and "revealed information" in nothing.value.message
    await service.command(rec, seat, "pass", {"type": "Pass"})
    with pytest.raises(ServiceError) as theirs:
        await undo(service, rec, 1 - seat)
    assert "another seat's move is never taken back" in theirs.value.message
    await undo(service, rec, seat)
    assert seat in rec.game.to_act(rec.state)
    await service.command(rec, seat, "draw", {"type": "Draw"})
    head = rec.version
    with pytest.raises(ServiceError) as drawn:
        await undo(service, rec, seat)
    assert drawn.value.code == "undo_not_allowed"
    assert "draws the" in drawn.value.message  # the drawer sees their own card
    assert "revealed information" in drawn.value.message
    with pytest.raises(ServiceError) as far:
        await undo(service, rec, seat, to_version=3)
    assert "cannot undo to version 3" in far.value.message or "no move" in far.value.message
    assert rec.version == head
    assert len(await redis_store.read(rec.id)) == head


@pytest.fixture
def base(key_prefix: str) -> Iterator[str]:
    with running_server(key_prefix) as url:
        yield url


async def _pass_or_draw(p: Player) -> dict[str, Any]:
    return next(c for c in p.legal if c["type"] == "Pass")


async def test_undo_over_http_every_viewer_reads_it_and_the_replay_keeps_it(
    base: str, key_prefix: str
) -> None:
    async with http(base) as client:
        game_id, tokens = await new_game(client, "high-card", {"players": 2})
        players = [Player(base, game_id, t) for t in tokens]
        spectator = Player(base, game_id)
        for p in [*players, spectator]:
            await p.connect()
        mover = next(p for p in players if p.legal)
        me = {"Authorization": f"Bearer {mover.token}"}
        status = (await client.get(f"/api/games/{game_id}/undo", headers=me)).json()
        assert status["allowed"] is False and "is dealt" in status["reason"]
        before = (await client.get(f"/api/games/{game_id}/view", headers=me)).json()
        reply = await mover.command(await _pass_or_draw(mover))
        assert reply["type"] == "accepted"
        status = (await client.get(f"/api/games/{game_id}/undo", headers=me)).json()
        assert status["allowed"] and status["targets"] == [before["version"]]
        r = await client.post(f"/api/games/{game_id}/undo", headers=me, json={})
        assert r.status_code == 200, r.text
        done = r.json()
        assert done["to_version"] == before["version"] and done["commands"] == 1
        for p in [*players, spectator]:
            await p.wait_version(done["version"])
        after = (await client.get(f"/api/games/{game_id}/view", headers=me)).json()
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        # every viewer read the undo in words
        for p in [*players, spectator]:
            texts = [e["text"] for m in p.received for e in m.get("events", [])]
            assert any("takes back their last move" in t for t in texts), texts
        # a second undo: nothing left of this seat's before the set-up
        r = await client.post(f"/api/games/{game_id}/undo", headers=me, json={})
        assert r.status_code == 409 and r.json()["error"]["code"] == "undo_not_allowed"
        # no token: no undo
        r = await client.post(f"/api/games/{game_id}/undo", json={})
        assert r.status_code == 401
        r = await client.post(f"/api/games/{game_id}/undo", headers=me, json={"to_version": -1})
        assert r.status_code == 400
        # the replay at the undone move still shows it (then the undo takes it back)
        log = (await client.get(f"/api/games/{game_id}/events")).json()["events"]
        undone = [e for e in log if e["type"] == UNDONE]
        assert len(undone) == 1 and undone[0]["data"]["to_version"] == before["version"]
        mid = await client.get(f"/api/games/{game_id}/view?version={done['version'] - 1}")
        at_undo = await client.get(f"/api/games/{game_id}/view?version={done['version']}")
        assert mid.json()["view"] != at_undo.json()["view"]
        for p in [*players, spectator]:
            await p.close()


async def test_fork_a_finished_game_and_report_what_the_reporter_may_see(
    base: str, key_prefix: str
) -> None:
    from tests.support import play_random_game

    gtype = REGISTRY["high-card"]
    played = await play_random_game(base, gtype, {"players": 2}, seed=3)
    game_id = played["game_id"]
    version = 12
    async with http(base) as client:
        source = (await client.get(f"/api/games/{game_id}/view?version={version}")).json()
        r = await client.post(
            f"/api/games/{game_id}/fork",
            json={"version": version, "join": {"name": "Ann"}, "bots": [{"level": "random"}]},
        )
        assert r.status_code == 201, r.text
        fork = r.json()
        assert fork["forked_from"] == {"game": game_id, "version": version}
        assert fork["status"] == "running" and fork["you"]["token"]
        review = (await client.get(f"/api/games/{fork['id']}/view")).json()
        # the position is the source's (the fork may already be further: the bot moves)
        log = (await client.get(f"/api/games/{fork['id']}/events")).json()["events"]
        started = next(e["version"] for e in log if e["type"] == "cloister.GameStarted")
        copied = [e for e in log[started:] if not e["type"].startswith("cloister.")]
        assert copied[0]["type"] == "DeckShuffled"
        at_fork = (
            await client.get(f"/api/games/{fork['id']}/view?version={started + len(copied)}")
        ).json()
        if review["version"] == at_fork["version"]:
            assert review["view"] == at_fork["view"]
        assert at_fork["view"] == source["view"] or source["audience"] == "review"
        # refused: a running game, a version before the start, after the end
        for body, code in [
            ({"version": 1}, "bad_version"),
            ({"version": played["review"]["version"]}, "bad_version"),
        ]:
            r = await client.post(f"/api/games/{game_id}/fork", json=body)
            assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
        r = await client.post(f"/api/games/{fork['id']}/fork", json={"version": started + 1})
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"

        # report a problem on the running fork: only what that seat may see
        token = fork["you"]["token"]
        seat = fork["you"]["seat"]
        r = await client.post(
            f"/api/games/{fork['id']}/report",
            headers={"Authorization": f"Bearer {token}"},
            json={"text": "the bot played twice?"},
        )
        assert r.status_code == 200, r.text
        report = r.json()
        assert report["audience"] == f"seat {seat}" and report["text"] == "the bot played twice?"
        rec_state = await _true_state(key_prefix, fork["id"])
        hidden = gtype.game.hidden_values(rec_state, seat_viewer(seat))
        text = orjson.dumps(report).decode()
        assert hidden and not any(h in text for h in hidden)
        r = await client.post(f"/api/games/{fork['id']}/report", json={})
        hidden = gtype.game.hidden_values(rec_state, SPECTATOR)
        assert r.json()["audience"] == "spectator"
        assert not any(h in r.text for h in hidden)


async def _true_state(key_prefix: str, game_id: str) -> Any:
    """The game's state as the server holds it, read from the store by another node."""
    store = RedisStore(REDIS_URL, key_prefix)
    try:
        return (await GameService(store, REGISTRY).load(game_id)).state
    finally:
        await store.close()


async def test_undo_over_the_websocket_several_steps_and_its_refusals(base: str) -> None:
    """``undo`` on the game socket: ``steps`` takes back several of my commands at once,
    never past another seat's; refusals are ``rejected`` with a stable code."""
    async with http(base) as client:
        game_id, tokens = await new_game(client, "high-card", {"players": 2})
        players = [Player(base, game_id, t) for t in tokens]
        spectator = Player(base, game_id)
        for p in [*players, spectator]:
            await p.connect()
        first = next(p for p in players if p.legal)
        second = next(p for p in players if p is not first)
        assert (await first.command({"type": "Pass"}))["type"] == "accepted"
        await second.wait_version(first.version)
        assert (await second.command({"type": "Pass"}))["type"] == "accepted"
        await first.wait_version(second.version)
        # the play phase: a secret choice may be changed, so two commands in a row
        before = (await client.get(f"/api/games/{game_id}/view?version={first.version}")).json()
        before_legal = first.legal
        hand = [c["card"] for c in first.legal if c["type"] == "PlayCard"]
        for card in hand:
            assert (await first.command({"type": "PlayCard", "card": card}))["type"] == "accepted"
        me = {"Authorization": f"Bearer {first.token}"}
        status = (await client.get(f"/api/games/{game_id}/undo", headers=me)).json()
        assert status["steps"] == 2 and status["targets"][1] == before["version"]

        def undo(cid: str, **body: Any) -> dict[str, Any]:
            return {"type": "undo", "command_id": cid, **body}

        refused = await first.request(undo("u1", steps=3))
        assert refused["type"] == "rejected" and refused["code"] == "undo_not_allowed"
        assert "2 moves" in refused["message"] and "another seat" in refused["message"]
        for bad in (undo("u2", steps=0), undo("u3", steps=1, to_version=1)):
            reply = await first.request(bad)
            assert reply["type"] == "rejected" and reply["code"] == "bad_request", reply
        watcher = await spectator.request(undo("u4"))
        assert watcher["type"] == "rejected" and watcher["code"] == "spectator"
        assert (await second.request(undo("u5")))["code"] == "undo_not_allowed"  # not theirs

        done = await first.request(undo("u6", steps=2))
        assert done["type"] == "accepted"
        again = await first.request(undo("u6", steps=2))  # a resend is applied once
        assert again["version"] == done["version"]
        for p in [*players, spectator]:
            await p.wait_version(done["version"])
        log = (await client.get(f"/api/games/{game_id}/events")).json()["events"]
        undone = log[done["version"] - 1]
        assert undone["type"] == UNDONE and undone["data"]["commands"] == 2
        assert undone["data"]["to_version"] == before["version"]
        assert "takes back their last 2 moves" in undone["text"]
        after = (await client.get(f"/api/games/{game_id}/view", headers=me)).json()
        mine = (
            await client.get(f"/api/games/{game_id}/view?version={before['version']}", headers=me)
        ).json()
        assert after["view"] == mine["view"] and after["legal"] == before_legal
        status = (await client.get(f"/api/games/{game_id}/undo", headers=me)).json()
        assert status["steps"] == 0 and not status["allowed"]
        for p in [*players, spectator]:
            await p.close()
