"""High Card rules as a Decider."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs

from ..errors import GameOver, NotYourTurn, RuleViolation, UnknownCommand
from ..game import GameBase, GameType, Options, OptionSpec, Result
from ..narration import GlossaryEntry, Names, ScoreLine, Standing, join_words
from ..randomness import Context
from ..secrets import event, secret
from ..simultaneous import ChoiceCommitted, ChoicesRevealed, SecretChoices
from ..viewers import Seat, Viewer

ROUNDS = 3
HAND = 2
DECK: tuple[str, ...] = tuple(f"hc-{n:02d}" for n in range(1, 13))


def value(card: str) -> int:
    return int(card[3:])


def card_name(card: str) -> str:
    """A card as printed: ``hc-07`` is "the 7"."""
    return f"the {value(card)}"


# -- commands -------------------------------------------------------------------------------
@attrs.frozen
class Draw:
    """Take the top card of the deck (draw phase, on your turn)."""


@attrs.frozen
class Pass:
    """Take no card (draw phase, on your turn)."""


@attrs.frozen
class PlayCard:
    """Secretly choose the card to play this round (play phase)."""

    card: str


Command = Draw | Pass | PlayCard


# -- events ---------------------------------------------------------------------------------
@event
class DeckShuffled:
    order: tuple[str, ...] | None = secret()  # None for every client


@event
class CardsDealt:
    seat: Seat
    cards: tuple[str, ...] | None = secret(owner="seat")


@event
class CardDrawn:
    seat: Seat
    card: str | None = secret(owner="seat")


@event
class Passed:
    seat: Seat


@event
class RoundWon:
    seat: Seat
    points: int


@event
class GameEnded:
    scores: tuple[int, ...]


Event = (
    DeckShuffled
    | CardsDealt
    | CardDrawn
    | Passed
    | ChoiceCommitted
    | ChoicesRevealed
    | RoundWon
    | GameEnded
)


# -- state ----------------------------------------------------------------------------------
@attrs.frozen
class State:
    players: int
    deck: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    discard: tuple[str, ...] = ()
    scores: tuple[int, ...] = ()
    round: int = 1
    phase: str = "setup"  # setup | draw | play | over
    turn: Seat = 0
    choices: SecretChoices = SecretChoices(frozenset())


class HighCard(GameBase[Any, Any, Any]):  # bound to the real types by issue 11
    name: ClassVar[str] = "high-card"
    title: ClassVar[str] = "High Card (demo)"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", 2, (2, 3, 4), "Players"),
    )
    command_types: ClassVar[tuple[type, ...]] = (Draw, Pass, PlayCard)
    event_types: ClassVar[tuple[type, ...]] = (
        DeckShuffled,
        CardsDealt,
        CardDrawn,
        Passed,
        ChoiceCommitted,
        ChoicesRevealed,
        RoundWon,
        GameEnded,
    )
    horizon_events: ClassVar[tuple[type, ...]] = (
        DeckShuffled,
        CardsDealt,
        CardDrawn,
        ChoicesRevealed,
        RoundWon,
        GameEnded,
    )
    """Information horizons (``domain.undo``): every draw, deal and reveal, and the end of a
    round; a pass or a secret choice not yet revealed can be taken back."""

    bot_names: ClassVar[tuple[str, ...]] = ("Ada", "Bert", "Cleo", "Dev")

    def seat_count(self, options: Options) -> int:
        return int(options["players"])

    def initial_state(self, options: Options) -> State:
        n = int(options["players"])
        return State(players=n, hands=((),) * n, scores=(0,) * n)

    def setup(self, state: State, ctx: Context) -> Sequence[Event]:
        order = ctx.rng.shuffled(DECK)
        events: list[Event] = [DeckShuffled(order)]
        for seat in range(state.players):
            events.append(CardsDealt(seat, order[seat * HAND : (seat + 1) * HAND]))
        return events

    # -- deciding ---------------------------------------------------------------------------
    def decide(self, state: State, seat: Seat, command: Any, ctx: Context) -> Sequence[Event]:
        if state.phase == "over":
            raise GameOver("the game is over")
        match command:
            case Draw() | Pass():
                if state.phase != "draw":
                    raise RuleViolation(
                        "cards are drawn only in the draw phase", code="wrong_phase"
                    )
                if seat != state.turn:
                    raise NotYourTurn(f"it is Player {state.turn + 1}'s turn to draw or pass")
                if isinstance(command, Draw):
                    if not state.deck:
                        raise RuleViolation("the deck is empty", code="deck_empty")
                    drawn: list[Event] = [CardDrawn(seat, state.deck[0])]
                    return drawn
                if state.deck and not state.hands[seat]:
                    raise RuleViolation(
                        "with an empty hand you must draw while the deck has cards",
                        code="must_draw",
                    )
                passed: list[Event] = [Passed(seat)]
                if seat == state.players - 1 and not any(state.hands):
                    passed.append(GameEnded(state.scores))  # nobody can play a card
                return passed
            case PlayCard(card=card):
                if state.phase != "play":
                    raise RuleViolation(
                        "cards are played only in the play phase", code="wrong_phase"
                    )
                if seat not in state.choices.seats:
                    raise NotYourTurn("you have no card to play this round")
                if card not in state.hands[seat]:
                    raise RuleViolation("you do not hold that card", code="card_not_in_hand")
                choices = state.choices.commit(seat, (card,))
                events: list[Event] = [ChoiceCommitted(seat, (card,))]
                if choices.complete:
                    revealed = choices.revealed()
                    events.append(revealed)
                    best_seat, best = max(
                        ((s, c[0]) for s, c in revealed.choices), key=lambda sc: value(sc[1])
                    )
                    events.append(RoundWon(best_seat, value(best)))
                    if state.round == ROUNDS:
                        scores = list(state.scores)
                        scores[best_seat] += value(best)
                        events.append(GameEnded(tuple(scores)))
                return events
            case _:
                raise UnknownCommand(f"High Card has no command {type(command).__name__}")

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        if state.phase == "draw" and seat == state.turn:
            if not state.deck:
                return [Pass()]
            return [Draw(), Pass()] if state.hands[seat] else [Draw()]
        if state.phase == "play":
            return [PlayCard(c) for c in state.hands[seat]]
        return []

    # -- evolving ---------------------------------------------------------------------------
    def evolve(self, state: State, event: Any) -> State:
        match event:
            case DeckShuffled(order=order):
                return attrs.evolve(state, deck=tuple(order or ()))
            case CardsDealt(seat=seat, cards=cards):
                cards = tuple(cards or ())
                hands = _replace(state.hands, seat, state.hands[seat] + cards)
                deck = state.deck[len(cards) :]
                done = seat == state.players - 1
                return attrs.evolve(
                    state, hands=hands, deck=deck, phase="draw" if done else state.phase
                )
            case CardDrawn(seat=seat, card=card):
                hands = _replace(state.hands, seat, (*state.hands[seat], str(card)))
                return self._next_drawer(attrs.evolve(state, hands=hands, deck=state.deck[1:]))
            case Passed():
                return self._next_drawer(state)
            case ChoiceCommitted(seat=seat, choice=choice):
                return attrs.evolve(state, choices=state.choices.commit(seat, tuple(choice or ())))
            case ChoicesRevealed(choices=choices):
                played = {s: c[0] for s, c in choices}
                return attrs.evolve(
                    state,
                    hands=tuple(
                        tuple(x for x in hand if x != played.get(s))
                        for s, hand in enumerate(state.hands)
                    ),
                    discard=state.discard + tuple(played.values()),
                    choices=SecretChoices(frozenset()),
                )
            case RoundWon(seat=seat, points=points):
                scores = _replace(state.scores, seat, state.scores[seat] + points)
                return attrs.evolve(
                    state, scores=scores, round=state.round + 1, phase="draw", turn=0
                )
            case GameEnded(scores=scores):
                return attrs.evolve(state, scores=tuple(scores), phase="over", round=ROUNDS)
        raise TypeError(f"not a High Card event: {event!r}")

    def _next_drawer(self, state: State) -> State:
        if state.turn + 1 < state.players:
            return attrs.evolve(state, turn=state.turn + 1)
        holding = [s for s in range(state.players) if state.hands[s]]
        return attrs.evolve(state, phase="play", choices=SecretChoices.open(holding))

    # -- queries ----------------------------------------------------------------------------
    def is_terminal(self, state: State) -> bool:
        return state.phase == "over"

    def to_act(self, state: State) -> frozenset[Seat]:
        if state.phase == "draw":
            return frozenset({state.turn})
        if state.phase == "play":
            return state.choices.waiting_on
        return frozenset()

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        return Result(
            state.scores,
            self._winners(state.scores),
            self._summary(state.scores),
            tuple(
                Standing.of(f"Player {s + 1}", s, (ScoreLine("Rounds won", v),))
                for s, v in enumerate(state.scores)
            ),
        )

    @staticmethod
    def _winners(scores: tuple[int, ...]) -> tuple[Seat, ...]:
        top = max(scores)
        return tuple(s for s, v in enumerate(scores) if v == top)

    def _summary(self, scores: tuple[int, ...]) -> str:
        winners = self._winners(scores)
        who = join_words(f"Player {s + 1}" for s in winners)
        return f"{who} win{'s' if len(winners) == 1 else ''} with {scores[winners[0]]}"

    def seat_labels(self, options: Options) -> tuple[str, ...]:
        return tuple(f"Player {i + 1}" for i in range(self.seat_count(options)))

    # -- secrets ----------------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return {
            "phase": state.phase,
            "round": state.round,
            "turn": state.turn,
            "scores": list(state.scores),
            "deck_count": len(state.deck),
            "discard": list(state.discard),
            "hands": [
                list(hand) if viewer.sees_seat(s) else None for s, hand in enumerate(state.hands)
            ],
            "hand_counts": [len(h) for h in state.hands],
            "choices": state.choices.visible_to(viewer),
            "prompt": self._prompt(state, viewer),
            **({"deck": list(state.deck)} if viewer.omniscient else {}),
        }

    def _prompt(self, state: State, viewer: Viewer) -> str:
        """What the game waits for, in one sentence for this viewer."""
        if state.phase == "over":
            return f"Game over: {self._summary(state.scores)}"
        if state.phase == "draw":
            if viewer.seat == state.turn:
                return "Draw the top card of the deck, or pass"
            return f"Player {state.turn + 1} draws or passes"
        if state.phase == "play":
            if viewer.seat is not None and viewer.seat in state.choices.waiting_on:
                return "Choose a card to play this round"
            waiting = join_words(f"Player {s + 1}" for s in sorted(state.choices.waiting_on))
            return f"Waiting for {waiting} to choose a card"
        return "The cards are dealt"

    def glossary(self) -> dict[str, GlossaryEntry]:
        return {
            c: GlossaryEntry(
                card_name(c).capitalize(), "Card", f"Worth {value(c)} if it wins a round"
            )
            for c in DECK
        }

    def hidden_values(self, state: State, viewer: Viewer) -> frozenset[str]:
        if viewer.omniscient:
            return frozenset()
        hidden = set(state.deck)
        for seat, hand in enumerate(state.hands):
            if not viewer.sees_seat(seat):
                hidden.update(hand)
        return frozenset(hidden)

    def narrate(self, event: Any, names: Names) -> str | None:
        match event:
            case DeckShuffled():
                return "The deck is shuffled"
            case CardsDealt(seat=seat, cards=cards):
                if cards:
                    return f"{names.seat(seat)} is dealt {join_words(map(card_name, cards))}"
                return f"{names.seat(seat)} is dealt {HAND} cards"
            case CardDrawn(seat=seat, card=card):
                drawn = card_name(card) if card else "a card"
                return f"{names.seat(seat)} draws {drawn}"
            case Passed(seat=seat):
                return f"{names.seat(seat)} passes"
            case ChoiceCommitted(seat=seat):
                return f"{names.seat(seat)} chooses a card"
            case ChoicesRevealed(choices=choices):
                return "Revealed: " + join_words(
                    f"{names.seat(s)} plays {card_name(c[0])}" for s, c in choices
                )
            case RoundWon(seat=seat, points=points):
                return f"{names.seat(seat)} wins the round for {points}"
            case GameEnded(scores=scores):
                return f"Game over: {self._summary(scores)}"
        return None


def _replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


GAME = HighCard()
GAME_TYPE = GameType(GAME, demo=True)
