"""One checked copy helper for the frozen values of the rules: :func:`replace`.

``attrs.evolve`` goes through ``__init__``; folding a long log copies states thousands of
times, so the games copy field by field instead. This is the only such copy, and unlike
the two it replaces it refuses a field the class does not have (a misspelt name would
otherwise be dropped, or added as a stray attribute, without a word).
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

__all__ = ["replace"]

T = TypeVar("T")

_Info = tuple[tuple[str, ...], frozenset[str], bool]
_INFO: dict[type, _Info] = {}


def _info(cls: type) -> _Info:
    fields = attrs.fields(cls)
    if any(f.validator is not None or f.converter is not None for f in fields):
        raise TypeError(f"{cls.__name__} has validators or converters: use attrs.evolve")
    names = tuple(f.name for f in fields)
    info = (names, frozenset(names), "__dict__" in dir(cls) and not hasattr(cls, "__slots__"))
    _INFO[cls] = info
    return info


def replace(obj: T, **changes: Any) -> T:
    """A copy of the frozen ``attrs`` value ``obj`` with ``changes``; raises ``TypeError``
    naming a field ``obj`` has not. For classes without validators or converters."""
    cls = type(obj)
    names, known, has_dict = _INFO.get(cls) or _info(cls)
    if not known.issuperset(changes):
        unknown = sorted(set(changes) - known)
        raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
    new = object.__new__(cls)
    if has_dict:
        # A copy of the old dict set as the new one's: about a fifth cheaper than filling
        # the fresh, empty dict the new instance would make on first access.
        d = obj.__dict__.copy()
        d.update(changes)
        object.__setattr__(new, "__dict__", d)
    else:
        for name in names:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(obj, name))
    return new
