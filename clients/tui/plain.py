"""The line mode (``--plain``): the full-screen UI's board and words, printed line by line.

For pipes, scripts, logs and screen readers: the same game modules draw the board (as plain
text) and word the moves, so a scripted player reads what a person sees. Input is a line:
a move's number in the printed list, a typed move (the ``[code]`` beside it, or any of the
game's typed forms), a command as JSON, ``say TEXT``, ``undo`` / ``undo N``, ``v`` (the
board again), ``l`` (the whole log), ``?`` (help) or ``q``. All but moves are handled at once,
also while other seats are to act; a move typed then waits for my turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections import deque
from typing import Any, Literal, TextIO

import orjson

from protocol import GameOverMessage, Rejected, Update, Welcome

from ..client import Api, GameClient, UndoRefused
from .frame import Frame, log_lines
from .games import ui_for
from .games.base import breakdown
from .moves import Move, MoveList
from .source import LiveSource, ReplaySource

__all__ = ["LineReader", "PlainPlayer", "plain_replay", "plain_watch"]


def out(*parts: Any) -> None:
    """print + flush: the output is often a pipe read while we run."""
    print(*parts, flush=True)


class LineReader:
    """stdin lines as an asyncio queue, read by a daemon thread.

    A thread (not ``connect_read_pipe``) because stdin may be a terminal, a pipe or a file,
    and the blocking read must not stop the updates. ``None`` marks end of input.
    """

    def __init__(self, stream: TextIO) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def pump() -> None:
            while True:
                try:
                    line = stream.readline()
                except (OSError, ValueError):
                    line = ""
                with contextlib.suppress(RuntimeError):  # loop closed: we are exiting
                    loop.call_soon_threadsafe(self.queue.put_nowait, line or None)
                if not line:
                    return

        threading.Thread(target=pump, daemon=True, name="cloister-stdin").start()


def board_text(frame: Frame) -> str:
    lines = (breakdown(frame) if frame.finished else []) + ui_for(frame.game_type).board(frame)
    return "\n".join("  " + line.plain.rstrip() for line in lines)


def log_line(version: int, sentence: str) -> str:
    return f"  [{version:>4}] {sentence}"


HELP = """\
  1..N        send the numbered move
  a typed move, e.g. the [code] shown beside a move (see docs/cli.md for each game)
  {json}      send a command written as JSON, e.g. {"type": "Draw"}
  say TEXT    tell the table TEXT (chat: outside the rules, never binding)
  leave       leave the table: a bot plays on for you    retake  take your seat back
  undo        take back your last move (undo N: your last N), up to the information horizon
  v           show the board again        l  show the whole log
  q           leave (the game goes on without you)"""


class PlainPlayer:
    """``cloister play --plain``: prints the board and the numbered moves, reads lines."""

    def __init__(self, source: LiveSource, lines: LineReader) -> None:
        self.source = source
        self.client = source.client
        self.lines = lines
        self.shown_version = -1
        self.printed_upto = 0
        self.moves = MoveList(())
        self.held: deque[str | None] = deque()
        """Lines read while it was not my turn that are moves: played when it comes."""

    def print_new_events(self) -> None:
        for version, sentence in log_lines(self.client.events):
            if version > self.printed_upto:
                out(log_line(version, sentence))
        if self.client.events:
            self.printed_upto = max(self.printed_upto, self.client.events[-1].version)

    def show_turn(self) -> None:
        f = self.source.frame()
        ui = ui_for(f.game_type)
        out(f"\n-- version {f.version} · {ui.status(f)}")
        out(board_text(f))
        self.moves = MoveList.build(ui, f) if f.my_turn else MoveList(())
        if f.my_turn:
            out("Your move:")
            for i, m in enumerate(self.moves, 1):
                code = f"  [{m.code}]" if m.code else ""
                out(f"  {i:>3}. {m.label}{code}")
        elif f.seat is not None and f.seat in f.to_act:
            out("You are to act but have no legal command.")

    def choose(self, line: str) -> dict[str, Any] | Move | str:
        """A command to send, or a message to show instead."""
        text = line.strip()
        moves = self.moves.moves
        if text.isdigit() and not self.moves.match(text).exact:
            n = int(text)
            if 1 <= n <= len(moves):
                return moves[n - 1]
            return f"choose a number from 1 to {len(moves)}"
        if text.startswith("{"):
            try:
                command = orjson.loads(text)
            except orjson.JSONDecodeError as exc:
                return f"not valid JSON: {exc}"
            if not isinstance(command, dict) or "type" not in command:
                return 'a command is a JSON object with a "type", e.g. {"type": "Draw"}'
            return command
        match = self.moves.match(text)
        if match.single is not None:
            return match.single
        if match.moves:
            shown = "\n".join(
                f"  {moves.index(m) + 1:>3}. {m.label}  [{m.code}]" for m in match.moves[:30]
            )
            more = f"\n  … and {len(match.moves) - 30} more" if len(match.moves) > 30 else ""
            return f"{len(match.moves)} moves match {text!r}; choose one:\n{shown}{more}"
        return f"unknown input {text!r}; type ? for help"

    async def _next(self, my_turn: bool) -> tuple[bool, str | None]:
        """The next line (True, text; None at the end of input), or (False, None) when an
        update came first. On my turn, lines held back earlier come first."""
        if my_turn and self.held:
            return True, self.held.popleft()
        # Wait for a line, but keep printing updates that arrive meanwhile (another seat's
        # simultaneous move changes the view and maybe our options).
        line_task = asyncio.ensure_future(self.lines.queue.get())
        update_task = asyncio.ensure_future(self.client.next_update())
        done, _ = await asyncio.wait({line_task, update_task}, return_when=asyncio.FIRST_COMPLETED)
        update_task.cancel()
        if line_task not in done:
            line_task.cancel()
            if self.client.closed:
                raise ConnectionError("the connection to the server ended")
            return False, None
        return True, line_task.result()

    async def table(self, text: str) -> Literal["quit", "done"] | None:
        """A line that is not a move (help, the log, chat, leaving, undo): handled at once,
        on my turn or not: "quit" to leave, "done" when handled, None for a move."""
        c = self.client
        lowered = text.lower()
        if text in ("q", "quit", "exit"):
            out("Leaving the game (it goes on without you).")
            return "quit"
        if text in ("?", "h", "help"):
            out(HELP)
            return "done"
        if text in ("v", "view"):
            self.shown_version = -1
            return "done"
        if text in ("l", "log"):
            for version, sentence in log_lines(c.events):
                out(log_line(version, sentence))
            return "done"
        if lowered.startswith("say "):
            said = await c.chat(text[4:])
            if isinstance(said, Rejected):
                out(f"Not said: {said.message}")
            return "done"
        if lowered in ("leave", "retake"):
            asked = await (c.leave() if lowered == "leave" else c.retake())
            if isinstance(asked, Rejected):
                out(f"Refused ({asked.code}): {asked.message}")
            else:
                out("A bot plays on for you." if lowered == "leave" else "Your seat.")
            return "done"
        if lowered == "undo" or lowered.startswith("undo "):
            count = lowered[4:].strip()
            if count and not count.isdigit():
                out("Type 'undo' or 'undo N' (how many of your moves).")
                return "done"
            try:
                done = await c.undo(steps=int(count) if count else None)
            except UndoRefused as exc:
                out(f"Cannot undo: {exc.message}")
                return "done"
            n = int(done.get("commands") or 1)
            out(f"Taken back: your last {n} moves." if n > 1 else "Taken back: your last move.")
            return "done"
        return None

    async def run(self) -> int:
        c = self.client
        f = self.source.frame()
        you = f"you are {f.label_of(c.seat)}" if c.seat is not None else "you are watching"
        out(f"Game {c.game_id} ({ui_for(c.game_type).title}); {you}")
        while True:
            if c.version != self.shown_version:
                self.print_new_events()
                if c.finished:
                    break
                self.show_turn()
                self.shown_version = c.version
            mine = c.my_turn
            got, line = await self._next(mine)
            if not got:
                continue
            text = (line or "").strip()
            if line is not None and text:
                handled = await self.table(text)
                if handled == "quit":
                    return 0
                if handled == "done":
                    continue
            if not mine:
                # A move typed ahead (a script's next line): kept until my turn comes.
                self.held.append(line)
                continue
            if line is None:
                out("End of input: leaving the game (it goes on without you).")
                return 0
            if not text:
                self.shown_version = -1
                continue
            choice = self.choose(text)
            if isinstance(choice, str):
                out(choice)
                continue
            command = choice.command if isinstance(choice, Move) else choice
            reply = await c.send(command)
            if isinstance(reply, Rejected):
                out(f"Refused ({reply.code}): {reply.message}")
        f = self.source.frame()
        out(f"\nGame over. {ui_for(c.game_type).status(f)}")
        for row in breakdown(f):
            out("  " + row.plain.rstrip())
        return 0


async def plain_play(server: str, game_id: str, token: str) -> int:
    lines = LineReader(sys.stdin)
    # since=0: the welcome brings the whole log (as this seat may see it) to show.
    async with Api(server) as api, GameClient(server, game_id, token, since=0) as client:
        source = LiveSource(api, client, "play")
        await source.start()
        return await PlainPlayer(source, lines).run()


async def plain_watch(
    server: str, game_id: str, token: str | None, history: bool, views: bool
) -> int:
    since = 0 if history else None
    async with Api(server) as api, GameClient(server, game_id, token, since=since) as client:
        source = LiveSource(api, client, "watch")
        await source.start()
        f = source.frame()
        ui = ui_for(client.game_type)
        out(f"Watching {client.game_id} ({ui.title}) at version {client.version}")
        for version, sentence in log_lines(client.events):
            out(log_line(version, sentence))
        out(board_text(f))
        if client.finished:
            out(f"The game is over. {ui.status(f)}")
            return 0
        out(f"-- {ui.status(f)}")
        async for msg in client.updates():
            if isinstance(msg, Update | Welcome):
                for version, sentence in log_lines(msg.events):
                    out(log_line(version, sentence))
                f = source.frame()
                out(f"-- version {msg.version} · {ui.status(f)}")
                if views:
                    out(board_text(f))
            elif isinstance(msg, GameOverMessage):
                await source.refresh_seats()
                out(f"Game over. {ui.status(source.frame())}")
                return 0
    return 0


async def plain_replay(server: str, game_id: str, token: str | None, to: int | None) -> int:
    async with Api(server) as api:
        source = ReplaySource(api, game_id, token)
        await source.start()
        last = source.last
        title = ui_for(str(source.summary.get("type", ""))).title
        out(f"Replay of {game_id} ({title}): {last} versions, seen as {source.audience}")

        async def show(version: int) -> None:
            f = await source.goto(version)
            out(f"\n== version {f.version}/{last} · {ui_for(f.game_type).status(f)}")
            for v, sentence in log_lines(f.events):
                if v == f.version:
                    out(log_line(v, sentence))
            out(board_text(f))

        if to is not None:
            target = max(0, min(to, last))
            for v, sentence in log_lines(source.events, target):
                out(log_line(v, sentence))
            await show(target)
            return 0
        lines = LineReader(sys.stdin)
        current = 0
        await show(current)
        while True:
            out("[n]ext [p]rev [f]irst [l]ast, a version number, or [q]uit")
            line = await lines.queue.get()
            if line is None:
                return 0
            text = line.strip().lower()
            if text in ("q", "quit"):
                return 0
            if text in ("", "n", "next"):
                current = min(last, current + 1)
            elif text in ("p", "prev"):
                current = max(0, current - 1)
            elif text in ("f", "first"):
                current = 0
            elif text in ("l", "last"):
                current = last
            elif text.isdigit():
                current = min(last, int(text))
            else:
                out(f"unknown key {text!r}")
                continue
            await show(current)
