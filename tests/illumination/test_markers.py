"""Running out of Markers (issue 11, item 6a; D-25).

The rulebook gives each side 16 Markers ("32 Wooden Markers (16 white & 16 black)"); the
Mystic Monk keeps four of his on his Ritual columns. Its only remedy for an empty supply
is the FAQ: "Q: What do I do if I run out of Markers in my supply? A: Remove an equal
number of Markers belonging to each player from one or more Battle cards, maintaining the
existing power-balance on the card." Where even that is impossible we follow the rulebook's
habit whenever a component runs out ("If your personal supply of 7 Coins ever runs out,
you collect nothing"): the Marker is not placed, and what it would have claimed (a Ritual
set, a Book space, a Battle card) is forgone.
"""

from __future__ import annotations

import attrs
import pytest

from domain.bots import RandomBot, bot_move
from domain.errors import RuleViolation
from domain.game import fold
from domain.illumination import GAME
from domain.illumination import commands as cmd
from domain.illumination import events as ev
from domain.illumination.content import CONTENT
from domain.illumination.state import IRR, REV, State
from domain.illumination.turn import Turn, marker_remedy
from domain.narration import Names
from domain.randomness import Context, Rng
from domain.viewers import SPECTATOR
from tests.illumination.illum_support import run, scenario, started, types, with_player


def _on_the_board(state: State, side: int) -> int:
    battle = sum(card[side] for card in state.battle)
    return battle + state.ritual_spaces.count(side) + state.book_spaces.count(side)


def test_no_side_ever_places_more_markers_than_it_has_in_100_solo_games() -> None:
    """Before the fix the Monk went past his 16 in 90 of 100 games ("virtual markers")."""
    remedies = 0
    for seed in range(100):
        options = {
            "mode": "solo",
            "side": "reverent" if seed % 2 else "irreverent",
            "difficulty": 1 + seed % 8,
        }
        state = GAME.initial_state(options)
        state = fold(GAME, state, GAME.setup(state, Context.seeded(f"markers-{seed}")))
        rng = Rng(seed)
        steps = 0
        while not GAME.is_terminal(state):
            command = bot_move(RandomBot(), GAME, state, 0, rng)
            for e in GAME.decide(state, 0, command, Context.seeded(f"{seed}-{steps}")):
                state = GAME.evolve(state, e)
                remedies += isinstance(e, ev.MarkersRebalanced | ev.MarkersReclaimed)
                for side in (REV, IRR):
                    p = state.players[side]
                    track = 0 if p.human else CONTENT.monk_track_markers
                    assert p.markers >= 0, f"game {seed}: {side} placed a Marker it lacks"
                    assert p.markers + _on_the_board(state, side) + track == 16
            steps += 1
    assert remedies > 0, "the sample must run out of Markers at least once"


def _monk_out_of_markers(battle: tuple[tuple[int, int], ...]) -> tuple[State, int]:
    """A solo game (the human Reverent): the Monk (Irreverent) has no Marker in supply."""
    state = started("solo", "reverent")
    state = with_player(state, IRR, markers=0)
    return attrs.evolve(state, battle=battle, ritual_spaces=(None,) * 12), IRR


def _monk_ritual(state: State, mm: int, ritual: int = 2) -> tuple[State, list[object]]:
    t = Turn(state, Context.seeded("r").rng)
    t.monk_ritual(mm, ritual)
    return t.state, t.events


def test_one_card_with_markers_of_both_sides_loses_one_of_each_and_keeps_its_balance() -> None:
    state, mm = _monk_out_of_markers(((0, 0), (1, 2), (0, 0), (0, 0)))
    after, events = _monk_ritual(state, mm)
    assert ev.MarkersRebalanced(1) in events
    assert after.battle[1] == (0, 1)  # IRR still one ahead
    assert after.ritual_spaces[2 * 3 + 2] == mm  # the Wine set of 5 is his
    assert after.players[mm].markers == 0  # freed and placed again
    assert after.players[REV].markers == state.players[REV].markers + 1


def test_from_two_cards_each_keeps_its_leader() -> None:
    # No card holds Markers of both sides: the Monk leads Monks-Rabbits 2-0 and the human
    # leads Angels-Demons 2-0. One Marker of each side leaves the card its side leads by 2.
    state, mm = _monk_out_of_markers(((2, 0), (0, 0), (0, 2), (0, 0)))
    after, events = _monk_ritual(state, mm)
    assert ev.MarkersReclaimed(mm, own_pair=2, other_pair=0) in events
    assert after.battle == ((1, 0), (0, 0), (0, 1), (0, 0))
    for before, now in zip(state.battle, after.battle, strict=True):
        lead = (before[0] > before[1]) - (before[0] < before[1])
        assert lead == (now[0] > now[1]) - (now[0] < now[1]), "a card changed hands"
    assert after.ritual_spaces[2 * 3 + 2] == mm
    assert after.players[mm].markers == 0


@pytest.mark.parametrize(
    "battle",
    [
        ((0, 0), (0, 0), (0, 0), (0, 0)),  # nothing to take back
        ((1, 0), (0, 1), (0, 0), (0, 0)),  # taking one back would turn a lead into a tie
        ((0, 0), (0, 2), (0, 0), (0, 0)),  # only his own: "equal number ... each player"
    ],
)
def test_where_no_marker_can_be_freed_the_ritual_set_is_forgone(battle: tuple) -> None:  # type: ignore[type-arg]
    state, mm = _monk_out_of_markers(battle)
    assert marker_remedy(state, mm) is None
    after, events = _monk_ritual(state, mm)
    assert ev.MarkerForgone(mm, "ritual", ritual=2, size=5) in events
    assert "RitualClaimed" not in types(events)
    assert after.ritual_spaces == state.ritual_spaces and after.battle == state.battle
    # No Marker on the Monastery mat, so no Consolation card for the human.
    assert "CardDrawn" not in types(events)


def test_where_no_marker_can_be_freed_the_book_marker_and_the_monks_5_points_are_forgone() -> None:
    state, mm = _monk_out_of_markers(((0, 0), (0, 0), (0, 0), (0, 0)))
    t = Turn(state, Context.seeded("b").rng)
    t.book_marker(1, mm)
    assert t.events == [ev.MarkerForgone(mm, "book", pos=1)]
    assert t.state.book_spaces == state.book_spaces
    assert t.state.players[mm].books_completed == state.players[mm].books_completed


def test_where_no_marker_can_be_freed_the_battle_card_gets_none() -> None:
    state, mm = _monk_out_of_markers(((0, 0), (0, 0), (0, 0), (0, 0)))
    e = ev.BattleResolved(0, 3, (0, 1), (1, 2), mm, ("x",), marker=False)
    after = GAME.evolve(state, e)
    assert after.battle == state.battle and after.players[mm].markers == 0
    assert "x" in after.facedown  # the battle itself is still won: the tiles flip


def test_a_player_without_a_marker_to_free_cannot_claim_a_ritual() -> None:
    state = scenario(turn=REV)
    station = CONTENT.ritual_station(0)
    state = attrs.evolve(state, abbot=station, battle=((0, 0),) * 4)
    state = with_player(state, REV, markers=0, tokens=(3, 0, 0, 0))
    claim = cmd.ClaimRitual(CONTENT.rituals[0], 3)
    assert claim not in GAME.legal_commands(state, 0)
    with pytest.raises(RuleViolation) as err:
        run(state, 0, claim)
    assert err.value.code == "no_marker"
    # With a card to take Markers back from, the claim is allowed again.
    state = attrs.evolve(state, battle=((1, 1), (0, 0), (0, 0), (0, 0)))
    assert claim in GAME.legal_commands(state, 0)
    _, events = run(state, 0, claim)
    assert types(events)[:2] == ["MarkersRebalanced", "RitualClaimed"]


def test_the_new_events_are_narrated_in_words() -> None:
    names = Names(("Ann",))
    lines = [
        GAME.narrate(GAME.redact(e, SPECTATOR), names)
        for e in (
            ev.MarkersReclaimed(IRR, 2, 0),
            ev.MarkerForgone(IRR, "ritual", ritual=2, size=5),
            ev.MarkerForgone(IRR, "book", pos=1),
            ev.MarkerForgone(IRR, "battle", pair=3),
            ev.BattleResolved(0, 3, (0, 1), (1, 2), IRR, ("x",), marker=False),
        )
    ]
    for line in lines:
        assert line and "_" not in line and "None" not in line, line
    assert "Wine set of 5" in lines[1]
    assert "places a Marker" not in lines[4]


def test_a_battle_recorded_before_the_change_still_places_its_marker() -> None:
    from protocol.codec import GameCodec

    codec = GameCodec(GAME)
    e = ev.BattleResolved(0, 3, (0, 1), (1, 2), IRR, ("x",))
    data = codec.encode_event(e)
    data.pop("marker")
    assert codec.decode_event("BattleResolved", data) == e
