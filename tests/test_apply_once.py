"""A command's events are folded once: the rules fold them as they decide them (their
``Transaction``), the server takes that state (``decide_and_fold``) to know whether the game
ends, and applying them takes it too instead of evolving again."""

from __future__ import annotations

from typing import Any

import pytest

from domain import default_registry, fold
from domain.illumination import turn
from server.games import GameService, SeatClaim
from server.store.memory import MemoryStore


async def test_each_event_of_a_command_is_evolved_once_and_the_state_is_the_logs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = GameService(MemoryStore(), default_registry())
    rec, _ = await service.create_table(
        "illumination", {"mode": "duel"}, "seed", [SeatClaim("a"), SeatClaim("b")]
    )
    game = rec.game
    calls: list[Any] = []
    real = type(game).evolve

    def counting(state: Any, event: Any) -> Any:
        calls.append(event)
        return real(game, state, event)

    monkeypatch.setattr(game, "evolve", counting)
    # The rules' own transaction folds through the same function, not through the game.
    monkeypatch.setattr(turn, "apply", lambda state, event: counting(state, event))
    for n in range(6):
        (seat,) = rec.to_act()
        before, version = rec.state, rec.version
        legal = rec.codec.encode_commands(game.legal_commands(rec.state, seat))
        calls.clear()
        await service.command(rec, seat, f"c{n}", legal[n % len(legal)])
        events = [e.event for e in rec.log[version:] if e.event is not None]
        assert events and calls == events  # once each, in order
        assert rec.state == fold(game, before, events)
