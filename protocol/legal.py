"""Legal commands in a compact, lossless form: a template per command type with its choices.

A seat's legal commands can run to hundreds of objects that differ in one or two fields
(``PlaceTile`` on every free square for every tile in hand). On the wire they travel as
*groups*; the clients expand them back to the exact list, in the same order:

* a group is ``{"type": T, "keys": [k1, …, kn], "tree": …}`` and stands for consecutive
  commands of type ``T`` that have exactly the fields ``k1 … kn``;
* with no fields (``keys`` empty or absent) it is the one command ``{"type": T}``;
* with one field, ``tree`` is the list of its values, one command each;
* with more, ``tree`` is a list of nodes ``[values, subtree]``: every value in ``values``
  takes field ``k1`` and combines with every command of ``subtree`` (a tree over
  ``k2 … kn``), in order. Equal neighbouring subtrees share one node, so a full product
  (every tile on every free square) costs the sum of its sides, not their product.

In memory the keys and trees are tuples (kept groups the garbage collector stops walking);
on the wire they are JSON arrays, like any list.

The field order in ``keys`` is the slowest-changing field first (the order of the loops that
made the list), which can differ from the command's own field order; JSON objects are
unordered, so the expanded commands are equal to the originals:
``expand_legal(compact_legal(xs)) == xs`` for every list of commands (tested over random
games of every game).

This is done here, generically, from the encoded commands: no game's ``legal_commands``
knows about it. A game that can list its commands as the runs they are made of, the very
same tuple for the same run from one state to the next (``legal_segments``, see
``domain.game``), has them grouped by :func:`compact_segments` a run at a time: the same
groups, with a look-up per run instead of a Python step per command.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain, compress, pairwise
from operator import itemgetter, ne
from typing import Any

__all__ = ["compact_legal", "compact_segments", "expand_legal"]

Command = dict[str, Any]

_NOTHING: Any = object()


def compact_legal(commands: Sequence[Command]) -> list[dict[str, Any]]:
    """The groups for ``commands`` (each a dict with a ``"type"``), see the module doc."""
    groups: list[dict[str, Any]] = []
    type_: Any = _NOTHING
    keys: tuple[str, ...] = ()
    run: list[Command] = []
    for command in commands:
        here_type, here_keys = command["type"], tuple(command)
        if here_type != type_ or here_keys != keys:
            if run:
                _reused_group(type_, keys, run, groups)
            type_, keys, run = here_type, here_keys, []
        run.append(command)
    if run:
        _reused_group(type_, keys, run, groups)
    return groups


_GROUPS: dict[tuple[int, ...], tuple[tuple[Command, ...], list[dict[str, Any]]]] = {}
"""Groups by the identities of the commands of their run, with the commands (kept alive,
so that no id is reused while the entry lives). A game's codec hands out the same encoded
dict for the same command (``GameCodec.encode_commands``), and most runs of one state's
list (every way to move the Abbot, to buy a card) are the same at the next: they are
grouped once. Encoded commands are never mutated, and the groups are shared: do not mutate
them either."""
_GROUPS_MAX = 4096


def _reused_group(type_: Any, keys: tuple[str, ...], run: list[Command], out: list[Any]) -> None:
    ids = tuple(map(id, run))
    hit = _GROUPS.get(ids)
    if hit is None:
        made: list[dict[str, Any]] = []
        _group(type_, keys, run, made)
        if len(_GROUPS) >= _GROUPS_MAX:
            _GROUPS.clear()
        hit = _GROUPS[ids] = (tuple(run), made)
    out.extend(hit[1])


Signature = tuple[Any, tuple[str, ...]]
"""What makes consecutive encoded commands one group: their type and their keys."""

Part = tuple[Signature, tuple[Command, ...]]
"""Consecutive encoded commands of one signature."""

_PARTS: dict[int, tuple[Any, Any, tuple[Part, ...]]] = {}
"""Per run of commands a game hands out (a tuple, by its identity), with the run and the
codec (kept alive and checked, so that an id is never taken for another's): its encoded
commands, split where the signature changes (a run of one command type is one part)."""
_PARTS_MAX = 16_384

_SIGNATURES: dict[Signature, Signature] = {}
"""One object per signature, so that parts of one signature are told by identity."""

_RUNS: dict[object, tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}
"""Groups by the identities of the parts that make them (one part's id, or a tuple of
several), with the parts (kept alive): a group spans consecutive parts of one signature."""
_RUNS_MAX = 16_384


def compact_segments(codec: Any, segments: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """``compact_legal(codec.encode_commands(commands))`` for the commands ``segments``
    hold one after another, the very same groups, worked out a segment at a time.

    A segment that is a tuple is encoded and split once, by its identity: a game that hands
    out the same tuple for the same run state after state (``legal_segments``) has most of a
    list found in a look-up per run. Any other sequence is encoded each time. ``codec`` is
    the game's ``protocol.codec.GameCodec``."""
    groups: list[dict[str, Any]] = []
    sig: Any = _NOTHING
    run: list[tuple[Command, ...]] = []  # the parts of the group being gathered
    fresh = False  # whether one of them was encoded for this call only (not by identity)
    parts_of = _PARTS.get
    for segment in segments:
        hit = parts_of(id(segment))
        if hit is not None and hit[0] is segment and hit[1] is codec:
            parts = hit[2]
        else:
            parts = _parts(codec, segment)
            if type(segment) is tuple:
                if len(_PARTS) >= _PARTS_MAX:
                    _PARTS.clear()
                _PARTS[id(segment)] = (segment, codec, parts)
            elif parts:
                fresh = True  # (the run it ends up in, or the next: grouped the slow way)
        for here, encoded in parts:
            if here is not sig:
                if run:
                    _run_groups(sig, run, fresh, groups)
                    fresh = type(segment) is not tuple
                sig, run = here, []
            run.append(encoded)
    if run:
        _run_groups(sig, run, fresh, groups)
    return groups


def _parts(codec: Any, segment: Sequence[Any]) -> tuple[Part, ...]:
    encoded = codec.encode_commands(segment)
    if not encoded:
        return ()
    first = encoded[0]
    # Nearly every run is of one command type: told through C (a set of its types, one of
    # its key tuples), not a Python step per command.
    if len(encoded) == 1 or (
        len(set(map(itemgetter("type"), encoded))) == 1 and len(set(map(tuple, encoded))) == 1
    ):
        sig = (first["type"], tuple(first))
        return ((_SIGNATURES.setdefault(sig, sig), tuple(encoded)),)
    parts: list[Part] = []
    start = 0
    sigs = [(command["type"], tuple(command)) for command in encoded]
    for i in range(1, len(encoded) + 1):
        if i == len(encoded) or sigs[i] != sigs[start]:
            sig = _SIGNATURES.setdefault(sigs[start], sigs[start])
            parts.append((sig, tuple(encoded[start:i])))
            start = i
    return tuple(parts)


def _run_groups(
    sig: Signature, run: list[tuple[Command, ...]], fresh: bool, out: list[Any]
) -> None:
    """The groups of the consecutive parts ``run`` of one signature, onto ``out``."""
    if fresh:  # a part made for this call: by its commands' identities, as compact_legal
        _reused_group(sig[0], sig[1], list(chain.from_iterable(run)), out)
        return
    key: object = id(run[0]) if len(run) == 1 else tuple(map(id, run))
    hit = _RUNS.get(key)
    if hit is None:
        made: list[dict[str, Any]] = []
        _group(sig[0], sig[1], list(chain.from_iterable(run)), made)
        if len(_RUNS) >= _RUNS_MAX:
            _RUNS.clear()
        hit = _RUNS[key] = (tuple(run), made)
    out.extend(hit[1])


def _group(type_: Any, all_keys: tuple[str, ...], run: list[Command], out: list[Any]) -> None:
    keys = [k for k in all_keys if k != "type"]
    if not keys:
        out.extend({"type": type_} for _ in run)
        return
    # Field by field through C (itemgetter, map, compress, slices), not a Python step per
    # command and field. The groups are the same.
    columns = {k: list(map(itemgetter(k), run)) for k in keys}
    # changed[k][i]: whether command i + 1 has another value of k than command i.
    changed = {k: list(map(ne, col[1:], col)) for k, col in columns.items()}
    if len(keys) > 1 and len(run) > 2:
        keys = _order(keys, changed)
    tree = _tree([columns[k] for k in keys], [changed[k] for k in keys], 0, len(run), 0)
    out.append({"type": type_, "keys": tuple(keys), "tree": tree})


def _order(keys: list[str], changed: dict[str, list[bool]]) -> list[str]:
    """The slowest-changing field first: the order of the loops that generated the list
    (ties keep the command's own field order). Upper trie levels then hold long runs."""
    changes = {k: sum(changed[k]) for k in keys}  # one less than its runs, for every field
    return sorted(keys, key=changes.__getitem__)


def _tree(
    cols: list[list[Any]], changed: list[list[bool]], lo: int, hi: int, depth: int
) -> tuple[Any, ...]:
    """The (sub)tree of the commands ``lo:hi`` over fields ``depth …`` (``cols``: each
    field's values, command by command; ``changed``: where they change)."""
    col = cols[depth]
    if depth == len(cols) - 1:
        return tuple(col[lo:hi])
    # Where this field's value changes between lo and hi (the fields above are the same
    # throughout): the starts of its runs.
    starts = [lo, *compress(range(lo + 1, hi), changed[depth][lo : hi - 1]), hi]
    nodes: list[list[Any]] = []
    # The level above the leaves makes its leaves itself (most calls were leaves).
    leaves = cols[depth + 1] if depth + 2 == len(cols) else None
    for start, end in pairwise(starts):
        if leaves is not None:
            sub = tuple(leaves[start:end])
        else:
            sub = _tree(cols, changed, start, end, depth + 1)
        if nodes and nodes[-1][1] == sub:
            nodes[-1][0].append(col[start])
        else:
            nodes.append([[col[start]], sub])
    # Tuples, not lists: groups are kept (``_GROUPS``, ``_RUNS``) for as long as games ask
    # for them again, and a tuple of plain values is one the garbage collector stops
    # walking after its first look, where a list is walked by every collection that
    # reaches it (these trees were half the objects it tracked at 100 duels).
    return tuple([(tuple(values), sub) for values, sub in nodes])


def expand_legal(groups: Sequence[dict[str, Any]]) -> list[Command]:
    """The commands the groups stand for, in order (the inverse of :func:`compact_legal`)."""
    out: list[Command] = []
    for group in groups:
        type_ = group["type"]
        keys = group.get("keys") or []
        if not keys:
            out.append({"type": type_})
            continue
        for values in _walk(group["tree"], len(keys)):
            command = {"type": type_}
            command.update(zip(keys, values, strict=True))
            out.append(command)
    return out


def _walk(tree: list[Any], n: int) -> Iterator[list[Any]]:
    if n == 1:
        for value in tree:
            yield [value]
        return
    for values, sub in tree:
        rest = list(_walk(sub, n - 1))
        for value in values:
            for tail in rest:
                yield [value, *tail]
