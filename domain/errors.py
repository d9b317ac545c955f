"""The two error families every game raises from ``decide``.

*Invalid* means the command is malformed or unknown: it could never be right, whatever the
state. *Illegal* means it is well formed but breaks a rule (or comes out of turn) in the
current state. Both carry a stable machine ``code`` that clients may switch on, and a message
in the game's own vocabulary that a person can read. Neither changes any state.

A message must never name a secret the sender may not see (a card in the opponent's hand,
the deck order): the server sends it back to the sender verbatim.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "DomainError",
    "GameOver",
    "IllegalCommand",
    "InvalidCommand",
    "InvalidOptions",
    "NotYourTurn",
    "RuleViolation",
    "UnknownCommand",
]


class DomainError(ValueError):
    """Root of every error a game raises from ``decide`` or option validation."""

    code: ClassVar[str] = "domain_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            # A per-instance code refines the family's code (e.g. "quill_covered").
            self.code = code  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidCommand(DomainError):
    """The command is malformed: wrong fields, values out of range, unknown names."""

    code: ClassVar[str] = "invalid_command"


class UnknownCommand(InvalidCommand):
    """The game has no command of that type."""

    code: ClassVar[str] = "unknown_command"


class InvalidOptions(DomainError):
    """Game options that the game type does not accept."""

    code: ClassVar[str] = "invalid_options"


class IllegalCommand(DomainError):
    """Well formed, but against the rules in the current state."""

    code: ClassVar[str] = "illegal_command"


class NotYourTurn(IllegalCommand):
    """The seat may not act now."""

    code: ClassVar[str] = "not_your_turn"


class GameOver(IllegalCommand):
    """The game has ended; no command is accepted."""

    code: ClassVar[str] = "game_over"


class RuleViolation(IllegalCommand):
    """A specific rule of the rulebook forbids the command.

    Give a specific ``code`` (``"quill_covered"``, ``"book_closed"``) and a message that
    names the rule: ``"that Quill is already covered"``.
    """

    code: ClassVar[str] = "illegal_move"
