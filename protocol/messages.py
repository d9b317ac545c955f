"""Every message on the wire, as frozen attrs classes.

Each message is a JSON object whose ``type`` field names it. Client → server:
``hello``, ``command``, ``chat``, ``leave``, ``retake``, ``undo``, ``ping``, ``resync``. Server →
client: ``welcome``, ``update``, ``accepted``, ``rejected``, ``game_over``, ``error``,
``pong``. See ``docs/protocol.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

__all__ = [
    "CHAT_MAX_CHARS",
    "CLIENT_MESSAGES",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "Accepted",
    "Chat",
    "ClientMessage",
    "Error",
    "GameOverMessage",
    "Hello",
    "Leave",
    "Ping",
    "Pong",
    "Rejected",
    "Resync",
    "Retake",
    "SendCommand",
    "ServerMessage",
    "Undo",
    "Update",
    "Welcome",
    "WireEvent",
]

PROTOCOL_VERSION = 2
"""Bumped on any incompatible change to a message below. 2: updates carry a delta of the
view and legal commands travel compact (``protocol.delta``, ``protocol.legal``)."""


# -- client → server ------------------------------------------------------------------------
@attrs.frozen
class Hello:
    """First message on a connection. A seat ``token`` claims that seat; none = spectator.

    ``since`` is the last game version the client has seen (on a reconnect): the server
    then sends exactly the events after it, instead of only the current view.
    """

    TYPE: ClassVar[str] = "hello"
    v: int = PROTOCOL_VERSION
    token: str | None = None
    since: int | None = None


@attrs.frozen
class SendCommand:
    """A game command. ``command_id`` is chosen by the client and reused on a resend, so a
    retried command is applied at most once; ids are the seat's own (another seat's same id
    is another command), and an id already used for a different command is refused
    ``command_id_reused``. ``expected_version``, if set, applies the command only while the
    game is at exactly that version (else it is refused ``stale``): "only if nothing
    happened since I looked"."""

    TYPE: ClassVar[str] = "command"
    command_id: str
    command: dict[str, Any]
    expected_version: int | None = None


CHAT_MAX_CHARS = 500
"""The longest chat text the server takes, after trimming spaces."""


@attrs.frozen
class Chat:
    """Table talk from a seated player, outside the rules and never binding.

    It is appended to the game's log as a ``cloister.Chat`` event, so every player and
    spectator sees it (on any node) and replays keep it; the game's state never sees it.
    ``command_id`` works as for ``command``: the reply is the update that carries it (or
    ``accepted``), or ``rejected``; a resend with the same id is applied once.
    """

    TYPE: ClassVar[str] = "chat"
    command_id: str
    text: str


@attrs.frozen
class Leave:
    """Leave the table: the game's best bot plays on for your seat (a
    ``cloister.SeatHandedToBot`` event with reason ``left``) until you send ``retake``.
    Replied to like a command (``command_id``)."""

    TYPE: ClassVar[str] = "leave"
    command_id: str


@attrs.frozen
class Retake:
    """Take your seat back from the bot playing for it (after your clock ran out, you were
    away, or you left): a ``cloister.SeatRetaken`` event. Connecting again with your token
    does not do it by itself: send this. Replied to like a command (``command_id``)."""

    TYPE: ClassVar[str] = "retake"
    command_id: str


@attrs.frozen
class Undo:
    """Take back your own last commands, up to the information horizon: the last one, the
    last ``steps`` of them, or all of yours after ``to_version`` (one of ``GET …/undo``'s
    ``targets``; give at most one of the two). A ``cloister.Undone`` event; replied to like
    a command (``command_id``). Refused ``undo_not_allowed`` (naming the horizon) when it
    would cross one, or you have no command to take back; ``spectator`` without a seat;
    ``seat_handed`` while a bot plays for you."""

    TYPE: ClassVar[str] = "undo"
    command_id: str
    steps: int | None = None
    to_version: int | None = None


@attrs.frozen
class Ping:
    TYPE: ClassVar[str] = "ping"
    nonce: int = 0


@attrs.frozen
class Resync:
    """Ask again for the events after ``since`` (after a gap in versions)."""

    TYPE: ClassVar[str] = "resync"
    since: int


ClientMessage = Hello | SendCommand | Chat | Leave | Retake | Undo | Ping | Resync
CLIENT_MESSAGES: tuple[type, ...] = (
    Hello,
    SendCommand,
    Chat,
    Leave,
    Retake,
    Undo,
    Ping,
    Resync,
)


# -- server → client ------------------------------------------------------------------------
@attrs.frozen
class WireEvent:
    """One event as the receiving viewer may see it.

    ``type`` is ``"Hidden"`` (and ``data`` empty) for an event the viewer may not see at all;
    it still carries its version so the client sees no gap.
    """

    version: int
    type: str
    data: dict[str, Any]
    text: str = ""


@attrs.frozen
class Welcome:
    """Reply to ``hello``: who you are and the game as you may see it.

    ``view`` is the full view; ``legal`` the seat's legal commands in compact form
    (``protocol.legal.expand_legal`` gives the command objects; empty unless you can act).
    """

    TYPE: ClassVar[str] = "welcome"
    v: int
    game: str
    game_type: str
    seat: int | None
    status: str
    version: int
    view: Any
    legal: list[dict[str, Any]]
    to_act: list[int]
    events: list[WireEvent] = attrs.field(factory=list)
    table: dict[str, Any] | None = None
    """Clocks and stand-ins: ``{"now", "clock", "seats": [{"seat", "bot", "remaining",
    "running", "deadline"}]}`` (times in server milliseconds since the epoch; absent when
    the game has no clock and no bot stands in for anybody). See docs/protocol.md."""


@attrs.frozen
class Update:
    """New events (redacted for you) and what changed in your view.

    Normally ``delta`` (``protocol.delta``) turns the view you hold at version ``base`` into
    the view at ``version``; if your view is not at ``base``, ask for a ``resync``. A full
    ``view`` (and no ``delta``) comes in answer to a resync, or when the server had no view
    at your version. ``legal`` (compact, as in the welcome) is present only when your legal
    commands changed; absent means unchanged.

    ``command_id`` is set only in the update sent to the connection whose command produced
    these events: it is that command's acceptance (version = this update's version), and no
    separate ``accepted`` follows. One frame instead of two on the hottest path.
    """

    TYPE: ClassVar[str] = "update"
    version: int
    events: list[WireEvent]
    to_act: list[int]
    status: str = "running"
    base: int | None = None
    delta: list[list[Any]] | None = None
    view: Any = None
    legal: list[dict[str, Any]] | None = None
    command_id: str | None = None
    table: dict[str, Any] | None = None
    """As in the welcome, as of this update."""


@attrs.frozen
class Accepted:
    """Your command was appended; ``version`` is the game's version after it."""

    TYPE: ClassVar[str] = "accepted"
    command_id: str
    version: int
    duplicate: bool = False


@attrs.frozen
class Rejected:
    """Your command changed nothing. ``code`` is stable; ``message`` is for people."""

    TYPE: ClassVar[str] = "rejected"
    command_id: str
    code: str
    message: str


@attrs.frozen
class GameOverMessage:
    TYPE: ClassVar[str] = "game_over"
    version: int
    result: dict[str, Any]


@attrs.frozen
class Error:
    """A message that could not be taken at all (malformed, oversize, flood)."""

    TYPE: ClassVar[str] = "error"
    code: str
    message: str
    details: list[str] = attrs.field(factory=list)


@attrs.frozen
class Pong:
    TYPE: ClassVar[str] = "pong"
    nonce: int = 0


ServerMessage = Welcome | Update | Accepted | Rejected | GameOverMessage | Error | Pong
SERVER_MESSAGES: tuple[type, ...] = (
    Welcome,
    Update,
    Accepted,
    Rejected,
    GameOverMessage,
    Error,
    Pong,
)
