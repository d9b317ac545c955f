"""HTTP bodies of undo, fork and report (issue 13, items 3 and 6; ``docs/api.md``).

Kept apart from ``protocol.http`` so that the routes of one feature live together; they
follow its conventions (closed requests, open responses, constraints in metadata).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from .http import BotSeat, GameSummary, JoinAs, _doc
from .messages import WireEvent

__all__ = [
    "REPORT_MAX_CHARS",
    "ForkGame",
    "ForkedGame",
    "ReportProblem",
    "ReportReply",
    "UndoDone",
    "UndoRequest",
    "UndoStatus",
]

REPORT_MAX_CHARS = 2000
"""The longest description a problem report carries."""

_VERSION = {"schema": {"minimum": 0}}


@attrs.frozen
class UndoRequest:
    """Take back your last command, or (``to_version``) all of yours after that version;
    one of ``GET …/undo``'s ``targets``."""

    CLOSED: ClassVar[bool] = True
    to_version: int | None = attrs.field(default=None, metadata=_VERSION)
    steps: int | None = attrs.field(
        default=None,
        metadata=_doc(
            "Take back your last `steps` commands (instead of `to_version`).",
            {"schema": {"minimum": 1}},
        ),
    )


@attrs.frozen
class UndoStatus:
    """How far the caller's seat may go back now."""

    version: int
    allowed: bool
    targets: list[int] = attrs.field(
        metadata=_doc("Versions it may undo to, newest first: the k-th takes back k commands.")
    )
    reason: str = attrs.field(metadata=_doc("Why it may go no further back, in words."))
    steps: int = attrs.field(
        default=0, metadata=_doc("How many of your commands you may take back now.")
    )


@attrs.frozen
class UndoDone:
    """The undo was appended as ``cloister.Undone`` at ``version``."""

    version: int
    to_version: int
    commands: int


@attrs.frozen
class ForkGame:
    """A new game from the position after ``version`` of a finished game, with fresh
    randomness from there on. Seats as in ``CreateGame``: ``join`` for the caller, ``bots``
    for bots; seats left over are offered in the lobby."""

    CLOSED: ClassVar[bool] = True
    version: int = attrs.field(metadata=_VERSION)
    join: JoinAs | None = None
    bots: list[BotSeat] = attrs.field(factory=list)


@attrs.frozen
class ForkedGame(GameSummary):
    """The new game's summary; ``you`` the caller's seat and token when the request had
    ``join``; ``forked_from`` the game and version it continues."""

    forked_from: dict[str, Any] | None = None
    you: dict[str, Any] | None = None


@attrs.frozen
class ReportProblem:
    """What went wrong, in the reporter's words."""

    CLOSED: ClassVar[bool] = True
    text: str = attrs.field(default="", metadata={"schema": {"maxLength": REPORT_MAX_CHARS}})


@attrs.frozen
class ReportReply:
    """A problem report: the game exactly as the reporter may see it (the audience of the
    token, or a spectator), and nothing more, to attach to an issue."""

    game: str
    type: str
    version: int
    audience: str
    text: str
    at: int = attrs.field(metadata=_doc("Server time of the report, ms since the Unix epoch."))
    summary: GameSummary
    view: Any
    events: list[WireEvent]
