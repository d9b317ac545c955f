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

The field order in ``keys`` is the slowest-changing field first (the order of the loops that
made the list), which can differ from the command's own field order; JSON objects are
unordered, so the expanded commands are equal to the originals:
``expand_legal(compact_legal(xs)) == xs`` for every list of commands (tested over random
games of every game).

This is done here, generically, from the encoded commands: no game's ``legal_commands``
knows about it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress
from operator import itemgetter, ne
from typing import Any

__all__ = ["compact_legal", "expand_legal"]

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
    out.append({"type": type_, "keys": keys, "tree": tree})


def _order(keys: list[str], changed: dict[str, list[bool]]) -> list[str]:
    """The slowest-changing field first: the order of the loops that generated the list
    (ties keep the command's own field order). Upper trie levels then hold long runs."""
    changes = {k: sum(changed[k]) for k in keys}  # one less than its runs, for every field
    return sorted(keys, key=changes.__getitem__)


def _tree(
    cols: list[list[Any]], changed: list[list[bool]], lo: int, hi: int, depth: int
) -> list[Any]:
    """The (sub)tree of the commands ``lo:hi`` over fields ``depth …`` (``cols``: each
    field's values, command by command; ``changed``: where they change)."""
    col = cols[depth]
    if depth == len(cols) - 1:
        return col[lo:hi]
    # Where this field's value changes between lo and hi (the fields above are the same
    # throughout): the starts of its runs.
    starts = [lo, *compress(range(lo + 1, hi), changed[depth][lo : hi - 1]), hi]
    nodes: list[list[Any]] = []
    for i in range(len(starts) - 1):
        start = starts[i]
        sub = _tree(cols, changed, start, starts[i + 1], depth + 1)
        if nodes and nodes[-1][1] == sub:
            nodes[-1][0].append(col[start])
        else:
            nodes.append([[col[start]], sub])
    return nodes


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
