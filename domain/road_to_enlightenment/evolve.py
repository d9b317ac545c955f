"""Folding events into the state. No validation, no randomness: ``decide`` did both."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..simultaneous import ChoiceCommitted, ChoicesRevealed, SecretChoices
from .content import content
from .events import (
    ActionDeclared,
    CensusJoined,
    CensusResolved,
    ChitsPlaced,
    CitiesAbandoned,
    CityTaken,
    CoinsChanged,
    CombatResolved,
    CombatSet,
    CursorSet,
    DiceRolled,
    DieRerolled,
    DiplomacyChanged,
    DraftOwed,
    DraftPickForgone,
    Event,
    ExtraPickGranted,
    GameEnded,
    LuminariesMoved,
    MarkerMoved,
    MedallionTaken,
    NationsAssigned,
    OffersRevealed,
    PileShuffled,
    PlayerEliminated,
    PowerUsed,
    PrestigeChanged,
    ReligionShifted,
    ScoringApplied,
    ShortfallSet,
    SlotPlanned,
    StackRevealed,
    StacksLocked,
    StageSet,
    TurnBegan,
    TurnOrderSet,
)
from .state import SIMULTANEOUS, Player, Stage, StageKind, State, pair_key, replace

__all__ = ["evolve"]

PLAYER_ZONES = ("hand", "deck", "discard", "mat", "aside", "peek")
SLOT_ZONES = {"slot1": 0, "slot2": 1, "slot3": 2}
_OVER = Stage(StageKind.OVER)


def _set_player(state: State, seat: int, player: Player) -> State:
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players))


def _remove(zone: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in zone if c not in gone)


def _take(state: State, seat: int, zone: str, cards: tuple[str, ...]) -> State:
    if zone in PLAYER_ZONES:
        p = state.players[seat]
        return _set_player(state, seat, replace(p, **{zone: _remove(getattr(p, zone), cards)}))
    if zone in SLOT_ZONES:
        p = state.players[seat]
        i = SLOT_ZONES[zone]
        slots = list(p.slots)
        slots[i] = _remove(slots[i], cards)
        return _set_player(state, seat, replace(p, slots=tuple(slots)))
    if zone == "defense":
        assert state.combat is not None
        combat = replace(state.combat, def_cards=_remove(state.combat.def_cards, cards))
        return replace(state, combat=combat)
    if zone == "box":
        return replace(state, box=_remove(state.box, cards))
    if zone == "vault":
        return replace(state, vault=_remove(state.vault, cards))
    kind, _, key = zone.partition(":")
    if kind == "row":
        rows = dict(state.rows)
        rows[key] = _remove(rows[key], cards)
        return replace(state, rows=rows)
    piles = dict(state.piles)
    piles[zone] = _remove(piles[zone], cards)
    return replace(state, piles=piles)


def _put(state: State, seat: int, zone: str, cards: tuple[str, ...]) -> State:
    if zone in PLAYER_ZONES:
        p = state.players[seat]
        return _set_player(state, seat, replace(p, **{zone: getattr(p, zone) + cards}))
    if zone in SLOT_ZONES:
        p = state.players[seat]
        i = SLOT_ZONES[zone]
        slots = list(p.slots)
        slots[i] = slots[i] + cards
        return _set_player(state, seat, replace(p, slots=tuple(slots)))
    if zone == "defense":
        assert state.combat is not None
        combat = replace(state.combat, def_cards=state.combat.def_cards + cards)
        return replace(state, combat=combat)
    if zone == "box":
        return replace(state, box=state.box + cards)
    if zone == "vault":
        return replace(state, vault=state.vault + cards)
    kind, _, key = zone.partition(":")
    if kind == "row":
        rows = dict(state.rows)
        rows[key] = rows.get(key, ()) + cards
        return replace(state, rows=rows)
    piles = dict(state.piles)
    piles[zone] = piles.get(zone, ()) + cards
    return replace(state, piles=piles)


def _moved(state: State, e: LuminariesMoved) -> State:
    cards = tuple(e.cards or ())
    state = _put(_take(state, e.seat, e.src, cards), e.seat, e.dst, cards)
    if e.vis == "public" and cards:
        state = replace(state, exposed=state.exposed | frozenset(cards))
    return state


def _nations(state: State, e: NationsAssigned) -> State:
    c = content()
    players = []
    for seat, nid in enumerate(e.nations):
        n = c.nations[nid]
        players.append(
            Player(
                seat=seat,
                nation=nid,
                coins=n.treasury_limit // 2 + n.start_bonus_coins,
                score=int(c.rules["start_score"]),
                sci=n.start_sci,
                art=n.start_art,
            )
        )
    diplomacy = {pair_key(a, b): "ALLY" for a, b in c.rules["initial_alliances"]}
    count = len(players)
    table = c.nations_for(count)  # the table order is the starting turn order (§1.1)
    return replace(
        state,
        players=tuple(players),
        order=tuple(sorted(range(count), key=lambda seat: table.index(e.nations[seat]))),
        diplomacy=diplomacy,
        turn=1,
        rows={col: () for col in ("RED", "BLUE", "PURPLE", "PINK", "GREEN", "ORANGE")},
        shortfall=(0,) * count,
        owed=(0,) * count,
    )


def _player(state: State, seat: int, **changes: object) -> State:
    return _set_player(state, seat, replace(state.players[seat], **changes))


def _planned(state: State, e: SlotPlanned) -> State:
    p = state.players[e.seat]
    plan = tuple((c, s) for c, s in p.plan if c != e.card)
    if e.slot:
        plan = (*plan, (e.card, e.slot))
    return _player(state, e.seat, plan=plan)


def _locked(state: State, e: StacksLocked) -> State:
    players = []
    for p in state.players:
        slots: list[list[str]] = [[], [], []]
        for card, s in p.plan:
            slots[s - 1].append(card)
        placed = {c for c, _ in p.plan}
        players.append(
            replace(
                p,
                hand=tuple(c for c in p.hand if c not in placed),
                slots=tuple(tuple(s) for s in slots),
                revealed=(False, False, False),
                plan=(),
            )
        )
    return replace(state, players=tuple(players), choices=SecretChoices(frozenset()))


def _revealed(state: State, e: StackRevealed) -> State:
    p = state.players[e.seat]
    rev = list(p.revealed)
    rev[e.slot - 1] = True
    state = _player(state, e.seat, revealed=tuple(rev))
    return replace(state, exposed=state.exposed | frozenset(e.cards))


def _marker(state: State, e: MarkerMoved) -> State:
    if e.track == "SCI":
        return _player(state, e.seat, sci=e.to, sci_locked=e.locked)
    return _player(state, e.seat, art=e.to, art_locked=e.locked)


def _medallion(state: State, e: MedallionTaken) -> State:
    med = dict(state.medallions)
    if e.seat < 0:
        med.pop(e.medallion, None)
    else:
        med[e.medallion] = e.seat
    return replace(state, medallions=med)


def _city(state: State, e: CityTaken) -> State:
    occ = dict(state.occupant)
    if e.occupant is None:
        occ.pop(e.city, None)
    else:
        occ[e.city] = e.occupant
    return replace(state, occupant=occ)


def _abandoned(state: State, e: CitiesAbandoned) -> State:
    occ = {c: n for c, n in state.occupant.items() if c not in e.cities}
    return replace(state, occupant=occ)


def _diplomacy(state: State, e: DiplomacyChanged) -> State:
    d = dict(state.diplomacy)
    key = pair_key(e.a, e.b)
    if e.status == "NONE":
        d.pop(key, None)
    else:
        d[key] = e.status
    return replace(state, diplomacy=d)


def _eliminated(state: State, e: PlayerEliminated) -> State:
    state = _player(state, e.seat, eliminated=True)
    return replace(
        state,
        order=tuple(s for s in state.order if s != e.seat),
        queue=tuple(s for s in state.queue if s != e.seat),
        census=tuple(s for s in state.census if s != e.seat),
    )


def _turn_began(state: State, e: TurnBegan) -> State:
    players = tuple(
        replace(p, sci_locked=False, art_locked=False, russia_used=False, extra_picks=0)
        for p in state.players
    )
    return replace(state, players=players, turn=e.turn, p3=(), census=())


def _choices_revealed(state: State, e: ChoicesRevealed) -> State:
    return replace(state, p3=tuple(e.choices), choices=SecretChoices(frozenset()))


def _stage(state: State, e: StageSet) -> State:
    stage: Stage = e.stage
    if stage.kind in SIMULTANEOUS:
        seats = stage.waiting
        return replace(state, stage=stage, choices=SecretChoices.open(seats))
    return replace(state, stage=stage)


# Each handler takes its own event type: no one Callable type says so, hence Any. A dict
# lookup by type is the fold's hot path (a match would try the cases one by one).
_HANDLERS: dict[type, Callable[[State, Any], State]] = {
    NationsAssigned: _nations,
    ChitsPlaced: lambda s, e: replace(s, chits=e.chits),
    PileShuffled: lambda s, e: replace(s, piles={**s.piles, e.pile: tuple(e.cards or ())}),
    LuminariesMoved: _moved,
    SlotPlanned: _planned,
    ChoiceCommitted: lambda s, e: replace(
        s, choices=s.choices.commit(e.seat, tuple(e.choice or ()))
    ),
    ChoicesRevealed: _choices_revealed,
    OffersRevealed: lambda s, e: replace(s, choices=SecretChoices(frozenset())),
    StacksLocked: _locked,
    StackRevealed: _revealed,
    ActionDeclared: lambda s, e: s,
    CoinsChanged: lambda s, e: _player(s, e.seat, coins=s.players[e.seat].coins + e.delta),
    PrestigeChanged: lambda s, e: _player(s, e.seat, score=s.players[e.seat].score + e.delta),
    DiplomacyChanged: _diplomacy,
    StageSet: _stage,
    CursorSet: lambda s, e: replace(s, slot=e.slot, queue=e.queue),
    CombatSet: lambda s, e: replace(s, combat=e.combat),
    DiceRolled: lambda s, e: s,
    DieRerolled: lambda s, e: s,
    CombatResolved: lambda s, e: s,
    CityTaken: _city,
    CitiesAbandoned: _abandoned,
    MarkerMoved: _marker,
    MedallionTaken: _medallion,
    ReligionShifted: lambda s, e: replace(s, religion=e.to),
    CensusJoined: lambda s, e: replace(s, census=(*s.census, e.seat)),
    CensusResolved: lambda s, e: s,
    ShortfallSet: lambda s, e: replace(s, shortfall=e.shortfall),
    TurnOrderSet: lambda s, e: replace(s, order=e.order),
    ScoringApplied: lambda s, e: s,
    PlayerEliminated: _eliminated,
    ExtraPickGranted: lambda s, e: _player(
        s, e.seat, extra_picks=s.players[e.seat].extra_picks + 1
    ),
    DraftOwed: lambda s, e: replace(s, owed=e.owed),
    DraftPickForgone: lambda s, e: s,
    PowerUsed: lambda s, e: _player(s, e.seat, russia_used=True),
    TurnBegan: _turn_began,
    GameEnded: lambda s, e: replace(s, ranking=e.ranking, stage=_OVER),
}


def evolve(state: State, event: Event) -> State:
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not a Road to Enlightenment event: {event!r}")
    return handler(state, event)
