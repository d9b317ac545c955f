"""The game's words, checked over whole random games of every game and mode.

Every event is narrated for every audience (each seat, a spectator, the post-game review)
after its redaction for that audience, and every sentence must read as words: no internal
id of the game's content, no "seat N", no Python repr, no event class name, no 0-based
coordinate, no code token, and no empty line except for the game's declared bookkeeping
events (which must have none). The views' ``prompt`` (what the game waits for) is checked
the same way at states along each game. ``CLOISTER_PLAYOUTS`` scales the number of games.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from domain import REVIEW, SPECTATOR, Context, Names, Rng, default_registry, seat_viewer
from domain.game import Game, validate_options
from tests.narration_rules import content_ids, problems
from tests.scale import playouts
from tests.state_views import StateViews

REGISTRY = default_registry()
PLAYERS = ("Ann", "Brother Anselm", None, "Dee", "Eve", None, "Gus")


def _ids(game_name: str) -> re.Pattern[str] | None:
    """Every internal id of a game's content, so that none is ever read by a player."""
    return content_ids(content_id_set(game_name))


def content_id_set(game_name: str) -> frozenset[str]:
    """The internal ids of a game's content (its glossary's keys are added by the contract)."""
    ids: set[str] = set()
    if game_name == "illumination":
        from domain.illumination.content import CONTENT

        ids |= set(CONTENT.tiles) | set(CONTENT.layouts)
        ids |= {c for side in CONTENT.cards for c in side}
        ids |= {c for side in CONTENT.crusades for c in side}
        ids |= {p[0] for p in CONTENT.pairs} | set(CONTENT.card_types)
    elif game_name == "campus-galli":
        from domain.campus_galli.content import ACTIONS, SECTIONS, SHAPES, TASKS

        ids |= set(ACTIONS) | set(TASKS) | set(SECTIONS) | set(SHAPES)
    elif game_name == "road-to-enlightenment":
        from domain.road_to_enlightenment import content as rc

        c = rc.content()
        ids |= set(c.luminaries) | set(c.cities) | set(c.nations) | set(rc.STATS)
        ids |= set(rc.COLORS) | set(rc.POWER_TYPES) | set(c.medallions)
        ids |= {"ATTACK", "DIPLOMACY", "REORGANIZE", "CENSUS", "LUMINARY_ACTION", "CATH"}
        ids |= {"ANTI", "NEU", "SCIENCE", "RELIGION", "FINAL", "NONE", "SEA", "LAND"}
        ids |= {n for nation in c.nations.values() for n in nation.powers}
    elif game_name == "high-card":
        from domain.highcard.game import DECK

        ids |= set(DECK)
    return frozenset(ids)


def _combos() -> Iterator[tuple[str, dict[str, Any]]]:
    yield "illumination", {"mode": "duel"}
    yield "illumination", {"mode": "duel", "books": "random"}
    yield "illumination", {"mode": "solo", "side": "reverent", "difficulty": 2}
    yield "illumination", {"mode": "solo", "side": "irreverent", "difficulty": 6}
    for level in (1, 2, 3):
        for n in (1, 2, 3, 4):
            for mode in ("competitive", "cooperative"):
                if n == 1 and mode == "competitive":
                    continue
                yield "campus-galli", {"level": level, "players": n, "mode": mode}
    for n in (2, 3, 4, 5, 6, 7):
        for length in ("short", "long"):
            nations = "random" if n in (3, 6) else "seats"
            yield "road-to-enlightenment", {"players": n, "length": length, "nations": nations}
    yield "high-card", {"players": 3}


COMBOS = list(_combos())


def playout(game: Game[Any, Any, Any], options: dict[str, Any], seed: int) -> Iterator[Any]:
    """Yield (state, events) after set-up and after each command of a random game."""
    options = validate_options(game, options)
    state = game.initial_state(options)
    events = list(game.setup(state, Context.seeded(f"setup-{seed}")))
    for e in events:
        state = game.evolve(state, e)
    yield state, events
    rng = Rng(f"narration-{seed}")
    for step in range(20000):
        if game.is_terminal(state):
            return
        seat = rng.choice(sorted(game.to_act(state)))
        command = rng.choice(list(game.legal_commands(state, seat)))
        events = list(game.decide(state, seat, command, Context.seeded(f"{seed}-{step}")))
        for e in events:
            state = game.evolve(state, e)
        yield state, events
    raise AssertionError("the random game did not end")


def _audiences(n: int) -> list[Any]:
    return [*(seat_viewer(s) for s in range(n)), SPECTATOR, REVIEW]


@pytest.mark.parametrize(
    ("game_name", "options"), COMBOS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(COMBOS)]
)
def test_every_line_and_prompt_reads_as_words(game_name: str, options: dict[str, Any]) -> None:
    game = REGISTRY[game_name].game
    ids = _ids(game_name)
    event_names = [t.__name__ for t in game.event_types if len(t.__name__) > 3]
    quiet = tuple(game.quiet_events)
    opts = validate_options(game, options)
    labels = tuple(game.seat_labels(opts))
    audiences = _audiences(len(labels))
    bad: list[str] = []
    seen: set[str] = set()
    for g in range(max(1, playouts(1))):
        log: list[Any] = []
        state = None
        for k, (state, events) in enumerate(playout(game, options, g)):
            log += events
            if k % 7 == 0 or game.is_terminal(state):
                views = StateViews(game, state)  # (the full view built once per state)
                for viewer in audiences:
                    if viewer is REVIEW and not game.is_terminal(state):
                        continue
                    text = views(viewer).get("prompt")
                    if len(str(text).split()) < 3:
                        bad.append(f"prompt for {viewer}: {text!r} is not a sentence")
                    for p in problems(text, ids, event_names):
                        bad.append(f"prompt for {viewer}: {p}: {text!r}")
        assert state is not None and game.is_terminal(state)
        table = tuple(game.table_labels(state, labels))
        for e in log:
            seen.add(type(e).__name__)
            for viewer in audiences:
                red = game.redact(e, viewer)
                if red is None:
                    continue
                names = Names(table, PLAYERS[: len(table)], viewer)
                text = game.narrate(red, names)
                if isinstance(e, quiet):
                    if text is not None:
                        bad.append(f"bookkeeping {type(e).__name__} has a line: {text!r}")
                    continue
                for p in problems(text, ids, event_names):
                    bad.append(f"{type(e).__name__} for {viewer}: {p}: {text!r}")
        result = game.result(state)
        assert result is not None and result.summary
        ending = [game.narrate(e, Names(table, (), REVIEW)) for e in log[-3:]]
        assert any(t and result.summary in t for t in ending), (result.summary, ending)
    unique = sorted(set(bad))
    assert not unique, f"{len(unique)} problems, e.g.:\n" + "\n".join(unique[:40])


@pytest.mark.parametrize(
    ("game_name", "text"),
    [
        ("road-to-enlightenment", "StageSet"),
        ("road-to-enlightenment", "seat 1: Michiel de Ruyter pile:RED -> hand (deal)"),
        ("road-to-enlightenment", "seat 2 declares LUMINARY_ACTION in slot 1"),
        ("road-to-enlightenment", "seat 1 SCI marker to 5 (advance)"),
        ("road-to-enlightenment", "France takes the ART6 medallion"),
        ("road-to-enlightenment", "slot -1: Draft"),
        ("illumination", "Y-Demon placed in the left Book at (0,1) (quill)"),
        ("illumination", "Reverent plays R-RITUS-2"),
        ("illumination", "Reverent draws a card (None)"),
        ("illumination", "placed on row 0, column 3 of Book 1"),
        ("campus-galli", "Monk 1 takes L1-X04"),
        ("campus-galli", "Section P-W-D2 is removed (collapse)"),
        ("campus-galli", "Event T3-01 concerns Monk 1; dice [['B']]"),
        ("campus-galli", "Monk 2 lays H-R-O4 at (3,4)"),
        ("campus-galli", ""),
        ("high-card", "Player 1 draws hc-07"),
    ],
)
def test_the_rules_catch_the_engines_language(game_name: str, text: str) -> None:
    game = REGISTRY[game_name].game
    names = [t.__name__ for t in game.event_types if len(t.__name__) > 3]
    assert problems(text, _ids(game_name), names), text


def test_the_rules_pass_the_rulebooks_language() -> None:
    for game_name, text in [
        ("illumination", "Ann (Reverent) places a yellow Knight on row 1, column 2 of Book 1"),
        ("campus-galli", "Monk 2 lays the red square at column 3, row 4, on the Church (A)"),
        ("road-to-enlightenment", "Brother Anselm (England) drafts Isaac Newton"),
        ("road-to-enlightenment", "Ann (France) takes the art medallion of space 6"),
    ]:
        game = REGISTRY[game_name].game
        names = [t.__name__ for t in game.event_types if len(t.__name__) > 3]
        assert problems(text, _ids(game_name), names) == [], text


def test_illumination_narrates_each_audience_from_its_own_seat_in_any_order() -> None:
    """The narrator keeps the last audience's reader (``describe.narrate``): a sentence for
    another audience, or for an equal audience built anew, reads from that audience's seat,
    whatever was narrated just before."""
    from domain.illumination import events as ev

    game = default_registry()["illumination"].game
    placed = ev.TilePlaced(0, "R01", 0, 0, "quill")
    labels, players = ("Reverent", "Irreverent"), ("Ann", "Bob")
    south, north = Names(labels, players, seat_viewer(0)), Names(labels, players, seat_viewer(1))
    seen = [game.narrate(placed, n) for n in (south, north, south, north)]
    assert seen[0] == seen[2] and seen[1] == seen[3] and seen[0] != seen[1]
    assert "row 1, column 1 of Book 1" in str(seen[0])
    assert "row 5, column 5 of Book 3" in str(seen[1])
    again = Names(labels, players, seat_viewer(1))  # equal, not the same object
    assert game.narrate(placed, again) == seen[1]
