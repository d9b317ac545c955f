"""A greedy bot: it plans each turn's line by playing the turn out, and otherwise looks one
ply ahead on the public score, with cheap tie-breakers.

It sees only its seat's view. To look one ply ahead it rebuilds a state from that view
(:func:`public_state`): everything public as shown, and the pieces the seat cannot see
(the face-down tile stacks, the Scriptorium decks, the other hand) filled with the
components not visible anywhere, in an order of its own (a guess, never the real order),
and no Crusade for the other side. A simulated command that would reveal a hidden piece
(a refill from the stacks, a card drawn) therefore shows the bot a guess, as a player
would have to guess."""

from __future__ import annotations

from typing import Any

from ..bots import SeatView
from ..randomness import Context, Rng
from . import commands as cmd
from .content import CONTENT
from .decide import decide_turn
from .legal import legal_commands
from .scoring import breakdown
from .state import Book, Mode, Pending, PendingKind, Phase, Player, State

__all__ = ["GreedyBot", "public_state"]

TILES = CONTENT.tiles
PASS_PENALTY = 1.5
SIDES = {"REV": 0, "IRR": 1}


def public_state(view: dict[str, Any], rng: Rng) -> State:
    """A state that shows exactly what ``view`` shows; unseen pieces are ``rng``'s guess.

    Only the view is read: the tile stacks are the side's tiles seen nowhere (on a Book, a
    margin, an archway, a Sheep Pen, under gold leaf, in the box), cut into stacks of the
    printed height; a deck is the side's cards seen nowhere (the other hand likewise).
    """
    seen_tiles: set[str] = set()
    facedown: set[str] = set()
    gold: list[tuple[str, tuple[str, ...]]] = []

    def tile(t: dict[str, Any] | None) -> str | None:
        if t is None:
            return None
        seen_tiles.add(t["id"])
        seen_tiles.update(t["gold_leaf"])
        if not t["faceup"]:
            facedown.add(t["id"])
        if t["gold_leaf"]:
            gold.append((t["id"], tuple(t["gold_leaf"])))
        return str(t["id"])

    books = []
    active: list[tuple[str, int]] = []
    for b in view["books"]:
        cells = tuple(tile(c["tile"]) for c in b["cells"])
        drollery = next(i for i, c in enumerate(b["cells"]) if c["drollery"])
        completed = b["completed_by"]
        books.append(
            Book(
                layout=b["layout"],
                drollery=drollery,
                cells=cells,
                closed=b["closed"],
                completed_by=None if completed is None else SIDES[completed],
            )
        )
        active += [(t, b["pos"]) for t in (tile(m) for m in b["margin"]) if t is not None]
    pending = view["pending"]
    lifted = None
    if pending is not None and pending["tile"] is not None:
        lifted = tile(pending["tile"])
    mine = view["you"]
    players = []
    for side, pv in enumerate(view["players"]):
        archways = tuple(tile(t) for row in pv["archways"] for t in row)
        pen = tuple(t for t in (tile(x) for x in pv["sheep_pen"]) if t is not None)
        seen_tiles.update(pv["boxed"])
        players.append((side, pv, archways, pen))
    out = []
    for side, pv, archways, pen in players:
        unseen = [t for t in CONTENT.tile_ids[side] if t not in seen_tiles]
        unseen = list(rng.shuffled(unseen))
        h = CONTENT.stack_height
        stacks = tuple(tuple(unseen[i * h : (i + 1) * h]) for i in range(pv["stacks_remaining"]))
        hand = tuple(pv["hand"] or ())
        cards = [c for c in CONTENT.cards[side] if c not in hand and c not in pv["discard"]]
        cards = list(rng.shuffled(cards))
        if pv["hand"] is None:  # the other side's hand: a guess of the right size
            hand, cards = tuple(cards[: pv["hand_count"]]), cards[pv["hand_count"] :]
        monk = pv.get("monk")
        extra: dict[str, Any] = {}
        if monk is not None:
            extra = {
                "track": tuple(monk["track"][r] for r in CONTENT.rituals),
                "pending_gold": tuple(monk["pending_gold_leaf"]),
                "books_completed": tuple(monk["books_completed"]),
                "last_die": monk["last_die"],
                "card_box": CONTENT.cards[side],
            }
        out.append(
            Player(
                side=side,
                human=pv["human"],
                coins=pv["coins"],
                tokens=tuple(pv["tokens"][r] for r in CONTENT.rituals),
                archways=archways,
                stacks=stacks,
                sheep_pen=pen,
                hand=hand if pv["human"] else (),
                deck=tuple(cards[: pv["deck_count"]]),
                discard=tuple(pv["discard"]),
                crusade=pv["crusade"] if pv["side"] == mine else None,
                markers=pv["markers"],
                passed=pv["passed"],
                boxed=tuple(pv["boxed"]),
                **extra,
            )
        )
    you = SIDES[mine] if mine is not None else 0
    monastery = view["monastery"]
    result = view["result"]
    return State(
        mode=Mode(view["mode"]),
        human_side=you if Mode(view["mode"]) is Mode.SOLO else 0,
        difficulty=view["difficulty"] or 0,
        books_option="",
        players=(out[0], out[1]),
        phase=Phase(view["phase"]),
        books=tuple(books),
        facedown=frozenset(facedown),
        gold=tuple(gold),
        abbot=monastery["abbot"],
        ritual_spaces=tuple(
            None if r["owner"] is None else SIDES[r["owner"]] for r in monastery["ritual_spaces"]
        ),
        book_spaces=tuple(None if o is None else SIDES[o] for o in monastery["book_spaces"]),
        battle=tuple((b["REV"], b["IRR"]) for b in view["battle_cards"]),
        supply=tuple(view["supply"][r] for r in CONTENT.rituals),
        turn=SIDES[view["turn"]],
        turn_no=view["turn_no"],
        line_chosen=view["line_chosen"],
        acted=Phase(view["phase"]) is Phase.PLAY and not view["can_pass"],
        active=tuple(active),
        discarding=view["discarding"],
        pending=None
        if pending is None
        else Pending(
            kind=PendingKind(pending["kind"]),
            side=SIDES[pending["side"]],
            tile=lifted,
            pos=pending["pos"],
            origin_pos=pending["origin"][0],
            origin_cell=pending["origin"][1] * 5 + pending["origin"][2],
        ),
        lifted=lifted
        if pending is not None and PendingKind(pending["kind"]) is PendingKind.EXILE
        else None,
        final=None if result is None else tuple(result["scores"][k] for k in SIDES),
        winners=() if result is None else tuple(SIDES[k] for k in result["winners"]),
    )


def evaluate(state: State, side: int) -> float:
    """Own score minus the opponent's (without the opponent's secret Crusade)."""
    mine = sum(breakdown(state, side))
    theirs = sum(breakdown(state, 1 - side, with_crusade=not state.players[1 - side].human))
    p = state.players[side]
    # Tiles waiting on a closed Book's margin are Sheep Pen points lost unless moved.
    stranded = sum(
        1 for t, pos in state.active if state.books[pos].closed and TILES[t].side == side
    )
    # Coins and tokens are worth a little: they buy rituals, moves and cards.
    return mine - theirs - stranded + 0.3 * p.coins + 0.4 * sum(p.tokens) + 0.2 * len(p.hand)


ROLLOUT_STEPS = 24
"""A turn is a line and its tiles (a dozen commands at most); the cap only guards a loop."""


class GreedyBot:
    """Plans each turn's line by playing the turn out; places one ply deep; never wastes turns.

    Valuing a line by the state right after choosing it sees only tiles on a margin, so the
    line (or the pass) is judged instead by playing the rest of the turn out with the
    one-ply policy on the rebuilt state (the refill drawn from the bot's guess) and valuing
    the state where the turn ends. Every other command is chosen one ply deep."""

    name = "greedy"

    def choose(self, seen: SeatView, rng: Rng) -> cmd.Command:
        legal: list[cmd.Command] = list(seen.legal)
        state = public_state(seen.view, Rng(rng.randint(0, 2**31)))
        side = state.side_of(seen.seat)
        lines = any(isinstance(c, cmd.ChooseLine) for c in legal)
        claims = any(isinstance(c, cmd.ClaimRitual) for c in legal)
        if lines and not claims and _abbot_move(state, side, legal) is None:
            return _plan_turn(state, seen.seat, legal, rng)
        return _pick(state, seen.seat, legal, rng)


def _plan_turn(state: State, seat: int, legal: list[cmd.Command], rng: Rng) -> cmd.Command:
    """The line (or the pass) whose turn, played out one ply at a time, ends best."""
    side = state.side_of(seat)
    options: list[cmd.Command] = [c for c in legal if isinstance(c, cmd.ChooseLine)]
    if cmd.Pass() in legal:
        options.append(cmd.Pass())
    seed = rng.randint(0, 2**31)
    best: list[cmd.Command] = []
    best_value = float("-inf")
    for command in options:
        sim = Rng(seed)  # every line meets the same guesses: compare lines, not luck
        after = _play(state, seat, command, sim)
        if after is None:
            continue
        for _ in range(ROLLOUT_STEPS):
            if _acting(after) != side or after.turn_no != state.turn_no:
                break
            moves: list[cmd.Command] = list(legal_commands(after, seat))
            nxt = _play(after, seat, _pick(after, seat, moves, sim), sim) if moves else None
            if nxt is None:
                break
            after = nxt
        value = evaluate(after, side)
        if isinstance(command, cmd.Pass):
            value -= PASS_PENALTY  # pass only when every line would lose points
        if value > best_value + 1e-9:
            best, best_value = [command], value
        elif abs(value - best_value) <= 1e-9:
            best.append(command)
    return rng.choice(best) if best else _pick(state, seat, legal, rng)


def _acting(state: State) -> int | None:
    """The side the game waits for, if any."""
    if state.phase is not Phase.PLAY:
        return None
    return state.pending.side if state.pending is not None else state.turn


def _play(state: State, seat: int, command: cmd.Command, rng: Rng) -> State | None:
    try:
        return decide_turn(state, seat, command, Context.seeded(rng.randint(0, 2**31)).rng).state
    except ValueError:
        return None


def _pick(state: State, seat: int, legal: list[cmd.Command], rng: Rng) -> cmd.Command:
    """One ply deep: the command whose immediate result values best."""
    side = state.side_of(seat)
    # Rituals are pure profit: claim the biggest set at once.
    claims = [c for c in legal if isinstance(c, cmd.ClaimRitual)]
    if claims:
        return max(claims, key=lambda c: c.size)
    candidates: list[cmd.Command] = [
        c
        for c in legal
        if isinstance(
            c,
            (
                cmd.ChooseLine,
                cmd.PlaceTile,
                cmd.SendToSheepPen,
                cmd.EndTurn,
                cmd.DiscardItem,
                cmd.ChooseExiliumSpace,
                cmd.ChooseCompletionToken,
                cmd.PlayRitus,
                cmd.PlayScriptum,
            ),
        )
    ]
    # Rescue tiles assigned to a closed Book when that is worth its coins.
    candidates += [
        c
        for c in legal
        if isinstance(c, cmd.MoveActiveTile) and state.books[state.active_pos(c.tile) or 0].closed
    ]
    if state.phase is Phase.PLAY and not state.acted and cmd.Pass() in legal:
        candidates.append(cmd.Pass())
    abbot = _abbot_move(state, side, legal)
    if abbot is not None:
        return abbot
    if not candidates:
        candidates = legal
    if any(isinstance(c, cmd.PlaceTile) for c in candidates):
        # Place before ending the turn; the end is forced once nothing remains.
        candidates = [c for c in candidates if not isinstance(c, cmd.EndTurn)]
    best: list[cmd.Command] = []
    best_value = float("-inf")
    ctx = Context.seeded(rng.randint(0, 2**31))
    for command in candidates:
        try:
            after = decide_turn(state, seat, command, ctx.rng).state
        except ValueError:
            continue
        value = evaluate(after, side)
        if isinstance(command, cmd.DiscardItem):
            value = -_held(state, side, command.item)
        elif isinstance(command, cmd.Pass):
            value -= PASS_PENALTY  # pass only when every line would lose points
        if value > best_value + 1e-9:
            best, best_value = [command], value
        elif abs(value - best_value) <= 1e-9:
            best.append(command)
    return rng.choice(best) if best else rng.choice(legal)


def _held(state: State, side: int, item: str) -> int:
    p = state.players[side]
    if item == "coin":
        return -p.coins  # keep coins: discard the most plentiful token first
    return p.tokens[CONTENT.rituals.index(item)]


def _abbot_move(state: State, side: int, legal: list[cmd.Command]) -> cmd.MoveAbbot | None:
    """Move the Abbot (with coins) to a station where a ritual set can be claimed now."""
    p = state.players[side]
    for command in legal:
        if not isinstance(command, cmd.MoveAbbot) or command.payment[0] != sum(command.payment):
            continue
        ritual = CONTENT.stations[command.station]
        if ritual is None:
            continue
        r = CONTENT.rituals.index(ritual)
        for size in (5, 4, 3):
            if p.tokens[r] >= size and state.ritual_spaces[r * 3 + size - 3] is None:
                return command
    return None
