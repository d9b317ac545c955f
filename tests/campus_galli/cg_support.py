"""Shared helpers for the Campus Galli tests: set-up, playouts and invariants."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from domain.bots import RandomBot, bot_move
from domain.campus_galli import GAME
from domain.campus_galli.content import ACTIONS, SECTIONS, TASKS
from domain.campus_galli.queries import uncovered_wooden
from domain.campus_galli.state import State
from domain.narration import Names
from domain.randomness import Context, Rng
from domain.simultaneous import ChoiceCommitted
from domain.viewers import SPECTATOR, Viewer, seat_viewer
from protocol.codec import GameCodec
from tests.state_views import StateViews

CODEC = GameCodec(GAME)
COMBOS = [
    (level, n, mode)
    for level in (1, 2, 3)
    for n in (1, 2, 3, 4)
    for mode in ("competitive", "cooperative")
    if not (n == 1 and mode == "competitive")
]


def new_game(
    level: int = 1, players: int = 2, mode: str = "competitive", seed: str = "s"
) -> tuple[State, list[Any]]:
    state = GAME.initial_state({"level": level, "players": players, "mode": mode})
    events = list(GAME.setup(state, Context.seeded(seed)))
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def apply(state: State, seat: int, command: Any, seed: str = "d") -> tuple[State, list[Any]]:
    events = list(GAME.decide(state, seat, command, Context.seeded(seed)))
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def check_invariants(state: State) -> None:
    level = state.level
    # sections: each in exactly one place
    places: list[str] = list(state.hut) + list(state.bag) + [s for s, _ in state.placed]
    if state.turn is not None and state.turn.holding and not state.turn.moving:
        places.append(state.turn.holding)
    if level == 1:
        places += [s for s, sec in SECTIONS.items() if sec.joker]
    assert sorted(places) == sorted(SECTIONS), "sections not conserved"
    cover = 0
    for _, m in state.placed:
        assert not cover & m, "sections overlap"
        cover |= m
    assert cover == state.cover
    # monks
    for seat, p in enumerate(state.players):
        on_plan = sum(1 for m in state.monks if m.owner == seat and not m.marker)
        assert p.supply + on_plan == 15, f"monks of seat {seat} not conserved"
        assert p.supply >= 0
    unc = uncovered_wooden(state)
    for m in state.monks:
        if m.kind == "lazy":
            assert 1 <= bin(m.gap).count("1") <= 3 and m.gap & ~unc == 0, "bad lazy-monk gap"
    # tiles
    if level > 1:
        total = sum(state.tile_supply) + sum(sum(p.tiles) for p in state.players)
        assert total == 48, "tiles not conserved"
        assert min(state.tile_supply) >= 0 and all(min(p.tiles) >= 0 for p in state.players)
    # action cards
    if state.phase != "setup":
        cards: list[str] = list(state.box)
        for p in state.players:
            cards += [*p.this_year, *p.next_year, *p.hand, *p.used, *p.library, *p.guests]
            if p.selected:
                cards.append(p.selected)
        for pile in state.unfinished:
            cards += pile
        t = state.turn
        if t is not None and t.free and t.card:
            p = state.players[t.seat]
            if t.card not in p.library and t.card not in p.guests:
                cards.append(t.card)
        expected = [c for c, a in ACTIONS.items() if a.level <= level]
        assert sorted(cards) == sorted(expected), "action cards not conserved"
    # task cards
    tasks = list(state.task_deck) + list(state.task_discard) + list(state.set_aside)
    tasks += list(state.reminders) + [c for c, s in state.board if s != "taken"]
    for p in state.players:
        tasks += p.fulfilled
    assert sorted(tasks) == sorted(t for t, c in TASKS.items() if c.level <= level), "tasks"


# Every secret id (action card L1-X01/ANG-1, task card T1-01) has this form, so one scan
# finds them all.
_ID = re.compile(r"(?:L[123]-[A-Z]+\d\d|ANG-\d|T[123]-\d\d)")


def viewers(n: int) -> list[Viewer]:
    return [*(seat_viewer(s) for s in range(n)), SPECTATOR]


def check_no_leak(state: State, events: list[Any], views: StateViews | None = None) -> None:
    """``views``: the state's views, computed once for this check and the next bot."""
    views = views or StateViews(GAME, state)
    # Secret answers (card selection, event and feast/study-day answers) are made of public
    # ids, so the id scan below cannot see them: check the commit itself is redacted.
    for e in events:
        if isinstance(e, ChoiceCommitted):
            for viewer in viewers(state.n):
                if viewer.seat != e.seat:
                    assert GAME.redact(e, viewer).choice is None, f"answer leaked to {viewer}"
    for viewer in viewers(state.n):
        hidden = GAME.hidden_values(state, viewer)
        if not hidden:
            continue
        blob = orjson.dumps(views(viewer)).decode()
        for e in events:
            r = GAME.redact(e, viewer)
            if r is not None:
                blob += orjson.dumps(CODEC.encode_event(r)).decode()
        leaked = set(_ID.findall(blob)) & hidden
        assert not leaked, f"{sorted(leaked)} leaked to {viewer}"


def check_codec(events: list[Any]) -> None:
    for e in events:
        names = Names(tuple(f"Monk {i + 1}" for i in range(4)))
        assert GAME.narrate(GAME.redact(e, SPECTATOR), names), "every event has a log line"
        data = orjson.loads(orjson.dumps(CODEC.encode_event(e)))
        assert CODEC.decode_event(type(e).__name__, data) == e


Chooser = Callable[[State, int, Rng], Any]


def random_chooser() -> Chooser:
    bot = RandomBot()
    return lambda state, seat, rng: bot_move(bot, GAME, state, seat, rng)


def play(
    level: int,
    n: int,
    mode: str,
    seed: int,
    choosers: list[Chooser] | None = None,
    checks: bool = True,
    leak_every: int = 1,
) -> tuple[State, list[Any], int]:
    state, log = new_game(level, n, mode, f"setup-{seed}")
    views = StateViews(GAME, state)
    if checks:
        check_invariants(state)
        check_no_leak(state, log, views)
        check_codec(log)
    rng = Rng(seed)
    bot = RandomBot()
    steps = 0
    while not GAME.is_terminal(state):
        acting = sorted(GAME.to_act(state))
        assert acting, "not terminal but nobody to act"
        seat = acting[0]
        if choosers is None:
            # random_chooser()'s move, with the view the leak check rendered of this state
            command = views.bot_move(bot, seat, rng)
        else:
            command = choosers[seat](state, seat, rng)
        events = list(GAME.decide(state, seat, command, Context.seeded(f"{seed}:{steps}")))
        for e in events:
            state = GAME.evolve(state, e)
            if checks:
                check_invariants(state)
        views = StateViews(GAME, state)
        if checks:
            raw = orjson.loads(orjson.dumps(CODEC.encode_command(command)))
            assert CODEC.decode_command(raw) == command
            check_codec(events)
            if steps % leak_every == 0:
                check_no_leak(state, events, views)
        log += events
        steps += 1
        assert steps < 5000, "game did not terminate"
    return state, log, steps


def iter_states(level: int, n: int, mode: str, seed: int) -> Iterator[State]:
    """Every state a random game passes through where someone must act."""
    state, _ = new_game(level, n, mode, f"setup-{seed}")
    rng = Rng(seed)
    bot = RandomBot()
    steps = 0
    while not GAME.is_terminal(state):
        yield state
        seat = sorted(GAME.to_act(state))[0]
        cmd = bot_move(bot, GAME, state, seat, rng)
        for e in GAME.decide(state, seat, cmd, Context.seeded(f"{seed}:{steps}")):
            state = GAME.evolve(state, e)
        steps += 1
