"""Entry points for ``cloister play``, ``watch`` and ``replay``.

Each runs the full-screen UI when both stdin and stdout are a terminal. Otherwise it does
not start Textual (which would draw escape codes into a file or hang on a pipe): it stops with
one line saying so, unless ``--plain`` asked for the line mode (``clients.tui.plain``), which
prints the same board and words line by line for pipes, scripts and screen readers.
"""

from __future__ import annotations

import sys
from typing import TextIO

from ..client import Api, CloisterError, GameClient
from .source import LiveSource, ReplaySource

__all__ = ["NotATerminal", "needs_terminal", "play", "replay", "watch"]


class NotATerminal(CloisterError):
    """The full-screen UI was asked for without a terminal."""


def needs_terminal(command: str, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Raise :class:`NotATerminal` unless stdin and stdout are terminals."""
    for name, stream in (
        ("stdout", stdout or sys.stdout),
        ("stdin", stdin or sys.stdin),
        ("stderr", sys.__stderr__),  # Textual draws on stderr
    ):
        try:
            tty = stream is not None and stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        if not tty:
            raise NotATerminal(
                f"{command} draws a full-screen board and needs a terminal, but {name} is "
                f"not one; use `cloister {command} --plain` for line-by-line output"
            )


async def play(server: str, game_id: str, token: str) -> int:
    from .app import CloisterApp

    async with Api(server) as api, GameClient(server, game_id, token, since=0) as client:
        source = LiveSource(api, client, "play")
        await source.start()
        result = await CloisterApp(source).run_async()
    return result or 0


async def watch(server: str, game_id: str, token: str | None = None) -> int:
    from .app import CloisterApp

    async with Api(server) as api, GameClient(server, game_id, token, since=0) as client:
        source = LiveSource(api, client, "watch")
        await source.start()
        result = await CloisterApp(source).run_async()
    return result or 0


async def replay(server: str, game_id: str, token: str | None = None) -> int:
    from .app import CloisterApp

    async with Api(server) as api:
        source = ReplaySource(api, game_id, token)
        await source.start()
        result = await CloisterApp(source).run_async()
    return result or 0
