"""Secrets that fail closed: declared on the event types, applied by one kernel redactor.

Every event type is made with :func:`event` (an ``attrs`` frozen class that is *declared*);
each field that may hold a secret says so with :func:`secret`, and from whom::

    @event
    class CardDrawn:
        seat: Seat
        card: str | None = secret(owner="seat")   # the drawing seat sees it, nobody else

    @event(private_to="seat")
    class SlotPlanned: ...                         # others do not receive it at all

:func:`redact` is the only redactor: a viewer who may not see a secret field receives the
event with that field blanked (``None`` unless the declaration says otherwise); the review
audience (``REVIEW``) receives everything. A type that was not made with :func:`event` is
refused with :class:`UndeclaredSecrets`: an error in the tests (the contract suite checks
every event type of every game), and never sent by the server (it drops and logs it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast, dataclass_transform, overload

import attrs

from .viewers import Viewer

__all__ = ["SECRET", "Secret", "UndeclaredSecrets", "declaration", "event", "redact", "secret"]

T = TypeVar("T")

SECRET = "cloister.secret"
"""The ``attrs`` field-metadata key of a :class:`Secret`."""

_DECLARED = "__cloister_secrets__"


class UndeclaredSecrets(TypeError):
    """An event or view type whose secrets were never declared (not made with :func:`event`
    or :func:`domain.views.view_part`), or a bare dict where a view was expected."""


@attrs.frozen
class Secret:
    """Who may see one field; everyone else gets ``blank`` (or ``blank_from(event)``)."""

    owners: tuple[str, ...] = ()
    """Fields (dotted paths) naming seats that may see the value."""
    visible: Callable[[Any, Viewer], bool] | None = None
    """A rule of the game instead: who may see it, given the event."""
    blank: Any = None
    blank_from: Callable[[Any], Any] | None = None
    omit: bool = False
    """Views only: those who may not see the field get no key at all (not a blank)."""
    by_seat: bool = False
    """Events only: the field is a tuple with one item per seat (each hand of a deal); a
    viewer receives the items of the seats it sees and ``blank`` in place of the others."""

    _fields: tuple[str, ...] | None = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(
            lambda self: None if any("." in o for o in self.owners) else self.owners,
            takes_self=True,
        ),
    )
    """``owners`` when each is a plain field name (read with one ``getattr``), else None."""

    def sees(self, event: Any, viewer: Viewer) -> bool:
        """Whether ``viewer`` may see the field (``by_seat``: only the omniscient see every
        item; :meth:`received` gives the others theirs)."""
        if viewer.omniscient:
            return True
        if self.by_seat:
            return False
        if self.visible is not None:
            return self.visible(event, viewer)
        seat = viewer.seat
        if seat is None:
            return False  # a spectator sees what is private to no seat
        fields = self._fields
        if fields is None:
            return any(_sees(viewer, _path(event, owner)) for owner in self.owners)
        # What _sees says for a seat viewer, in one comparison per owner (an owner field
        # holding None is no seat: the viewer's seat is never None here).
        if len(fields) == 1:
            return bool(getattr(event, fields[0]) == seat)
        return any(getattr(event, name) == seat for name in fields)

    def blanked(self, event: Any) -> Any:
        return self.blank if self.blank_from is None else self.blank_from(event)

    def received(self, event: Any, viewer: Viewer, value: Any) -> Any:
        """What ``viewer`` receives of the field holding ``value``."""
        if self.by_seat:
            return tuple(v if viewer.sees_seat(s) else self.blank for s, v in enumerate(value))
        return value if self.sees(event, viewer) else self.blanked(event)


@attrs.frozen
class Declaration:
    secrets: tuple[tuple[str, Secret], ...]
    private_to: tuple[str, ...]
    init: tuple[tuple[str, str], ...] = ()
    """(attribute, ``__init__`` argument) of each field the type's ``__init__`` takes: a
    redacted copy is built with them (what ``attrs.evolve`` works out on every call)."""
    owner: str | None = None
    """The one plain field every secret of the type is owned by (``secret(owner="seat")``
    on each), else None: the seat viewer of that seat sees the whole event, every other
    seat or spectator none of its secrets, decided with one comparison."""
    public: bool = False
    """No secret and no ``private_to``: every viewer gets the event itself, the commonest
    case (a placement, a payment), answered before any of the rest is read."""


def secret(
    *,
    owner: str | None = None,
    owners: tuple[str, ...] = (),
    visible: Callable[[Any, Viewer], bool] | None = None,
    blank: Any = None,
    blank_from: Callable[[Any], Any] | None = None,
    omit: bool = False,
    by_seat: bool = False,
    default: Any = attrs.NOTHING,
) -> Any:
    """An ``attrs`` field holding a secret. With no ``owner``/``owners``/``visible`` it is
    hidden from every player and spectator (a deck order). ``omit`` (view parts only, see
    :mod:`domain.views`): the others get no key instead of a blank. ``by_seat`` (events
    only): a tuple of one item per seat, each seat receiving its own (the hands of a deal;
    views say the same with :class:`domain.views.Owned`)."""
    spec = Secret((owner,) if owner else owners, visible, blank, blank_from, omit, by_seat)
    return attrs.field(default=default, metadata={SECRET: spec})


@overload
@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field, secret))
def event(cls: type[T], /) -> type[T]: ...
@overload
def event(*, private_to: str | tuple[str, ...] = ()) -> Callable[[type[T]], type[T]]: ...
def event(cls: type[T] | None = None, /, *, private_to: str | tuple[str, ...] = ()) -> Any:
    """Make an event type: an ``attrs`` frozen class whose secrets are declared (its
    :func:`secret` fields; ``private_to`` names the seat fields of an event that only those
    seats receive at all)."""

    def make(c: type[T]) -> type[T]:
        frozen: type[T] = attrs.frozen(c)
        secrets = tuple(
            (f.name, f.metadata[SECRET])
            for f in attrs.fields(cast(Any, frozen))
            if SECRET in f.metadata
        )
        if any(spec.omit for _, spec in secrets):
            raise TypeError(f"{c.__qualname__}: omit= is for view parts, not events")
        owners = (private_to,) if isinstance(private_to, str) else tuple(private_to)
        init = tuple((f.name, f.alias) for f in attrs.fields(cast(Any, frozen)) if f.init)
        rules = {
            spec.owners if spec.visible is None and not spec.by_seat else None
            for _, spec in secrets
        }
        sole = next(iter(rules)) if len(rules) == 1 else None
        owner = sole[0] if sole is not None and len(sole) == 1 and "." not in sole[0] else None
        public = not secrets and not owners
        setattr(frozen, _DECLARED, Declaration(secrets, owners, init, owner, public))
        return frozen

    return make if cls is None else make(cls)


def declaration(cls: type) -> Declaration:
    """The secrets of ``cls``; raises :class:`UndeclaredSecrets` if it has none declared."""
    found = cls.__dict__.get(_DECLARED)
    if not isinstance(found, Declaration):
        raise UndeclaredSecrets(
            f"{cls.__module__}.{cls.__qualname__} declares no secrets: make it with "
            "domain.secrets.event and mark its secret fields with secret()"
        )
    return found


def redact(ev: T, viewer: Viewer) -> T | None:
    """``ev`` as ``viewer`` may see it: ``None`` if it is private to other seats, secret
    fields blanked, the very same object when nothing is hidden from ``viewer``."""
    decl = type(ev).__dict__.get(_DECLARED)  # declaration(), without its call when found
    if not isinstance(decl, Declaration):
        decl = declaration(type(ev))
    if viewer.omniscient or decl.public:
        return ev
    if decl.private_to and not any(_sees(viewer, _path(ev, f)) for f in decl.private_to):
        return None
    owner = decl.owner
    if owner is not None:
        # Secret.sees of each secret, asked once (they all read the same field).
        seat = viewer.seat
        if seat is not None and getattr(ev, owner) == seat:
            return ev
        changes = {name: spec.blanked(ev) for name, spec in decl.secrets}
    else:
        changes = {
            name: spec.received(ev, viewer, getattr(ev, name)) if spec.by_seat else spec.blanked(ev)
            for name, spec in decl.secrets
            if not spec.sees(ev, viewer)
        }
    if not changes:
        return ev
    if all(getattr(ev, name) == value for name, value in changes.items()):
        return ev
    # As attrs.evolve (through __init__, so validators and converters see the blanks).
    args = {alias: getattr(ev, name) for name, alias in decl.init}
    args.update(changes)
    return type(ev)(**args)


def _path(obj: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _sees(viewer: Viewer, seat: Any) -> bool:
    """Whether ``viewer`` sees what is private to ``seat`` (``None``: to no seat)."""
    return seat is not None and viewer.sees_seat(seat)
