"""The full-screen terminal UI of ``cloister play``, ``watch`` and ``replay`` (Textual).

One screen for the three commands::

    ┌ title: game, who you are, version ─────────────────────────────────────────────┐
    │ one sentence: whose turn it is and what the game waits for                     │
    │ board (the game's module draws it)                  │ log (the narrator's text)│
    │ message: the server's answer to your last move                                 │
    │ > the move line (play only)                                                    │
    └ keys ──────────────────────────────────────────────────────────────────────────┘

The app never holds game state of its own: it redraws from a :class:`Frame` each time the
source changes (an update, a step of the replay), so what is drawn is always what the
connection layer holds. Moves go through the source (``GameClient.send``: same-id resend).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult, ScreenStackError
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Footer, Input, RichLog, Static

from protocol import Rejected, ServerMessage

from ..client import ApiError, UndoRefused
from .clocks import clock_line
from .fork import ForkPlan
from .frame import Frame, log_lines
from .games import GameUI, ui_for
from .games.base import breakdown
from .moves import Move, MoveList
from .source import LiveSource, ReplaySource
from .widgets import ConfirmScreen, ForkScreen, HelpScreen, MoveInput, MovesScreen

__all__ = ["CloisterApp"]

KEYS_PLAY = (
    "Type a move and press Enter; the board's numbers are the ones to type.",
    "Enter on an empty line: the list of legal moves (filter it by typing, Enter sends).",
    "? on an empty line, or F1: this help.     F2: the list of legal moves.",
    "say TEXT: talk to the table (outside the rules, never binding).",
    "leave: a bot plays on for you; retake: take your seat back (also after a timeout).",
    "Ctrl+Z (or typing undo): take back your last move, up to the information horizon; "
    "again for the one before; 'undo N' takes back your last N moves.",
    "PageUp/PageDown: scroll the log.  Ctrl+Up/Ctrl+Down: scroll the board.",
    "Ctrl+Q (or typing quit): leave; the game goes on, `cloister play` comes back.",
)
KEYS_WATCH = (
    "You are watching: the board follows the game as it is played.",
    "PageUp/PageDown: scroll the log.  Up/Down: scroll the board.",
    "? or F1: this help.  q or Ctrl+Q: stop watching.",
)
KEYS_REPLAY = (
    "Left/Right: one version back/forward.  PageUp/PageDown: ten versions.",
    "Home/End: the start/the end of the game.  [ / ]: the previous/next line of the log.",
    "Up/Down: scroll the board.  ? or F1: this help.  q or Ctrl+Q: leave.",
    "Once the game is over: v verifies it (re-decided from its revealed seed, as `cloister",
    "verify` does); f forks it here: a new game from the version shown, what is hidden dealt",
    "anew; each seat's number key there chooses who takes it: you, a person, or a bot.",
    "A replay opened while the game ran asks again when v or f is pressed.",
)


FORK_NAME = "Player"
"""The name a fork made from the terminal seats me under."""


class CloisterApp(App[int]):
    """The terminal UI for one game. ``source`` is a started Live- or ReplaySource."""

    CSS_PATH = Path(__file__).with_name("cloister.tcss")
    TITLE = "Cloister"
    ENABLE_COMMAND_PALETTE = False

    BINDINGS: ClassVar[list[BindingType]] = [
        # Every mode's keys; check_action() keeps those of the current mode. Priority, so a
        # focused log or board never takes them; a key whose action is off for the mode
        # falls through to the move line.
        Binding("f1", "help", "help", priority=True),
        Binding("question_mark", "help_key", "help", priority=True),
        Binding("f2", "moves", "moves", priority=True),
        Binding("ctrl+z", "undo", "undo", priority=True),
        Binding("left", "step(-1)", "back", priority=True),
        Binding("right", "step(1)", "forward", priority=True),
        Binding("home", "go_to('first')", "start", priority=True),
        Binding("end", "go_to('last')", "end", priority=True),
        Binding("left_square_bracket", "line(-1)", "prev line", priority=True),
        Binding("right_square_bracket", "line(1)", "next line", priority=True),
        Binding("pageup", "page(-1)", show=False, priority=True),
        Binding("pagedown", "page(1)", show=False, priority=True),
        Binding("up", "scroll_key(-1)", show=False, priority=True),
        Binding("down", "scroll_key(1)", show=False, priority=True),
        Binding("ctrl+up", "board_scroll(-3)", show=False, priority=True),
        Binding("ctrl+down", "board_scroll(3)", show=False, priority=True),
        Binding("v", "verify", "verify", priority=True),
        Binding("f", "fork", "fork here", priority=True),
        Binding("q", "quit_key", "quit", priority=True),
        Binding("ctrl+q", "quit", "quit", priority=True),
    ]
    MODE_ACTIONS: ClassVar[dict[str, set[str]]] = {
        # Plain keys (q, ?, Up, Down) belong to the move line while playing.
        "play": {"help", "moves", "undo", "page", "board_scroll", "quit"},
        "watch": {"help", "help_key", "page", "board_scroll", "scroll_key", "quit", "quit_key"},
        "replay": {
            "help",
            "help_key",
            "step",
            "go_to",
            "line",
            "page",
            "board_scroll",
            "scroll_key",
            "verify",
            "fork",
            "quit",
            "quit_key",
        },
    }

    def __init__(self, source: LiveSource | ReplaySource) -> None:
        super().__init__()
        self.source = source
        self.mode = source.mode
        self.frame: Frame | None = None
        self.ui: GameUI = GameUI()
        self.moves = MoveList(())
        self._logged: list[str] = []
        """The log's lines as written (a change to an earlier one rewrites the log)."""
        self._redraw_pending = False
        self._unsubscribe: Any = None
        self._target = 0
        self.said = ""
        """The message line's text (the server's answer to the last key), unwrapped."""
        self.forked: dict[str, Any] | None = None
        """The summary of the game this replay was forked into (``f``)."""
        """Replay: the version the keys asked for (shown once its view is fetched)."""

    # -- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="status")
        yield Static(id="clocks")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-box"):
                yield Static(id="board")
            yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=10)
        yield Static(id="message")
        if self.mode == "play":
            yield MoveInput(placeholder="type a move", id="move")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in self.MODE_ACTIONS[self.mode] and action in self._ALL_ACTIONS:
            return False
        # A menu, help or question is open: its own keys apply.
        return len(self.screen_stack) == 1 or action == "quit"

    _ALL_ACTIONS: ClassVar[set[str]] = set().union(*MODE_ACTIONS.values())

    async def on_mount(self) -> None:
        # The log and the board scroll by the app's keys; the move line keeps the focus.
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#board-box", VerticalScroll).can_focus = False
        if self.mode == "play":
            self.query_one("#move", MoveInput).focus()
        if isinstance(self.source, LiveSource):
            self._unsubscribe = self.source.subscribe(self._server_message)
            self.redraw()
            self.set_interval(0.5, self._draw_clocks)
        else:
            self.step_to(0)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    # -- drawing --------------------------------------------------------------------------------
    class SourceChanged(Message):
        """The connection layer has something new (posted from the client's own task)."""

        def __init__(self, seats: bool) -> None:
            super().__init__()
            self.seats = seats

    def _server_message(self, message: ServerMessage) -> None:
        # Called inside the client's task, outside the app's context: only post a message.
        source = self.source
        seats = isinstance(source, LiveSource) and source.needs_seats(message)
        self.post_message(self.SourceChanged(seats))

    def on_cloister_app_source_changed(self, event: SourceChanged) -> None:
        if event.seats:
            self.run_worker(self._refresh_seats(), group="seats")
        # A burst of updates (a bot's turn) is drawn once.
        if not self._redraw_pending:
            self._redraw_pending = True
            self.set_timer(0.02, self.redraw)

    async def _refresh_seats(self) -> None:
        if isinstance(self.source, LiveSource):
            await self.source.refresh_seats()
            self.redraw()

    def redraw(self) -> None:
        self._redraw_pending = False
        # An update that arrives while the app is closing has nothing left to draw on.
        with contextlib.suppress(NoMatches):
            self.show(self.source.frame())

    def show(self, frame: Frame) -> None:
        """Draw ``frame``: title, sentence, board, log and (when playing) the moves."""
        old = self.frame
        self.frame = frame
        self.ui = ui_for(frame.game_type)
        self.moves = MoveList.build(self.ui, frame) if frame.my_turn else MoveList(())
        self.query_one("#title", Static).update(self._title(frame))
        self.query_one("#status", Static).update(self._status(frame))
        lines = (breakdown(frame) if frame.finished else []) + self.ui.board(frame)
        board = Text("\n", no_wrap=True, overflow="crop").join(lines)
        board.no_wrap = True
        self.query_one("#board", Static).update(board)
        self._draw_log(frame, replace=old is None or self.mode == "replay")
        if self.mode == "play":
            example = next((m.code for m in self.moves if m.code), "")
            hint = f"e.g. {example} · " if example else ""
            self.query_one(
                "#move", MoveInput
            ).placeholder = f"type a move ({hint}Enter: all moves · ?: help · say TEXT: talk)"
        self._draw_clocks()

    def _title(self, f: Frame) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(f" {self.ui.title} ", style="bold")
        t.append(f"· {f.game_id} ")
        if self.mode == "replay":
            t.append(f"· replay, version {f.version} of {f.last_version} ")
        else:
            t.append(f"· version {f.version} ")
            if f.seat is not None:
                t.append(f"· you are {f.label_of(f.seat)} ")
            else:
                t.append("· watching ")
        return t

    def _status(self, f: Frame) -> Text:
        t = Text(self.ui.status(f), style="bold")
        if f.my_turn:
            t.append(
                "\nYour move: type it, or press Enter for the list of "
                f"{len(self.moves)} legal moves (? for help).",
                style="yellow",
            )
        elif self.mode == "play" and not f.finished and f.status != "open":
            t.append("\nWaiting for the other players; you may talk: say TEXT.", style="dim")
        return t

    def _draw_log(self, f: Frame, replace: bool) -> None:
        log = self.query_one("#log", RichLog)
        lines = log_lines(f.events)
        said = [sentence for _, sentence in lines]
        done = len(self._logged)
        # New lines are appended; an undo changes earlier ones (marked "taken back"), and
        # then the whole log is written again.
        if replace or said[:done] != self._logged:
            log.clear()
            done = 0
        for version, sentence in lines[done:]:
            now = self.mode == "replay" and version == f.version
            log.write(Text(("▶ " if now else "") + sentence, style="bold" if now else ""))
        self._logged = said

    # -- playing --------------------------------------------------------------------------------
    @on(Input.Changed, "#move")
    def _typed(self, event: Input.Changed) -> None:
        if event.value == "?":
            event.input.value = ""
            self.action_help()

    @on(Input.Submitted, "#move")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        f = self.frame
        if f is None:
            return
        lowered = text.lower()
        if lowered in ("quit", "exit", "q"):
            self.exit(0)
            return
        if lowered in ("help", "?"):
            self.action_help()
            return
        if lowered.startswith("say "):
            self.say(text[4:].strip())
            return
        if (lowered == "undo" or lowered.startswith("undo ")) and self.mode == "play":
            count = lowered[4:].strip()
            if count and not count.isdigit():
                self.message("Type 'undo' or 'undo N' (how many of your moves).", "red")
                return
            self.undo(int(count) if count else None)
            return
        if lowered in ("leave", "retake") and self.mode == "play":
            self.seat_request(lowered)
            return
        if f.finished:
            self.message("The game is over; Ctrl+Q leaves.", "yellow")
            return
        if not f.my_turn:
            self.message(f"Not your turn: {self.ui.status(f)}", "yellow")
            return
        if not text:
            self.action_moves()
            return
        match = self.moves.match(text)
        if match.single is not None:
            self.play(match.single)
        elif match.moves:
            self.push_screen(
                MovesScreen(self.moves, f"{len(match.moves)} moves match “{text}”:", text),
                self._chosen,
            )
        else:
            self.message(f"No legal move is “{text}”. Enter: the list of moves; ?: help.", "red")

    def action_moves(self) -> None:
        f = self.frame
        if f is None or not f.my_turn:
            self.message("You have no move to make now.", "yellow")
            return
        self.push_screen(MovesScreen(self.moves, self.ui.status(f)), self._chosen)

    def _chosen(self, move: Move | None) -> None:
        if move is not None:
            self.play(move)

    def play(self, move: Move) -> None:
        if not move.confirm:
            self._send(move)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(move)

        self.push_screen(ConfirmScreen(move.confirm), answered)

    @work(exclusive=True, group="send")
    async def _send(self, move: Move) -> None:
        if not isinstance(self.source, LiveSource):
            return
        self.message(f"Sending: {move.label} …", "dim")
        try:
            reply = await self.source.send(move.command)
        except Exception as exc:  # the connection layer gave up: say so, keep the screen
            self.message(f"Not sent: {exc}", "red")
            return
        if isinstance(reply, Rejected):
            self.message(f"Refused: {reply.message}", "red")
        else:
            self.message(f"Done: {move.label}.", "green")

    @work(group="chat")
    async def say(self, text: str) -> None:
        if not isinstance(self.source, LiveSource) or not text:
            return
        try:
            reply = await self.source.chat(text)
        except Exception as exc:
            self.message(f"Not said: {exc}", "red")
            return
        if isinstance(reply, Rejected):
            self.message(f"Not said: {reply.message}", "red")

    def action_undo(self) -> None:
        self.undo()

    @work(exclusive=True, group="send")
    async def undo(self, steps: int | None = None) -> None:
        """Take back my last move, or my last ``steps`` (``GameClient.undo``, on the
        socket); the server says why not when it may not (which event was the information
        horizon). Then say how many more may still be taken back."""
        if not isinstance(self.source, LiveSource):
            return
        client = self.source.client
        try:
            done = await client.undo(steps=steps)
        except (ApiError, UndoRefused) as exc:
            self.message(f"Cannot undo: {exc.message}", "red")
            return
        except Exception as exc:
            self.message(f"Not sent: {exc}", "red")
            return
        n = int(done.get("commands") or 1)
        said = f"Taken back: your last {n} moves." if n > 1 else "Taken back: your last move."
        try:
            more = int((await client.undo_status()).get("steps", 0))
        except Exception:  # the undo is done; how far one may go on is only a hint
            more = 0
        if more:
            said += f" You may take back {more} more (Ctrl+Z, or 'undo N')."
        self.message(said, "green")

    @work(group="seat")
    async def seat_request(self, what: str) -> None:
        """``leave`` the table (a bot plays on for me) or ``retake`` my seat."""
        if not isinstance(self.source, LiveSource):
            return
        client = self.source.client
        try:
            reply = await (client.leave() if what == "leave" else client.retake())
        except Exception as exc:
            self.message(f"Not sent: {exc}", "red")
            return
        if isinstance(reply, Rejected):
            self.message(f"Refused: {reply.message}", "red")
        elif what == "leave":
            self.message("You left the table: a bot plays on for you (retake: back).", "green")
        else:
            self.message("You have your seat back.", "green")
        self._draw_clocks()

    def _draw_clocks(self) -> None:
        if self.frame is None or not isinstance(self.source, LiveSource):
            return
        line = clock_line(self.source.client, self.frame)
        with contextlib.suppress(NoMatches):
            widget = self.query_one("#clocks", Static)
            widget.display = line is not None
            widget.update(line if line is not None else "")

    def message(self, text: str, style: str = "") -> None:
        self.said = text
        # An answer may arrive while the app is closing (its screen already gone): the
        # sentence is kept in ``said``, there is nothing left to draw it on.
        with contextlib.suppress(NoMatches, ScreenStackError):
            self.query_one("#message", Static).update(Text(text, style=style))

    # -- replay ---------------------------------------------------------------------------------
    def step_to(self, version: int) -> None:
        """Show the replay at ``version``. The target moves at once, key by key; only the
        newest target's view is fetched (a quicker key cancels the fetch before it)."""
        if not isinstance(self.source, ReplaySource):
            return
        self._target = max(0, min(version, self.source.last))
        self._fetch(self._target)

    @work(exclusive=True, group="replay")
    async def _fetch(self, version: int) -> None:
        if isinstance(self.source, ReplaySource):
            self.show(await self.source.goto(version))

    def action_step(self, delta: int) -> None:
        self.step_to(self._target + delta)

    def action_go_to(self, where: str) -> None:
        if isinstance(self.source, ReplaySource):
            self.step_to(0 if where == "first" else self.source.last)

    def action_line(self, direction: int) -> None:
        """To the previous/next version that has a log line (skipping bookkeeping)."""
        if not isinstance(self.source, ReplaySource):
            return
        now = self._target
        said = [v for v, _ in log_lines(self.source.events)]
        later = [v for v in said if v > now] if direction > 0 else [v for v in said if v < now]
        if later:
            self.step_to(later[0] if direction > 0 else later[-1])

    # -- scrolling and help ---------------------------------------------------------------------
    def action_page(self, direction: int) -> None:
        if self.mode == "replay":
            self.action_step(10 * direction)
            return
        log = self.query_one("#log", RichLog)
        if direction < 0:
            log.scroll_page_up()
        else:
            log.scroll_page_down()

    def action_board_scroll(self, lines: int) -> None:
        self.query_one("#board-box", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_scroll_key(self, lines: int) -> None:
        self.action_board_scroll(lines)

    # -- verify and fork (replay of a finished game) --------------------------------------------
    async def _finished_replay(self, what: str) -> ReplaySource | None:
        """The replay's source if its game is over. A replay opened while the game ran asks
        the server again (the game may have ended since): then the log, the last version and
        the result are read anew and the version on screen is drawn again."""
        source = self.source
        if not isinstance(source, ReplaySource):
            return None
        if source.summary.get("status") != "finished":
            try:
                changed = await source.refresh()
            except Exception as exc:
                self.message(f"Not {what}: the game's status could not be read ({exc})", "red")
                return None
            if changed:
                self.show(await source.goto(self._target))
        if source.summary.get("status") != "finished":
            status = source.summary.get("status", "unknown")
            self.message(
                f"Only a finished game can be {what}: this one is {status} "
                f"(version {source.summary.get('version', source.last)}). Press the key again "
                "once it has ended.",
                "yellow",
            )
            return None
        return source

    def action_verify(self) -> None:
        self.verify()

    @work(exclusive=True, group="tools")
    async def verify(self) -> None:
        """The server's re-decision of the game from its revealed seed (``Api.verify``,
        the check ``cloister verify`` makes of an export)."""
        source = await self._finished_replay("verified")
        if source is None:
            return
        self.message("Verifying: every event re-decided from the revealed seed …", "dim")
        try:
            verdict = await source.api.verify(source.game_id)
        except Exception as exc:
            self.message(f"Not verified: {getattr(exc, 'message', exc)}", "red")
            return
        # The server's sentence says it ("verified: all N events …" / the first mismatch).
        said = str(verdict.get("message") or "")
        if verdict.get("verified"):
            self.message(said[:1].upper() + said[1:] if said else "Verified.", "green")
        else:
            self.message(f"NOT verified: {said}", "red")

    def action_fork(self) -> None:
        self.fork_dialog()

    @work(exclusive=True, group="tools")
    async def fork_dialog(self) -> None:
        """Ask who takes each seat of the fork (me, a person, a bot of some level), then
        fork at the version shown."""
        source = await self._finished_replay("forked")
        if source is None:
            return
        version = self._target
        levels: list[str] = ["random"]
        with contextlib.suppress(Exception):  # without the list, "random" is every type's
            for t in await source.api.game_types():
                if t.get("name") == source.summary.get("type"):
                    levels = [str(b) for b in t.get("bots") or levels]
        plan = ForkPlan.default(source.seats, levels)
        question = (
            f"Fork here, at version {version}: a new game from this position, with what is "
            "hidden dealt anew. Who takes each seat?"
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.fork(version, plan)

        self.push_screen(ForkScreen(question, plan), answered)

    @work(exclusive=True, group="tools")
    async def fork(self, version: int, plan: ForkPlan | None = None) -> None:
        """Create the fork (``Api.fork``) with the seats as ``plan`` says (default: me in
        the first, bots in the others). My seat's token is kept as ``cloister join`` keeps
        one, so that ``cloister play <game>`` takes it; a person's seat is left open, and
        the line says how they take it."""
        from ..cli import TokenStore  # the command line imports this package

        source = await self._finished_replay("forked")
        if source is None:
            return
        plan = plan or ForkPlan.default(source.seats, ["random"])
        me = plan.me
        try:
            new = await source.api.fork(
                source.game_id,
                version,
                FORK_NAME if me is not None else None,
                seat=None if me is None else plan.seats[me].seat,
                bots=plan.bots(),
            )
        except ApiError as exc:
            self.message(f"Not forked: {exc.message}", "red")
            return
        except Exception as exc:
            self.message(f"Not forked: {exc}", "red")
            return
        you = new.get("you") or {}
        gid = str(new["id"])
        said = [f"Forked: game {gid}."]
        if you.get("token"):
            with contextlib.suppress(OSError):  # the game exists; the token is shown anyway
                TokenStore().save(
                    source.api.base_url, gid, int(you["seat"]), str(you["token"]), FORK_NAME
                )
            said.append(f"You: seat {int(you['seat']) + 1}, play it: cloister play {gid}.")
        for s in plan.open_seats:
            said.append(
                f"{s.label} is open for a person: cloister join {gid} --seat {s.seat}, or "
                f"{source.api.base_url}/#/game/{gid}."
            )
        if me is None and not plan.open_seats:
            said.append(f"Bots play every seat: cloister watch {gid}.")
        self.forked = new
        self.message(" ".join(said), "green")

    def action_quit_key(self) -> None:
        self.exit(0)

    def action_help_key(self) -> None:
        self.action_help()

    def action_help(self) -> None:
        keys = {"play": KEYS_PLAY, "watch": KEYS_WATCH, "replay": KEYS_REPLAY}[self.mode]
        sections: list[tuple[str, Sequence[str]]] = [("Keys", keys)]
        if self.ui.syntax and self.mode == "play":
            width = max(len(e) for e, _ in self.ui.syntax)
            sections.append(
                (
                    f"Typed moves in {self.ui.title}",
                    [f"{e.ljust(width)}  {what}" for e, what in self.ui.syntax],
                )
            )
        if self.ui.legend:
            sections.append(("The board", self.ui.legend))
        self.push_screen(HelpScreen(sections))
