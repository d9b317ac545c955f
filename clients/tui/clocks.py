"""Clocks and stand-ins in the terminal: one line under the status, redrawn twice a second.

It reads only what :class:`~clients.client.GameClient` holds (``table``, ``clock(seat)``,
``stand_in(seat)``: ``docs/protocol.md``, Clocks and absent players), so a running clock
counts down on this machine's clock from what the server last said.
"""

from __future__ import annotations

from rich.text import Text

from clients.client import GameClient

from .frame import Frame

__all__ = ["clock_line", "format_clock"]


def format_clock(seconds: float) -> str:
    """``4:07``, ``0:09``, ``1:02:03`` (whole seconds, rounded up)."""
    total = int(-(-seconds // 1))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def clock_line(client: GameClient, frame: Frame) -> Text | None:
    """ "Clocks: Reverent (you) ▶ 1:27 · Irreverent 1:30 [bot plays]", or None when the
    game has no clock and no bot plays for anybody."""
    table = client.table
    if table is None or frame.finished:
        return None
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append("Clocks: " if table.get("clock", "none") != "none" else "Seats: ", style="dim")
    for i, item in enumerate(table.get("seats", [])):
        seat = int(item["seat"])
        if i:
            t.append(" · ", style="dim")
        left = client.clock(seat)
        running = bool(item.get("running"))
        t.append(frame.who(seat) + " ")
        if left is not None:
            style = "bold red" if running and left < 10 else "bold green" if running else ""
            t.append(("▶ " if running else "") + format_clock(left), style=style)
        if item.get("bot"):
            t.append(" [bot plays]", style="magenta")
    if client.stand_in() is not None:
        t.append("\nA bot plays for you: type retake to take your seat back.", style="yellow")
    return t
