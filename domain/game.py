"""The contract every game satisfies, and the registry of game types.

A game is a Decider over frozen values:

* ``initial_state(options)`` is the state before set-up (pure, no randomness);
* ``setup(state, ctx)`` returns the set-up events (shuffles, deals, random placements), with
  every random outcome written into them;
* ``decide(state, seat, command, ctx)`` checks a command against the rules and returns the
  events it causes, including the automatic ones that follow it (refills, battles, the
  Mystic Monk's turn, end of game), or raises a :class:`~domain.errors.DomainError`;
* ``evolve(state, event)`` applies one event. It never validates and never rolls dice, so
  folding a log again gives the identical state;
* ``full_view(state)`` builds everything any audience may be shown, as view parts whose
  secrets are declared (:mod:`domain.views`); ``view(state, viewer)`` and
  ``redact(event, viewer)`` are the kernel's, driven by the declarations of the view and
  event types, and refuse a type that declares none.

Commands and events are ``attrs`` frozen classes. Their wire name is the class name, which is
therefore stable: rename a class only with an upcaster (``upcast``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Protocol,
    TypeVar,
    cast,
    runtime_checkable,
)

import attrs

from .errors import InvalidOptions
from .narration import GlossaryEntry, Names, Standing
from .randomness import Context
from .secrets import UndeclaredSecrets
from .secrets import redact as _redact
from .viewers import Seat, Viewer
from .views import render

if TYPE_CHECKING:  # domain.bots imports this module; at run time GameType imports it late
    from .bots import Bot

__all__ = [
    "Game",
    "GameBase",
    "GameType",
    "OptionSpec",
    "OptionValue",
    "Options",
    "Result",
    "decide_and_fold",
    "fold",
    "fork_reshuffle",
    "legal_segments",
    "type_name",
    "validate_options",
]

OptionValue = str | int | bool
Options = Mapping[str, OptionValue]

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")


@attrs.frozen
class OptionSpec:
    """One option of a game type, with its allowed values and default."""

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...]
    label: str = ""
    description: str = ""
    applies_when: tuple[tuple[str, OptionValue], ...] = ()
    """Other options' values under which this one matters, e.g. ``(("mode", "solo"),)``.

    Where they do not hold, the option is left out of the game's options (so nobody is
    shown a setting that does nothing), and setting it to anything but its default is
    refused rather than silently ignored."""

    def applies(self, options: Mapping[str, Any]) -> bool:
        return all(options.get(name) == value for name, value in self.applies_when)


@attrs.frozen
class Result:
    """The outcome of a finished game."""

    scores: tuple[int, ...]
    """Final score per seat, in seat order."""
    winners: tuple[Seat, ...]
    """Seats that won (several on a shared victory; empty when an automaton won)."""
    summary: str = ""
    """The winner in one sentence that names seats by their labels, as the lobby does
    (``"France wins with 14 prestige"``); the log's game-over line says the same."""
    breakdown: tuple[Standing, ...] = ()
    """Per scorer (each seat, and any automaton or team), category by category as the
    rulebook scores it."""


def type_name(obj: object) -> str:
    """The stable wire name of a command or event: its class name."""
    return type(obj).__name__


@runtime_checkable
class Game(Protocol[S, C, E]):
    """What the platform needs from a game. See the module docstring."""

    # Read-only, so a game may declare them as class variables.
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def option_specs(self) -> tuple[OptionSpec, ...]: ...
    @property
    def command_types(self) -> tuple[type, ...]: ...
    @property
    def event_types(self) -> tuple[type, ...]: ...

    def check_options(self, options: Options) -> None: ...
    def seat_count(self, options: Options) -> int: ...
    def seat_labels(self, options: Options) -> tuple[str, ...]: ...
    def initial_state(self, options: Options) -> S: ...
    def setup(self, state: S, ctx: Context) -> Sequence[E]: ...
    def decide(self, state: S, seat: Seat, command: C, ctx: Context) -> Sequence[E]: ...
    def evolve(self, state: S, event: E) -> S: ...
    def is_terminal(self, state: S) -> bool: ...
    def to_act(self, state: S) -> frozenset[Seat]: ...
    def legal_commands(self, state: S, seat: Seat) -> Sequence[C]: ...
    def full_view(self, state: S) -> Any: ...
    def view(self, state: S, viewer: Viewer) -> Any: ...
    def redact(self, event: E, viewer: Viewer) -> E | None: ...
    def result(self, state: S) -> Result | None: ...
    def hidden_values(self, state: S, viewer: Viewer) -> frozenset[str]: ...
    def narrate(self, event: E, names: Names) -> str | None: ...
    def glossary(self) -> Mapping[str, GlossaryEntry]: ...
    def table_labels(self, state: S, labels: tuple[str, ...]) -> tuple[str, ...]: ...
    @property
    def bot_names(self) -> tuple[str, ...]: ...
    @property
    def quiet_events(self) -> tuple[type, ...]: ...
    def upcast(self, type_: str, schema: int, data: dict[str, Any]) -> dict[str, Any]: ...


class GameBase(Generic[S, C, E]):
    """Defaults for the optional parts of the contract; games subclass it bound to their
    own types, ``class Illumination(GameBase[State, Command, Event])``, so that mypy checks
    ``decide``, ``evolve`` and ``view`` against them (``Command`` and ``Event`` being the
    unions of the game's command and event classes)."""

    name: ClassVar[str]
    title: ClassVar[str]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    command_types: ClassVar[tuple[type, ...]] = ()
    event_types: ClassVar[tuple[type, ...]] = ()

    def check_options(self, options: Options) -> None:
        """Cross-option checks beyond each option's allowed values."""

    def seat_labels(self, options: Options) -> tuple[str, ...]:
        n: int = self.seat_count(options)  # type: ignore[attr-defined]
        return tuple(f"Player {i + 1}" for i in range(n))

    def hidden_values(self, state: S, viewer: Viewer) -> frozenset[str]:
        """Strings that must not appear in anything ``viewer`` receives at ``state``.

        Used by the leak tests: return the identities of secrets (card ids in other hands,
        the deck order, face-down tiles) that do not also appear in public information.
        """
        return frozenset()

    def full_view(self, state: S) -> Any:
        """Everything any audience may be shown at ``state``, secrets included, as view parts
        (:mod:`domain.views`) whose secret fields say from whom; the kernel redacts it."""
        raise UndeclaredSecrets(
            f"{type(self).__name__} has no full_view: a game's view is made of view parts "
            "(domain.views.view_part), redacted by the kernel"
        )

    def view(self, state: S, viewer: Viewer) -> Any:
        """What ``viewer`` is sent at ``state`` (JSON-ready): the kernel's redaction of
        ``full_view(state)`` (:func:`domain.views.render`); do not override. To serve several
        audiences of one state, build the full view once and ``render`` it for each."""
        return render(self.full_view(state), viewer)

    def redact(self, event: E, viewer: Viewer) -> E | None:
        """``event`` as ``viewer`` may see it, from the secrets its type declares
        (:mod:`domain.secrets`); raises ``UndeclaredSecrets`` for an undeclared type."""
        redacted: E | None = _redact(event, viewer)
        return redacted

    quiet_events: ClassVar[tuple[type, ...]] = ()
    """Bookkeeping event types (a stage or cursor change): ``narrate`` gives them no line."""
    bot_names: ClassVar[tuple[str, ...]] = ()
    """Names from the game's world for bots, so that seats can be told apart
    ("Brother Anselm"); the server gives each bot the first one not yet at the table."""

    def narrate(self, event: E, names: Names) -> str | None:
        """The log's sentence for ``event`` (already redacted for ``names.viewer``), in the
        rulebook's words; ``None`` for bookkeeping no player needs to read."""
        return None

    def glossary(self) -> Mapping[str, GlossaryEntry]:
        """Printed name, kind and rules text of every component a page shows, by id."""
        return {}

    def table_labels(self, state: S, labels: tuple[str, ...]) -> tuple[str, ...]:
        """The seat labels once the game is set up (a nation dealt at random replaces
        "Player 2"); by default the labels the seats were created with."""
        return labels

    def upcast(self, type_: str, schema: int, data: dict[str, Any]) -> dict[str, Any]:
        """Bring stored event data of an older ``schema`` up to date (none so far)."""
        return data

    def decide_state(self, state: S, seat: Seat, command: C, ctx: Context) -> tuple[Sequence[E], S]:
        """``decide``'s events and the state they lead to (see :func:`decide_and_fold`).

        The default folds the events; a game whose ``decide`` builds them on a
        :class:`~domain.transaction.Transaction` already holds that state and returns it,
        so that the server does not fold every move twice."""
        events = self.decide(state, seat, command, ctx)  # type: ignore[attr-defined]
        return events, fold(cast("Game[S, C, E]", self), state, events)

    def fork_reshuffle(self, state: S, ctx: Context) -> Sequence[E]:
        """The events that give a forked position fresh randomness: every face-down deck,
        pile or tile stack dealt anew from ``ctx`` (see :func:`fork_reshuffle`).

        The default, for a game with nothing hidden, is none."""
        return ()


def validate_options(game: Game[Any, Any, Any], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and check every option against the game type's specs.

    Raises :class:`InvalidOptions` naming the option at fault.
    """
    raw = dict(raw or {})
    specs = {spec.name: spec for spec in game.option_specs}
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        raise InvalidOptions(
            f"{game.title} has no option {unknown[0]!r}; its options are {sorted(specs)}"
        )
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        value = raw.get(name, spec.default)
        # bool is an int subclass: compare types exactly so True is not accepted for 1.
        if not any(type(value) is type(c) and value == c for c in spec.choices):
            raise InvalidOptions(
                f"option {name!r} of {game.title} must be one of {list(spec.choices)}, "
                f"not {value!r}"
            )
        out[name] = value
    for spec in specs.values():
        if spec.applies(out):
            continue
        if spec.name in raw and raw[spec.name] != spec.default:
            when = " and ".join(f"{k} is {v}" for k, v in spec.applies_when)
            raise InvalidOptions(
                f"option {spec.name!r} of {game.title} applies only when {when}; "
                f"leave it out (it was {raw[spec.name]!r})"
            )
        del out[spec.name]
    game.check_options(out)
    return out


def fold(game: Game[S, Any, E], state: S, events: Iterable[E]) -> S:
    """Apply ``events`` to ``state`` in order."""
    for event in events:
        state = game.evolve(state, event)
    return state


def decide_and_fold(
    game: Game[S, C, E], state: S, seat: Seat, command: C, ctx: Context
) -> tuple[Sequence[E], S]:
    """``game.decide(state, seat, command, ctx)`` and the state its events lead to, equal to
    ``fold(game, state, events)`` (the contract suite checks it for every game).

    The server's hot path: a decision already folds its events as it builds them
    (``Transaction``), so a game built on :class:`GameBase` hands that state back
    (``decide_state``) instead of the server folding the events a second time. A game not
    built on it is folded here."""
    hook = getattr(game, "decide_state", None)
    if hook is not None:
        decided: tuple[Sequence[E], S] = hook(state, seat, command, ctx)
        return decided
    events = game.decide(state, seat, command, ctx)
    return events, fold(game, state, events)


def legal_segments(game: Game[S, C, Any], state: S, seat: Seat) -> Sequence[Sequence[C]]:
    """``game.legal_commands(state, seat)`` as consecutive runs, in order: their commands
    one after another are that list.

    A game may define ``legal_segments`` itself, handing out the very same tuple for the
    same run from one state to the next (every way to pay with the same coins, a tile on
    the same free squares): the server then encodes and groups a run once, by its identity
    (``protocol.legal.compact_segments``), instead of a step per command of every list. A
    game that does not has its list as one run."""
    hook = getattr(game, "legal_segments", None)
    if hook is not None:
        segments: Sequence[Sequence[C]] = hook(state, seat)
        return segments
    return (game.legal_commands(state, seat),)


def fork_reshuffle(game: Game[S, Any, E], state: S, ctx: Context) -> Sequence[E]:
    """The events re-randomising what is hidden in ``state`` when a game is forked there.

    A fork continues a finished game, whose whole log anyone may read: without this, the
    order of every face-down deck would be known from it, and so every future draw. The
    game reshuffles each hidden zone (keeping its size and its face-up top, if it has one);
    everything public and every hand stays as it is, so every seat's and the spectators'
    view is unchanged. Each outcome is written into the events, as for a set-up, and the
    platform decides them with the new game's own seed (``server.fork``). A game that does
    not define ``fork_reshuffle`` (one not built on :class:`GameBase`) has nothing hidden.
    """
    hook = getattr(game, "fork_reshuffle", None)
    if hook is None:
        return ()
    events: Sequence[E] = hook(state, ctx)
    return events


@attrs.frozen
class GameType:
    """A game as the platform offers it: the rules, the bots that can fill its seats.

    A game package makes one and registers it under the ``cloister.games`` entry-point
    group (see ``domain.registry`` and ``docs/kernel.md``)."""

    game: Game[Any, Any, Any]
    bots: Mapping[str, Bot] = attrs.field(factory=dict)
    demo: bool = False
    """A small game for demos and platform tests, not a published board game."""

    @property
    def name(self) -> str:
        return self.game.name

    def bot(self, level: str | None) -> Bot:
        """The bot for ``level`` (default: the strongest there is)."""
        if level is None:
            level = "greedy" if "greedy" in self.bots else "random"
        if level == "random" and "random" not in self.bots:
            from .bots import RandomBot

            return RandomBot()
        try:
            return self.bots[level]
        except KeyError:
            raise KeyError(
                f"{self.game.title} has no bot level {level!r}; "
                f"levels: {sorted({'random', *self.bots})}"
            ) from None
