"""The greedy bot as it was before bots were limited to their seat's view (a baseline).

It is handed the whole state, hidden hands and deck order included. Kept only so that the
bench and the soak tests can check the fair bot still beats or ties it; never registered.

A greedy bot: one-ply lookahead on the public score, with cheap tie-breakers."""

from __future__ import annotations

from typing import Any

from domain.game import Game
from domain.illumination import commands as cmd
from domain.illumination.content import CONTENT
from domain.illumination.decide import decide
from domain.illumination.evolve import apply
from domain.illumination.scoring import breakdown
from domain.illumination.state import State
from domain.randomness import Context, Rng
from domain.viewers import Seat

__all__ = ["GreedyBot"]

TILES = CONTENT.tiles
PASS_PENALTY = 1.5


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


class GreedyBot:
    """Tries the placements, rituals and line choices one ply deep; never wastes turns."""

    name = "greedy"

    def choose(self, game: Game[Any, Any, Any], state: State, seat: Seat, rng: Rng) -> Any:
        legal = legal_list(game, state, seat)
        side = state.side_of(seat)
        # Rituals are pure profit: claim the biggest set at once.
        claims = [c for c in legal if isinstance(c, cmd.ClaimRitual)]
        if claims:
            return max(claims, key=lambda c: c.size)
        candidates: list[Any] = [
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
            if isinstance(c, cmd.MoveActiveTile)
            and state.books[state.active_pos(c.tile) or 0].closed
        ]
        if state.phase == "play" and not state.acted and cmd.Pass() in legal:
            candidates.append(cmd.Pass())
        abbot = _abbot_move(state, side, legal)
        if abbot is not None:
            return abbot
        if not candidates:
            candidates = legal
        if any(isinstance(c, cmd.PlaceTile) for c in candidates):
            # Place before ending the turn; the end is forced once nothing remains.
            candidates = [c for c in candidates if not isinstance(c, cmd.EndTurn)]
        best: list[Any] = []
        best_value = float("-inf")
        ctx = Context.seeded(rng.randint(0, 2**31))
        for command in candidates:
            try:
                events = decide(state, seat, command, ctx.rng)
            except ValueError:
                continue
            after = state
            for e in events:
                after = apply(after, e)
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


def _abbot_move(state: State, side: int, legal: list[Any]) -> Any:
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


def legal_list(game: Game[Any, Any, Any], state: Any, seat: Seat) -> list[Any]:
    """The pre-view bot interface: the legal commands, computed from the whole state."""
    return list(game.legal_commands(state, seat))
