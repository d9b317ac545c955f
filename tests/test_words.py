"""The games' words as data: glossaries, score breakdowns, prompts, and sentences that
depend on who reads them."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from domain import REVIEW, SPECTATOR, Names, default_registry, seat_viewer
from domain.game import validate_options
from tests.narration_rules import problems
from tests.test_narration import _ids, playout

REGISTRY = default_registry()


def _component_ids(game_name: str) -> set[str]:
    """Every component a page can show, which the glossary must name and explain."""
    if game_name == "illumination":
        from domain.illumination.content import CONTENT

        return (
            set(CONTENT.tiles)
            | {c for side in CONTENT.cards for c in side}
            | {c for side in CONTENT.crusades for c in side}
            | {p[0] for p in CONTENT.pairs}
            | set(CONTENT.card_types)
            | set(CONTENT.rituals)
        )
    if game_name == "campus-galli":
        from domain.campus_galli.content import ACTIONS, PLAN, SECTIONS, TASKS

        return set(ACTIONS) | set(TASKS) | set(SECTIONS) | set(PLAN.buildings)
    if game_name == "road-to-enlightenment":
        from domain.road_to_enlightenment.content import STATS, content

        c = content()
        powers = {p for n in c.nations.values() for p in n.powers}
        stats = {f"stat:{s}" for s in STATS}
        return (
            set(c.luminaries) | set(c.nations) | set(c.cities) | set(c.medallions) | powers | stats
        )
    from domain.highcard.game import DECK

    return set(DECK)


def test_names_name_a_seat_by_person_and_label() -> None:
    names = Names(("France", "England", "Spain"), ("Ann", None, "Spain"))
    assert names.seat(0) == "Ann (France)"
    assert names.seat(1) == "England"
    assert names.seat(2) == "Spain"  # a name equal to the label is not repeated
    assert names.seat(7) == "an unknown seat"  # never a number


@pytest.mark.parametrize("game_name", sorted(REGISTRY))
def test_the_glossary_names_and_explains_every_component(game_name: str) -> None:
    glossary = REGISTRY[game_name].game.glossary()
    missing = _component_ids(game_name) - set(glossary)
    assert not missing, sorted(missing)[:10]
    ids = _ids(game_name)
    for key, entry in glossary.items():
        assert entry.name and entry.kind and entry.text, key
        assert "{" not in entry.name + entry.kind + entry.text, key
        assert problems(entry.name, ids, ()) == [], (key, entry.name)
        assert len(entry.text.split()) >= 3, (key, entry.text)


def test_illumination_card_types_have_their_rules_text() -> None:
    glossary = REGISTRY["illumination"].game.glossary()
    for kind, words in {
        "RITUS": "Ritual token of your choice",
        "MOTUS": "to a new open Quill in ANY Book",
        "EXILIUM": "opponent's tiles",
        "MUTATIO": "exchange any two tiles on your Player mat",
        "PORTICUS": "two rows or columns",
        "SCRIPTUM": "on text instead of on a Quill",
    }.items():
        entry = glossary[kind]
        assert words in entry.text and entry.kind == "Scriptorium card"
        assert glossary[f"R-{kind}-1"] == glossary[f"I-{kind}-2"] == entry
    assert glossary["I03"].name == "yellow Demon"  # tile n = faction*8 + colour*2 + copy + 1
    assert glossary["CR-IRR-KNIGHT"].name == "Crusade: Knights"


def test_campus_galli_tasks_say_what_they_require_and_reward() -> None:
    glossary = REGISTRY["campus-galli"].game.glossary()
    combo = glossary["T1-09"]
    assert combo.name == "Colour combination: red and blue"
    assert "touching a blue one" in combo.text and "2 golden seals" in combo.text
    assert glossary["L1-X04"].name == "Double card 21/54"
    assert glossary["ANG-3"].name == "Angel 115"
    assert glossary["P-W-D2"].name == "White joker domino"
    assert glossary["L2-GU02"].name == "Merchant"


def _broken(package: str, change: Any) -> Any:
    raw = json.loads(resources.files(package).joinpath("data", "glossary.json").read_text())
    change(raw)
    return raw


@pytest.mark.parametrize(
    ("package", "change", "message"),
    [
        ("domain.illumination", lambda r: r["scriptorium"].pop("MOTUS"), "Scriptorium card"),
        ("domain.illumination", lambda r: r["plurals"].pop("Dog"), "plural"),
        ("domain.illumination", lambda r: r["scoring"].pop("crusade"), "scoring"),
        ("domain.campus_galli", lambda r: r["tasks"].pop("fire"), "task kind"),
        ("domain.campus_galli", lambda r: r["shapes"].pop("T4"), "shape"),
        (
            "domain.campus_galli",
            lambda r: r["tasks"]["alms"].update(text="Take {nothing}"),
            "malformed",
        ),
        ("domain.road_to_enlightenment", lambda r: r["powers"].pop("MIGHT"), "power"),
        ("domain.road_to_enlightenment", lambda r: r["nation_powers"].pop("PLUNDER"), "nation"),
        ("domain.road_to_enlightenment", lambda r: r["chits"].pop("ART"), "chit"),
    ],
)
def test_a_broken_glossary_file_is_rejected(package: str, change: Any, message: str) -> None:
    from importlib import import_module

    module = import_module(f"{package}.glossary")
    with pytest.raises(ValueError, match=message):
        module.validate_words(_broken(package, change))


# -- breakdowns ----------------------------------------------------------------------------
BREAKDOWN_GAMES = [
    ("illumination", {"mode": "duel"}),
    ("illumination", {"mode": "solo", "side": "irreverent"}),
    ("campus-galli", {"level": 1, "players": 2, "mode": "competitive"}),
    ("campus-galli", {"level": 2, "players": 3, "mode": "cooperative"}),
    ("campus-galli", {"level": 3, "players": 2, "mode": "competitive"}),
    ("road-to-enlightenment", {"players": 3, "length": "short"}),
    ("road-to-enlightenment", {"players": 2, "length": "long"}),
    ("high-card", {"players": 2}),
]


def _final(game_name: str, options: dict[str, Any], seed: int = 3) -> Any:
    game = REGISTRY[game_name].game
    *_, (state, _) = playout(game, options, seed)
    return game, state


@pytest.mark.parametrize(
    ("game_name", "options"),
    BREAKDOWN_GAMES,
    ids=[f"{g}-{i}" for i, (g, _) in enumerate(BREAKDOWN_GAMES)],
)
def test_the_breakdown_adds_up_to_the_scores(game_name: str, options: dict[str, Any]) -> None:
    game, state = _final(game_name, options)
    result = game.result(state)
    assert result is not None and result.breakdown
    by_seat = {b.seat: b for b in result.breakdown if b.seat is not None}
    for b in result.breakdown:
        assert b.lines and b.total == sum(line.points for line in b.lines), b
        assert all(line.label and "_" not in line.label for line in b.lines)
    opts = validate_options(game, options)
    seats = game.seat_count(opts)
    assert sorted(by_seat) == list(range(seats))
    for seat, score in enumerate(result.scores):
        assert by_seat[seat].total == score
    if game_name == "campus-galli" and options["mode"] == "cooperative":
        team = [b for b in result.breakdown if b.seat is None]
        assert len(team) == 1 and team[0].total == state.team_score
        assert result.summary.startswith(f"The team scores {state.team_score} point")
    if game_name == "illumination" and options["mode"] == "solo":
        monk = [b for b in result.breakdown if b.seat is None]
        assert len(monk) == 1 and monk[0].name == "the Mystic Monk"
        assert monk[0].total == state.final[1 - state.human_side]
    # The log's last words are the result's sentence.
    assert game.view(state, REVIEW)["prompt"] == f"Game over: {result.summary}"


def test_road_breakdown_is_the_rulebooks_final_scoring() -> None:
    from domain.road_to_enlightenment import turn_end

    game, state = _final("road-to-enlightenment", {"players": 4, "length": "short"}, 5)
    from domain.road_to_enlightenment.game import score_parts

    deltas = turn_end.score_deltas(state)
    for seat, d in deltas.items():
        assert sum(v for _, v in score_parts(state, seat)) == d
    result = game.result(state)
    assert result is not None
    winner = result.breakdown[0]
    assert winner.seat == result.winners[0] and result.summary.startswith(winner.name)
    labels = [line.label for line in winner.lines]
    assert labels[0] == "Prestige before the final scoring"
    assert "Foreign cities (+1 each)" in labels and "Religion track on your side" in labels


# -- sentences for one reader --------------------------------------------------------------
def test_illumination_numbers_books_and_squares_from_the_readers_seat() -> None:
    from domain.illumination import events as ev
    from domain.illumination.content import CONTENT

    game = REGISTRY["illumination"].game
    tile = next(t for t, i in CONTENT.tiles.items() if i.faction == "Dragon" and i.colour == "R")
    e = ev.TilePlaced(1, tile, 0, 1, "quill")  # pos 0 = the south seat's left Book; row 0, col 1
    labels = ("Reverent", "Irreverent")
    south = game.narrate(e, Names(labels, ("Ann", "Bob"), seat_viewer(0)))
    north = game.narrate(e, Names(labels, ("Ann", "Bob"), seat_viewer(1)))
    watcher = game.narrate(e, Names(labels, ("Ann", "Bob"), SPECTATOR))
    assert south == watcher == "Bob (Irreverent) places a red Dragon on row 1, column 2 of Book 1"
    assert north == "Bob (Irreverent) places a red Dragon on row 5, column 4 of Book 3"
    solo = game.narrate(e, Names(("Reverent",), ("Ann",), seat_viewer(0)))
    assert solo == "The Mystic Monk places a red Dragon on row 1, column 2 of Book 1"


def test_prompts_tell_the_seat_to_act_what_to_do_and_the_others_what_is_going_on() -> None:
    game = REGISTRY["illumination"].game
    state = next(iter(playout(game, {"mode": "duel"}, 1)))[0]
    assert game.view(state, seat_viewer(0))["prompt"] == (
        "Choose a line of archways: a row or a column, or pass for the rest of the game"
    )
    assert game.view(state, seat_viewer(1))["prompt"] == (
        "Reverent is choosing a row or column of archways"
    )
    road = REGISTRY["road-to-enlightenment"].game
    state = next(iter(playout(road, {"players": 3}, 1)))[0]
    assert road.view(state, seat_viewer(0))["prompt"].startswith("Place luminaries face down")
    assert road.view(state, SPECTATOR)["prompt"] == (
        "Waiting for France, England and Spain to plan their action slots"
    )
    cg = REGISTRY["campus-galli"].game
    state = next(iter(playout(cg, {"level": 1, "players": 2}, 1)))[0]
    assert cg.view(state, seat_viewer(1))["prompt"].startswith("Choose your action card")


def test_a_redacted_event_reads_well_for_who_may_not_see_it() -> None:
    from domain.road_to_enlightenment import events as E

    game = REGISTRY["road-to-enlightenment"].game
    e = E.LuminariesMoved(0, ("re-RF1",), 1, "deck", "hand", "owner", "draw")
    names = ("France", "England")
    own = game.narrate(game.redact(e, seat_viewer(0)), Names(names, ("Ann",), seat_viewer(0)))
    other = game.narrate(game.redact(e, seat_viewer(1)), Names(names, ("Ann",), seat_viewer(1)))
    assert own == "Ann (France) draws Gustavus Adolphus"
    assert other == "Ann (France) draws 1 luminary"


def test_bookkeeping_has_no_line() -> None:
    from domain.road_to_enlightenment import events as E
    from domain.road_to_enlightenment.state import Stage, StageKind

    game = REGISTRY["road-to-enlightenment"].game
    names = Names(("France", "England"))
    assert game.narrate(E.StageSet(Stage(StageKind.DRAFT, 1)), names) is None
    assert game.narrate(E.CursorSet(-1, (0, 1)), names) is None
    assert game.narrate(E.TurnBegan(2), names) == "Turn 2 begins"


def test_copying_a_glossary_does_not_change_the_games() -> None:
    game = REGISTRY["illumination"].game
    mine = game.glossary()
    mine.clear()
    assert game.glossary() and copy.copy(game.glossary())


def test_bot_names_tell_seats_apart_and_are_no_card() -> None:
    from domain.road_to_enlightenment.content import content

    cards = {lum.name for lum in content().luminaries.values()}
    for name, gtype in REGISTRY.items():
        bots = gtype.game.bot_names
        seats = max(gtype.game.seat_count(validate_options(gtype.game, {})), 1)
        assert len(set(bots)) == len(bots) >= seats, name
        # A bot named like a luminary card would read as that card in the log.
        assert not any(b.split()[-1] in card for b in bots for card in cards), name
