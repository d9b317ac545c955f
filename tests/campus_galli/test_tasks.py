"""The level I placement tasks, judged on one lay: every card of each kind, met and not met.

Progress ("lay a section on building X"), letter-shape (that shape on X), direction (that
colour on one of the buildings of a direction) and the colour and shape combinations (a
section of one kind laid next to a section of the other kind, either way round).
"""

from __future__ import annotations

import attrs
import pytest

from domain.campus_galli.content import SECTIONS, TASKS, TaskCard
from domain.campus_galli.geometry import ring
from domain.campus_galli.queries import BUILDING_MASK, legal_placements, satisfied
from domain.campus_galli.state import Stage, State, Turn
from tests.campus_galli.cg_support import new_game

BASE, _ = new_game(1, 2)
COLOURS = sorted({s.colour for s in SECTIONS.values() if not s.joker})
SHAPES = sorted({s.shape for s in SECTIONS.values()})


def section(colour: str | None = None, shape: str | None = None, besides: str = "") -> str:
    """A non-joker section with that colour and/or shape (other than ``besides``)."""
    return next(
        s.id
        for s in SECTIONS.values()
        if not s.joker
        and s.id != besides
        and (colour is None or s.colour == colour)
        and (shape is None or s.shape == shape)
    )


def meets(state: State, card: TaskCard, sec: str, mask: int) -> bool:
    return satisfied(state, 0, card, Turn(seat=0, card="", stage=Stage.END, laid=((sec, mask),)))


def of_kind(*kinds: str) -> list[str]:
    return [t for t, c in TASKS.items() if c.kind in kinds]


@pytest.mark.parametrize("task", of_kind("progress", "letter_shape", "direction"))
def test_a_building_task_needs_the_right_section_on_its_building(task: str) -> None:
    card = TASKS[task]
    colour = card.colours[0] if card.colours else None
    sec = section(colour, card.shape or None)
    buildings = (card.building,) if card.building else card.buildings
    target = sum(BUILDING_MASK[b] for b in buildings)
    # the building shows its construction side, so it can be built on
    state = attrs.evolve(BASE, construction=BASE.construction | frozenset(buildings))
    places = legal_placements(state, SECTIONS[sec].shape)
    on = next(p for p in places if p.mask & target)
    off = next(p for p in places if not p.mask & target)
    assert meets(state, card, sec, on.mask)
    assert not meets(state, card, sec, off.mask)
    # the wrong colour (direction) or shape (letter-shape) on the building does not count
    if colour:
        other = next(c for c in COLOURS if c not in card.colours)
        wrong = section(other, SECTIONS[sec].shape)
    elif card.shape:
        wrong = section(shape=next(x for x in SHAPES if x != card.shape))
    else:
        return
    mask = next(p.mask for p in legal_placements(state, SECTIONS[wrong].shape) if p.mask & target)
    assert not meets(state, card, wrong, mask)


@pytest.mark.parametrize("task", of_kind("colour_combo", "shape_combo"))
@pytest.mark.parametrize("way_round", ["a next to b", "b next to a"])
def test_a_combination_task_needs_the_other_kind_next_to_the_lay(task: str, way_round: str) -> None:
    card = TASKS[task]
    attr = "colour" if card.kind == "colour_combo" else "shape"
    first, second = (card.b, card.a) if way_round == "a next to b" else (card.a, card.b)
    theirs = section(**{attr: first[0]})
    mine = section(**{attr: second[0]}, besides=theirs)
    there = legal_placements(BASE, SECTIONS[theirs].shape)[0].mask
    state = attrs.evolve(BASE, placed=((theirs, there),), cover=there)
    places = legal_placements(state, SECTIONS[mine].shape)
    beside = next(p.mask for p in places if p.mask & ring(there))
    apart = next(p.mask for p in places if not p.mask & ring(there))
    assert meets(state, card, mine, beside)
    assert not meets(state, card, mine, apart)
