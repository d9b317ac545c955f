"""The UI's pieces beside the board: the move line, the moves menu, help, confirmation and
the fork's seats."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from .fork import ME, ForkPlan
from .moves import Move, MoveList

__all__ = ["ConfirmScreen", "ForkScreen", "HelpScreen", "MoveInput", "MovesScreen"]


class MoveInput(Input):
    """The line where a move is typed. Enter on an empty line opens the moves menu, a lone
    ``?`` opens the help (both handled by the app), Escape clears the line."""

    BINDINGS = [Binding("escape", "clear", "clear", show=False)]

    def action_clear(self) -> None:
        self.value = ""


class MovesScreen(ModalScreen[Move | None]):
    """The legal moves by group, in the game's words, filtered as you type.

    Up/Down choose, Enter sends the highlighted move, Escape closes without a move.
    """

    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("down", "down", show=False, priority=True),
        Binding("up", "up", show=False, priority=True),
        Binding("pagedown", "page_down", show=False, priority=True),
        Binding("pageup", "page_up", show=False, priority=True),
    ]

    def __init__(self, moves: MoveList, title: str, filter_text: str = "") -> None:
        super().__init__()
        self.moves = moves
        self.title_text = title
        self.filter_text = filter_text
        self.shown: list[Move | None] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="moves-box"):
            yield Static(self.title_text, id="moves-title")
            yield Input(
                value=self.filter_text,
                placeholder="type to filter (e.g. book 2), Up/Down to choose, Enter to send",
                id="moves-filter",
            )
            yield OptionList(id="moves-list")
            yield Static(
                Text("Enter: send · Esc: back · [in brackets]: the same move typed"),
                id="moves-hint",
            )

    def on_mount(self) -> None:
        self._fill(self.filter_text)
        self.query_one("#moves-filter", Input).focus()

    def _fill(self, text: str) -> None:
        options = self.query_one("#moves-list", OptionList)
        chosen = self.moves.filter(text)
        options.clear_options()
        self.shown = []
        group = None
        items: list[Option] = []
        for m in chosen:
            if m.group != group:
                group = m.group
                items.append(Option(Text(m.group, style="bold underline"), disabled=True))
                self.shown.append(None)
            label = Text("  " + m.label)
            if m.code:
                label.append(f"  [{m.code}]", style="dim")
            items.append(Option(label))
            self.shown.append(m)
        if not chosen:
            items.append(Option(Text("No legal move matches that."), disabled=True))
            self.shown.append(None)
        options.add_options(items)
        first = next((i for i, m in enumerate(self.shown) if m is not None), None)
        options.highlighted = first

    @on(Input.Changed, "#moves-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#moves-filter")
    def _submit(self) -> None:
        options = self.query_one("#moves-list", OptionList)
        i = options.highlighted
        if i is not None and 0 <= i < len(self.shown) and self.shown[i] is not None:
            self.dismiss(self.shown[i])

    @on(OptionList.OptionSelected, "#moves-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        m = self.shown[event.option_index]
        if m is not None:
            self.dismiss(m)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_down(self) -> None:
        self.query_one("#moves-list", OptionList).action_cursor_down()

    def action_up(self) -> None:
        self.query_one("#moves-list", OptionList).action_cursor_up()

    def action_page_down(self) -> None:
        self.query_one("#moves-list", OptionList).action_page_down()  # type: ignore[no-untyped-call]

    def action_page_up(self) -> None:
        self.query_one("#moves-list", OptionList).action_page_up()  # type: ignore[no-untyped-call]


class HelpScreen(ModalScreen[None]):
    """Keys, the typed moves of this game and the board's legend."""

    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("q", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("f1", "close", show=False),
    ]

    def __init__(self, sections: Sequence[tuple[str, Sequence[str]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        body = Text()
        for title, lines in self.sections:
            body.append(title + "\n", style="bold underline")
            for line in lines:
                body.append(line + "\n")
            body.append("\n")
        body.append("Esc or ? closes this help.", style="dim")
        with VerticalScroll(id="help-box"):
            yield Static(body, id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question before an irreversible move."""

    BINDINGS = [
        Binding("y", "answer(True)", "yes"),
        Binding("enter", "answer(True)", show=False),
        Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text(self.question, style="bold"))
            yield Static("y / Enter: yes, do it     n / Esc: no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ForkScreen(ModalScreen[bool]):
    """ "Fork here": who takes each seat of the new game (a seat's number key cycles me, a
    person, each bot level), then y / Enter forks, n / Esc does not."""

    BINDINGS = [
        Binding("y", "answer(True)", "fork"),
        Binding("enter", "answer(True)", show=False),
        Binding("n", "answer(False)", "cancel"),
        Binding("escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str, plan: ForkPlan) -> None:
        super().__init__()
        self.question = question
        self.plan = plan

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text(self.question, style="bold"))
            yield Static(self._seats(), id="fork-seats")
            yield Static(
                f"1-{len(self.plan.seats)}: who takes that seat · y/Enter: fork · n/Esc: cancel"
            )

    def _seats(self) -> Text:
        t = Text()
        for i, s in enumerate(self.plan.seats):
            who = f" (was {s.name})" if s.name else ""
            t.append(f"\n {i + 1}  {s.label}{who}: ", style="bold")
            t.append(self.plan.words(i), style="green" if self.plan.choice[i] == ME else "")
        return t

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            i = int(event.character) - 1
            if 0 <= i < len(self.plan.seats):
                self.plan.cycle(i)
                self.query_one("#fork-seats", Static).update(self._seats())
                event.stop()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
