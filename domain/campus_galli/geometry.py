"""Placement on the monastery plan: orientations, legality, empty spaces.

A placement is (shape, anchor x, anchor y, orientation). ``orientation`` indexes the shape's
*distinct* footprints (rotations and mirror images that give the same cells are one
orientation), so every legal placement has exactly one command.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from .content import PLAN, SHAPES

__all__ = [
    "CANDIDATES",
    "ORIENTATIONS",
    "Placement",
    "cell_xy",
    "components",
    "mask_of",
    "placement",
]

WIDTH = PLAN.width
HEIGHT = PLAN.height
ALL_CELLS = range(WIDTH * HEIGHT)
_FULL = (1 << (WIDTH * HEIGHT)) - 1
_COL_FIRST = sum(1 << (y * WIDTH) for y in range(HEIGHT))
_COL_LAST = sum(1 << (y * WIDTH + WIDTH - 1) for y in range(HEIGHT))


def cell_xy(cell: int) -> tuple[int, int]:
    return cell % WIDTH, cell // WIDTH


def mask_of(cells: Iterable[int]) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def cells_of(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def ring_fast(mask: int) -> int:
    """Cells edge-adjacent to ``mask`` by shifting (no per-cell loop)."""
    left = (mask >> 1) & ~_COL_LAST
    right = (mask << 1) & ~_COL_FIRST
    out = left | right | (mask >> WIDTH) | (mask << WIDTH)
    return out & _FULL & ~mask


def _oriented(
    pts: tuple[tuple[int, int], ...], rotation: int, mirror: bool
) -> tuple[tuple[int, int], ...]:
    p = [(-x, y) for x, y in pts] if mirror else list(pts)
    for _ in range(rotation):
        p = [(-y, x) for x, y in p]
    mx = min(x for x, _ in p)
    my = min(y for _, y in p)
    return tuple(sorted((x - mx, y - my) for x, y in p))


def _orientations() -> dict[str, tuple[tuple[tuple[int, int], ...], ...]]:
    out: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {}
    for name, pts in SHAPES.items():
        seen: list[tuple[tuple[int, int], ...]] = []
        for mirror in (False, True):
            for rot in range(4):
                o = _oriented(pts, rot, mirror)
                if o not in seen:
                    seen.append(o)
        out[name] = tuple(seen)
    return out


ORIENTATIONS = _orientations()
"""Per shape, its distinct footprints, each normalised to a top-left anchor at (0, 0)."""


@attrs.frozen
class Placement:
    shape: str
    x: int
    y: int
    orientation: int
    cells: tuple[int, ...]
    mask: int


def _candidates() -> dict[str, tuple[Placement, ...]]:
    out: dict[str, tuple[Placement, ...]] = {}
    for shape, orients in ORIENTATIONS.items():
        found: list[Placement] = []
        for y in range(HEIGHT):
            for x in range(WIDTH):
                for o, pts in enumerate(orients):
                    cells = []
                    for dx, dy in pts:
                        cx, cy = x + dx, y + dy
                        if not (0 <= cx < WIDTH and 0 <= cy < HEIGHT):
                            break
                        cells.append(cy * WIDTH + cx)
                    else:
                        m = mask_of(cells)
                        if m & PLAN.tree_mask or not any(c in PLAN.building_of for c in cells):
                            continue
                        found.append(Placement(shape, x, y, o, tuple(sorted(cells)), m))
        out[shape] = tuple(found)
    return out


CANDIDATES = _candidates()
"""Every in-bounds, tree-free placement that touches at least one building cell."""
_BY_KEY = {(p.shape, p.x, p.y, p.orientation): p for ps in CANDIDATES.values() for p in ps}


def placement(shape: str, x: int, y: int, orientation: int) -> Placement | None:
    """The candidate placement, or None when it leaves the plan, hits a tree or no building."""
    return _BY_KEY.get((shape, x, y, orientation))


def geometry_problem(shape: str, x: int, y: int, orientation: int) -> str | None:
    """Why a placement is impossible whatever the state (None if it is a candidate)."""
    if orientation < 0 or orientation >= len(ORIENTATIONS[shape]):
        return "bad_orientation"
    cells = []
    for dx, dy in ORIENTATIONS[shape][orientation]:
        cx, cy = x + dx, y + dy
        if not (0 <= cx < WIDTH and 0 <= cy < HEIGHT):
            return "off_plan"
        cells.append(cy * WIDTH + cx)
    if mask_of(cells) & PLAN.tree_mask:
        return "tree"
    return "no_wooden_space"


_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (c + d)
        for d, ok in (
            (-1, c % WIDTH > 0),
            (1, c % WIDTH < WIDTH - 1),
            (-WIDTH, c >= WIDTH),
            (WIDTH, c < WIDTH * (HEIGHT - 1)),
        )
        if ok
    )
    for c in ALL_CELLS
)
NEIGHBOUR_MASK: tuple[int, ...] = tuple(mask_of(n) for n in _NEIGHBOURS)


def ring(mask: int) -> int:
    """Cells edge-adjacent to ``mask`` (not including it)."""
    return ring_fast(mask)


def components(mask: int) -> tuple[int, ...]:
    """4-connected components of ``mask``, as masks, ordered by their lowest cell."""
    out: list[int] = []
    rest = mask
    while rest:
        low = rest & -rest
        comp = low
        frontier = low
        while frontier:
            frontier = ring_fast(comp) & rest
            comp |= frontier
        out.append(comp)
        rest &= ~comp
    return tuple(out)
