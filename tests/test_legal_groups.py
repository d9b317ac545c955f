"""The compact legal form (``protocol.legal``) against a plain reference of its rules: the
very same groups, to the byte on the wire, whether a list is grouped whole
(``compact_legal``) or a run at a time from segments looked up by identity
(``compact_segments``), split anywhere, segments reused from one call to the next."""

from __future__ import annotations

from itertools import chain, pairwise
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.legal import compact_legal, compact_segments, expand_legal


def _reference(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The groups as the module doc states them, a command at a time."""
    groups: list[dict[str, Any]] = []
    start = 0
    for i in range(1, len(commands) + 1):
        if i == len(commands) or _sig(commands[i]) != _sig(commands[start]):
            groups.extend(_reference_group(commands[start:i]))
            start = i
    return groups


def _sig(command: dict[str, Any]) -> tuple[Any, tuple[str, ...]]:
    return command["type"], tuple(command)


def _reference_group(run: list[dict[str, Any]]) -> list[dict[str, Any]]:
    type_ = run[0]["type"]
    keys = [k for k in run[0] if k != "type"]
    if not keys:
        return [{"type": type_} for _ in run]
    if len(keys) > 1 and len(run) > 2:  # fewest changes first, ties in field order
        changes = {k: sum(a[k] != b[k] for a, b in pairwise(run)) for k in keys}
        keys = sorted(keys, key=changes.__getitem__)
    rows = [tuple(c[k] for k in keys) for c in run]
    return [{"type": type_, "keys": tuple(keys), "tree": _reference_tree(rows, 0)}]


def _reference_tree(rows: list[tuple[Any, ...]], depth: int) -> tuple[Any, ...]:
    if depth == len(rows[0]) - 1:
        return tuple(row[depth] for row in rows)
    nodes: list[tuple[list[Any], tuple[Any, ...]]] = []
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or rows[i][depth] != rows[i - 1][depth]:
            sub = _reference_tree(rows[start:i], depth + 1)
            if nodes and nodes[-1][1] == sub:
                nodes[-1][0].append(rows[start][depth])
            else:
                nodes.append(([rows[start][depth]], sub))
            start = i
    return tuple((tuple(values), sub) for values, sub in nodes)


class _Codec:
    """Commands that are their own encoding (one dict object per command, as a codec's)."""

    def encode_commands(self, commands: Any) -> list[dict[str, Any]]:
        return list(commands)


CODEC = _Codec()

# Few values per field, so that runs meet at seams with equal values at several depths,
# subtrees repeat and change counts tie; some values equal without being the same on the
# wire (1 and True, dicts in another key order).
small = st.sampled_from([0, 1, 2, "a"])
odd = st.sampled_from([1, True, 1.0, None, (1, 2), (1, True), {"a": 1, "b": 2}, {"b": 2, "a": 1}])
command = st.fixed_dictionaries(
    {"type": st.sampled_from(["A", "A", "A", "B"])},
    optional={"w": small, "x": small, "y": st.sampled_from([0, 1]), "z": small | odd},
)
# Whole lists where one signature holds, long ones included.
uniform = st.lists(
    st.fixed_dictionaries({"type": st.just("A"), "x": small, "y": small, "z": small}),
    min_size=1,
    max_size=60,
)


def _segments(commands: list[dict[str, Any]], cuts: list[int]) -> list[tuple[Any, ...]]:
    bounds = sorted({0, len(commands), *(c % (len(commands) + 1) for c in cuts)})
    return [tuple(commands[a:b]) for a, b in pairwise(bounds)]


def _check(commands: list[dict[str, Any]], segments: list[Any]) -> None:
    flat = list(chain.from_iterable(segments))
    expected = _reference(flat)
    groups = compact_segments(CODEC, segments)
    assert groups == expected
    assert orjson.dumps(groups) == orjson.dumps(expected)
    assert orjson.dumps(compact_legal(flat)) == orjson.dumps(expected)
    assert expand_legal(groups) == flat


@settings(max_examples=400, deadline=None)
@given(
    st.lists(command, max_size=40) | uniform,
    st.lists(st.integers(0, 60), max_size=12),
    st.lists(st.integers(0, 60), max_size=12),
)
def test_segments_group_as_the_reference(
    commands: list[dict[str, Any]], cuts: list[int], other_cuts: list[int]
) -> None:
    segments = _segments(commands, cuts)
    _check(commands, segments)
    _check(commands, segments)  # again, from the look-ups
    # Some of the same segment objects among new ones, in another order.
    mixed = [*_segments(commands, other_cuts), *segments[::2], *segments[1::2]]
    _check(commands, mixed)
    _check(commands, [list(s) for s in segments])  # not tuples: encoded each time


def test_values_equal_but_not_the_same_on_the_wire_keep_the_first() -> None:
    """``1 == True``: a run keeps its first value, a node its first run's subtree, whether
    the list comes whole or split where those runs meet."""
    a = [{"type": "A", "x": 0, "y": 1}, {"type": "A", "x": 1, "y": True}]
    b = [{"type": "A", "x": 1, "y": 5}]
    c = [{"type": "A", "x": 1, "y": 1.0}, {"type": "A", "x": 2, "y": {"b": 1, "a": 2}}]
    d = [{"type": "A", "x": 2, "y": {"a": 2, "b": 1}}, {"type": "A", "x": 0, "y": True}]
    for segments in ([tuple(a), tuple(b)], [tuple(a), tuple(c), tuple(d)], [tuple(a + b)]):
        flat = list(chain.from_iterable(segments))
        _check(flat, segments)
        _check(flat, segments)
