"""A fork's fresh randomness (issue 13, item 6): each game's ``fork_reshuffle``.

Forking a finished game copies its position, whose deck orders anyone could read in the
source's public log. For every game: after ``fork_reshuffle`` the hidden order differs from
the source's (for a seeded case) while holding the same cards, every seat's and the
spectators' view is unchanged (the public position and the hands), and the game then plays
on to its end under the whole game contract (``tests/game_contract.py``: legal commands
exact, no secret leaked by the reshuffle's events or their narration, replay).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from domain import Context, default_registry
from domain.game import fork_reshuffle
from domain.highcard import GAME as HIGH_CARD
from domain.secrets import declaration
from tests.game_contract import Playout, _viewers

REGISTRY = default_registry()


def _highcard(state: Any) -> list[tuple[str, ...]]:
    return [state.deck]


def _illumination(state: Any) -> list[tuple[str, ...]]:
    zones = []
    for p in state.players:
        # the face-down (full) stacks as one zone: their tiles are mixed between them
        zones += [p.deck, tuple(t for st in p.stacks if len(st) == 3 for t in st)]
    return zones


def _campus_galli(state: Any) -> list[tuple[str, ...]]:
    return [
        state.task_deck,
        *(p.this_year for p in state.players),
        *(pile[1:] for pile in state.unfinished),
    ]


def _road(state: Any) -> list[tuple[str, ...]]:
    return [*(state.piles[k] for k in sorted(state.piles)), *(p.deck for p in state.players)]


HIDDEN: dict[str, tuple[Callable[[Any], list[tuple[str, ...]]], dict[str, Any], int]] = {
    "high-card": (_highcard, {"players": 2}, 1),
    "illumination": (_illumination, {}, 12),
    "campus-galli": (_campus_galli, {"level": 3}, 12),
    "road-to-enlightenment": (_road, {}, 12),
}
"""Per game: its face-down zones (in their order), options that have them all, and after
how many commands to fork (while the zones still hold cards)."""


class ForkPlayout(Playout):
    """A contract playout forked (reshuffled) after ``fork_at`` commands."""

    def __init__(self, name: str, seed: int) -> None:
        zones, options, fork_at = HIDDEN[name]
        super().__init__(REGISTRY[name], options, seed)
        self.zones, self.fork_at, self.forked = zones, fork_at, False

    def step(self, state: Any, step: int) -> Any:
        if step == self.fork_at:
            state = self.fork(state)
        return super().step(state, step)

    def fork(self, state: Any) -> Any:
        game = self.game
        ctx = Context.seeded(f"fork-{self.seed}")
        events = list(fork_reshuffle(game, state, ctx))
        assert events == list(fork_reshuffle(game, state, Context.seeded(f"fork-{self.seed}")))
        assert events, f"{game.name} has face-down zones to shuffle at step {self.fork_at}"
        for e in events:
            assert type(e) in game.event_types, f"{type(e).__name__} is not the game's"
            declaration(type(e))
        after = self.apply(state, events)  # the contract's secrets check on these events
        before_zones, after_zones = self.zones(state), self.zones(after)
        assert [Counter(z) for z in before_zones] == [Counter(z) for z in after_zones], (
            "a reshuffle keeps every zone's cards"
        )
        assert before_zones != after_zones, "the hidden order is dealt anew"
        for viewer in _viewers(self.n):
            seen = orjson.dumps(game.view(state, viewer), default=self.codec.default)
            now = orjson.dumps(game.view(after, viewer), default=self.codec.default)
            assert seen == now, f"{viewer}'s view changed at the fork"
        self.forked = True
        return after


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_a_fork_deals_the_hidden_anew_and_plays_on(name: str) -> None:
    assert set(HIDDEN) == set(REGISTRY), "every game says what it hides"
    playout = ForkPlayout(name, seed=7)
    final = playout.run()
    assert playout.forked and playout.game.is_terminal(final)


def test_a_game_with_nothing_hidden_reshuffles_nothing() -> None:
    """The kernel's default (``GameBase.fork_reshuffle``), and a game object without it."""

    class Plain:
        pass

    state = HIGH_CARD.initial_state({"players": 2})  # before the deal: the deck is empty
    assert fork_reshuffle(HIGH_CARD, state, Context.seeded(1)) == []
    assert fork_reshuffle(Plain(), state, Context.seeded(1)) == ()  # type: ignore[arg-type]
