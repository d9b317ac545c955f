"""Views whose secrets are declared on their types, redacted by one kernel function.

A game builds its *full view* once per state (``full_view(state)``): what any audience may
be shown, secrets included, as *view parts*, frozen classes made with :func:`view_part`.
Each field that may hold a secret says so with :func:`domain.secrets.secret`, with owners
relative to the part (a player panel's ``hand = secret(owner="seat")``); a value that
differs per audience without being a secret (whose turn "you" is, the prompt) is a
:class:`ByAudience`::

    @view_part
    class Panel:
        seat: int
        hand_count: int
        hand: list[str] | None = secret(owner="seat")   # the others receive null
        deck: list[str] | None = secret(omit=True)      # the others receive no key at all

    @view_part
    class TableView:
        players: tuple[Panel, ...]                     # nested parts are redacted too
        prompt: ByAudience[str]
        books: list[dict[str, Any]] = public()         # plain data, public, sent as it is

:func:`redact_view` is the only view redactor: the full view as one viewer may see it, secret
fields blanked, :class:`ByAudience` values chosen, the very same objects where nothing is
hidden (the review audience sees everything). :func:`wire` turns a redacted view into the
JSON-ready dicts the protocol sends; :func:`render` does both. What each part type holds is
worked out once per type from its declarations and annotations: parts that can hold no
secret are never walked by the redactor, and their wire form is computed once per state for
all audiences (``memo``).

Fail closed: a view, or an object inside one, whose type is not a declared part (a bare
dict as the whole view, an ``attrs`` class not made with :func:`view_part`) is refused with
:class:`~domain.secrets.UndeclaredSecrets`: an error in the tests (the contract suite renders
every audience's view of every game), and never sent by the server (it logs an error).
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Any, TypeVar, cast

import attrs

from .secrets import SECRET, Secret, UndeclaredSecrets
from .values import replace
from .view_parts import (
    INTERNAL,
    OMITTED,
    PART,
    PUBLIC,
    ByAudience,
    Owned,
    internal,
    public,
    view_part,
)
from .viewers import Viewer

__all__ = [
    "OMITTED",
    "ByAudience",
    "Owned",
    "internal",
    "public",
    "redact_view",
    "render",
    "view_part",
    "wire",
]

T = TypeVar("T")

_SCALARS = frozenset({str, int, float, bool, type(None)})
_KEEP: Any = object()


# -- what each part type holds, worked out once ---------------------------------------------
_VERBATIM, _WALK = 0, 1


@attrs.frozen
class _Plan:
    secrets: tuple[tuple[str, Secret], ...]
    walk: tuple[str, ...]
    """Fields that may hold parts with secrets or audience values: the redactor looks in."""
    wire: tuple[tuple[str, int, Any], ...]
    """(name, verbatim or walked, the value for which the key is left out) of every field
    that is sent; ``_KEEP`` when it is always sent."""
    sensitive: bool
    """Whether redaction can change a part of this type for some viewer."""
    unwrap: str | None = None
    secret_wire: tuple[tuple[str, Secret, int], ...] = ()
    """The sent secret fields (name, how, verbatim or walked): decided per audience."""
    walk_wire: tuple[str, ...] = ()
    """The sent non-secret fields the redactor looks into: rendered per audience."""
    personal: frozenset[str] = frozenset()
    sole_secret: tuple[Secret, int] | None = None
    """For a part sent as one secret field (``unwrap``, as :class:`Owned`): that field's
    rule and how it is sent, so the renderer decides it without building the part's dict."""
    sole_owner: str | None = None
    """For such a part whose rule is one owner field (``secret(owner="seat")``, as
    :class:`Owned`): that field, so the renderer decides without calling the rule."""


_PLANS: dict[type, _Plan] = {}
_BUILDING: set[type] = set()


def _is_part(cls: type) -> bool:
    return PART in cls.__dict__


def _plan(cls: type) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is not None:
        return plan
    if not _is_part(cls):
        what = "a bare dict" if issubclass(cls, dict) else f"{cls.__module__}.{cls.__qualname__}"
        raise UndeclaredSecrets(
            f"{what} in a view declares no secrets: views are made of view parts "
            "(domain.views.view_part) whose secret fields are marked with secret()"
        )
    _BUILDING.add(cls)
    try:
        try:
            hints = typing.get_type_hints(cls)
        except (NameError, TypeError):
            hints = {}  # an annotation that does not resolve: walk what it holds (Any)
        secrets: list[tuple[str, Secret]] = []
        walk: list[str] = []
        wire: list[tuple[str, int, Any]] = []
        for f in attrs.fields(cast(Any, cls)):
            if f.metadata.get(INTERNAL):
                continue
            if PUBLIC in f.metadata:
                wire.append((f.name, _VERBATIM, None if f.metadata[PUBLIC] else _KEEP))
                continue
            spec: Secret | None = f.metadata.get(SECRET)
            holds, sensitive = _holds(hints.get(f.name, Any))
            if spec is not None:
                if spec.by_seat:
                    raise TypeError(
                        f"{cls.__qualname__}.{f.name}: by_seat= is for events; use Owned"
                    )
                secrets.append((f.name, spec))
            if sensitive:
                walk.append(f.name)
            left_out = OMITTED if spec is not None and spec.omit else _KEEP
            wire.append((f.name, _WALK if holds else _VERBATIM, left_out))
        unwrap = cls.__dict__[PART]
        if isinstance(unwrap, str):
            wire = [w for w in wire if w[0] == unwrap]
        else:
            unwrap = None
        specs = dict(secrets)
        sole = (
            next(((specs[n], how) for n, how, _ in wire if n in specs), None)
            if unwrap is not None
            else None
        )
        plan = _Plan(
            tuple(secrets),
            tuple(walk),
            tuple(wire),
            bool(secrets or walk),
            unwrap,
            tuple((n, specs[n], how) for n, how, _ in wire if n in specs),
            tuple(n for n, _, _ in wire if n in walk and n not in specs),
            frozenset(specs) | frozenset(walk),
            sole,
            _sole_owner(sole[0]) if sole is not None else None,
        )
    finally:
        _BUILDING.discard(cls)
    _PLANS[cls] = plan
    return plan


def _sole_owner(spec: Secret) -> str | None:
    """The one plain owner field of a rule that is only that (``Secret.sees`` then says:
    the omniscient see it, and the seat viewer of the seat that field holds), else None."""
    if spec.visible is not None or spec.by_seat or len(spec.owners) != 1:
        return None
    owner = spec.owners[0]
    return None if "." in owner else owner


def _holds(tp: Any) -> tuple[bool, bool]:
    """Whether a field of this annotation may hold parts (so it is walked to be sent), and
    whether they may hold secrets or audience values (so the redactor looks in). What the
    annotation does not tell (``Any``, a type variable) is walked and looked into."""
    if tp in _SCALARS or tp is None:
        return False, False
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return False, False
    if origin is ByAudience or tp is ByAudience:
        return True, True
    if origin in (typing.Union, types.UnionType) or origin in _CONTAINERS:
        holds = sensitive = False
        for arg in typing.get_args(tp):
            if arg is Ellipsis:
                continue
            h, s = _holds(arg)
            holds, sensitive = holds or h, sensitive or s
        return holds, sensitive
    cls = origin if isinstance(origin, type) else tp  # Owned[str] is an Owned
    if isinstance(cls, type) and _is_part(cls):
        if cls in _BUILDING:
            return True, True  # a part holding its own type: assume the worst
        return True, _plan(cls).sensitive
    return True, True


_CONTAINERS = (
    list,
    tuple,
    dict,
    collections.abc.Sequence,
    collections.abc.Mapping,
)


# -- the redactor ---------------------------------------------------------------------------
def redact_view(view: T, viewer: Viewer) -> T:
    """``view`` as ``viewer`` may see it: secret fields blanked (or left out), audience
    values chosen; the very same object where nothing changes. Raises
    :class:`UndeclaredSecrets` for a view that is not a declared view part."""
    return cast(T, _redact(view, _plan(type(view)), viewer))


def _redact(part: Any, plan: _Plan, viewer: Viewer) -> Any:
    if not plan.sensitive:
        return part
    changes: dict[str, Any] = {}
    for name, spec in plan.secrets:
        if not spec.sees(part, viewer):
            changes[name] = OMITTED if spec.omit else spec.blanked(part)
    for name in plan.walk:
        if name in changes:
            continue
        value = getattr(part, name)
        red = _redact_value(value, viewer)
        if red is not value:
            changes[name] = red
    return replace(part, **changes) if changes else part


def _redact_value(value: Any, viewer: Viewer) -> Any:
    cls = type(value)
    if cls in _SCALARS:
        return value
    if cls is ByAudience:
        return _redact_value(value.of(viewer), viewer)
    if cls is list or cls is tuple:
        out = [_redact_value(v, viewer) for v in value]
        if all(a is b for a, b in zip(out, value, strict=True)):
            return value
        return out if cls is list else tuple(out)
    if cls is dict:
        red = {k: _redact_value(v, viewer) for k, v in value.items()}
        if all(red[k] is v for k, v in value.items()):
            return value
        return red
    if isinstance(value, (str, int, float)):
        return value  # a StrEnum or IntEnum member
    return _redact(value, _plan(cls), viewer)


# -- the wire form --------------------------------------------------------------------------
Memo = dict[int, tuple[Any, Any]]
"""Wire forms of parts by identity (each with its part, kept alive so no id is reused):
share one between the audiences of a state, so what they all see is converted once."""


def wire(view: Any, memo: Memo | None = None, *, strict: bool = False) -> Any:
    """The JSON-ready form of a *redacted* view: each part a dict of its sent fields,
    tuples as lists. ``strict`` also checks that every ``public()`` field holds plain data
    (the contract suite does; the server trusts the tests)."""
    _plan(type(view))
    return _wire(view, {} if memo is None else memo, strict)


def render(view: Any, viewer: Viewer, memo: Memo | None = None, *, strict: bool = False) -> Any:
    """What ``viewer`` is sent of the full ``view``: ``wire(redact_view(view, viewer))``.

    Computed in one walk: what every audience sees alike is converted once into ``memo``
    (share it between the audiences of one state), and per audience only the secret and
    audience fields are filled in. ``strict`` takes the two steps instead, checking plain
    data (the contract suite compares the two)."""
    plan = _PLANS.get(type(view)) or _plan(type(view))
    memo = {} if memo is None else memo
    if strict:
        return wire(redact_view(view, viewer), memo, strict=True)
    return _render(view, plan, viewer, memo)


def _render(part: Any, plan: _Plan, viewer: Viewer, memo: Memo) -> Any:
    if not plan.sensitive:
        return _wire(part, memo, False)
    sole = plan.sole_secret
    if sole is not None:
        # What the general walk below gives for such a part, without its dicts.
        spec, how = sole
        if spec.sees(part, viewer):
            value = getattr(part, cast(str, plan.unwrap))
        elif spec.omit:
            return None
        else:
            value = spec.blanked(part)
        return _render_value(value, viewer, memo) if how == _WALK else value
    key = -1 - id(part)  # the shared part of its wire form (ids are positive)
    hit = memo.get(key)
    if hit is not None and hit[0] is part:
        base = hit[1]
    else:
        base = {}
        for name, how, left_out in plan.wire:
            if name in plan.personal:
                base[name] = None  # filled in per audience, in its place
                continue
            value = getattr(part, name)
            if value is not left_out:
                base[name] = _wire_value(value, memo, False) if how == _WALK else value
        memo[key] = (part, base)
    out = dict(base)
    for name, spec, how in plan.secret_wire:
        if spec.sees(part, viewer):
            value = getattr(part, name)
        elif spec.omit:
            del out[name]
            continue
        else:
            value = spec.blanked(part)
        out[name] = _render_value(value, viewer, memo) if how == _WALK else value
    for name in plan.walk_wire:
        out[name] = _render_value(getattr(part, name), viewer, memo)
    return out if plan.unwrap is None else out.get(plan.unwrap)


def _render_value(value: Any, viewer: Viewer, memo: Memo) -> Any:
    cls = type(value)
    if cls in _SCALARS:
        return value
    plan = _PLANS.get(cls)  # only declared parts have plans: a part is told at once
    if plan is None:
        if cls is ByAudience:
            return _render_value(value.of(viewer), viewer, memo)
        if cls is list or cls is tuple:
            # Copied whole, then what is not a scalar rendered in place (most lists in views
            # are lists of names and numbers), in a loop: a comprehension is a call.
            out = list(value)
            i = 0
            for v in value:
                if type(v) not in _SCALARS:
                    out[i] = _render_value(v, viewer, memo)
                i += 1  # noqa: SIM113 (enumerate's tuples cost more here)
            return out
        if cls is dict:
            for v in value.values():
                if type(v) not in _SCALARS:
                    return {k: _render_value(v, viewer, memo) for k, v in value.items()}
            # Only scalars (a score per side): nothing to render, and the very same dict
            # (views are never mutated), which the hub's diff then skips by identity.
            return value
        if value is OMITTED:
            raise UndeclaredSecrets("an omitted secret inside a list or dict of a view")
        if isinstance(value, (str, int, float)):
            return value  # a StrEnum or IntEnum member
        plan = _plan(cls)  # a part met for the first time, or refused
    sole = plan.sole_secret
    if sole is not None:
        # A part sent as one secret field (Owned) is cheaper to decide again than to look
        # up and keep: games build a fresh one per state (the cache would only miss and
        # fill), and what its value holds is a part rendered through here, cached itself.
        # Decided here as _render decides it, without its call (a hand per seat per view).
        owner = plan.sole_owner
        if owner is None:
            return _render(value, plan, viewer, memo)
        spec, how = sole
        if viewer.omniscient or (viewer.seat is not None and getattr(value, owner) == viewer.seat):
            inner = getattr(value, cast(str, plan.unwrap))
        elif spec.omit:
            return None
        else:
            inner = spec.blank if spec.blank_from is None else spec.blank_from(value)
        if how != _WALK or type(inner) in _SCALARS:
            return inner
        if type(inner) is list or type(inner) is tuple:
            out = list(inner)  # as for a list above
            i = 0
            for v in inner:
                if type(v) not in _SCALARS:
                    out[i] = _render_value(v, viewer, memo)
                i += 1  # noqa: SIM113 (enumerate's tuples cost more here)
            return out
        return _render_value(inner, viewer, memo)
    # A part inside the view: rendered once per (part, audience) across states. A part is
    # frozen and what it holds is never mutated, and its secrets' rules read only the part
    # and the viewer, so a game that builds the next state's view with the same part (a
    # player panel the move did not touch) gets the very same dict, which the hub's diff
    # skips by identity. The entry keeps the part alive, so that no id is reused.
    key = (id(value), viewer)
    hit = _RENDERED.get(key)
    if hit is not None and hit[0] is value:
        return hit[1]
    out = _render(value, plan, viewer, memo)
    if len(_RENDERED) >= _RENDERED_MAX:
        _RENDERED.clear()
    _RENDERED[key] = (value, out)
    return out


_RENDERED: dict[tuple[int, Viewer], tuple[Any, Any]] = {}
"""Rendered parts below a view's root by (id of the part, viewer), with the part."""
_RENDERED_MAX = 2048


def _wire(part: Any, memo: Memo, strict: bool) -> Any:
    key = id(part)
    hit = memo.get(key)
    if hit is not None and hit[0] is part:
        return hit[1]
    plan = _plan(type(part))
    out: dict[str, Any] = {}
    for name, how, left_out in plan.wire:
        value = getattr(part, name)
        if value is left_out:
            continue
        if how == _WALK:
            value = _wire_value(value, memo, strict)
        elif strict:
            _check_plain(value, f"{type(part).__qualname__}.{name}")
        out[name] = value
    sent = out.get(plan.unwrap) if plan.unwrap is not None else out
    memo[key] = (part, sent)
    return sent


def _wire_value(value: Any, memo: Memo, strict: bool) -> Any:
    cls = type(value)
    if cls in _SCALARS:
        return value
    if cls is list or cls is tuple:
        return [v if type(v) in _SCALARS else _wire_value(v, memo, strict) for v in value]
    if cls is dict:
        return {k: _wire_value(v, memo, strict) for k, v in value.items()}
    if cls is ByAudience:
        raise UndeclaredSecrets("an audience value in a view that was not redacted")
    if value is OMITTED:
        raise UndeclaredSecrets("an omitted secret inside a list or dict of a view")
    if isinstance(value, (str, int, float)):
        return value  # a StrEnum or IntEnum member
    _plan(cls)
    return _wire(value, memo, strict)


def _check_plain(value: Any, where: str) -> None:
    cls = type(value)
    if cls in _SCALARS or isinstance(value, (str, int, float)):
        return
    if cls is list or cls is tuple:
        for v in value:
            _check_plain(v, where)
        return
    if cls is dict:
        for k, v in value.items():
            _check_plain(k, where)
            _check_plain(v, where)
        return
    raise UndeclaredSecrets(f"{where} is declared public() plain data but holds a {cls.__name__}")
