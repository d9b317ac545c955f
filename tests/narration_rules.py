"""What a player reads must be words: the rules every log line and prompt is checked against.

``problems(text, ids, event_names)`` lists what is wrong with one sentence: an internal id of
the game's content, "seat N", brackets or quotes of a Python repr, an event class name, a
0-based or negative number where the board counts from 1, code-style tokens (``pile:RED``,
``LUMINARY_ACTION``, ``snake_case``), or no words at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["content_ids", "problems"]

_CHECKS: list[tuple[str, re.Pattern[str]]] = [
    ("says 'seat N'", re.compile(r"\bseat \d", re.I)),
    ("Python repr brackets", re.compile(r"[\[\]{}]")),
    ("Python repr quotes", re.compile(r"\('|'\)|\(\"|\"\)|', '|\", \"")),
    ("Python literal", re.compile(r"\b(None|True|False)\b")),
    ("empty parentheses", re.compile(r"\(\s*\)|\(,|,\)")),
    ("a coordinate pair", re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")),
    (
        "a 0-based number where the board counts from 1",
        re.compile(
            r"\b(row|column|Book|slot|space|turn|round|stack|pile|station|year|Monk)"
            r" 0\b",
            re.I,
        ),
    ),
    ("a negative index", re.compile(r"(slot|row|column|Book|space|station) -\d")),
    ("a code token with a colon", re.compile(r"\b[A-Za-z]+:[A-Za-z0-9]+\b")),
    ("SHOUTING_CODE", re.compile(r"\b[A-Z]+_[A-Z_]+\b")),
    ("snake_case", re.compile(r"\b[a-z]+_[a-z_]+\b")),
    ("an arrow", re.compile(r"->|=>")),
    ("a dangling dash", re.compile(r"^\W|—\s*\w+\.$")),
    ("an all-caps code", re.compile(r"\b(?!ORA\b|LABORA\b|III\b|VIII\b|VII\b)[A-Z]{3,}\b")),
]


def content_ids(ids: Iterable[str]) -> re.Pattern[str] | None:
    """One regex matching any of the ids as a whole token (case-sensitive)."""
    words = sorted({i for i in ids if len(i) >= 2}, key=len, reverse=True)
    if not words:
        return None
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])")


def problems(text: Any, ids: re.Pattern[str] | None, event_names: Iterable[str]) -> list[str]:
    if not isinstance(text, str) or not text.strip():
        return ["no words"]
    out = [what for what, pattern in _CHECKS if pattern.search(text)]
    if ids is not None and (m := ids.search(text)):
        out.append(f"internal id {m.group(0)!r}")
    words: set[str] | None = None
    for name in event_names:
        if _WORD.fullmatch(name):
            # r"\bName\b" for a name of word characters matches just where a whole run of
            # them is the name: a set of the text's runs answers for every name at once
            # (one regex search per name and sentence was most of the narration tests).
            words = set(_WORD.findall(text)) if words is None else words
            found = name in words
        else:
            found = re.search(rf"\b{re.escape(name)}\b", text) is not None
        if found:
            out.append(f"event class name {name!r}")
    return out


_WORD = re.compile(r"\w+")
