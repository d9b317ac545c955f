"""The game types this server offers, found as plugins.

A game type is a :class:`~domain.game.GameType` that a package registers under the
``cloister.games`` entry-point group of its distribution's metadata::

    [project.entry-points."cloister.games"]
    my-game = "my_package:GAME_TYPE"

:func:`default_registry` loads every one installed, so a game can live in a package of its
own. This module imports no game: the games import the kernel (``domain.game``), never the
other way round.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from importlib import metadata

from .game import GameType

__all__ = [
    "BUILT_IN",
    "ENTRY_POINT_GROUP",
    "GameType",
    "Registry",
    "default_registry",
    "discover",
    "make_registry",
]

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "cloister.games"

BUILT_IN: tuple[str, ...] = (
    "domain.illumination:GAME_TYPE",
    "domain.campus_galli:GAME_TYPE",
    "domain.road_to_enlightenment:GAME_TYPE",
    "domain.highcard:GAME_TYPE",
)
"""The games this distribution registers in ``pyproject.toml`` (a test keeps the two equal).
Used only when the installed metadata of ``cloister`` predates the entry points (an editable
install not yet refreshed with ``pip install -e .``)."""

Registry = Mapping[str, GameType]


def make_registry(*types: GameType) -> dict[str, GameType]:
    return {t.name: t for t in types}


def _checked(source: str, obj: object) -> GameType:
    if not isinstance(obj, GameType):
        raise TypeError(f"entry point {source} of {ENTRY_POINT_GROUP!r} is not a GameType")
    return obj


def discover(
    entry_points: Iterable[metadata.EntryPoint] | None = None,
) -> dict[str, GameType]:
    """Every game type registered under ``cloister.games`` (or in ``entry_points``), the
    built-in ones first in :data:`BUILT_IN` order, then the others by value; raises on two
    different games of one name."""
    if entry_points is None:
        eps = list(metadata.entry_points(group=ENTRY_POINT_GROUP))
        if not any(ep.value in BUILT_IN for ep in eps):
            log.warning(
                "the installed cloister metadata has no %s entry points; reinstall it "
                "(pip install -e .). Using the built-in games.",
                ENTRY_POINT_GROUP,
            )
            eps += [metadata.EntryPoint(t, t, ENTRY_POINT_GROUP) for t in BUILT_IN]
    else:
        eps = list(entry_points)
    rank = {target: i for i, target in enumerate(BUILT_IN)}
    types: dict[str, GameType] = {}
    origins: dict[str, str] = {}
    for ep in sorted(eps, key=lambda e: (rank.get(e.value, len(rank)), e.value, e.name)):
        gtype = _checked(f"{ep.name} = {ep.value}", ep.load())
        if gtype.name in types and types[gtype.name] is not gtype:
            raise ValueError(
                f"two games are named {gtype.name!r}: {origins[gtype.name]} and {ep.value}"
            )
        types[gtype.name], origins[gtype.name] = gtype, ep.value
    return types


def default_registry() -> dict[str, GameType]:
    """Every installed game type (see :func:`discover`)."""
    return discover()
