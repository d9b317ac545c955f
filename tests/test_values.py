"""The one checked copy helper (``domain.values.replace``)."""

from __future__ import annotations

import attrs
import pytest

from domain.values import replace


@attrs.frozen
class Slotted:
    x: int
    y: tuple[int, ...] = ()


@attrs.frozen(slots=False)
class Plain:
    x: int
    y: tuple[int, ...] = ()


@attrs.frozen
class Checked:
    x: int = attrs.field(validator=attrs.validators.instance_of(int))


@pytest.mark.parametrize("cls", [Slotted, Plain])
def test_a_copy_equals_the_value_built_directly(cls: type) -> None:
    a = cls(1, (2,))
    b = replace(a, y=(3,))
    assert b == cls(1, (3,)) and hash(b) == hash(cls(1, (3,)))
    assert a == cls(1, (2,))  # the original is untouched


@pytest.mark.parametrize("cls", [Slotted, Plain])
def test_a_misspelt_field_is_refused(cls: type) -> None:
    with pytest.raises(TypeError, match="has no field z"):
        replace(cls(1), z=2)


def test_a_class_with_validators_is_refused() -> None:
    with pytest.raises(TypeError, match="validators"):
        replace(Checked(1), x=2)


def test_the_games_copy_with_it() -> None:
    from domain.illumination import evolve as illumination_evolve
    from domain.road_to_enlightenment import state as road_state

    assert illumination_evolve._evolve is replace
    assert road_state.replace is replace
