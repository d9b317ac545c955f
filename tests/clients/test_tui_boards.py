"""The terminal UI's game modules on real game states (no server, no terminal).

Random playouts of every game (the domain directly, its views and legal commands encoded as
the server sends them) check, for the seat to act and for a spectator, that:

* every board line fits the board's 68 columns and no internal id reaches the screen
  (tile, card, section ids, event names, "seat N");
* the status sentence and every move's label are words, not ids;
* every legal command can be typed: each move has a short code, and typing that code gives
  back exactly that command (so the help's typed syntax is complete, not a sample).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from clients.tui.frame import Frame, Seat
from clients.tui.games import BOARD_WIDTH, UIS, ui_for
from clients.tui.moves import MoveList, normalise
from domain import SPECTATOR, Context, default_registry, seat_viewer, type_name, validate_options
from protocol import GameCodec

VIEWS = Path(__file__).resolve().parents[1] / "web" / "views"

# What must never be shown to a player: internal ids of each game and engine words.
COMMON = r"\bseat \d\b|\bNone\b|\bTrue\b|\bFalse\b|[{}]|_[a-z]|\b[A-Z][a-z]+[A-Z][a-z]+\b"
IDS = {
    "illumination": r"\b[RI]\d\d\b|\b[RI]-[A-Z]+-\d\b|\bCR-[A-Z]+",  # tiles, cards, Crusades
    "road-to-enlightenment": r"\bre-[A-Z0-9]+\b|\b[A-Z]{3}\d+\b|pile:",  # luminaries, medallions
    "campus-galli": r"\b(?:L\d|T\d|H|P)-[A-Z0-9-]+\b|\bANG-\d",  # cards, tasks, sections
    "high-card": r"\bhc-\d\d\b",
}


def internal(game_type: str) -> re.Pattern[str]:
    return re.compile(f"{COMMON}|{IDS.get(game_type, 'x^')}")


# (type, options, most commands per game, seeds): whole games, a few seeds each.
GAMES: list[tuple[str, dict[str, Any], int, tuple[int, ...]]] = [
    ("high-card", {"players": 3}, 100, (1, 2)),
    ("illumination", {}, 1000, (1, 2, 3, 4)),
    ("illumination", {"mode": "solo", "side": "irreverent"}, 1000, (5, 6)),
    ("road-to-enlightenment", {"players": 3}, 1500, (1,)),
    ("campus-galli", {"level": 1, "players": 2}, 800, (1,)),
    ("campus-galli", {"level": 2, "players": 3}, 800, (2,)),
    ("campus-galli", {"level": 3, "players": 4}, 800, (3,)),
    ("campus-galli", {"level": 3, "players": 1, "mode": "cooperative"}, 800, (4,)),
    ("road-to-enlightenment", {"players": 2, "nations": "random"}, 1500, (2,)),
]


def encoded(codec: GameCodec, value: Any) -> Any:
    """What the server sends: the codec's JSON, as a client decodes it."""
    return orjson.loads(orjson.dumps(codec.encode_view(value)))


def labels_for(game: Any, options: dict[str, Any]) -> tuple[Seat, ...]:
    return tuple(
        Seat(i, label, f"player {i + 1}") for i, label in enumerate(game.seat_labels(options))
    )


def playout_frames(name: str, options: dict[str, Any], steps: int, seed: int) -> list[Frame]:
    """Frames of one random game: every 3rd state as the seat to act, some as a spectator."""
    gtype = default_registry()[name]
    game, codec = gtype.game, GameCodec(gtype.game)
    opts = validate_options(game, options)
    seats = labels_for(game, opts)
    state = game.initial_state(opts)
    for e in game.setup(state, Context.seeded(f"tui-{seed}")):
        state = game.evolve(state, e)
    rng = random.Random(seed)
    frames: list[Frame] = []
    for i in range(steps):
        to_act = sorted(game.to_act(state))
        if not to_act:
            break
        seat = to_act[0]
        legal = list(game.legal_commands(state, seat))
        if not legal:
            break
        if i % 3 == 0:
            frames.append(
                Frame(
                    "g-test", name, "play", i,
                    encoded(codec, game.view(state, seat_viewer(seat))),
                    [orjson.loads(orjson.dumps(codec.encode_command(c))) for c in legal],
                    to_act, "running", seat, seats,
                )
            )  # fmt: skip
        if i % 17 == 0:
            frames.append(
                Frame("g-test", name, "watch", i, encoded(codec, game.view(state, SPECTATOR)),
                      (), to_act, "running", None, seats)
            )  # fmt: skip
        # Passing for the rest of the game ends a random game early: play on instead.
        going_on = [c for c in legal if type_name(c) not in ("Pass", "PassSpecial")]
        command = rng.choice(going_on or legal)
        for e in game.decide(state, seat, command, Context.seeded(f"tui-{seed}-{i}")):
            state = game.evolve(state, e)
    return frames


def check_frame(frame: Frame) -> None:
    ui = ui_for(frame.game_type)
    INTERNAL = internal(frame.game_type)
    board = ui.board(frame)
    assert board, "an empty board"
    for line in board:
        assert line.cell_len <= BOARD_WIDTH, f"{line.cell_len} columns: {line.plain!r}"
        assert not INTERNAL.search(line.plain), f"internal id on the board: {line.plain!r}"
    status = ui.status(frame)
    assert status and not INTERNAL.search(status), status
    moves = MoveList.build(ui, frame)
    labels = {m.label for m in moves}
    for command in frame.legal:
        assert ui.label(command, frame) in labels
    for m in moves:
        assert not INTERNAL.search(m.label), m.label
        assert m.code, f"no typed form of {m.label!r} is its own: {m.forms}"
        got = moves.match(m.code)
        assert got.single is m, (m.code, [x.label for x in got.moves])


@pytest.mark.parametrize(("name", "options", "steps", "seeds"), GAMES, ids=lambda x: str(x))
def test_random_states_draw_and_type(
    name: str, options: dict[str, Any], steps: int, seeds: tuple[int, ...]
) -> None:
    for seed in seeds:
        frames = playout_frames(name, options, steps, seed)
        assert len(frames) >= 3
        for frame in frames:
            check_frame(frame)


@pytest.mark.parametrize("path", sorted(VIEWS.glob("*.json")), ids=lambda p: p.stem)
def test_stored_views(path: Path) -> None:
    data = json.loads(path.read_text())
    if data["game_type"] not in UIS:
        pytest.skip(f"no terminal module for {data['game_type']}")
    seats = (Seat(0, "First", "ann"), Seat(1, "Second", "bob"), Seat(2, "Third", "cy"))
    for view, legal, seat in (
        (data["view"], data["legal"], data["seat"]),
        (data["spectator_view"], [], None),
    ):
        check_frame(
            Frame("g-test", data["game_type"], "play", 9, view, legal, data["to_act"],
                  "running", seat, seats)
        )  # fmt: skip


def test_typed_moves_ignore_case_spaces_and_commas() -> None:
    assert normalise("  Row,2 ") == ("row", "2")
    data = json.loads((VIEWS / "illumination-place-tile.json").read_text())
    frame = Frame("g", "illumination", "play", 1, data["view"], data["legal"], [0], "running", 0)
    moves = MoveList.build(ui_for("illumination"), frame)
    one = moves.match("RAN 3,4")
    assert one.single is not None
    assert one.single.command == {"type": "PlaceTile", "tile": "R01", "row": 2, "col": 3}
    # A word that begins several moves is a choice among them, never a guess.
    several = moves.match("ran")
    assert not several.exact and len(several.moves) > 1
    assert all(m.command.get("tile") == "R01" for m in several.moves)
    assert not moves.match("no such move").moves


def test_north_player_sees_books_turned_round() -> None:
    """The Irreverent player's Book 1 is the Reverent player's Book 3, turned round, and the
    typed squares follow the drawing."""
    data = json.loads((VIEWS / "illumination-place-tile.json").read_text())
    view = dict(data["view"], you="IRR")
    frame = Frame("g", "illumination", "play", 1, view, data["legal"], [0], "running", 1)
    ui = ui_for("illumination")
    moves = MoveList.build(ui, frame)
    m = moves.match("ran 1 1").single
    assert m is not None
    # Reverent's left Book (pos 0) is Irreverent's Book 3; its row 5 column 5 corner is (0, 0).
    assert m.command == {"type": "PlaceTile", "tile": "R01", "row": 4, "col": 4}
    assert "Book 3, row 1, column 1" in m.label
    first_line = ui.board(frame)[0].plain
    assert first_line.index("Book 1") < first_line.index("Book 3")


def test_docs_list_every_typed_move_of_every_game() -> None:
    """docs/cli.md shows each game's typed-move table as the help does (no drift)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    for name, ui in UIS.items():
        assert f"(`{name}`)" in doc, name
        for example, what in ui.syntax:
            assert f"| `{example}` | {what} |" in doc, (name, example)


def test_final_breakdown_is_shown_category_by_category() -> None:
    from clients.tui.games.base import breakdown

    result = {"summary": "Ann (Player 1) wins with 19", "breakdown": [
        {"name": "Ann (Player 1)", "seat": 0, "total": 19,
         "lines": [{"label": "Rounds won", "points": 19, "detail": ""}]},
        {"name": "Bob (Player 2)", "seat": 1, "total": 5,
         "lines": [{"label": "Rounds won", "points": 5, "detail": ""}]}]}  # fmt: skip
    f = Frame("g", "high-card", "watch", 9, None, (), (), "finished", None, (), result)
    lines = [x.plain for x in breakdown(f)]
    assert "Ann (Player 1): 19  Rounds won 19" in lines
    assert "Bob (Player 2): 5  Rounds won 5" in lines
    assert ui_for("high-card").status(f) == "The game is over: Ann (Player 1) wins with 19."
