"""Provably fair randomness (issue 13, item 4): the seed commitment, the command record, the
seed's reveal at the end, and what each audience sees of them."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path
from typing import Any

import orjson
import pytest

from domain import REVIEW, SPECTATOR, Rng, default_registry, seat_viewer
from domain.bots import bot_move
from server.errors import ServiceError
from server.fairness import Mismatch, Unverifiable, replay, report
from server.games import (
    COMMAND_ACCEPTED,
    GAME_CREATED,
    SEED_REVEALED,
    GameRecord,
    GameService,
    SeatClaim,
)
from server.hub import wire_events
from server.store.base import NewEvent
from server.store.redis import RedisStore
from tests.support import REDIS_URL

pytestmark = pytest.mark.redis


async def play_to_end(svc: GameService, type_name: str, seed: str = "s3cret") -> GameRecord:
    """A game of ``type_name`` with every seat played by the random bot, to its end."""
    gtype = svc.registry[type_name]
    seats = len(gtype.game.seat_labels(svc.validated_options(type_name, None)))
    claims = [SeatClaim(f"P{i}") for i in range(seats)]
    rec, _ = await svc.create_table(type_name, None, seed, claims)
    bot = gtype.bot("random")
    step = 0
    while not rec.terminal:
        seat = min(rec.game.to_act(rec.state))
        cmd = bot_move(bot, rec.game, rec.state, seat, Rng(f"t:{step}"))
        await svc.command(rec, seat, f"c{step}", rec.codec.encode_command(cmd))
        step += 1
    return rec


async def test_game_created_commits_to_the_seed_and_the_end_reveals_it(
    redis_store: RedisStore,
) -> None:
    svc = GameService(redis_store, default_registry())
    rec = await play_to_end(svc, "high-card", "s3cret")
    created = rec.log[0]
    assert created.type == GAME_CREATED
    assert created.data["seed_commitment"] == {
        "hash": "sha256",
        "digest": hashlib.sha256(b"s3cret").hexdigest(),
    }
    last = rec.log[-1]
    assert last.type == SEED_REVEALED and last.data["seed"] == "s3cret"
    assert isinstance(last.data["at"], int)
    # Nowhere before the end: not in any event, not in what any seat receives.
    for entry in rec.log[:-1]:
        assert b"s3cret" not in orjson.dumps(entry.data), entry
    assert [e.type for e in rec.log].count(SEED_REVEALED) == 1


async def test_every_command_is_recorded_before_the_events_it_produced(
    redis_store: RedisStore,
) -> None:
    svc = GameService(redis_store, default_registry())
    rec = await play_to_end(svc, "high-card")
    started = next(i for i, e in enumerate(rec.log) if e.type == "cloister.GameStarted")
    setup_end = next(i for i, e in enumerate(rec.log) if e.type == COMMAND_ACCEPTED)
    assert setup_end > started
    commands = [e for e in rec.log if e.type == COMMAND_ACCEPTED]
    assert [c.data["command_id"] for c in commands] == [f"c{i}" for i in range(len(commands))]
    for c in commands:
        assert set(c.data) == {"seat", "command", "command_id", "at"}
        assert isinstance(c.data["at"], int) and c.data["at"] > 1_600_000_000_000
        assert c.data["command"]["type"]
        # The very next event is one the rules produced, not another command.
        nxt = rec.log[c.version]  # versions are 1-based: index ``version`` is the next one
        assert not nxt.type.startswith("cloister."), nxt
    # After the set-up, every game event follows a command (no orphan events).
    for i, e in enumerate(rec.log[setup_end:], setup_end):
        if not e.type.startswith("cloister."):
            before = [x.type for x in rec.log[setup_end:i] if x.type.startswith("cloister.")]
            assert before and before[-1] == COMMAND_ACCEPTED


async def test_only_the_acting_seat_and_the_review_see_the_command(
    redis_store: RedisStore,
) -> None:
    svc = GameService(redis_store, default_registry())
    rec = await play_to_end(svc, "high-card")
    entry = next(e for e in rec.log if e.type == COMMAND_ACCEPTED)
    seat = entry.data["seat"]
    other = 1 - seat

    def seen(viewer: Any) -> dict[str, Any]:
        (wire,) = wire_events(rec, [entry], viewer)
        assert wire.text == ""  # bookkeeping: no log line (its events say what it did)
        return dict(wire.data)

    assert seen(seat_viewer(seat)) == entry.data
    assert seen(REVIEW) == entry.data
    for viewer in (SPECTATOR, seat_viewer(other)):
        assert seen(viewer) == {"seat": seat, "at": entry.data["at"]}


def exported(rec: GameRecord) -> list[dict[str, Any]]:
    """The log as ``cloister export`` writes it (the review audience's events)."""
    return [
        {"version": w.version, "type": w.type, "data": orjson.loads(orjson.dumps(w.data))}
        for w in wire_events(rec, rec.log, REVIEW)
    ]


@pytest.mark.parametrize("type_name", sorted(default_registry()))
async def test_a_finished_game_re_decides_exactly(redis_store: RedisStore, type_name: str) -> None:
    svc = GameService(redis_store, default_registry())
    rec = await play_to_end(svc, type_name, f"seed-{type_name}")
    events = exported(rec)
    replayed = replay(svc.registry, events)
    assert replayed.seed == f"seed-{type_name}"
    assert replayed.commands == sum(e["type"] == COMMAND_ACCEPTED for e in events)
    assert [(t, d) for t, d, _ in replayed.events] == [(e["type"], e["data"]) for e in events]
    assert replayed.state == rec.state
    # The server's own record (what the verify route checks) re-decides just the same.
    verdict = report(svc.registry, [{"type": e.type, "data": e.data} for e in rec.log])
    assert verdict["verified"] is True, verdict
    assert verdict["seed"] == f"seed-{type_name}" and verdict["commands"] == replayed.commands


# -- imports are re-decided (item 5) --------------------------------------------------------
def renumbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Versions made consistent again, so only re-deciding can catch the forgery."""
    return [{**e, "version": i} for i, e in enumerate(events, 1)]


def _first(events: list[dict[str, Any]], type_: str) -> int:
    return next(i for i, e in enumerate(events) if e["type"] == type_)


def _game_events(events: list[dict[str, Any]]) -> list[int]:
    start = _first(events, COMMAND_ACCEPTED)
    return [i for i, e in enumerate(events) if i > start and not e["type"].startswith("cloister.")]


def _set(events: list[dict[str, Any]], i: int, **data: Any) -> list[dict[str, Any]]:
    out = [dict(e) for e in events]
    out[i] = {**out[i], "data": {**out[i]["data"], **data}}
    return out


def mutations(events: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    cmd = _first(events, COMMAND_ACCEPTED)
    seat = _first(events, "cloister.SeatTaken")
    game = _game_events(events)
    ended = _first(events, "GameEnded")
    bot_seat = next(i for i, e in enumerate(events) if e["type"] == "cloister.SeatTaken")
    return {
        "command from seat -1": _set(events, cmd, seat=-1),
        "seat taken as -1": _set(events, seat, seat=-1),
        "a game event duplicated": renumbered(
            [*events[: game[0] + 1], events[game[0]], *events[game[0] + 1 :]]
        ),
        "a game event dropped": renumbered(events[: game[0]] + events[game[0] + 1 :]),
        "two events swapped": renumbered(
            [*events[: game[0]], events[game[0] + 1], events[game[0]], *events[game[0] + 2 :]]
        ),
        "a command dropped": renumbered(events[:cmd] + events[cmd + 1 :]),
        "forged scores": _set(events, ended, scores=[99] * len(events[ended]["data"]["scores"])),
        "a second GameCreated": renumbered([*events[:3], events[0], *events[3:]]),
        "a 200,000-character bot name": _set(events, bot_seat, name="B" * 200_000, bot="random"),
        "another seed revealed": _set(events, len(events) - 1, seed="guess"),
        "a forged commitment": _set(
            events, 0, seed_commitment={"hash": "sha256", "digest": "0" * 64}
        ),
        "a command another seat made": _set(events, cmd, seat=1 - events[cmd]["data"]["seat"]),
        "an event with no command": renumbered([*events[:-2], events[game[0]], *events[-2:]]),
        "an unknown platform event": renumbered(
            [*events[:cmd], {"type": "cloister.Nonsense", "data": {}}, *events[cmd:]]
        ),
        "the seed revealed early": renumbered([*events[:cmd], events[-1], *events[cmd:-1]]),
        "versions out of order": [
            {**e, "version": 3} if i == 4 else e for i, e in enumerate(events)
        ],
    }


async def test_forged_logs_are_refused_naming_the_first_mismatch_and_none_is_stored(
    redis_store: RedisStore,
) -> None:
    svc = GameService(redis_store, default_registry())
    rec = await play_to_end(svc, "high-card", "fair-and-square")
    events = exported(rec)
    stored = set(await redis_store.game_ids())
    for name, bad in mutations(events).items():
        with pytest.raises(Mismatch) as caught:
            replay(svc.registry, bad)
        assert caught.value.message.startswith(f"version {caught.value.version}: "), name
        with pytest.raises(ServiceError) as refused:
            await svc.import_log(bad)
        assert refused.value.code == "import_mismatch", (name, refused.value.message)
        assert refused.value.message == caught.value.message
        assert len(refused.value.message) < 1000, name  # a 200,000-character name is not echoed
    assert set(await redis_store.game_ids()) == stored
    # The untouched log imports, as the same game with the revealed seed.
    copy = await svc.import_log(events)
    assert copy.terminal and copy.state == rec.state and copy.seed == "fair-and-square"


async def test_a_forged_campus_galli_log_is_refused(redis_store: RedisStore) -> None:
    svc = GameService(redis_store, default_registry())
    rec = await play_to_end(svc, "campus-galli")
    events = exported(rec)
    # Every game event changed in turn, a number in its data bumped: none is accepted.
    forged = 0
    for i in _game_events(events)[:40]:
        data = events[i]["data"]
        key = next((k for k, v in data.items() if isinstance(v, int) and k != "seat"), None)
        if key is None:
            continue
        bad = _set(events, i, **{key: data[key] + 1})
        with pytest.raises(ServiceError) as refused:
            await svc.import_log(bad)
        assert refused.value.code == "import_mismatch"
        assert refused.value.message.startswith(f"version {i + 1}: the rules produce ")
        forged += 1
    assert forged >= 5
    assert len(await redis_store.game_ids()) == 1


async def test_unfinished_and_hidden_logs_are_refused(redis_store: RedisStore) -> None:
    svc = GameService(redis_store, default_registry())
    rec = await play_to_end(svc, "high-card")
    events = exported(rec)
    for cut in (3, len(events) - 1, _first(events, COMMAND_ACCEPTED) + 2):
        with pytest.raises(ServiceError) as refused:
            await svc.import_log(events[:cut])
        assert refused.value.code == "unfinished_log", cut
    spectator = [
        {"version": w.version, "type": w.type, "data": w.data}
        for w in wire_events(rec, rec.log, SPECTATOR)
    ]
    with pytest.raises(ServiceError) as refused:
        await svc.import_log(spectator)
    assert refused.value.code in ("unverifiable_log", "import_mismatch")


# -- logs written before this change (item 7) ------------------------------------------------
OLD = Path(__file__).parent / "data" / "pre-fairness-streams.json"


async def _write_old_stream(store: RedisStore, game_id: str, game: dict[str, Any]) -> None:
    """The recorded stream, appended as the old server appended it (one append per command)."""
    rows = game["stream"]
    version, first = 0, True
    for _, group in itertools.groupby(rows, key=lambda r: r["command_id"]):
        batch = list(group)
        new = [NewEvent(r["type"], r["data"], r["uuid"], r["schema"]) for r in batch]
        meta = {"seed": game["seed"]} if first else None
        result = await store.append(game_id, version, batch[0]["command_id"], new, meta)
        assert result.status == "ok"
        version, first = result.version, False


@pytest.mark.parametrize("type_name", ["campus-galli", "high-card", "illumination"])
async def test_logs_from_before_the_commitment_still_load_and_replay(
    redis_store: RedisStore, type_name: str
) -> None:
    game = orjson.loads(OLD.read_bytes())["games"][type_name]
    await _write_old_stream(redis_store, "g-old", game)
    svc = GameService(redis_store, default_registry())
    rec = await svc.load("g-old")
    assert rec.terminal and rec.version == len(game["stream"])
    assert not any(e.type == COMMAND_ACCEPTED for e in rec.log)
    # Folded to the same state as the game's own fold of the events; every version replays.
    events = exported(rec)
    assert rec.state_at(rec.version) == rec.state
    for v in range(0, rec.version + 1, max(1, rec.version // 10)):
        state = rec.state_at(v)
        if state is not None:
            rec.game.view(state, REVIEW)
    # Nothing to re-decide them from: said plainly, by verify and by import.
    with pytest.raises(Unverifiable) as caught:
        replay(svc.registry, events)
    assert "before games committed to their seed" in caught.value.message
    with pytest.raises(ServiceError) as refused:
        await svc.import_log(events)
    assert refused.value.code == "unverifiable_log"


# -- cloister verify ----------------------------------------------------------------------------
async def test_cloister_verify_passes_a_true_export_and_names_the_first_mismatch(
    redis_store: RedisStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from clients.cli import main

    svc = GameService(redis_store, default_registry())
    rec = await play_to_end(svc, "illumination", "open-book")
    events = exported(rec)
    header = {"version": 0, "type": "cloister.Export", "data": rec.summary()}

    def write(name: str, evs: list[dict[str, Any]]) -> str:
        path = tmp_path / name
        path.write_bytes(b"\n".join(orjson.dumps(e) for e in [header, *evs]) + b"\n")
        return str(path)

    assert main(["verify", write("good.jsonl", events)]) == 0
    said = capsys.readouterr()
    assert "verified: all" in said.out and "'open-book'" in said.out
    i = _game_events(events)[3]
    bad = write("bad.jsonl", _set(events, i, **{"_forged": 1}))
    assert main(["verify", bad]) == 1
    said = capsys.readouterr()
    assert f"NOT verified (log_mismatch): version {i + 1}: the rules produce " in said.err
    assert main(["verify", write("cut.jsonl", events[:-5])]) == 1
    assert "cannot verify" in capsys.readouterr().err


async def test_health_answers_while_a_large_import_is_re_decided(
    key_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A valid log padded with 12,000 table-talk lines (each checked character by character):
    a second or more of re-deciding, during which the server keeps answering. (Storing it
    holds Redis up no longer than a piece of it: ``python -m bench.import_stall``.)"""
    import asyncio
    import time

    import server.imports
    from tests.support import http, running_server

    spans: list[tuple[float, float]] = []
    real = replay

    def timed(*args: Any) -> Any:
        start = time.monotonic()
        try:
            return real(*args)
        finally:
            spans.append((start, time.monotonic()))

    monkeypatch.setattr(server.imports, "replay", timed)  # what imports calls
    store = RedisStore(REDIS_URL, key_prefix)
    try:
        svc = GameService(store, default_registry())
        rec = await play_to_end(svc, "high-card")
        events = exported(rec)
        talk = {"type": "cloister.Chat", "data": {"seat": 0, "text": "á" * 450}}
        big = renumbered([*events, *([talk] * 12_000)])
        with running_server(key_prefix) as base:
            async with http(base) as c:
                task = asyncio.create_task(
                    c.post("/api/games/import", json={"events": big}, timeout=300)
                )
                answers: list[tuple[float, float]] = []
                while not task.done():
                    t0 = time.monotonic()
                    r = await c.get("/api/health", timeout=60)
                    assert r.status_code == 200, r.text
                    answers.append((t0, time.monotonic()))
                    await asyncio.sleep(0.02)
                done = await task
                assert done.status_code == 201, done.text[:300]
        ((start, end),) = spans
        # Asked after the re-deciding began and answered before it ended: had it run on the
        # server's event loop, not one could be, however fast or loaded the machine (so no
        # absolute time is asserted: a loaded machine only makes the re-deciding longer).
        during = [(a, b) for a, b in answers if start <= a and b <= end]
        assert len(during) >= 2, (end - start, answers)
    finally:
        await store.delete_prefix()
        await store.close()


async def test_clock_runs_out_leave_and_retake_re_decide_and_verify(
    redis_store: RedisStore,
) -> None:
    """Clocks and absent players only change who plays a seat: the log still re-decides."""
    from server.clocks import ClockKeeper

    now = [1_800_000_000_000]
    svc = GameService(redis_store, default_registry())
    svc.now = lambda: now[0]
    keeper = ClockKeeper(svc)
    rec, _ = await svc.create_table(
        "high-card", {"clock": "move:20"}, "tick", [SeatClaim("A"), SeatClaim("B")]
    )
    bot = rec.gtype.bot("random")
    step = 0
    leave_done = expire_done = False
    while not rec.terminal:
        seat = min(rec.game.to_act(rec.state))
        if not expire_done and step == 1:
            now[0] += 25_000  # past the move clock: handed over for the clock
            assert await keeper.hand_over(rec, seat, "clock")
            await keeper.retake(rec, seat, "back-1")
            expire_done = True
        elif not leave_done and step == 2:
            await keeper.leave(rec, seat, "leave-1")
            await keeper.retake(rec, seat, "back-2")
            leave_done = True
        cmd = bot_move(bot, rec.game, rec.state, seat, Rng(f"t:{step}"))
        now[0] += 1000
        await svc.command(rec, seat, f"c{step}", rec.codec.encode_command(cmd))
        step += 1
    await keeper.close()
    types = [e.type for e in rec.log]
    assert {"cloister.ClockExpired", "cloister.SeatHandedToBot", "cloister.SeatRetaken"} <= set(
        types
    )
    events = exported(rec)
    assert report(svc.registry, events)["verified"] is True
    copy = await svc.import_log(events)
    assert copy.terminal and copy.state == rec.state
    # A handover with no clock that ran out, or a retake of a seat nobody left, is refused.
    handed = next(i for i, e in enumerate(events) if e["type"] == "cloister.SeatHandedToBot")
    expired = handed - 1
    with pytest.raises(Mismatch, match="runs out hands the seat"):
        replay(svc.registry, renumbered([*events[:handed], *events[handed + 1 :]]))
    with pytest.raises(Mismatch, match="did not run out"):
        replay(svc.registry, renumbered([*events[:expired], *events[expired + 1 :]]))
    retake = types.index("cloister.SeatRetaken")
    with pytest.raises(Mismatch, match="no bot was playing"):
        replay(
            svc.registry, renumbered([*events[: retake + 1], events[retake], *events[retake + 1 :]])
        )


async def test_the_python_client_asks_the_server_to_verify(key_prefix: str) -> None:
    from clients.client import Api, ApiError
    from tests.support import running_server

    store = RedisStore(REDIS_URL, key_prefix)
    try:
        svc = GameService(store, default_registry())
        done = await play_to_end(svc, "high-card", "client-seed")
        running, _ = await svc.create_table("high-card", None, None, [SeatClaim("A")])
        with running_server(key_prefix) as base:
            async with Api(base) as api:
                verdict = await api.verify(done.id)
                assert verdict["verified"] is True and verdict["seed"] == "client-seed"
                assert verdict["commitment"] == hashlib.sha256(b"client-seed").hexdigest()
                with pytest.raises(ApiError) as caught:
                    await api.verify(running.id)
                assert caught.value.code == "game_not_finished"
    finally:
        await store.delete_prefix()
        await store.close()


def source_copy(events: list[dict[str, Any]]) -> list[Any]:
    """The copied position's events, as the fork's GameCreated lists them."""
    fork: list[Any] = events[0]["data"]["fork"]["events"]
    return fork


async def test_a_forked_game_verifies_from_the_fork_and_is_not_imported(
    redis_store: RedisStore,
) -> None:
    from server.fork import fork_game

    svc = GameService(redis_store, default_registry())
    source = await play_to_end(svc, "high-card", "source-seed")
    at = next(e.version for e in source.log if e.type == COMMAND_ACCEPTED) + 2
    rec, _ = await fork_game(svc, source, at, [SeatClaim("A"), SeatClaim("B")])
    # Fresh randomness: the deck the source's log shows is dealt anew, hands kept.
    known = source.state_at(at)
    assert rec.state.hands == known.hands and sorted(rec.state.deck) == sorted(known.deck)
    assert rec.state.deck != known.deck
    assert rec.log[-1].type == "DeckShuffled" and rec.log[-1].data["order"] == list(rec.state.deck)
    bot = rec.gtype.bot("random")
    step = 0
    while not rec.terminal:
        seat = min(rec.game.to_act(rec.state))
        cmd = bot_move(bot, rec.game, rec.state, seat, Rng(f"f:{step}"))
        await svc.command(rec, seat, f"f{step}", rec.codec.encode_command(cmd))
        step += 1
    events = exported(rec)
    verdict = report(svc.registry, events)
    assert verdict["verified"] is True, verdict
    assert f"forked from game {source.id}" in verdict["message"]
    # The copied position must follow GameStarted exactly as GameCreated lists it.
    started = _first(events, "cloister.GameStarted")
    with pytest.raises(Mismatch, match=f"version {started + 2}: the rules produce"):
        replay(svc.registry, _set(events, started + 1, order=["forged"]))
    # ... and so must the reshuffle, decided from the fork's own seed.
    reshuffled = started + len(source_copy(events)) + 1
    assert events[reshuffled]["type"] == "DeckShuffled"
    with pytest.raises(Mismatch, match=f"version {reshuffled + 1}: the rules produce"):
        replay(svc.registry, _set(events, reshuffled, order=list(known.deck)))
    # Not imported: nobody re-decided the position it starts from.
    with pytest.raises(ServiceError) as refused:
        await svc.import_log(events)
    assert refused.value.code == "unverifiable_log"
    assert "forked from game" in refused.value.message
