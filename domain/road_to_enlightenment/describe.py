"""One line in words per event, for the game log."""

from __future__ import annotations

from typing import Any

from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from .content import content
from .events import (
    ActionDeclared,
    CensusResolved,
    CitiesAbandoned,
    CityTaken,
    CoinsChanged,
    CombatResolved,
    DiceRolled,
    DieRerolled,
    DiplomacyChanged,
    GameEnded,
    LuminariesMoved,
    MarkerMoved,
    MedallionTaken,
    PlayerEliminated,
    PrestigeChanged,
    ReligionShifted,
    StackRevealed,
    StacksLocked,
    TurnBegan,
    TurnOrderSet,
)

__all__ = ["describe_event"]


def _seat(seat: int) -> str:
    return f"seat {seat + 1}"


def _name(card: str) -> str:
    lum = content().luminaries.get(card)
    return lum.name if lum else card


def describe_event(event: Any) -> str:
    match event:
        case LuminariesMoved(seat=seat, cards=cards, count=n, src=src, dst=dst, reason=why):
            what = ", ".join(_name(c) for c in cards) if cards else f"{n} card(s)"
            who = f"{_seat(seat)}: " if seat >= 0 else ""
            return f"{who}{what} {src} -> {dst}" + (f" ({why})" if why else "")
        case ChoiceCommitted(seat=seat):
            return f"{_seat(seat)} commits a sealed choice"
        case ChoicesRevealed(choices=choices):
            return "revealed: " + "; ".join(f"{_seat(s)} {' '.join(c) or '-'}" for s, c in choices)
        case StacksLocked(counts=counts):
            return "action slots locked: " + ", ".join(
                f"{_seat(i)} {list(c)}" for i, c in enumerate(counts)
            )
        case StackRevealed(seat=seat, slot=slot, cards=cards):
            return f"{_seat(seat)} reveals slot {slot}: " + (
                ", ".join(_name(c) for c in cards) or "empty"
            )
        case ActionDeclared(seat=seat, slot=slot, action=action, target=target):
            return f"{_seat(seat)} declares {action} in slot {slot}" + (
                f" on {target}" if target else ""
            )
        case CoinsChanged(seat=seat, delta=d, reason=why):
            return f"{_seat(seat)} {'gains' if d >= 0 else 'pays'} {abs(d)} coin(s) ({why})"
        case PrestigeChanged(seat=seat, delta=d, reason=why):
            return f"{_seat(seat)} {'gains' if d >= 0 else 'loses'} {abs(d)} prestige ({why})"
        case DiplomacyChanged(a=a, b=b, status=st):
            return f"{a}-{b} now {st}"
        case DiceRolled(purpose=p, values=v):
            return f"{p.lower()} dice: {list(v)}"
        case DieRerolled(seat=seat, reason=r, old=o, new=n):
            return f"{_seat(seat)} rerolls a {o} ({r.lower()}): {n}"
        case CombatResolved(city=city, attack=a, defense=d, winner=w, mode=m):
            return f"battle for {city}: {a} vs {d}, {w} wins ({m.lower()})"
        case CityTaken(city=city, occupant=occ):
            return f"{city} now held by {occ or content().cities[city].home}"
        case CitiesAbandoned(seat=seat, cities=cities):
            return f"{_seat(seat)} abandons {', '.join(cities)}"
        case MarkerMoved(seat=seat, track=t, to=to, cause=cause):
            return f"{_seat(seat)} {t} marker to {to} ({cause.lower()})"
        case MedallionTaken(medallion=m, seat=seat):
            return f"{m} to {_seat(seat) if seat >= 0 else 'its space'}"
        case ReligionShifted(to=to):
            return f"religion marker to {to}"
        case CensusResolved(kind=k):
            return f"{k.lower()} census resolved"
        case TurnOrderSet(order=order):
            return "turn order: " + ", ".join(_seat(s) for s in order)
        case PlayerEliminated(seat=seat, cause=cause):
            return f"{_seat(seat)} is eliminated ({cause.lower()})"
        case TurnBegan(turn=t):
            return f"turn {t} begins"
        case GameEnded(ranking=r):
            return f"game over: {_seat(r[0])} wins"
    return type(event).__name__
