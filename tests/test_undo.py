"""Undo up to the information horizon (issue 13, item 3), on every game, by random playouts.

The log is built as the server builds it (``cloister.CommandAccepted`` before each
command's events, ``cloister.Undone`` for an undo) and read with ``server.undo``, the very
code the server folds and refuses with. At every allowed undo the playout checks that it

* never crosses a horizon: every undone event is a non-horizon of the undoer's own commands;
* never reveals anything: for every viewer, nothing it received in the undone stretch (the
  redacted events and its views) names a value hidden from it at the target version;
* restores the state: the fold of the log with the undo equals the state before the undone
  commands;

and that no other seat is ever offered an undo of somebody else's move.
"""

from __future__ import annotations

from typing import Any

import attrs
import orjson
import pytest

from domain import SPECTATOR, Context, Names, Rng, default_registry, seat_viewer
from domain.game import validate_options
from domain.undo import is_horizon
from protocol import GameCodec
from server.undo import (
    COMMAND_ACCEPTED,
    GAME_STARTED,
    UNDONE,
    fold_log,
    undo_options,
    undone_versions,
)
from tests.state_views import StateViews

REGISTRY = default_registry()


@attrs.define
class Entry:
    version: int
    type: str
    data: dict[str, Any]
    event: Any = None


class Log:
    """An in-memory game log shaped like the server's."""

    def __init__(self, type_name: str, options: dict[str, Any], seed: str) -> None:
        self.game = REGISTRY[type_name].game
        self.options = validate_options(self.game, options)
        self.codec = GameCodec.for_game(self.game)
        self.seed = seed
        self.entries: list[Entry] = []
        self.states: dict[int, Any] = {}
        self._views: dict[int, StateViews] = {}
        self._texts: dict[tuple[int, Any], str] = {}
        self.state: Any = None
        n = self.game.seat_count(self.options)
        self.names = Names(tuple(self.game.seat_labels(self.options)))
        self.viewers = [seat_viewer(i) for i in range(n)] + [SPECTATOR]
        self._add("cloister.GameCreated", {"type": type_name})
        for i in range(n):
            self._add("cloister.SeatTaken", {"seat": i, "name": f"p{i}", "bot": None})
        self.state = self.game.initial_state(self.options)
        self._add(GAME_STARTED, {})
        ctx = Context.for_version(seed, self.version)
        for e in self.game.setup(self.state, ctx):
            self.state = self.game.evolve(self.state, e)
            self._add(type(e).__name__, {}, e)

    @property
    def version(self) -> int:
        return len(self.entries)

    def _add(self, type_: str, data: dict[str, Any], event: Any = None) -> None:
        self.entries.append(Entry(self.version + 1, type_, data, event))
        self.states[self.version] = self.state

    def command(self, seat: int, command: Any) -> list[Any]:
        ctx = Context.for_version(self.seed, self.version)
        events = self.game.decide(self.state, seat, command, ctx)
        self._add(COMMAND_ACCEPTED, {"seat": seat, "command": {}, "command_id": "", "at": 0})
        for e in events:
            self.state = self.game.evolve(self.state, e)
            self._add(type(e).__name__, {}, e)
        return list(events)

    def undo(self, seat: int, target: int, count: int) -> None:
        self.state = fold_log(self.game, self.options, self.entries, target)
        self._add(UNDONE, {"to_version": target, "seat": seat, "commands": count, "at": 0})
        assert fold_log(self.game, self.options, self.entries) == self.state

    def seen(self, viewer: Any, entries: list[Entry]) -> str:
        """Everything ``viewer`` received for ``entries``: redacted events, then views."""
        parts = []
        for e in entries:
            if e.event is not None:
                red = self.game.redact(e.event, viewer)
                if red is not None:
                    parts.append(orjson.dumps(self.codec.encode_event(red)).decode())
            parts.append(self._view_text(self.states[e.version], viewer))
        return "\n".join(parts)

    def _view_text(self, state: Any, viewer: Any) -> str:
        """``game.view(state, viewer)`` as JSON, each computed once: the stretches checked
        overlap, a command's entries share a state, and the full view serves every viewer."""
        views = self._views.get(id(state))  # (the StateViews keeps the state, and its id)
        if views is None:
            views = self._views[id(state)] = StateViews(self.game, state)
        text = self._texts.get((id(state), viewer))
        if text is None:
            text = orjson.dumps(views(viewer), default=self.codec.default).decode()
            self._texts[id(state), viewer] = text
        return text


CASES = [
    ("high-card", {"players": 2}),
    ("high-card", {"players": 3}),
    ("illumination", {}),
    ("illumination", {"mode": "solo"}),
    ("campus-galli", {"players": 2}),
    ("campus-galli", {"players": 3, "level": 3}),
    ("campus-galli", {"players": 1, "mode": "cooperative"}),
    ("road-to-enlightenment", {"players": 3}),
    ("road-to-enlightenment", {"players": 5}),
]


def check_undo(log: Log, seat: int, target: int, count: int) -> None:
    game = log.game
    stretch = [e for e in log.entries[target:] if e.version not in undone_versions(log.entries)]
    # never crosses a horizon, never takes back another seat's command
    commands = [e for e in stretch if e.type == COMMAND_ACCEPTED]
    assert len(commands) == count
    assert all(e.data["seat"] == seat for e in commands)
    for e in stretch:
        if e.event is not None:
            assert not is_horizon(game, e.event), f"undo crosses {e.type} at {e.version}"
        else:
            assert e.type in (COMMAND_ACCEPTED, UNDONE), e.type
    # never reveals: nothing received in the undone stretch was hidden at the target
    for viewer in log.viewers:
        hidden = game.hidden_values(log.states[target], viewer)
        if not hidden:
            continue
        text = log.seen(viewer, stretch)
        for value in hidden:
            assert value not in text, f"{viewer} saw {value!r} in what the undo takes back"


@pytest.mark.parametrize(("type_name", "options"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_with_undo(type_name: str, options: dict[str, Any], seed: int) -> None:
    log = Log(type_name, options, f"undo-{seed}")
    game = log.game
    rng = Rng(f"{type_name}{options}{seed}")
    n = game.seat_count(log.options)
    undos = 0
    for _ in range(100):
        if game.is_terminal(log.state):
            break
        movers = [s for s in sorted(game.to_act(log.state)) if game.legal_commands(log.state, s)]
        if not movers:
            break
        seat = rng.choice(movers)
        log.command(seat, rng.choice(list(game.legal_commands(log.state, seat))))
        for other in range(n):
            if other != seat:
                assert not undo_options(game, log.entries, other, log.names).targets
        opts = undo_options(game, log.entries, seat, log.names)
        assert opts.reason
        if not opts.targets or rng.randint(0, 2) == 0:
            continue
        k = rng.randint(1, len(opts.targets))
        target = opts.targets[k - 1]
        check_undo(log, seat, target, k)
        before = log.states[target]
        log.undo(seat, target, k)
        assert log.state == before  # the state after the undo is the state before
        undos += 1
    # a replay at any version folds to what was seen then
    for version in range(1, log.version + 1, 7):
        assert fold_log(game, log.options, log.entries, version) == log.states[version]
    if type_name != "illumination" or options:
        assert undos > 0, "the playout never undid anything: the test would prove nothing"


def test_a_horizon_stops_the_undo_and_says_which() -> None:
    log = Log("high-card", {"players": 2}, "h")
    game = log.game
    seat = sorted(game.to_act(log.state))[0]
    draw = next(c for c in game.legal_commands(log.state, seat) if type(c).__name__ == "Draw")
    log.command(seat, draw)
    opts = undo_options(game, log.entries, seat, log.names)
    assert opts.targets == ()
    assert "revealed information or closed a turn" in opts.reason
    # the drawn card is not named in the reason (it is the drawer's, and the reason is too)
    card = log.entries[-1].event.card
    red = game.redact(log.entries[-1].event, SPECTATOR)
    assert red is not None and red.card is None and card is not None
    assert card not in undo_options(game, log.entries, 1 - seat, log.names).reason


def test_a_game_that_declares_no_horizons_has_every_event_final() -> None:
    class Bare:
        pass

    assert is_horizon(Bare(), object())
