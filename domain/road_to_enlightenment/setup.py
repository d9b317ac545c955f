"""Set-up (§1): nations, chits, favorites, the rows and the starting hands."""

from __future__ import annotations

from ..randomness import Rng
from .content import (
    CATH,
    COLORS,
    content,
    forbidden_color,
)
from .draft import start_assign
from .effects import Tx
from .events import (
    ChitsPlaced,
    Event,
    LuminariesMoved,
    NationsAssigned,
    PileShuffled,
)
from .state import State, religion_of

__all__ = ["fork_reshuffle_events", "setup_events"]


# -- set-up -----------------------------------------------------------------------------------
def setup_events(state: State, rng: Rng) -> list[Event]:
    c = content()
    tx = Tx(state, rng)
    nations = c.nations_for(state.players_n)
    if state.nations == "random":
        # "If players can't agree, assign them randomly" (§6 R1): the permutation is recorded.
        tx.emit(NationsAssigned(rng.shuffled(nations), "RANDOM"))
    else:
        tx.emit(NationsAssigned(nations))
    chit_rules = c.rules["chits"][state.length]
    chits = ["NONE"] * state.final_turn
    for t, v in chit_rules["fixed"].items():
        chits[int(t) - 1] = v
    for key, turns in (("early", chit_rules["early_turns"]), ("later", chit_rules["later_turns"])):
        if turns:
            perm = rng.shuffled(c.rules["chits"][key])
            for t, v in zip(turns, perm, strict=True):
                chits[t - 1] = v
    tx.emit(ChitsPlaced(tuple(chits)))
    lums = c.luminaries.values()
    pools = {
        "fav:PURPLE": ("PURPLE",),
        "fav:PINK": ("PINK",),
        "fav:REDBLUE": ("RED", "BLUE"),
        "fav:ORANGEGREEN": ("ORANGE", "GREEN"),
    }
    for pool, colors in pools.items():
        cards = tuple(x.id for x in lums if x.favorite and x.color in colors)
        order = rng.shuffled(cards)
        tx.emit(PileShuffled(pool, order, len(order)))
    order_seats = tx.state.order
    for step in ("religion", "fav:REDBLUE", "fav:ORANGEGREEN"):
        for seat in order_seats:
            pool = step
            if step == "religion":
                pool = "fav:PURPLE" if religion_of(tx.state, seat) == CATH else "fav:PINK"
            card = tx.state.piles[pool][0]
            tx.emit(LuminariesMoved(seat, (card,), 1, pool, "hand", "owner", "favorite dealt"))
    for pool in pools:
        rest = tx.state.piles[pool]
        tx.emit(LuminariesMoved(-1, rest, len(rest), pool, "vault", "server", "unused favorites"))
    for color in COLORS:
        cards = tuple(x.id for x in lums if not x.favorite and x.color == color)
        order = rng.shuffled(cards)
        tx.emit(PileShuffled(f"pile:{color}", order, len(order)))
    for color in COLORS:
        top = tx.state.piles[f"pile:{color}"][:2]
        tx.emit(
            LuminariesMoved(-1, top, len(top), f"pile:{color}", f"row:{color}", "public", "face up")
        )
    for seat in order_seats:
        banned = forbidden_color(religion_of(tx.state, seat))
        for color in COLORS:
            if color == banned:
                continue
            top = tx.state.piles[f"pile:{color}"][:1]
            tx.emit(LuminariesMoved(seat, top, len(top), f"pile:{color}", "hand", "owner", "deal"))
    start_assign(tx)
    return tx.events


def fork_reshuffle_events(state: State, rng: Rng) -> list[Event]:
    """A fork's fresh randomness: every lesser deck and every personal draw deck shuffled
    again (their order is secret even from the owners). The face-up rows, hands, discards,
    a Reorganize's peeked cards and the unseen favorites in the box stay."""
    tx = Tx(state, rng)
    for pile, cards in sorted(state.piles.items()):
        if len(cards) > 1:
            tx.emit(PileShuffled(pile, rng.shuffled(cards), len(cards)))
    for seat, p in enumerate(state.players):
        if len(p.deck) > 1:
            order = rng.shuffled(p.deck)
            tx.emit(LuminariesMoved(seat, order, len(order), "deck", "deck", "server", "shuffled"))
    return tx.events
