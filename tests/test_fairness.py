"""Provably fair randomness (issue 13, item 4): the seed commitment, the command record, the
seed's reveal at the end, and what each audience sees of them."""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
import pytest

from domain import REVIEW, SPECTATOR, Rng, default_registry, seat_viewer
from server.games import (
    COMMAND_ACCEPTED,
    GAME_CREATED,
    SEED_REVEALED,
    GameRecord,
    GameService,
    SeatClaim,
)
from server.hub import wire_events
from server.store.redis import RedisStore

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
        cmd = bot.choose(rec.game, rec.state, seat, Rng(f"t:{step}"))
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
        assert wire.text.endswith("makes a move")
        return dict(wire.data)

    assert seen(seat_viewer(seat)) == entry.data
    assert seen(REVIEW) == entry.data
    for viewer in (SPECTATOR, seat_viewer(other)):
        assert seen(viewer) == {"seat": seat, "at": entry.data["at"]}
