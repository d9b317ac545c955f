"""The contract of a game's terminal module, and small text-layout helpers.

A module draws the board of one game type from a :class:`~clients.tui.frame.Frame` and words
its legal commands. Everything here is a pure function of the frame (no I/O, no state), so
the drawings are tested on stored views and shared by the full-screen UI and the line mode.

Boards are lists of ``rich.text.Text`` lines (a :data:`Block`), styled for a colour terminal
but readable as plain text: every colour on the board is also a letter (``r`` red, ``Y`` a
yellow tile), because a person may be colour-blind or read a tmux capture.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text

from ..frame import Frame

__all__ = [
    "BOARD_WIDTH",
    "Block",
    "GameUI",
    "block_width",
    "breakdown",
    "humanize",
    "join_words",
    "pad",
    "plural",
    "side_by_side",
    "text",
    "wrap",
]

BOARD_WIDTH = 68
"""Columns a board may use: the 100-column terminal less the log beside it."""

Block = list[Text]


def text(*parts: str | tuple[str, str]) -> Text:
    """``text("Book ", ("1", "bold"))``: a line from plain and styled parts."""
    t = Text(no_wrap=True, overflow="crop")
    for p in parts:
        if isinstance(p, tuple):
            t.append(p[0], style=p[1])
        else:
            t.append(p)
    return t


def block_width(block: Sequence[Text]) -> int:
    return max((line.cell_len for line in block), default=0)


def pad(block: Sequence[Text], width: int) -> Block:
    out = []
    for line in block:
        line = line.copy()
        line.pad_right(max(0, width - line.cell_len))
        out.append(line)
    return out


def side_by_side(*blocks: Sequence[Text], gap: int = 2) -> Block:
    """Blocks next to each other, top-aligned, ``gap`` columns apart."""
    height = max((len(b) for b in blocks), default=0)
    widths = [block_width(b) for b in blocks]
    out: Block = []
    for i in range(height):
        line = Text(no_wrap=True, overflow="crop")
        for k, (b, w) in enumerate(zip(blocks, widths, strict=True)):
            piece = b[i].copy() if i < len(b) else Text()
            if k < len(blocks) - 1:
                piece.pad_right(max(0, w - piece.cell_len) + gap)
            line.append_text(piece)
        line.rstrip()
        out.append(line)
    return out


def wrap(
    head: str | Text,
    items: Iterable[str],
    sep: str = ", ",
    indent: int = 2,
    width: int = BOARD_WIDTH,
) -> Block:
    """``head`` then ``items`` joined by ``sep``, wrapped at ``width`` with an indent."""
    line = text((head, "bold")) if isinstance(head, str) else head.copy()
    out: Block = []
    xs = list(items)
    for i, item in enumerate(xs):
        piece = item + (sep if i < len(xs) - 1 else "")
        if line.cell_len + len(piece.rstrip()) > width and line.cell_len > indent:
            line.rstrip()
            out.append(line)
            line = text(" " * indent)
        line.append(piece)
    out.append(line)
    return out


def humanize(name: str) -> str:
    """``"LUMINARY_ACTION"`` / ``"lazyMonk"`` → ``"luminary action"`` / ``"lazy monk"``."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name)).replace("_", " ")
    return spaced.lower().strip()


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def join_words(items: Iterable[str], last: str = "and") -> str:
    xs = [x for x in items if x]
    if len(xs) <= 1:
        return "".join(xs)
    return f"{', '.join(xs[:-1])} {last} {xs[-1]}"


def breakdown(f: Frame) -> Block:
    """The end of the game: the result's score breakdown, player by player, category by
    category as the rulebook scores it (``Result.breakdown``)."""
    result = f.result or {}
    rows = result.get("breakdown") or []
    if not rows or not isinstance(rows, list) or not isinstance(rows[0], dict):
        return []
    out: Block = [text(("Final score", "bold underline"))]
    for row in rows:
        head = text((f"{row.get('name', '')}: {row.get('total', 0)}", "bold"), "  ")
        parts = [f"{x.get('label')} {x.get('points')}" for x in row.get("lines") or []]
        out += wrap(head, parts, sep=" · ", indent=4)
    out.append(text())
    return out


class GameUI:
    """A game's terminal module. Subclasses override what their game needs.

    The defaults work for any game (they are the "generic" module): the view as a list of
    fields, and commands named by their type and fields.
    """

    title = "Game"
    legend: tuple[str, ...] = ()
    """Lines explaining the board's letters and marks (shown in the help)."""
    syntax: tuple[tuple[str, str], ...] = ()
    """Typed moves: ``(example, what it does)``, shown in the help and ``docs/cli.md``."""

    # -- what the game waits for ---------------------------------------------------------------
    def status(self, f: Frame) -> str:
        """One sentence: whose turn it is and what the game waits for."""
        if f.status == "open":
            return "Waiting for the other seats to be taken."
        if f.finished:
            return self.game_over(f)
        if not f.to_act:
            return "Nobody is to act."
        names = join_words(f.who(s) for s in f.to_act)
        return f"{names} {'is' if len(f.to_act) == 1 else 'are'} to act."

    def game_over(self, f: Frame) -> str:
        summary = (f.result or {}).get("summary")
        return f"The game is over: {summary}." if summary else "The game is over."

    # -- the board -----------------------------------------------------------------------------
    def board(self, f: Frame) -> Block:
        view = f.view
        if view is None:
            return [text("(The game has not started: its board is dealt when the seats fill.)")]
        if not isinstance(view, dict):
            return [text(str(view))]
        out: Block = []
        for key, value in view.items():
            out.append(text((f"{humanize(str(key))}: ", "bold"), _plain(value)))
        return out

    # -- the moves -----------------------------------------------------------------------------
    def label(self, command: dict[str, Any], f: Frame) -> str:
        fields = [f"{humanize(k)} {_plain(v)}" for k, v in command.items() if k != "type"]
        head = humanize(str(command.get("type", "?"))).capitalize()
        return f"{head}: {', '.join(fields)}" if fields else head

    def group(self, command: dict[str, Any], f: Frame) -> str:
        return humanize(str(command.get("type", "?"))).capitalize()

    def forms(self, command: dict[str, Any], f: Frame) -> list[str]:
        """Typed forms, shortest first (each normalised by ``moves.normalise``)."""
        return [self.label(command, f)]

    def order(self, command: dict[str, Any], f: Frame) -> tuple[Any, ...]:
        """Sort key inside a menu group (default: the server's order)."""
        return ()

    def confirm(self, command: dict[str, Any], f: Frame) -> str | None:
        """A question to ask before sending an irreversible move, else None."""
        return None


def _plain(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{humanize(str(k))} {_plain(v)}" for k, v in value.items()) or "none"
    return str(value)
