"""An example of every event type a game declares, for checks that must see them all.

Random playouts never produce some events (a Mystic Monk with no Marker left, a storm
bringing down a tower section), so a check fed only by playouts says nothing about them.
:func:`examples` gives instances of *every* type in ``game.event_types``:

* the instances that random games of each mode produced (a few per type, real states);
* for a type no playout produced, instances built from its field types: each field's
  values are those seen in the same-named field of any event or listed command of the
  game (a ``seat``, a ``tile``, a ``pay``) or among the items of a state's collection of
  the plural name (``medallions``) in a final state or its full view, else what its
  annotation allows (a ``Literal``'s values, an Enum's members, ``bool``, small ints,
  ``None`` where optional, tuples of those, nested attrs classes). A field whose values
  neither tells (a bare ``str`` never seen elsewhere) makes the type :class:`Unbuildable`:
  type the field (a ``Literal``) or reach the event in the game's tests.

Everything is driven by ``game.event_types``, so a newly registered game gets it with no
change here.
"""

from __future__ import annotations

import contextlib
import enum
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from domain import Context, GameType, Rng, validate_options

__all__ = ["Examples", "Unbuildable", "examples"]

PER_TYPE = 3
"""Distinct observed instances kept per event type."""
BUILT = 6
"""Instances built per unseen type (each field cycles through its candidate values)."""
SMALL_INTS = (0, 1)
"""What an ``int`` field nobody filled in may hold: the first two of anything (seats,
sides, indexes) exist in every game."""


class Unbuildable(Exception):
    """No value is known for a field of an event type no playout produced."""


@attrs.frozen
class Examples:
    """Instances per event type, the seat labels to narrate them with, and which were
    built rather than seen."""

    by_type: dict[type, list[Any]]
    built: frozenset[type]
    labels: tuple[str, ...]
    """The table's labels of the mode with the most seats (seats in examples fit it)."""
    pools: dict[str, list[Any]]
    """Every value seen per field name (other values of a secret field come from here)."""


def _playout(gtype: GameType, options: dict[str, Any], seed: int) -> Iterator[tuple[Any, Any]]:
    """A random game: (state, event) after each event, and now and then (state, the
    legal commands of the seat about to move)."""
    game = gtype.game
    state = game.initial_state(options)
    for e in game.setup(state, Context.seeded(f"examples-setup-{seed}")):
        state = game.evolve(state, e)
        yield state, e
    rng = Rng(f"examples-{seed}")
    for step in range(20_000):
        if game.is_terminal(state):
            return
        seat = rng.choice(sorted(game.to_act(state)))
        legal = list(game.legal_commands(state, seat))
        command = rng.choice(legal)
        if step % 5 == 0:
            yield state, legal  # the commands' values fill the pools too
        for e in game.decide(state, seat, command, Context.seeded(f"examples-{seed}-{step}")):
            state = game.evolve(state, e)
            yield state, e


_CACHE: dict[int, tuple[Any, Examples]] = {}


def examples(gtype: GameType, seeds: int = 3) -> Examples:
    """Examples of every event type of ``gtype`` (worked out once per game object)."""
    hit = _CACHE.get(id(gtype.game))
    if hit is not None and hit[0] is gtype.game:
        return hit[1]
    found = _examples(gtype, seeds)
    _CACHE[id(gtype.game)] = (gtype.game, found)
    return found


def _examples(gtype: GameType, seeds: int) -> Examples:
    from tests.game_contract import modes  # the contract's option combinations

    game = gtype.game
    seen: dict[type, list[Any]] = {}
    pools: dict[str, dict[Any, None]] = {}
    labels: tuple[str, ...] = ()
    for options in modes(gtype):
        opts = validate_options(game, options)
        state = None
        for seed in range(seeds):
            for state, e in _playout(gtype, opts, seed):  # noqa: B007 - the last one is kept
                if isinstance(e, list):
                    for c in e:
                        for f in attrs.fields(type(c)):
                            _pool(pools, f.name, getattr(c, f.name))
                    continue
                kept = seen.setdefault(type(e), [])
                if len(kept) < PER_TYPE and e not in kept:
                    kept.append(e)
                for f in attrs.fields(type(e)):
                    _pool(pools, f.name, getattr(e, f.name))
            _state_pools(pools, state)
            _state_pools(pools, game.full_view(state))
        table = tuple(game.table_labels(state, tuple(game.seat_labels(opts))))
        if len(table) > len(labels):
            labels = table
    flat = {name: list(values) for name, values in pools.items()}
    by_type: dict[type, list[Any]] = {}
    built: set[type] = set()
    missing: list[str] = []
    for t in game.event_types:
        if t in seen:
            by_type[t] = seen[t]
        else:
            try:
                by_type[t] = build(t, flat, len(labels))
            except Unbuildable as exc:
                missing.append(str(exc))
            built.add(t)
    if missing:
        raise Unbuildable("; ".join(missing))
    return Examples(by_type, frozenset(built), labels, flat)


def _state_pools(pools: dict[str, dict[Any, None]], state: Any) -> None:
    """The items of the state's collections, under the singular of their field's name: a
    ``medallions`` mapping gives ``medallion`` its keys, a ``hands`` tuple ``hand`` its
    members (what an event that moves one of them may hold)."""
    stack = [state]
    while stack:
        obj = stack.pop()
        if not attrs.has(type(obj)):
            continue
        for f in attrs.fields(type(obj)):
            value = getattr(obj, f.name)
            if isinstance(value, Mapping):
                items: list[Any] = list(value)
                stack.extend(value.values())
            elif isinstance(value, (tuple, list, frozenset)):
                items = list(value)
                stack.extend(value)
            else:
                stack.append(value)
                continue
            if f.name.endswith("s") and len(f.name) > 3:
                for item in items:
                    _pool(pools, f.name[:-1], item)


def _pool(pools: dict[str, dict[Any, None]], name: str, value: Any) -> None:
    with contextlib.suppress(TypeError):  # an unhashable value (a list) is not kept
        pools.setdefault(name, {})[value] = None


def build(cls: type, pools: dict[str, list[Any]], seats: int) -> list[Any]:
    """Instances of the attrs class ``cls`` from its field types and ``pools``."""
    hints = typing.get_type_hints(cls)
    columns: dict[str, list[Any]] = {}
    for f in attrs.fields(cls):
        values = candidates(hints[f.name], f.name, pools, seats)
        if f.default is not attrs.NOTHING and not isinstance(f.default, attrs.Factory):
            values = _unique([*values, f.default])
        if not values:
            raise Unbuildable(
                f"{cls.__name__}.{f.name}: no playout produced the event and no value of "
                f"{hints[f.name]} is known; type the field (a Literal) or reach it in a test"
            )
        columns[f.name] = values
    width = min(BUILT, max((len(c) for c in columns.values()), default=1))
    out: list[Any] = []
    for i in range(width):
        e = cls(**{name: c[i % len(c)] for name, c in columns.items()})
        if e not in out:
            out.append(e)
    return out


def candidates(hint: Any, name: str, pools: dict[str, list[Any]], seats: int) -> list[Any]:
    """Values a field called ``name`` annotated ``hint`` may hold: those seen in fields of
    that name which fit the annotation, else what the annotation itself allows."""
    seen = [v for v in pools.get(name, ()) if fits(v, hint)]
    if seen:
        return seen[:BUILT]
    return _from_type(hint, pools, seats)


def _from_type(hint: Any, pools: dict[str, list[Any]], seats: int) -> list[Any]:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is type(None) or hint is None:
        return [None]
    if origin is typing.Literal:
        return list(args)
    if origin in (typing.Union, types.UnionType):
        return _unique([v for a in args for v in _from_type(a, pools, seats)])
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return list(hint)
    if hint is bool:
        return [False, True]
    if hint is int:
        return list(SMALL_INTS[: max(1, seats)])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner = _from_type(args[0], pools, seats)
            return [(), *((v,) for v in inner[:2]), tuple(inner[:2])] if inner else [()]
        columns = [_from_type(a, pools, seats) for a in args]
        if not all(columns):
            return []
        return [tuple(c[i % len(c)] for c in columns) for i in range(max(map(len, columns)))]
    if isinstance(hint, type) and attrs.has(hint):
        try:
            return build(hint, pools, seats)
        except Unbuildable:
            return []
    return []  # a bare str, a float...: nothing to go on


def fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` is of the annotated type (structurally, for the forms events use)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is type(None) or hint is None:
        return value is None
    if origin is typing.Literal:
        return value in args
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, a) for a in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(fits(v, a) for v, a in zip(value, args, strict=True))
    if origin in (frozenset, set, list):
        return isinstance(value, origin) and all(fits(v, args[0]) for v in value)
    if origin is not None:
        return isinstance(value, origin)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _unique(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out
