"""Every registered game type passes the ``Game`` contract (``tests/game_contract.py``)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from domain import GameType, default_registry
from domain.highcard.events import CardDrawn
from domain.highcard.game import HighCard, Pass, Passed, PlayCard
from domain.secrets import event
from domain.views import public, view_part
from tests.game_contract import Playout, cases, check_narrator, mode_id
from tests.scale import playouts

REGISTRY = default_registry()
CASES = list(cases(REGISTRY))


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}[{mode_id(o)}]" for n, o in CASES])
def test_random_games_keep_the_contract(name: str, options: dict[str, Any]) -> None:
    for seed in range(max(1, playouts(1))):
        Playout(REGISTRY[name], options, seed).run()


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_event_type_has_a_narrator_line_for_every_audience(name: str) -> None:
    from tests.test_narration import content_id_set

    check_narrator(REGISTRY[name], content_id_set(name))


def test_every_game_type_has_modes_covering_its_options() -> None:
    from tests.game_contract import modes

    for gtype in REGISTRY.values():
        covered = {(k, v) for o in modes(gtype) for k, v in o.items()}
        for spec in gtype.game.option_specs:
            assert any(k == spec.name for k, _ in covered) or spec.applies_when, spec.name


# -- the contract can fail: games broken on purpose --------------------------------------------


class _LeakyRedact(HighCard):
    def redact(self, event: Any, viewer: Any) -> Any:
        return event


class _ListsAnIllegalCard(HighCard):
    def legal_commands(self, state: Any, seat: int) -> Any:
        legal = list(super().legal_commands(state, seat))
        return [*legal, PlayCard("hc-99")] if state.phase == "play" else legal


class _HidesPassFromSeat0(HighCard):
    def legal_commands(self, state: Any, seat: int) -> Any:
        legal = super().legal_commands(state, seat)
        return [c for c in legal if not (seat == 0 and isinstance(c, Pass))]


class _SilentPass(HighCard):
    def narrate(self, event: Any, names: Any) -> Any:
        return None if isinstance(event, Passed) else super().narrate(event, names)


class _Moody(HighCard):
    calls = 0

    def decide(self, state: Any, seat: int, command: Any, ctx: Any) -> Any:
        type(self).calls += 1
        events = list(super().decide(state, seat, command, ctx))
        return [*events, Passed(seat)] if type(self).calls % 2 else events


class _StaleDecidedState(HighCard):
    """Hands the server the state before the move as the state after it."""

    def decide_state(self, state: Any, seat: int, command: Any, ctx: Any) -> Any:
        return self.decide(state, seat, command, ctx), state


class _BareDictView(HighCard):
    """A view built per viewer by hand, as before views were declared."""

    def full_view(self, state: Any) -> Any:
        return {"phase": state.phase, "hands": [list(h) for h in state.hands]}


@attrs.frozen
class _Hands:  # an attrs class, but not a declared view part
    hands: tuple[tuple[str, ...], ...]


@view_part
class _WithUndeclaredPart:
    phase: str
    hands: _Hands


class _UndeclaredPart(HighCard):
    def full_view(self, state: Any) -> Any:
        return _WithUndeclaredPart(state.phase, _Hands(state.hands))


@view_part
class _HandsDeclaredPublic:
    phase: str
    hands: list[list[str]] = public()


class _PublicHands(HighCard):
    """Declared, but the hands declared public: the leak test catches the mistake."""

    def full_view(self, state: Any) -> Any:
        return _HandsDeclaredPublic(state.phase, [list(h) for h in state.hands])


@view_part
class _NotPlain:
    phase: str
    hands: list[Any] = public()


class _PartInPublicData(HighCard):
    """A part hidden inside a field declared plain public data."""

    def full_view(self, state: Any) -> Any:
        return _NotPlain(state.phase, [_Hands(state.hands)])


class _OwnView(HighCard):
    """``view`` overridden by hand, bypassing the kernel's redaction."""

    def view(self, state: Any, viewer: Any) -> Any:
        return {**super().view(state, viewer), "hands": [list(h) for h in state.hands]}


class _CheatingBot:
    name = "cheat"

    def choose(self, seen: Any, rng: Any) -> Any:
        return PlayCard("hc-99")


@pytest.mark.parametrize(
    ("gtype", "complaint"),
    [
        (GameType(_LeakyRedact()), "may not see"),
        (GameType(_ListsAnIllegalCard()), "listed command"),
        (GameType(_HidesPassFromSeat0()), "unlisted command"),
        (GameType(_SilentPass()), "no narrator line"),
        (GameType(_Moody()), "not deterministic"),
        (GameType(_StaleDecidedState()), "is not the fold"),
        (GameType(HighCard(), bots={"cheat": _CheatingBot()}), "chose unlisted"),
        (GameType(_BareDictView()), "a bare dict in a view declares no secrets"),
        (GameType(_UndeclaredPart()), "_Hands in a view declares no secrets"),
        (GameType(_PublicHands()), "may not see"),
        (GameType(_PartInPublicData()), "declared public.. plain data but holds a _Hands"),
        (GameType(_OwnView()), "not the kernel's redaction"),
    ],
    ids=[
        "leaky-redact",
        "lists-illegal",
        "hides-legal",
        "silent",
        "moody",
        "stale-decided-state",
        "cheating-bot",
        "bare-dict-view",
        "undeclared-view-part",
        "hands-declared-public",
        "part-in-public-data",
        "own-view",
    ],
)
def test_the_contract_catches_a_broken_game(gtype: GameType, complaint: str) -> None:
    with pytest.raises(AssertionError, match=complaint):
        for seed in range(20):
            Playout(gtype, {"players": 3}, seed).run()


# -- the narrator check can fail --------------------------------------------------------------


@event
class _Blessed:
    """Declared by the game but never produced by a playout: only a built example has it."""

    seat: int
    pilgrims: int


@event
class _Renamed:
    seat: int
    title: str  # a bare str no playout ever fills in: nothing to build it from


class _NeverSaysBlessed(HighCard):
    event_types = (*HighCard.event_types, _Blessed)

    def narrate(self, event: Any, names: Any) -> Any:
        return None if isinstance(event, _Blessed) else super().narrate(event, names)


class _SaysIds(HighCard):
    def narrate(self, event: Any, names: Any) -> Any:
        if isinstance(event, Passed):
            return f"seat {event.seat} passes"
        return super().narrate(event, names)


class _TellsTheCard(HighCard):
    """Its redaction keeps the drawn card for everyone, and its narrator names it."""

    def redact(self, event: Any, viewer: Any) -> Any:
        return event

    def narrate(self, event: Any, names: Any) -> Any:
        if isinstance(event, CardDrawn) and event.card:
            return f"{names.seat(event.seat)} draws the card {event.card}"
        return super().narrate(event, names)


class _Unbuildable(HighCard):
    event_types = (*HighCard.event_types, _Renamed)


@pytest.mark.parametrize(
    ("game", "complaint"),
    [
        (_NeverSaysBlessed(), "_Blessed .built. has no narrator line"),
        (_SaysIds(), "Passed .seen. for .*says 'seat N'"),
        (_TellsTheCard(), "CardDrawn.card hidden from seat 1 is in|reads what card holds"),
        (_Unbuildable(), "no example: _Renamed.title"),
    ],
    ids=["unsaid-event-type", "ids-in-line", "names-a-hidden-card", "unbuildable"],
)
def test_the_narrator_check_catches_a_broken_game(game: HighCard, complaint: str) -> None:
    with pytest.raises(AssertionError, match=complaint):
        check_narrator(GameType(game))


def test_an_event_no_playout_produces_is_built_from_its_field_types() -> None:
    from tests.event_examples import examples

    ex = examples(GameType(_NeverSaysBlessed()))
    assert ex.built == {_Blessed}
    built = ex.by_type[_Blessed]
    assert {e.seat for e in built} <= set(range(len(ex.labels))) and len(built) > 1
