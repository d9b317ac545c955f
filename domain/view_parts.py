"""How a game declares its view (``domain.views`` walks it): *view parts*, frozen classes
made with :func:`view_part` whose fields say what they hold — a secret
(:func:`domain.secrets.secret`), plain public data (:func:`public`), or what only the
secrets' rules read (:func:`internal`) — and :class:`ByAudience` values, which differ per
audience without being secrets. Nothing here walks a view: the declarations are read once
per type by the kernel (``domain.views._plan``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast, dataclass_transform, overload

import attrs

from .secrets import secret
from .viewers import Viewer

__all__ = [
    "INTERNAL",
    "OMITTED",
    "PART",
    "PUBLIC",
    "ByAudience",
    "Omitted",
    "Owned",
    "internal",
    "public",
    "view_part",
]

T = TypeVar("T")

PUBLIC = "cloister.public"
INTERNAL = "cloister.internal"
PART = "__cloister_view_part__"


class Omitted:
    def __repr__(self) -> str:
        return "OMITTED"


OMITTED: Any = Omitted()
"""What a redacted ``secret(omit=True)`` field holds: ``domain.views.wire`` leaves its key
out."""


@attrs.frozen
class ByAudience(Generic[T]):
    """A value that differs per audience: ``seats[s]`` for the player of seat ``s``,
    ``others`` for spectators, ``review`` (default: ``others``) after the game. A seat's
    value is that seat's alone, so it may hold what is private to it."""

    seats: tuple[T, ...]
    others: T
    review: T | Omitted = OMITTED

    def of(self, viewer: Viewer) -> T:
        if viewer.omniscient:
            return self.others if isinstance(self.review, Omitted) else self.review
        seat = viewer.seat
        if seat is not None and 0 <= seat < len(self.seats):
            return self.seats[seat]
        return self.others


def public(*, default: Any = attrs.NOTHING, optional: bool = False) -> Any:
    """A field of plain data (str, int, float, bool, None, and lists, tuples and dicts of
    them) that every viewer may see: sent as it is, never walked (the contract suite checks
    that it is plain). ``optional``: no key on the wire while it is ``None``."""
    return attrs.field(default=default, metadata={PUBLIC: optional})


def internal(*, default: Any = attrs.NOTHING) -> Any:
    """A field the secrets' rules read (``visible=``, ``blank_from=``) that is never sent."""
    return attrs.field(default=default, metadata={INTERNAL: True})


@overload
@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field, secret, public, internal))
def view_part(cls: type[T], /) -> type[T]: ...
@overload
@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field, secret, public, internal))
def view_part(*, unwrap: str | None = None) -> Callable[[type[T]], type[T]]: ...
def view_part(cls: type[T] | None = None, /, *, unwrap: str | None = None) -> Any:
    """Make a view part type: an ``attrs`` frozen class whose secrets are declared.
    ``unwrap``: the part is sent as that one field's value, not as a dict (:class:`Owned`)."""

    def make(c: type[T]) -> type[T]:
        frozen: type[T] = attrs.frozen(c)
        if unwrap is not None and unwrap not in attrs.fields_dict(cast(Any, frozen)):
            raise TypeError(f"{c.__qualname__} has no field {unwrap} to send")
        setattr(frozen, PART, unwrap or True)
        return frozen

    return make if cls is None else make(cls)


@view_part(unwrap="value")
class Owned(Generic[T]):
    """One seat's secret where the wire has a bare value (a list of hands, one per seat):
    sent as ``value`` to that seat, as ``None`` to the others."""

    seat: int | None
    value: T | None = secret(owner="seat")
