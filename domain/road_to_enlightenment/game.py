"""Road to Enlightenment as a game of the platform contract (a Decider)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

import attrs

from ..errors import GameOver, InvalidCommand, NotYourTurn, UnknownCommand
from ..game import GameBase, Options, OptionSpec, Result
from ..narration import GlossaryEntry, Names, ScoreLine, Standing
from ..randomness import Context
from ..viewers import Seat, Viewer
from . import rules
from .commands import (
    COMMAND_TYPES,
    AbandonCity,
    ArrestChoice,
    ConfirmSlots,
    DeclareAttack,
    DeclareCensus,
    DeclareDiplomacy,
    DeclareLuminaryAction,
    DeclareReorganize,
    DefendWith,
    DefenseDone,
    DraftPick,
    ExchangeDecision,
    ExchangeOffer,
    ForgeAlliance,
    GiveGift,
    HelpUpkeep,
    ParleyAnswer,
    PayWarCost,
    Phase3Choices,
    PlaceLuminary,
    RefillHand,
    ReorganizePick,
    Reroll,
    Respond,
    RussiaMove,
    SkipForge,
    SkipGift,
    SupportFinish,
    SupportPass,
    SupportWith,
)
from .content import content
from .describe import QUIET, final_lines
from .describe import narrate as _narrate
from .describe import prompt as _prompt
from .describe import summary as _summary
from .diagnose import diagnose
from .events import EVENT_TYPES
from .events import is_horizon as _is_horizon
from .evolve import evolve
from .glossary import build_glossary
from .legal import legal_commands, may_act, to_act
from .state import State
from .view import hidden_values, view

__all__ = ["RoadToEnlightenment"]


def _normalise(command: Any) -> Any:
    """The canonical form: card lists sorted (their order carries no meaning)."""
    changes = {}
    for name in ("cards", "favorites", "cost"):
        value = getattr(command, name, None)
        if isinstance(value, tuple) and all(isinstance(x, str) for x in value):
            changes[name] = tuple(sorted(value))
    return attrs.evolve(command, **changes) if changes else command


class RoadToEnlightenment(GameBase[Any, Any, Any]):  # bound to the real types by issue 11
    name: ClassVar[str] = "road-to-enlightenment"
    title: ClassVar[str] = "Road to Enlightenment"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", 3, (2, 3, 4, 5, 6, 7), "Players"),
        OptionSpec(
            "length",
            "short",
            ("short", "long"),
            "Length",
            "short: 5 turns, scored after turn 5; long: 9 turns, scored after turns 5 and 9",
        ),
        OptionSpec(
            "nations",
            "seats",
            ("seats", "random"),
            "Nations",
            "seats: choose a nation by choosing its seat; random: nations are dealt to the seats "
            "at random when the game starts",
        ),
    )
    command_types: ClassVar[tuple[type, ...]] = COMMAND_TYPES
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    quiet_events: ClassVar[tuple[type, ...]] = QUIET

    def is_horizon(self, event: Any) -> bool:
        """Information horizons (``domain.undo``): ``events.is_horizon``."""
        return _is_horizon(event)

    # Envoys and ministers of the age, none of them a luminary card.
    bot_names: ClassVar[tuple[str, ...]] = (
        "Marquis de Bonnac",
        "Count Harrach",
        "Madame de Lambert",
        "Baron Kaunitz",
        "Chancellor Zamoyski",
        "Lord Chesterfield",
        "Prince Golitsyn",
    )

    def seat_count(self, options: Options) -> int:
        return int(options["players"])

    def seat_labels(self, options: Options) -> tuple[str, ...]:
        n = int(options["players"])
        if options.get("nations", "seats") == "random":
            return tuple(f"Player {i + 1}" for i in range(n))  # the nation is dealt at setup
        c = content()
        return tuple(c.nations[x].name for x in c.nations_for(n))

    def initial_state(self, options: Options) -> State:
        length = str(options.get("length", "short"))
        final = int(content().rules["turns"][length])
        return State(
            players_n=int(options.get("players", 3)),
            length=length,
            final_turn=final,
            nations=str(options.get("nations", "seats")),
        )

    def setup(self, state: State, ctx: Context) -> Sequence[Any]:
        return rules.setup_events(state, ctx.rng)

    # -- deciding ---------------------------------------------------------------------------
    def decide(self, state: State, seat: Seat, command: Any, ctx: Context) -> Sequence[Any]:
        if type(command) not in COMMAND_TYPES:
            raise UnknownCommand(f"Road to Enlightenment has no command {type(command).__name__}")
        if state.over:
            raise GameOver("the game is over")
        if not isinstance(seat, int) or not 0 <= seat < len(state.players):
            raise InvalidCommand(f"there is no seat {seat!r}")
        if not may_act(state, seat):
            raise NotYourTurn(f"the game is not waiting for {state.players[seat].nation} now")
        legal = legal_commands(state, seat)
        try:
            accepted = command in legal
            canonical = _normalise(command)
        except Exception:  # malformed field values that cannot even be compared
            raise InvalidCommand("malformed command") from None
        if not accepted:
            if canonical != command and canonical in legal:
                raise InvalidCommand("list the cards in sorted order", code="unsorted_cards")
            raise diagnose(state, seat, command)
        tx = rules.Tx(state, ctx.rng)
        self._apply(tx, seat, command)
        return tx.events

    def _apply(self, tx: rules.Tx, seat: int, cmd: Any) -> None:
        match cmd:
            case PlaceLuminary(card=card, slot=slot):
                rules.plan_slot(tx, seat, card, slot)
            case ConfirmSlots():
                rules.confirm_slots(tx, seat)
            case DeclareAttack(target=t, route=r, coins=k, enhancement=e):
                rules.declare_attack(tx, seat, t, r, k, e)
            case PayWarCost(cards=cards):
                rules.pay_war(tx, seat, cards)
            case DeclareDiplomacy():
                rules.declare_diplomacy(tx, seat)
            case ForgeAlliance(nation=nation, cards=cards):
                rules.forge(tx, seat, nation, cards)
            case SkipForge():
                rules.prompt(tx, "gift", seat)
            case GiveGift(ally=ally, cards=cards):
                rules.gift(tx, seat, ally, cards)
            case SkipGift():
                rules.finish_action(tx, seat)
            case ExchangeOffer(card=card):
                rules.exchange_offer(tx, seat, card)
            case ExchangeDecision(accept=accept):
                rules.exchange_decision(tx, seat, accept)
            case DeclareReorganize(enhancement=e):
                rules.declare_reorganize(tx, seat, e)
            case ReorganizePick(card=card):
                rules.reorganize_pick(tx, seat, card)
            case DeclareLuminaryAction(card=card, enhancement=e, victim=v, cost=cost):
                rules.declare_luminary_action(tx, seat, card, e, v, cost)
            case DeclareCensus():
                rules.declare_census(tx, seat)
            case ArrestChoice(card=card):
                rules.arrest_choice(tx, seat, card)
            case RussiaMove(track=track):
                rules.russia_move(tx, seat, track)
            case Respond(cards=cards):
                rules.respond(tx, seat, cards)
            case ParleyAnswer(pay=pay):
                rules.parley_answer(tx, seat, pay)
            case DefendWith(card=card):
                rules.defend_with(tx, seat, card)
            case DefenseDone(coins=k):
                rules.defense_done(tx, seat, k)
            case SupportPass():
                rules.support_next(tx)
            case SupportWith(side=side, card=card):
                rules.support_with(tx, seat, side, card)
            case SupportFinish(side=side, coins=k):
                rules.support_finish(tx, seat, side, k)
            case Reroll(index=i):
                rules.reroll(tx, seat, i)
            case Phase3Choices(catholicism_as=c, anti_as=a):
                rules.phase3_choice(tx, seat, c, a)
            case HelpUpkeep(coins=k):
                rules.help_upkeep(tx, seat, k)
            case AbandonCity(city=city):
                rules.abandon_city(tx, seat, city)
            case DraftPick(card=card):
                rules.draft_pick(tx, seat, card)
            case RefillHand(favorites=favs):
                rules.refill(tx, seat, favs)
            case _:  # pragma: no cover - every command type is matched above
                raise UnknownCommand(type(cmd).__name__)

    def evolve(self, state: State, event: Any) -> State:
        return evolve(state, event)

    # -- queries ----------------------------------------------------------------------------
    def is_terminal(self, state: State) -> bool:
        return state.over

    def to_act(self, state: State) -> frozenset[Seat]:
        return to_act(state)

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Any]:
        return legal_commands(state, seat)

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        scores = tuple(p.score for p in state.players)
        winner = state.ranking[0]
        labels = self.table_labels(state, ())
        standings = tuple(
            Standing.of(labels[s], s, (ScoreLine(k, v) for k, v in final_lines(state, s)))
            for s in state.ranking
        )
        return Result(scores, (winner,), _summary(scores, state.ranking, labels), standings)

    def table_labels(self, state: State, labels: tuple[str, ...]) -> tuple[str, ...]:
        """Each seat by its nation once they are assigned (random nations are dealt at set-up,
        the seats having been "Player 1" … until then)."""
        if not state.players:
            return labels
        c = content()
        return tuple(c.nations[p.nation].name for p in state.players)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        out = view(state, viewer)
        out["prompt"] = _prompt(state, viewer)
        return out

    def hidden_values(self, state: State, viewer: Viewer) -> frozenset[str]:
        return hidden_values(state, viewer)

    def narrate(self, event: Any, names: Names) -> str | None:
        return _narrate(event, names)

    def glossary(self) -> dict[str, GlossaryEntry]:
        return dict(_glossary())


@cache
def _glossary() -> dict[str, GlossaryEntry]:
    return build_glossary()
