"""The narrator: one sentence per event in the rulebook's words, for one reader.

Players are named with their nation ("Ann (France)"), luminaries, cities and medallions by
their printed names, action slots and track spaces as the board numbers them (from 1).
Bookkeeping (the stage the game waits for, the slot cursor, the combat record, shortfall and
draft-debt counters, census membership, a player's tentative phase-1 placements) has no line:
the events that matter to a player say it all. How a reader names seats, nations and zones is
``glossary.Reader``; the score sheet of the result is in ``game.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..narration import Names, join_words, plural
from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from ..viewers import Viewer
from . import events as E
from .content import CATH, content
from .events import Event
from .glossary import Reader, zone
from .state import RerollReason, StageKind, State

__all__ = ["QUIET", "narrate", "prompt", "summary", "table_names"]

QUIET: tuple[type, ...] = (
    E.StageSet,
    E.CursorSet,
    E.CombatSet,
    E.ShortfallSet,
    E.DraftOwed,
    E.CensusJoined,
    E.SlotPlanned,
)
"""Bookkeeping events: no log line."""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


_COIN_REASONS = {
    "tax": "with a luminary's Tax",
    "colony": "from a colony",
    "gift": "for the gift",
    "attack": "to support the attack",
    "parley": "for the parley",
    "defense": "to support the defense",
    "support": "to support the battle",
    "plunder": "as plunder",
    "income": "as income",
    "upkeep": "for upkeep",
    "upkeep help": "to help an ally with upkeep",
    "treasury limit": "above the treasury limit",
}
_PRESTIGE_REASONS = {
    "patron": "as a patron",
    "colony": "from a colony",
    "gift": "for the gift exchange",
    "scoring": "at the scoring",
    "upkeep shortfall": "for unpaid upkeep",
    "religion track wrap": "as the religion marker wraps around",
    "SCI track wrap": "for wrapping around the science track",
    "ART track wrap": "for wrapping around the art track",
}
_CAUSES = {
    "ADVANCE": "",
    "CENSUS": " in the census",
    "BUMP": ", bumped",
    "WESTERNIZATION": " with Westernization",
    "SETBACK": ", set back",
}


def summary(scores: Sequence[int], ranking: Sequence[int], labels: Sequence[str]) -> str:
    """The winner in one sentence, naming nations as the lobby does."""
    if not ranking:
        return "The game is over"
    w = ranking[0]
    return f"{labels[w]} wins with {scores[w]} prestige"


def narrate(event: Event, names: Names) -> str | None:
    if isinstance(event, QUIET):
        return None
    text = _sentence(event, Reader(names))
    return None if text is None else _cap(text)


def _sentence(event: Event, r: Reader) -> str | None:
    w = r.w
    seat = r.seat
    match event:
        case E.NationsAssigned(nations=nations, method=method):
            who = join_words(seat(s) for s in range(len(nations)))
            if method == "RANDOM":
                return f"The nations are dealt at random: {who}"
            return f"The nations: {who}"
        case E.ChitsPlaced(chits=chits):
            turns = [f"turn {t} {w.chit(c)}" for t, c in enumerate(chits, 1) if c != "NONE"]
            return f"The event chits: {join_words(turns)}"
        case E.PileShuffled(pile=pile, count=n):
            verb = "is" if pile.startswith("pile:") else "are"
            return f"{_cap(zone(w, pile))} {verb} shuffled ({plural(n, 'card')})"
        case E.LuminariesMoved(seat=s, cards=cards, count=n, src=src, dst=dst, reason=why):
            return _moved(r, s, cards, n, src, dst, why)
        case ChoiceCommitted(seat=s, choice=choice):
            if choice and all(":" in c for c in choice):
                slots: dict[str, list[str]] = {}
                for entry in choice:
                    slot, _, card = entry.partition(":")
                    slots.setdefault(slot, []).append(w.card(card))
                plan = "; ".join(f"slot {k}: {join_words(v)}" for k, v in sorted(slots.items()))
                return f"{seat(s)} seals the plan: {plan}"
            if choice == ("yes",) or choice == ("no",):
                return f"{seat(s)} {'accepts' if choice[0] == 'yes' else 'declines'} the exchange"
            if choice and len(choice) == 1 and choice[0] in content().luminaries:
                return f"{seat(s)} seals an exchange offer: {w.card(choice[0])}"
            if choice and len(choice) == 2 and any(choice):
                counted = [
                    f"{religion} as {w.stat(v)}"
                    for religion, v in zip(("Catholicism", "Anti-Catholicism"), choice, strict=True)
                    if v
                ]
                return f"{seat(s)} will count {join_words(counted)}"
            return f"{seat(s)} seals a secret choice"
        case ChoicesRevealed(choices=choices):
            return _revealed(r, choices)
        case E.StacksLocked(counts=counts):
            stacks = [
                f"{seat(s)} {join_words(str(n) for n in c)}" for s, c in enumerate(counts) if c
            ]
            return f"The action slots are sealed, luminaries per slot: {'; '.join(stacks)}"
        case E.StackRevealed(seat=s, slot=slot, cards=cards):
            if not cards:
                return f"{seat(s)} reveals an empty action slot {slot}"
            return f"{seat(s)} reveals action slot {slot}: {w.cards(cards)}"
        case E.ActionDeclared(
            seat=s,
            slot=slot,
            action=action,
            card=card,
            enhancement=enh,
            target=target,
            route=route,
            victim=victim,
        ):
            extra = f", enhanced by {w.card(enh)}" if enh else ""
            where = f" (action slot {slot})"
            if action == "ATTACK" and target:
                by = f" {w.raw['routes'][route]}" if route in w.raw["routes"] else ""
                return f"{seat(s)} attacks {w.city(target)}{by}{extra}{where}"
            if action == "DIPLOMACY":
                return f"{seat(s)} takes a diplomacy action{where}"
            if action == "REORGANIZE":
                return f"{seat(s)} reorganizes{extra}{where}"
            if action == "CENSUS":
                return f"{seat(s)} supports this turn's census{where}"
            if card:
                against = f" against {seat(victim)}" if victim >= 0 else ""
                return f"{seat(s)} uses the action of {w.card(card)}{against}{extra}{where}"
            return f"{seat(s)} takes an action{where}"
        case E.CoinsChanged(seat=s, delta=d, reason=why):
            because = _COIN_REASONS.get(why, "")
            tail = f" {because}" if because else ""
            if why == "treasury limit":
                return f"{seat(s)} loses {plural(-d, 'coin')}{tail}"
            verb = "gains" if d >= 0 else "pays"
            return f"{seat(s)} {verb} {plural(abs(d), 'coin')}{tail}"
        case E.PrestigeChanged(seat=s, delta=d, reason=why):
            because = _PRESTIGE_REASONS.get(why, "")
            tail = f" {because}" if because else ""
            verb = "gains" if d >= 0 else "loses"
            return f"{seat(s)} {verb} {abs(d)} prestige{tail}"
        case E.DiplomacyChanged(a=a, b=b, status=st, reason=why):
            if st == "ALLY":
                return f"{r.nation(a)} and {r.nation(b)} forge an alliance"
            if st == "WAR":
                how = " (casus belli)" if why == "casus belli" else ""
                return f"{r.nation(a)} declares war on {r.nation(b)}{how}"
            because = ": one helped the other's enemy" if why == "helped the other side" else ""
            return f"The alliance of {r.nation(a)} and {r.nation(b)} is broken{because}"
        case E.DiceRolled(purpose=p, values=v, side=side):
            rolled = join_words(str(x) for x in v)
            if p == "RELIGION_MINORITY":
                return f"The {w.religion(side)} minority rolls 3 dice: {rolled}"
            return f"Defense dice: {rolled}" if v else "No defense dice are rolled"
        case E.DieRerolled(seat=s, reason=why, old=old, new=new):
            because = (
                "with Winged Hussars" if why == RerollReason.POLAND else "for having more ideas"
            )
            return f"{seat(s)} rerolls a {old} {because}: {new}"
        case E.CombatResolved(
            city=city, attack=a, defense=d, winner=win, mode=mode, negotiation=neg
        ):
            name = w.city(city)
            if mode == "CANCELLED":
                return f"The attack on {name} is called off"
            if mode == "NEGOTIATION":
                talk = f" (politics {neg[0]} against {neg[1]})" if len(neg) >= 2 else ""
                return (
                    f"Battle for {name}: attack {a} against defense {d} is too close: "
                    f"a negotiation{talk}, won by "
                    f"{'the neutral defenders' if win == 'NEU' else r.nation(win)}"
                )
            how = "triumphs" if mode == "TRIUMPH" else "wins by force"
            victor = "the neutral defenders" if win == "NEU" else r.nation(win)
            verb = "win by force" if win == "NEU" else how
            return f"Battle for {name}: attack {a} against defense {d}; {victor} {verb}"
        case E.CityTaken(city=city, occupant=occ, reason=why):
            if occ is None:
                home = content().cities[city].home
                return f"{w.city(city)} returns to {r.nation(home)}"
            return f"{w.city(city)} now belongs to {r.nation(occ)}"
        case E.CitiesAbandoned(seat=s, cities=cities):
            return f"{seat(s)} abandons {join_words(w.city(c) for c in cities)}"
        case E.MarkerMoved(seat=s, track=t, to=to, cause=cause):
            where = f"space {to}" if to else "off the track"
            return f"{seat(s)}'s {w.track(t)} marker moves to {where}{_CAUSES.get(cause, '')}"
        case E.MedallionTaken(medallion=m, seat=s):
            if s < 0:
                return f"{_cap(w.medallion(m))} returns to its space"
            return f"{seat(s)} takes {w.medallion(m)}"
        case E.ReligionShifted(to=to, toward=toward):
            if to == 0:
                where = "the centre"
            else:
                side = w.religion(CATH if to < 0 else "ANTI")
                where = f"space {abs(to)} on the {side} side"
            return f"The religion marker moves toward {w.religion(toward)}: {where}"
        case E.CensusResolved(kind=kind, contributions=contrib, steps=steps):
            name = w.raw["census"].get(kind, "The census")
            given = join_words(f"{seat(s)} {v}" for s, v in contrib) if contrib else "nobody"
            moved = [f"{seat(s)} {plural(n, 'step')}" for s, n in steps if n]
            tail = f"; advancing: {join_words(moved)}" if moved else ""
            return f"{name}: support {given}{tail}"
        case E.OffersRevealed(seat=a, offer=oa, other=b, other_offer=ob, hidden=hidden):
            if hidden:
                return f"{seat(a)} and {seat(b)} see each other's exchange offers"
            offer_a = w.card(oa) if oa else "nothing"
            offer_b = w.card(ob) if ob else "nothing"
            return f"Exchange offers: {seat(a)} offers {offer_a}, {seat(b)} offers {offer_b}"
        case E.TurnOrderSet(order=order, bids=bids):
            bid = dict(bids)
            who = join_words((f"{seat(s)} (bid {bid[s]})" if s in bid else seat(s)) for s in order)
            return f"The new turn order: {who}"
        case E.ScoringApplied(deltas=deltas):
            parts = join_words(f"{seat(s)} {d:+d}" for s, d in deltas)
            return f"Scoring: {parts}"
        case E.PlayerEliminated(seat=s, cause=cause):
            why = (
                "it could not pay its upkeep"
                if cause == "UPKEEP"
                else "it no longer holds any of its starting cities"
            )
            return f"{seat(s)} is eliminated: {why}"
        case E.ExtraPickGranted(seat=s):
            return f"{seat(s)} will draft 1 extra luminary at the end of this turn"
        case E.DraftPickForgone(seat=s):
            return f"{seat(s)} can take no luminary and forgoes a draft pick"
        case E.PowerUsed(seat=s, power=p):
            entry = w.raw["nation_powers"].get(p)
            return f"{seat(s)} uses {entry['name'] if entry else 'a nation power'}"
        case E.TurnBegan(turn=t):
            return f"Turn {t} begins"
        case E.GameEnded(scores=scores, ranking=ranking):
            return f"Game over: {summary(scores, ranking, r.names.labels)}"
    return None


def _moved(
    r: Reader, s: int, cards: Sequence[str] | None, n: int, src: str, dst: str, why: str
) -> str:
    w = r.w
    who = r.seat(s) if s >= 0 else ""
    what = r.cards(cards, n)
    if why in ("deal", "favorite dealt"):
        if cards:
            return f"{who} is dealt {what}"
        if why == "favorite dealt":
            return f"{who} is dealt {plural(n, 'favorite')}"
        return f"{who} is dealt {plural(n, 'lesser luminary', 'lesser luminaries')}"
    if why == "unused favorites":
        return f"The {plural(n, 'unused favorite')} go back to the box unseen"
    if why == "face up":
        return f"New face-up {w.colour(dst[4:])} luminaries: {what}"
    if why == "returned":
        return f"The undrafted {w.colour(src[4:])} luminaries go under their deck: {what}"
    if why == "draw":
        return f"{who} draws {what}"
    if why == "reshuffle":
        return f"{who} shuffles the discard pile into a new draw deck"
    if why == "shuffled":  # a fork's fresh randomness (game.fork_reshuffle_events)
        return f"{who}'s draw deck is shuffled"
    if why == "exhausted":
        where = "onto the nation mat" if dst == "mat" else "to the discard pile"
        return f"{who} exhausts {what} {where}"
    if why == "removed":
        if dst == "box":
            return f"The luminaries {who} removed go back to the box: {what}"
        picks = "an extra draft pick" if n == 1 else "an extra draft pick each"
        return f"{who} removes {what} from play ({picks})"
    if why == "arrested":
        return f"{who} puts {what} into the box (arrested)"
    if why == "exchange":
        if dst == "box":
            return f"{who} gives {what} from the discard pile"
        return f"{who} takes {what} into hand"
    if why == "drafted":
        return f"{who} drafts {what}"
    if why == "reclaimed":
        return f"{who} takes {what} back into hand from the nation mat"
    if why == "reorganize peek":
        return f"{who} looks at the top {plural(n, 'card')} of the draw deck" + (
            f": {what}" if cards else ""
        )
    if why == "reorganize pick":
        return f"{who} takes {what} into hand"
    if why == "to bottom":
        return f"{who} puts {plural(n, 'card')} under the draw deck in a random order"
    if why == "defending stack":
        return f"{who} defends with {what}"
    if why == "eliminated":
        lost = plural(n, "luminary", "luminaries")
        return f"{lost} of {who or 'the fallen nation'} leave the game"
    return f"{who} moves {what} from {zone(w, src)} to {zone(w, dst)}".strip()


def _revealed(r: Reader, choices: Sequence[tuple[int, Sequence[str]]]) -> str:
    w = r.w
    values = {v for _, c in choices for v in c}
    if values <= {"yes", "no"}:
        said = join_words(
            f"{r.seat(s)} {'accepts' if c and c[0] == 'yes' else 'declines'}" for s, c in choices
        )
        return f"The exchange decisions: {said}"
    parts = []
    for s, c in choices:
        cath, anti = [*c, "", ""][:2]
        if cath:
            parts.append(f"{r.seat(s)} counts Catholicism as {w.stat(cath)}")
        if anti:
            parts.append(f"{r.seat(s)} counts Anti-Catholicism as {w.stat(anti)}")
    if parts:
        return f"Sealed choices revealed: {'; '.join(parts)}"
    return "The sealed choices are revealed"


def table_names(state: State, viewer: Viewer) -> Names:
    """The seats by nation (a view has no player names)."""
    c = content()
    return Names(tuple(c.nations[p.nation].name for p in state.players), (), viewer)


def prompt(state: State, viewer: Viewer) -> str:
    """What the game waits for, in one sentence for ``viewer``."""
    from .legal import to_act

    r = Reader(table_names(state, viewer))
    w = r.w
    st = state.stage
    kind = st.kind
    if kind == StageKind.OVER:
        return "Game over: " + summary(
            tuple(p.score for p in state.players), state.ranking, r.names.labels
        )
    acting = sorted(to_act(state))
    me = viewer.seat
    mine = me is not None and me in acting
    waiting = join_words(r.seat(s) for s in acting) if acting else "nobody"
    one = r.seat(st.seat) if st.seat >= 0 else waiting
    combat = state.combat
    city = w.city(combat.city) if combat is not None else "the city"
    attacker = r.seat(combat.attacker) if combat is not None else one
    census = 0 < state.turn <= len(state.chits) and state.chits[state.turn - 1] in (
        "SCIENCE",
        "ART",
        "RELIGION",
    )
    if kind == StageKind.ASSIGN:
        if mine:
            return (
                "Place luminaries face down in your 3 action slots (any number in each), "
                "then confirm"
            )
        return f"Waiting for {waiting} to plan their action slots"
    if kind == StageKind.DECLARE:
        if mine:
            census_too = " or support the census" if census and state.slot == 2 else ""
            return (
                f"Action slot {state.slot}: attack, diplomacy, reorganize, a luminary's "
                f"action{census_too}"
            )
        return f"{one} reveals action slot {state.slot} and declares an action"
    texts: dict[StageKind, tuple[str, str]] = {
        StageKind.WAR: (
            f"Exhaust 5 politics from the attacking stack to declare war for {city}",
            f"{attacker} must pay 5 politics to declare war",
        ),
        StageKind.RESPOND: (
            f"You are attacked at {city}: play response luminaries from your hand, or none",
            f"{one} may respond to the attack on {city}",
        ),
        StageKind.PARLEY: (
            "Parley: pay the defender 3 coins, or the attack is called off",
            f"{one} decides whether to pay for the parley",
        ),
        StageKind.DEFEND: (
            f"Defend {city}: add luminaries from your hand to the defending stack, then coins",
            f"{one} builds a defending stack for {city}",
        ),
        StageKind.SUPPORT: (
            f"Support the attacker or the defender of {city} with luminaries and coins, or pass",
            f"{one} may support a side in the battle for {city}",
        ),
        StageKind.REROLL: ("You may reroll one defense die", f"{one} may reroll a defense die"),
        StageKind.FORGE: (
            "Diplomacy: forge a new alliance (exhaust 5 politics), or skip",
            f"{one} may forge an alliance",
        ),
        StageKind.GIFT: (
            "Diplomacy: exchange gifts with an ally (5 ideas, 5 art and 5 coins), or skip",
            f"{one} may exchange gifts with an ally",
        ),
        StageKind.OFFER: (
            "Offer a lesser luminary from your discard pile for the exchange, or none",
            f"Waiting for {waiting} to make exchange offers",
        ),
        StageKind.ACCEPT: (
            "Accept the exchange of luminaries, or decline it",
            f"Waiting for {waiting} to decide on the exchange",
        ),
        StageKind.REORGANIZE: (
            "Reorganize: take one of the luminaries you see into your hand, or none",
            f"{one} reorganizes the draw deck",
        ),
        StageKind.ARREST: (
            "Arrested: choose a lesser luminary from your hand to put into the box",
            f"{one} chooses a luminary to lose",
        ),
        StageKind.RUSSIA: (
            "Westernization: advance your science or art marker by 1, or not",
            f"{one} may use Westernization",
        ),
        StageKind.PHASE3: (
            "Choose how your religious stat counts in action slot 3",
            f"Waiting for {waiting} to choose how their religious stat counts",
        ),
        StageKind.HELP: (
            f"{r.seat(st.other) if st.other >= 0 else 'An ally'} is short of coins for "
            "upkeep: help with coins, or not",
            f"{one} may help with upkeep",
        ),
        StageKind.ABANDON: (
            f"Upkeep unpaid: choose a foreign city to abandon ({st.n} more)",
            f"{one} abandons foreign cities",
        ),
        StageKind.DRAFT: ("Draft a face-up lesser luminary", f"{one} drafts a luminary"),
        StageKind.REFILL: (
            "Take favorites from your nation mat back into your hand; the rest is drawn",
            f"Waiting for {waiting} to refill their hands",
        ),
    }
    yours, theirs = texts.get(kind, ("Make your choice", f"Waiting for {waiting}"))
    return yours if mine else theirs
