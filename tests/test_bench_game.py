"""The benchmark's swap game (``bench/swapgame.py``) keeps its secrets and ends at 200 moves."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from bench.swapgame import CARDS, GAME, GAME_TYPE, MOVES, Dealt, SwapGame, Swapped, bench_registry
from domain import REVIEW, SPECTATOR, Context, Rng, default_registry, seat_viewer
from domain.secrets import UndeclaredSecrets
from domain.viewers import Viewer
from protocol import GameCodec
from tests.support import play_random_game, running_server


def test_the_cards_are_conserved_and_the_match_ends_after_200_moves() -> None:
    state = GAME.initial_state({})
    for e in GAME.setup(state, Context.for_version("swap", 0)):
        state = GAME.evolve(state, e)
    rng = Rng(1)
    for n in range(MOVES):
        assert not GAME.is_terminal(state) and GAME.to_act(state) == {n % 2}
        command = rng.choice(list(GAME.legal_commands(state, n % 2)))
        for e in GAME.decide(state, n % 2, command, Context.for_version("swap", n + 1)):
            state = GAME.evolve(state, e)
        assert sorted(state.deck + state.hands[0] + state.hands[1]) == sorted(CARDS)
    assert GAME.is_terminal(state) and GAME.legal_commands(state, 0) == []


def test_it_is_registered_only_for_the_benchmark() -> None:
    assert GAME.name not in default_registry()
    assert bench_registry()[GAME.name] is GAME_TYPE


@pytest.mark.redis
async def test_a_match_over_the_server_leaks_no_card(key_prefix: str) -> None:
    with running_server(key_prefix, bench_registry()) as base:
        out = await play_random_game(base, GAME_TYPE, {}, seed=3)
    assert out["commands"] == MOVES


def _by_hand(event: Any, viewer: Viewer) -> Any:
    """The swap game's redaction as it was written by hand, before its events declared
    their secrets: the kernel's must send exactly this."""
    if viewer.omniscient:
        return event
    if isinstance(event, Dealt):
        hands = tuple(h if viewer.sees_seat(s) else None for s, h in enumerate(event.hands))
        return Dealt(None, hands)
    if viewer.sees_seat(event.seat):
        return event
    return Swapped(event.seat, event.index, None, None)


def test_the_declared_secrets_send_what_the_hand_redaction_sent() -> None:
    codec = GameCodec.for_game(GAME)
    state = GAME.initial_state({})
    events = list(GAME.setup(state, Context.for_version("swap", 0)))
    for e in events:
        state = GAME.evolve(state, e)
    rng = Rng(2)
    for n in range(12):
        command = rng.choice(list(GAME.legal_commands(state, n % 2)))
        new = list(GAME.decide(state, n % 2, command, Context.for_version("swap", n + 1)))
        for e in new:
            state = GAME.evolve(state, e)
        events += new
    for viewer in (seat_viewer(0), seat_viewer(1), SPECTATOR, REVIEW):
        for e in events:
            mine, theirs = GAME.redact(e, viewer), _by_hand(e, viewer)
            assert codec.encode_event(mine) == codec.encode_event(theirs), (viewer, e)
    dealt = GAME.redact(events[0], seat_viewer(1))
    assert dealt.deck is None and dealt.hands[0] is None and dealt.hands[1]


@attrs.frozen
class _Peeked:  # an event type made without domain.secrets.event: nothing declared
    seat: int
    card: str


class _PeekingSwap(SwapGame):
    event_types = (*SwapGame.event_types, _Peeked)


def test_an_undeclared_event_of_the_swap_game_is_refused() -> None:
    with pytest.raises(UndeclaredSecrets, match="_Peeked declares no secrets"):
        _PeekingSwap().redact(_Peeked(0, "k01"), seat_viewer(1))


async def test_the_hot_path_harness_plays_whole_matches_through_the_endpoint() -> None:
    """``bench.hotpath`` drives the real ``game_socket`` with stand-in sockets: every move
    it counts was accepted, none refused, and the direct writer carried every frame."""
    from bench.hotpath import one_round, serving
    from server.store.memory import MemoryStore

    async with serving(MemoryStore()) as app:
        _, moves = await one_round(app, games=2, matches=2, play=True)
        stats = app.state.service.stats
    assert moves == 4 * MOVES
    assert stats["commands"] == moves and stats["rejected"] == 0
