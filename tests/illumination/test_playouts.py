"""Random playouts: termination, conservation, replay equality, no leaks, codec round trips.

``CLOISTER_PLAYOUTS`` multiplies the default of 200 games per mode (e.g. ``10`` for a soak).
"""

from __future__ import annotations

import pytest

from domain.game import fold
from domain.illumination import GAME
from tests.illumination.illum_support import CODEC, random_game
from tests.scale import playouts

DUEL = {"mode": "duel", "side": "reverent", "difficulty": 2, "books": "standard"}


def solo(i: int) -> dict[str, object]:
    return {
        "mode": "solo",
        "side": "reverent" if i % 2 == 0 else "irreverent",
        "difficulty": 1 + i % 8,
        "books": "standard" if i % 3 else "random",
    }


def _check_game(options: dict[str, object], seed: int, leak_views: int) -> None:
    initial, log, final = random_game(options, seed, leak_views=leak_views)
    assert GAME.is_terminal(final)
    assert GAME.result(final) is not None
    assert fold(GAME, initial, log) == final, "replay differs"


@pytest.mark.slow  # (tests/conftest.py runs these first)
@pytest.mark.parametrize("mode", ["duel", "solo"])
def test_random_playouts(mode: str) -> None:
    # Conservation is checked after every event; the redacted events and every viewer's view
    # are searched for hidden ids after every command of every game.
    for i in range(playouts(200)):
        options = DUEL if mode == "duel" else solo(i)
        if mode == "duel" and i % 5 == 4:
            options = {**DUEL, "books": "random"}
        _check_game(options, 1000 * (mode == "solo") + i, leak_views=1)


def test_events_and_commands_round_trip_through_the_codec() -> None:
    from domain.illumination.legal import legal_commands
    from tests.illumination.illum_support import iter_states

    for options in (DUEL, solo(1), solo(2)):
        _, log, _ = random_game(options, 7, check=False)
        for e in log:
            data = CODEC.encode_event(e)
            assert CODEC.decode_event(type(e).__name__, data) == e
        for state in iter_states(options, 7, every=3):
            for seat in GAME.to_act(state):
                for command in legal_commands(state, seat):
                    raw = CODEC.encode_command(command)
                    assert CODEC.decode_command(raw) == command


def test_every_event_has_a_log_line() -> None:
    from domain import SPECTATOR, Names

    for options, labels in ((solo(3), ("Irreverent",)), (DUEL, ("Reverent", "Irreverent"))):
        _, log, _ = random_game(options, 11, check=False)
        for e in log:
            text = GAME.narrate(GAME.redact(e, SPECTATOR), Names(labels))
            assert text and type(e).__name__ not in text
