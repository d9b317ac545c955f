"""What each viewer sees (the hidden-information matrix, reference §4): the full view, its
secrets declared on its parts (``domain.views``); the kernel redacts it per viewer, as it
redacts events from their declarations (``domain.secrets``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..memo import REUSE_MAX, Kept, Reused
from ..secrets import secret
from ..viewers import SPECTATOR, Viewer, seat_viewer
from ..views import ByAudience, internal, public, view_part
from .content import CONTENT
from .scoring import breakdown, score_preview
from .state import (
    MODE_DUEL,
    MODE_SOLO,
    PHASE_OVER,
    PHASE_PLAY,
    Mode,
    PendingKind,
    Player,
    State,
)
from .view_books import NO_TILES, SIDE_KEYS, book_views, tile_view

__all__ = ["IlluminationView", "PlayerPanel", "full_view", "hidden_values"]


def _sees(state: State, viewer: Viewer, side: int) -> bool:
    if viewer.omniscient or state.phase is PHASE_OVER:
        return True
    return viewer.seat is not None and state.seat_of(side) == viewer.seat


def _sees_side(p: PlayerPanel, viewer: Viewer) -> bool:
    """A side's hand and Crusade: its own player's, and everyone's once the game is over."""
    return p.over or (p.seat is not None and viewer.sees_seat(p.seat))


def _over(p: PlayerPanel, viewer: Viewer) -> bool:
    """The order of the stacks and the deck: nobody's until the game is over."""
    return p.over


@view_part
class PlayerPanel:
    side: str
    name: str
    seat: int | None
    human: bool
    coins: int
    tokens: dict[str, int]
    items: int
    archways: list[list[dict[str, Any] | None]] = public()
    stacks_remaining: int
    sheep_pen: list[dict[str, Any]] = public()
    hand: list[str] | None = secret(visible=_sees_side)
    hand_count: int
    deck_count: int
    discard: list[str]
    has_crusade: bool
    crusade: str | None = secret(visible=_sees_side)
    markers: int
    passed: bool
    boxed: list[str]
    monk: dict[str, Any] | None = public(optional=True)
    stacks: list[list[str]] = secret(visible=_over, omit=True)
    deck: list[str] = secret(visible=_over, omit=True)
    over: bool = internal()


_PANELS: Reused[PlayerPanel] = Reused()
"""Player panels by player: a move changes one side at most (often neither's panel)."""


def _player_view(state: State, side: int) -> PlayerPanel:
    # Everything the panel reads besides the player: their seat, the end, and the tiles'
    # faces and gold leaf (tile_view).
    player = state.players[side]
    inputs = (state.seat_of(side), state.phase is PHASE_OVER, state.facedown, state.gold)
    panel = _PANELS.find(player, inputs)
    if panel is None:
        panel = _PANELS.keep(player, inputs, _make_player_view(state, side))
    return panel


_ARCHWAYS: Reused[list[list[dict[str, Any] | None]]] = Reused()
_PENS: Reused[list[dict[str, Any]]] = Reused()
"""A panel's pieces by the player's value they show (its archways, its Sheep Pen; a tuple
of names: ``_listed``): a move that changes a player changes one or two of its fields, and
the panel made anew keeps the others' very pieces, which the hub's diff then skips by
identity instead of comparing them (nine archways of tile dicts, twice: the diff compares,
then walks)."""
_STACKS: Reused[list[list[str]]] = Reused()
"""The order of a side's stacks and deck (``_listed``; sent after the game only), by their
tuples: the same lists while they stay (most moves), not new ones at every panel made."""
_TOKENS: dict[tuple[int, ...], dict[str, int]] = {}
"""Counts per ritual (tokens held, the Monk's tracks, the monastery's supply), by the counts
(a few hundred values in all)."""


def _archways(state: State, p: Player) -> list[list[dict[str, Any] | None]]:
    arch = p.archways
    # Empty archways read nothing else (and the shared empty tuple is every game's).
    faces = (state.facedown, state.gold) if any(arch) else ()
    view = _ARCHWAYS.find(arch, faces)
    if view is None:
        view = _ARCHWAYS.keep(
            arch,
            faces,
            [
                [None if (t := arch[r * 3 + c]) is None else tile_view(state, t) for c in range(3)]
                for r in range(3)
            ],
        )
    return view


def _pen(state: State, p: Player) -> list[dict[str, Any]]:
    pen = p.sheep_pen
    if not pen:
        return NO_TILES
    faces = (state.facedown, state.gold)
    view = _PENS.find(pen, faces)
    if view is None:
        view = _PENS.keep(pen, faces, [tile_view(state, t) for t in pen])
    return view


def _stacks(p: Player) -> list[list[str]]:
    stacks = p.stacks
    view = _STACKS.find(stacks, ())
    if view is None:
        view = _STACKS.keep(stacks, (), [list(s) for s in stacks])
    return view


_LISTED: Kept[int, tuple[tuple[str, ...], list[str]]] = Kept(2 * REUSE_MAX)
"""``_listed``'s lists by their tuple (its identity, kept alive in the entry): twice a
cache's entries, for the four tuples of each side of each game."""
_NO_NAMES: list[str] = []
"""Every empty hand's, discard's, box's and deck's (views are never mutated)."""


def _listed(items: tuple[str, ...]) -> list[str]:
    # A look-up by identity without Reused's closure and inputs: a panel made anew asks
    # four of these (hand, discard, box, deck), nearly always for a tuple it had before.
    if not items:
        return _NO_NAMES
    hit = _LISTED.get(id(items))
    if hit is not None and hit[0] is items:
        return hit[1]
    view = list(items)
    _LISTED.put(id(items), (items, view))
    return view


def _by_ritual(counts: tuple[int, ...]) -> dict[str, int]:
    view = _TOKENS.get(counts)
    if view is None:
        if len(_TOKENS) >= REUSE_MAX:
            _TOKENS.clear()
        view = _TOKENS[counts] = {CONTENT.rituals[r]: counts[r] for r in range(4)}
    return view


def _make_player_view(state: State, side: int) -> PlayerPanel:
    p = state.players[side]
    arch = _archways(state, p)
    monk = None
    if not p.human:
        monk = {
            "track": {CONTENT.rituals[r]: p.track[r] for r in range(4)},
            "track_length": CONTENT.monk_track_length,
            "pending_gold_leaf": list(p.pending_gold),
            "books_completed": list(p.books_completed),
            "last_die": p.last_die,
        }
    return PlayerPanel(
        side=SIDE_KEYS[side],
        name=CONTENT.side_names[side],
        seat=state.seat_of(side),
        human=p.human,
        coins=p.coins,
        tokens=_by_ritual(p.tokens),
        items=p.items,
        archways=arch,
        stacks_remaining=len(p.stacks),
        sheep_pen=_pen(state, p),
        hand=_listed(p.hand),
        hand_count=len(p.hand),
        deck_count=len(p.deck),
        discard=_listed(p.discard),
        has_crusade=p.crusade is not None,
        crusade=p.crusade,
        markers=p.markers,
        passed=p.passed,
        boxed=_listed(p.boxed),
        monk=monk,
        stacks=_stacks(p),
        deck=_listed(p.deck),
        over=state.phase is PHASE_OVER,
    )


@view_part
class IlluminationView:
    game: str
    mode: str
    phase: str
    you: ByAudience[str | None]
    south: str
    turn: str
    turn_no: int
    to_act: list[int]
    line_chosen: bool
    can_pass: bool
    discarding: int
    pending: dict[str, Any] | None = public()
    books: list[dict[str, Any]] = public()
    players: tuple[PlayerPanel, PlayerPanel]
    monastery: dict[str, Any] = public()
    battle_cards: list[dict[str, Any]] = public()
    supply: dict[str, int]
    difficulty: int | None
    score_preview: ByAudience[dict[str, int]]
    """With a side's Crusade for those who may see it (and for the Monk's, which is open)."""
    result: dict[str, Any] | None = public()
    prompt: ByAudience[str]


def full_view(
    state: State, to_act: list[int], prompt: Callable[[State, Viewer], str]
) -> IlluminationView:
    """Everything any audience may be shown; the kernel redacts it per viewer."""
    pending = state.pending
    result = None
    if state.final is not None:
        result = {
            "scores": {SIDE_KEYS[s]: state.final[s] for s in (0, 1)},
            "winners": [SIDE_KEYS[s] for s in state.winners],
            "breakdown": {SIDE_KEYS[s]: list(breakdown(state, s)) for s in (0, 1)},
        }
    seats = range(2 if state.mode is MODE_DUEL else 1)
    return IlluminationView(
        game="illumination",
        mode=state.mode,
        phase=state.phase,
        you=_you(state, seats),
        south=SIDE_KEYS[state.south],
        turn=SIDE_KEYS[state.turn],
        turn_no=state.turn_no,
        to_act=to_act,
        line_chosen=state.line_chosen,
        can_pass=state.phase is PHASE_PLAY and not state.acted and pending is None,
        discarding=state.discarding,
        pending=None
        if pending is None
        else {
            "kind": pending.kind,
            "side": SIDE_KEYS[pending.side],
            "tile": None if pending.tile is None else tile_view(state, pending.tile),
            "pos": pending.pos,
            "origin": [pending.origin_pos, pending.origin_cell // 5, pending.origin_cell % 5],
            "spaces": _pending_spaces(state),
        },
        books=book_views(state),
        players=(_player_view(state, 0), _player_view(state, 1)),
        monastery=_monastery(state),
        battle_cards=_battle_cards(state.battle),
        supply=_by_ritual(state.supply),
        difficulty=state.difficulty if state.mode is MODE_SOLO else None,
        score_preview=score_preview(state, seats),
        result=result,
        prompt=_prompts(state, seats, prompt),
    )


_YOU: dict[tuple[Mode, int], ByAudience[str | None]] = {}
"""Each seat's side, by mode and the solo human's side (four values in all)."""


def _you(state: State, seats: range) -> ByAudience[str | None]:
    key = (state.mode, state.human_side)
    you = _YOU.get(key)
    if you is None:
        you = _YOU[key] = ByAudience(tuple(SIDE_KEYS[state.side_of(s)] for s in seats), None)
    return you


_PROMPTS: Kept[tuple[object, ...], ByAudience[str]] = Kept(REUSE_MAX)
"""Prompts by everything they are made of: most moves leave them as they were."""


def _prompts(state: State, seats: range, prompt: Callable[[State, Viewer], str]) -> ByAudience[str]:
    # What the prompt reads (describe.prompt): the seats and sides, the phase and the end,
    # the pending choice, whose turn and how far it went, and which margins' Books closed.
    # Three sentences a state otherwise (bench.illumination_move: a sixth of the view).
    key = (
        prompt,
        state.mode,
        state.human_side,
        state.phase,
        state.final,
        state.winners,
        state.pending,
        state.turn,
        state.discarding,
        state.line_chosen,
        state.acted,
        state.active,
        tuple([state.books[pos].closed for _, pos in state.active]) if state.active else (),
    )
    view = _PROMPTS.get(key)
    if view is None:
        # The prompt reads only the viewer's seat: the review's is the spectators'.
        view = ByAudience(
            tuple(prompt(state, seat_viewer(s)) for s in seats), prompt(state, SPECTATOR)
        )
        _PROMPTS.put(key, view)
    return view


_MONASTERIES: dict[tuple[object, ...], dict[str, Any]] = {}
_BATTLE_CARDS: dict[tuple[tuple[int, int], ...], list[dict[str, Any]]] = {}
"""The small public parts, by the values they are made of: shared by every state and game
with the same Abbot and spaces or Battle cards (bounded like the rest)."""


def _monastery(state: State) -> dict[str, Any]:
    key = (state.abbot, state.ritual_spaces, state.book_spaces)
    view = _MONASTERIES.get(key)
    if view is None:
        if len(_MONASTERIES) >= REUSE_MAX:
            _MONASTERIES.clear()
        view = _MONASTERIES[key] = {
            "abbot": state.abbot,
            "stations": _STATIONS,
            "ritual_spaces": [
                _RITUAL_SPACES[i][0 if o is None else o + 1]
                for i, o in enumerate(state.ritual_spaces)
            ],
            "book_spaces": [None if o is None else SIDE_KEYS[o] for o in state.book_spaces],
        }
    return view


_STATIONS: list[str | None] = list(CONTENT.stations)
_RITUAL_SPACES = tuple(
    tuple(
        {
            "ritual": CONTENT.rituals[i // 3],
            "size": CONTENT.ritual_spaces[i % 3][0],
            "points": CONTENT.ritual_spaces[i % 3][1],
            "owner": owner,
        }
        for owner in (None, *SIDE_KEYS)
    )
    for i in range(3 * len(CONTENT.rituals))
)
"""The monastery's pieces that a new monastery view (a ritual space or Book space taken)
keeps: each space's dict by its owner (unowned, REV's, IRR's) and the stations, one of
each for every view, so the hub's diff skips the unchanged ones by identity."""


def _battle_cards(battle: tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
    view = _BATTLE_CARDS.get(battle)
    if view is None:
        if len(_BATTLE_CARDS) >= REUSE_MAX:
            _BATTLE_CARDS.clear()
        view = _BATTLE_CARDS[battle] = [
            {
                "pair": CONTENT.pairs[i][0],
                "factions": [CONTENT.pairs[i][1], CONTENT.pairs[i][2]],
                "REV": r,
                "IRR": irr,
            }
            for i, (r, irr) in enumerate(battle)
        ]
    return view


def _pending_spaces(state: State) -> list[list[int]]:
    """Where the pending choice may go: open Quills ([row, col]) or rituals."""
    pending = state.pending
    assert pending is not None
    if pending.kind is PendingKind.EXILE:
        origin = (pending.origin_pos, pending.origin_cell)
        return [
            [q // 5, q % 5]
            for q in state.books[pending.pos].open_quills()
            if (pending.pos, q) != origin
        ]
    return []


def hidden_values(state: State, viewer: Viewer) -> frozenset[str]:
    if viewer.omniscient or state.phase is PHASE_OVER:
        return frozenset()
    hidden: set[str] = set()
    for side in (0, 1):
        p = state.players[side]
        for stack in p.stacks:
            hidden.update(stack)
        hidden.update(p.deck)
        mine = _sees(state, viewer, side)
        if not mine:
            hidden.update(p.hand)
        crusades = set(CONTENT.crusades[side])
        if mine and p.crusade is not None:
            crusades.discard(p.crusade)
        hidden |= crusades
    return frozenset(hidden)
