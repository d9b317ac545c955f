"""The bodies of the HTTP API (``docs/api.md``), as attrs classes.

Requests are decoded with the protocol's strict converter (``decode_request``): wrong JSON
types and unknown fields are refused, exactly as for WebSocket messages. Responses are
described here so that ``/api/openapi.json`` is generated from the same classes; the server
builds them as plain dicts and the tests check every answer against these schemas. Response
objects may grow fields (additive changes are allowed), so their schemas stay open; request
schemas are closed.

Field constraints that JSON Schema can say (lengths, ranges) ride on
``attrs.field(metadata={"schema": {...}})`` and are merged into the generated schema; the
server enforces them in code too (``check_constraints``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, TypeVar

import attrs
import cattrs

from .codec import converter
from .messages import WireEvent

__all__ = [
    "HTTP_REQUESTS",
    "HTTP_RESPONSES",
    "NAME_MAX_CHARS",
    "AddBot",
    "BotAdded",
    "BotSeat",
    "CreateGame",
    "CreatedGame",
    "ErrorBody",
    "ErrorReply",
    "EventsReply",
    "GameList",
    "GameResult",
    "GameSummary",
    "GameTypeInfo",
    "GameTypes",
    "Health",
    "ImportLog",
    "JoinAs",
    "JoinSeat",
    "OptionInfo",
    "PlayNow",
    "PlayNowReply",
    "RequestError",
    "SeatGranted",
    "SeatSummary",
    "VerifyReply",
    "ViewReply",
    "check_constraints",
    "decode_request",
]

NAME_MAX_CHARS = 40
"""The longest name a seat may carry (after trimming spaces)."""

_NAME = {"schema": {"minLength": 1, "maxLength": NAME_MAX_CHARS}}
_SEAT = {"schema": {"minimum": 0, "description": "0-based seat index, as in GameSummary.seats"}}
OptionValue = str | int | bool


def _doc(text: str, base: dict[str, Any] | None = None) -> dict[str, Any]:
    """Field metadata carrying a description (and any constraints of ``base``)."""
    schema = dict((base or {}).get("schema", {}))
    schema["description"] = text
    return {"schema": schema}


class RequestError(ValueError):
    """A request body that does not fit its type; ``details`` are path-qualified."""

    def __init__(self, message: str, details: list[str]) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


# -- requests -------------------------------------------------------------------------------
@attrs.frozen
class BotSeat:
    """A bot for one seat: a given ``seat`` (else the first free one) at a ``level`` (else
    the game type's strongest)."""

    seat: int | None = attrs.field(default=None, metadata=_SEAT)
    level: str | None = None


@attrs.frozen
class JoinAs:
    """A seat for the caller, under ``name``; its token is in the reply (``you``)."""

    name: str = attrs.field(metadata=_NAME)
    seat: int | None = attrs.field(default=None, metadata=_SEAT)


@attrs.frozen
class CreateGame:
    """Create a game. ``options`` not given take their defaults.

    ``bots`` and ``join`` fill seats in the same request, checked before anything is
    created and written in one append: either the whole table is set or no game exists.
    Seats named explicitly are placed first; then the caller (``join``) takes the first
    free seat, then the bots the next ones.
    """

    CLOSED: ClassVar[bool] = True
    type: str
    options: dict[str, OptionValue] | None = None
    seed: str | int | None = None
    bots: list[BotSeat] = attrs.field(factory=list)
    join: JoinAs | None = None


@attrs.frozen
class PlayNow:
    """A ready table in one request: the lobby's "Play now" and "Play with a friend".

    The caller takes the first seat as ``name``; with ``friend`` the second seat is kept
    free for a friend (the reply's ``invite_url`` is the link to send); every other seat
    gets a bot at ``level`` (default: the game type's strongest). ``options`` not given
    take the game type's defaults.
    """

    CLOSED: ClassVar[bool] = True
    type: str
    friend: bool = False
    name: str = attrs.field(default="Player", metadata=_NAME)
    options: dict[str, OptionValue] | None = None
    level: str | None = None


@attrs.frozen
class JoinSeat:
    """Take a seat as a person: ``seat`` (else the first free one) under ``name``."""

    CLOSED: ClassVar[bool] = True
    name: str = attrs.field(metadata=_NAME)
    seat: int | None = attrs.field(default=None, metadata=_SEAT)


@attrs.frozen
class AddBot:
    """Put a bot in ``seat`` (else the first free one) at ``level`` (else the strongest)."""

    CLOSED: ClassVar[bool] = True
    seat: int | None = attrs.field(default=None, metadata=_SEAT)
    level: str | None = None


@attrs.frozen
class ImportLog:
    """A finished game's full log (``GET …/events`` once it is over, or ``cloister export``
    without its header line), ``cloister.GameCreated`` first."""

    CLOSED: ClassVar[bool] = True
    events: list[dict[str, Any]]


HTTP_REQUESTS: tuple[type, ...] = (CreateGame, PlayNow, JoinSeat, AddBot, ImportLog)


# -- responses ------------------------------------------------------------------------------
@attrs.frozen
class ErrorBody:
    code: str = attrs.field(metadata=_doc("Stable, for programs (e.g. ``game_not_found``)."))
    message: str = attrs.field(metadata=_doc("For people."))


@attrs.frozen
class ErrorReply:
    """Every 4xx/5xx answer of the HTTP API, unknown paths and methods included."""

    error: ErrorBody


@attrs.frozen
class Health:
    status: Literal["ok", "unavailable"]
    redis: Literal["ok", "unavailable"]
    version: str


@attrs.frozen
class OptionInfo:
    """One option of a game type. ``applies_when`` (if set) names the other options'
    values under which this one matters, e.g. ``{"mode": "solo"}``; otherwise it is left
    out of a game's options and may not be set to anything but its default."""

    name: str
    default: OptionValue
    choices: list[OptionValue]
    label: str
    description: str
    applies_when: dict[str, OptionValue] | None = None


@attrs.frozen
class GameTypeInfo:
    name: str
    title: str
    demo: bool = attrs.field(
        metadata=_doc("A small game for demos and platform tests, not a published board game.")
    )
    options: list[OptionInfo]
    bots: list[str] = attrs.field(metadata=_doc("Bot levels, for ``level`` in bot requests."))
    default_bot: str = attrs.field(
        metadata=_doc("The level a bot gets when none is named (the strongest).")
    )


@attrs.frozen
class GameTypes:
    game_types: list[GameTypeInfo]


@attrs.frozen
class SeatSummary:
    seat: int = attrs.field(metadata=_SEAT)
    label: str = attrs.field(metadata=_doc('The seat\'s name in the game (a side, "Player 1").'))
    taken: bool
    name: str | None
    bot: str | None = attrs.field(metadata=_doc("The bot level, when a bot holds the seat."))
    stand_in: str | None = attrs.field(
        default=None,
        metadata=_doc(
            "The bot level playing for this person's seat while they are away (their clock "
            "ran out, they were disconnected too long, or they left the table)."
        ),
    )


@attrs.frozen
class GameResult:
    scores: list[int]
    winners: list[int]
    summary: str


@attrs.frozen
class GameSummary:
    """A game as the lobby lists it. ``created`` is a Unix time in seconds."""

    id: str
    type: str
    title: str
    options: dict[str, OptionValue]
    status: Literal["open", "running", "finished"]
    seats: list[SeatSummary]
    version: int
    to_act: list[int]
    result: GameResult | None
    created: float


@attrs.frozen
class SeatGranted:
    seat: int = attrs.field(metadata=_SEAT)
    token: str = attrs.field(metadata=_doc("The seat's secret, shown only in this reply."))


@attrs.frozen
class CreatedGame(GameSummary):
    """``POST /api/games``: the new game's summary; ``you`` is the caller's seat and token
    when the request had ``join``."""

    you: SeatGranted | None = None


@attrs.frozen
class PlayNowReply:
    game: GameSummary
    seat: int = attrs.field(metadata=_SEAT)
    token: str = attrs.field(
        metadata=_doc("The caller's seat token (a secret: keep it, never put it in a link).")
    )
    play_url: str = attrs.field(
        metadata=_doc(
            "The caller's game page (the token is not in it: the page needs it from the caller)."
        )
    )
    invite_url: str | None = attrs.field(
        metadata=_doc("With ``friend``: the link to send, a page that offers the free seat.")
    )


@attrs.frozen
class GameList:
    games: list[GameSummary]


@attrs.frozen
class BotAdded:
    seat: int = attrs.field(metadata=_SEAT)
    level: str
    name: str | None = attrs.field(
        metadata=_doc("The bot's name at the table, from the game's world")
    )


@attrs.frozen
class EventsReply:
    version: int
    audience: str = attrs.field(
        metadata=_doc("``seat N``, ``spectator`` or ``review`` (everyone, once the game is over).")
    )
    events: list[WireEvent]


@attrs.frozen
class ViewReply:
    """The game at ``version`` as the audience may see it; ``legal`` only at the head."""

    version: int
    latest: int = attrs.field(
        metadata=_doc("The game's current version (the head): ``version`` may be 0 … ``latest``.")
    )
    audience: str
    view: Any
    to_act: list[int]
    legal: list[dict[str, Any]]
    table: dict[str, Any] | None = attrs.field(
        default=None,
        metadata=_doc(
            "At the head only: clocks and stand-ins, as in the WebSocket welcome "
            "(docs/protocol.md, Clocks and absent players)."
        ),
    )


@attrs.frozen
class VerifyReply:
    """A finished game re-decided from its revealed seed (``cloister verify``, the replay
    page): ``verified`` true when every event is exactly what the rules produce."""

    verified: bool
    code: str | None = attrs.field(
        metadata=_doc(
            "None when verified; else ``log_mismatch`` (the first event the rules would not "
            "produce) or ``unverifiable_log`` (recorded before seeds and commands were)."
        )
    )
    message: str = attrs.field(metadata=_doc("In words: what was checked, or the first mismatch."))
    version: int | None = attrs.field(metadata=_doc("The version of the first mismatch."))
    commands: int = attrs.field(metadata=_doc("Commands re-decided."))
    seed: str | None = attrs.field(metadata=_doc("The revealed seed."))
    commitment: str | None = attrs.field(
        metadata=_doc("The SHA-256 digest (hex) ``cloister.GameCreated`` committed to.")
    )


HTTP_RESPONSES: tuple[type, ...] = (
    ErrorReply,
    Health,
    GameTypes,
    GameSummary,
    CreatedGame,
    PlayNowReply,
    GameList,
    SeatGranted,
    BotAdded,
    EventsReply,
    ViewReply,
    VerifyReply,
)


def check_constraints(obj: Any, path: str = "$") -> list[str]:
    """The schema constraints (``metadata["schema"]``) that ``obj`` breaks, with paths."""
    problems: list[str] = []
    for field in attrs.fields(type(obj)):
        value = getattr(obj, field.name)
        where = f"{path}.{field.name}"
        rule = field.metadata.get("schema", {})
        if isinstance(value, str):
            if len(value) < rule.get("minLength", 0):
                problems.append(f"too short @ {where}")
            if len(value) > rule.get("maxLength", len(value)):
                problems.append(f"longer than {rule['maxLength']} characters @ {where}")
        elif isinstance(value, int) and not isinstance(value, bool):
            if value < rule.get("minimum", value):
                problems.append(f"must be at least {rule['minimum']} @ {where}")
        elif attrs.has(type(value)):
            problems.extend(check_constraints(value, where))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if attrs.has(type(item)):
                    problems.extend(check_constraints(item, f"{where}[{i}]"))
    return problems


T = TypeVar("T")


def decode_request(raw: Any, cls: type[T]) -> T:
    """A request body (already parsed JSON) as ``cls``, or :class:`RequestError`."""
    if not isinstance(raw, dict):
        raise RequestError("the body must be a JSON object", [])
    try:
        obj: T = converter.structure(raw, cls)
    except Exception as exc:  # cattrs raises several families; all mean "malformed"
        if isinstance(exc, cattrs.BaseValidationError):
            details = cattrs.transform_error(exc)
        else:
            details = [str(exc)]
        raise RequestError("; ".join(details), details) from None
    problems = check_constraints(obj)
    if problems:
        raise RequestError("; ".join(problems), problems)
    return obj
