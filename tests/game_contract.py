"""The ``Game`` contract, written once: every registered game type passes it by registering.

Like ``tests/store_contract.py`` for event stores. For each game type in the registry and
each of its *modes* (a small set of option combinations that together use every allowed
value of every option, see :func:`modes`), random games are played to the end and checked
at every step:

* ``legal_commands`` is exact both ways: each listed command is accepted by ``decide``
  (a sample per step, all of them with ``CLOISTER_CONTRACT_FULL=1``), and commands seen
  legal elsewhere but not listed now are rejected with a :class:`DomainError` carrying a
  specific code, and another seat's command from a seat with nothing to do with
  ``not_your_turn``; every seat in ``to_act`` has a legal command; after the end no seat has
  one and every command is rejected with ``game_over``;
* determinism: ``setup`` and ``decide`` give equal events for an equal context;
* replay: the events survive the codec and folding the log again gives the same state;
* secrets: every event type declares its secrets (``domain.secrets``), and so does every
  part of the full view (``domain.views``: a bare dict or an undeclared part is refused),
  whose ``public()`` fields hold plain data; ``view`` is the kernel's redaction of the full
  view; no value ``hidden_values`` names for a viewer appears in the events as redacted for
  it or their narration (every step), or in its view (every fourth step and the last);
* narration: every event a viewer receives has a line, unless its type is bookkeeping
  (``quiet_events``), which has none; and :func:`check_narrator` narrates an example of
  *every* declared event type (``tests/event_examples.py``: seen in playouts, else built
  from its field types) for every audience, in words, the line not depending on anything
  hidden from its reader;
* bots: every bot level of the type chooses only listed commands.

Playouts per mode: 1, times ``CLOISTER_PLAYOUTS`` (``tests/scale.py``).
"""

from __future__ import annotations

import itertools
import os
import typing
from collections.abc import Iterable, Iterator
from typing import Any

import attrs
import orjson

from domain import (
    REVIEW,
    SPECTATOR,
    Context,
    DomainError,
    GameType,
    Names,
    RandomBot,
    Rng,
    seat_viewer,
    validate_options,
)
from domain.bots import bot_move
from domain.errors import InvalidOptions
from domain.game import decide_and_fold
from domain.secrets import UndeclaredSecrets, declaration
from domain.views import Memo, render
from protocol import GameCodec
from tests.event_examples import Unbuildable, examples, fits
from tests.narration_rules import content_ids, problems

FULL = os.environ.get("CLOISTER_CONTRACT_FULL") == "1"
"""Check every listed command at every step (slow), not a sample."""

ACCEPT_SAMPLE = 3
REJECT_SAMPLE = 3
BOT_EVERY = 9
VIEW_EVERY = 1 if FULL else 4
MAX_COMMANDS = 20_000
POOL_MAX = 400
GENERIC_CODES = {"domain_error", ""}


def _reduced(choices: tuple[Any, ...], default: Any) -> list[Any]:
    """Every choice of a short list; of a long one (difficulty 1-8) the ends and default."""
    if len(choices) <= 4:
        return list(choices)
    return list(dict.fromkeys([default, choices[0], choices[-1]]))


def modes(gtype: GameType) -> list[dict[str, Any]]:
    """Valid option combinations that together cover every (reduced) value of every option
    that some valid combination can take, and each ``mode`` with each number of players;
    the defaults first."""
    game = gtype.game
    specs = game.option_specs
    valid: list[dict[str, Any]] = []
    seen: set[tuple[tuple[str, Any], ...]] = set()
    for values in itertools.product(*(_reduced(s.choices, s.default) for s in specs)):
        raw = {s.name: v for s, v in zip(specs, values, strict=True)}
        try:
            opts = validate_options(game, raw)
        except InvalidOptions:
            continue
        key = tuple(sorted(opts.items()))
        if key not in seen:
            seen.add(key)
            valid.append(opts)
    defaults = validate_options(game, {})
    chosen = [defaults]

    # Every value, and every pair of a "mode" with a number of players (so that cooperative
    # Campus Galli is played with several monks, not only solo).
    def features(o: dict[str, Any]) -> set[Any]:
        out: set[Any] = set(o.items())
        if "mode" in o and "players" in o:
            out.add((o["mode"], o["players"]))
        return out

    uncovered = set().union(*(features(o) for o in valid)) - features(defaults)
    while uncovered:
        best = max(valid, key=lambda o: len(uncovered & features(o)))
        chosen.append(best)
        uncovered -= features(best)
    return chosen


def mode_id(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "defaults"


def _viewers(n: int) -> list[Any]:
    return [*(seat_viewer(s) for s in range(n)), SPECTATOR]


def _key(command: Any) -> Any:
    try:
        hash(command)
    except TypeError:
        return repr(command)
    return command


class Playout:
    """One random game of ``gtype`` with ``options``, checked step by step."""

    def __init__(self, gtype: GameType, options: dict[str, Any], seed: int) -> None:
        self.gtype, self.game = gtype, gtype.game
        self.options = validate_options(self.game, options)
        self.seed = seed
        self.codec = GameCodec.for_game(self.game)
        self.rng = Rng(f"contract-{seed}")
        self.n = self.game.seat_count(self.options)
        self.viewers = _viewers(self.n)
        self.pool: dict[Any, Any] = {}
        self.log: list[Any] = []
        self.steps = 0
        self.labels = tuple(self.game.seat_labels(self.options))
        self.bots = {"random": RandomBot(), **dict(gtype.bots)}

    # -- the game ---------------------------------------------------------------------------
    def run(self) -> Any:
        game = self.game
        for t in game.event_types:
            declaration(t)  # every event type says what is secret in it, and from whom
        initial = game.initial_state(self.options)
        ctx = Context.seeded(f"contract-setup-{self.seed}")
        events = list(game.setup(initial, ctx))
        assert events == list(game.setup(initial, Context.seeded(f"contract-setup-{self.seed}"))), (
            "setup is not deterministic"
        )
        state = self.apply(initial, events)
        for step in range(MAX_COMMANDS):
            if game.is_terminal(state):
                break
            state = self.step(state, step)
        else:
            raise AssertionError(f"no end after {MAX_COMMANDS} commands")
        self.check_over(state)
        self.check_replay(initial, state)
        return state

    def apply(self, state: Any, events: list[Any]) -> Any:
        for e in events:
            state = self.game.evolve(state, e)
        self.log += events
        self.check_secrets(state, events)
        self.steps += 1
        return state

    def step(self, state: Any, step: int) -> Any:
        game = self.game
        to_act = sorted(game.to_act(state))
        assert to_act, "a game that is not over has a seat to act"
        legal: dict[int, list[Any]] = {}
        for seat in range(self.n):
            legal[seat] = list(game.legal_commands(state, seat))
            if seat in to_act:
                assert legal[seat], f"seat {seat} is to act but has no legal command"
            # A seat the game does not wait on may still list commands (changing a secret
            # choice before the reveal); whatever it lists must be accepted all the same.
            for c in legal[seat]:
                if len(self.pool) < POOL_MAX:
                    self.pool.setdefault(_key(c), c)
        movers = [s for s in range(self.n) if legal[s]]
        seat = self.rng.choice(movers)
        self.check_accepts(state, seat, legal[seat], step)
        self.check_rejects(state, to_act, legal, step)
        if step % BOT_EVERY == 0:
            self.check_bots(state, movers, legal)
        command = self.rng.choice(legal[seat])
        events = list(game.decide(state, seat, command, Context.seeded(f"c-{self.seed}-{step}")))
        # The server's path: the events with the state they lead to, folded once.
        again, folded = decide_and_fold(
            game, state, seat, command, Context.seeded(f"c-{self.seed}-{step}")
        )
        assert events == list(again), f"decide is not deterministic for {command!r}"
        after = self.apply(state, events)
        assert folded == after, f"decide_and_fold's state is not the fold of {command!r}"
        return after

    # -- the checks -------------------------------------------------------------------------
    def check_accepts(self, state: Any, seat: int, legal: list[Any], step: int) -> None:
        sample = legal if FULL else self.rng.sample(legal, min(ACCEPT_SAMPLE, len(legal)))
        for command in sample:
            try:
                self.game.decide(state, seat, command, Context.seeded(f"a-{step}"))
            except DomainError as exc:
                raise AssertionError(
                    f"listed command {command!r} of seat {seat} was rejected: {exc!r}"
                ) from None

    def check_rejects(
        self, state: Any, to_act: list[int], legal: dict[int, list[Any]], step: int
    ) -> None:
        pool = list(self.pool.values())
        for seat in range(self.n):
            listed = {_key(c) for c in legal[seat]}
            k = REJECT_SAMPLE if legal[seat] else 1
            tried: set[Any] = set()
            for _ in range(4 * k):  # draw from the pool, skipping what is listed now
                if len(tried) >= k:
                    break
                command = self.rng.choice(pool)
                key = _key(command)
                if key in listed or key in tried:
                    continue
                tried.add(key)
                self.expect_rejection(state, seat, command, f"r-{step}")
            if not legal[seat]:
                # Another seat's command, from a seat the game is not waiting on: the same
                # mistake gets the same code in every game.
                others = [c for s in range(self.n) if s != seat for c in legal[s]]
                for command in self.rng.sample(others, min(2, len(others))):
                    exc = self.expect_rejection(state, seat, command, f"t-{step}")
                    assert exc.code == "not_your_turn", (
                        f"seat {seat}, not to act, got {exc.code!r} for {command!r}"
                    )

    def expect_rejection(self, state: Any, seat: int, command: Any, seed: str) -> DomainError:
        try:
            self.game.decide(state, seat, command, Context.seeded(seed))
        except DomainError as exc:
            assert isinstance(exc.code, str) and exc.code not in GENERIC_CODES, exc
            assert exc.message, exc
            return exc
        raise AssertionError(f"unlisted command {command!r} of seat {seat} was accepted")

    def check_over(self, state: Any) -> None:
        result = self.game.result(state)
        assert result is not None and len(result.scores) == self.n
        assert not self.game.to_act(state)
        for command in list(self.pool.values())[:10]:
            for seat in range(self.n):
                assert not self.game.legal_commands(state, seat)
                exc = self.expect_rejection(state, seat, command, "over")
                assert exc.code == "game_over", exc

    def check_bots(self, state: Any, to_act: list[int], legal: dict[int, list[Any]]) -> None:
        for level, bot in self.bots.items():
            for seat in to_act:
                choice = bot_move(bot, self.game, state, seat, Rng(f"bot-{self.seed}-{seat}"))
                assert _key(choice) in {_key(c) for c in legal[seat]}, (
                    f"bot {level!r} chose unlisted {choice!r} for seat {seat}"
                )

    def check_secrets(self, state: Any, events: list[Any]) -> None:
        game, codec = self.game, self.codec
        table = tuple(game.table_labels(state, self.labels))
        quiet = tuple(game.quiet_events)
        views = self.steps % VIEW_EVERY == 0 or game.is_terminal(state)
        full, memo = (game.full_view(state) if views else None), Memo()
        if views:
            try:
                render(full, REVIEW, memo, strict=True)  # the review audience's, too
            except UndeclaredSecrets as exc:
                raise AssertionError(f"the view: {exc}") from None
        for viewer in self.viewers:
            hidden = game.hidden_values(state, viewer)
            parts = []
            if views:
                try:
                    view = render(full, viewer, memo, strict=True)
                except UndeclaredSecrets as exc:
                    raise AssertionError(f"the view of {viewer}: {exc}") from None
                assert game.view(state, viewer) == view, (
                    f"view() for {viewer} is not the kernel's redaction of full_view()"
                )
                parts.append(orjson.dumps(view))
            names = Names(table, (), viewer)
            for e in events:
                red = game.redact(e, viewer)
                if red is None:
                    continue
                assert type(red) is type(e), f"redact changed the type of {type(e).__name__}"
                parts.append(orjson.dumps(codec.encode_event(red)))
                line = game.narrate(red, names)
                if isinstance(e, quiet):
                    assert line is None, f"bookkeeping {type(e).__name__} has a line: {line!r}"
                else:
                    assert isinstance(line, str) and line.strip(), (
                        f"{type(e).__name__} has no narrator line for {viewer}"
                    )
                    parts.append(line.encode())
            if hidden:
                seen = b"\n".join(parts).decode()
                leaked = sorted(h for h in hidden if h in seen)
                assert not leaked, f"{viewer} may not see {leaked[:5]}"

    def check_replay(self, initial: Any, state: Any) -> None:
        game, codec = self.game, self.codec
        decoded = []
        for e in self.log:
            back = codec.decode_event(type(e).__name__, codec.encode_event(e))
            assert back == e, f"{type(e).__name__} does not survive the codec"
            decoded.append(back)
        replayed = initial
        for e in decoded:
            replayed = game.evolve(replayed, e)
        assert replayed == state, "folding the log again gives another state"
        assert game.hidden_values(state, REVIEW) == frozenset()


def cases(registry: dict[str, GameType]) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, gtype in sorted(registry.items()):
        for options in modes(gtype):
            yield name, options


PLAYERS = ("Ann", None, "Brother Anselm", "Dee", None, "Eve", "Gus")
"""People at the seats in :func:`check_narrator` (``None``: a seat known by its label)."""


def check_narrator(
    gtype: GameType, ids: frozenset[str] = frozenset(), extra: Iterable[Any] = ()
) -> None:
    """An example of every event type ``gtype`` declares is narrated, after its redaction,
    for every audience (each seat, a spectator, the review): a line in words (``problems``:
    no content id, ``ids`` or the glossary's keys, no "seat N", no repr, no code token, no
    event class name), none for bookkeeping; and for each secret field hidden from the
    reader, another value in it changes nothing the reader reads, and its value is not in
    the line (unless a field the reader sees holds it too). ``extra``: events a game's own
    test reached by a directed scenario (an exchange of offers), checked the same way."""
    game = gtype.game
    try:
        ex = examples(gtype)
    except Unbuildable as exc:
        raise AssertionError(f"no example: {exc}") from None
    # The glossary's keys are the content's ids, unless a key is its printed name ("Wine").
    keys = {k for k, entry in game.glossary().items() if k.lower() not in entry.name.lower()}
    pattern = content_ids(set(ids) | keys)
    event_names = [t.__name__ for t in game.event_types if len(t.__name__) > 3]
    quiet = tuple(game.quiet_events)
    labels = ex.labels
    audiences = [*_viewers(len(labels)), REVIEW]
    by_type = {t: list(v) for t, v in ex.by_type.items()}
    for e in extra:
        by_type.setdefault(type(e), []).append(e)
    bad: list[str] = []
    for t, instances in by_type.items():
        assert instances, f"no example of {t.__name__}"
        how = "built" if t in ex.built else "seen"  # (or directed, if given in extra)
        decl = declaration(t)
        hints = typing.get_type_hints(t)
        for e in instances:
            for viewer in audiences:
                red = game.redact(e, viewer)
                if red is None:
                    continue
                names = Names(labels, PLAYERS[: len(labels)], viewer)
                try:
                    line = game.narrate(red, names)
                except Exception as exc:  # any crash is a narrator gap
                    bad.append(f"{t.__name__} ({how}) for {viewer}: {exc!r} on {red!r}")
                    continue
                if isinstance(e, quiet):
                    if line is not None:
                        bad.append(f"bookkeeping {t.__name__} has a line: {line!r}")
                    continue
                if not (isinstance(line, str) and line.strip()):
                    bad.append(f"{t.__name__} ({how}) has no narrator line for {viewer}")
                    continue
                for p in problems(line, pattern, event_names):
                    bad.append(f"{t.__name__} ({how}) for {viewer}: {p}: {line!r}")
                hidden = [n for n, spec in decl.secrets if not spec.sees(e, viewer)]
                shown = _strings(
                    [getattr(e, f.name) for f in attrs.fields(t) if f.name not in hidden]
                )
                for name in hidden:
                    leaked = sorted(_strings([getattr(e, name)]) - shown)
                    if any(v in line for v in leaked):
                        bad.append(f"{t.__name__}.{name} hidden from {viewer} is in {line!r}")
                    for other in ex.pools.get(name, [])[:4]:
                        if other == getattr(e, name) or not fits(other, hints[name]):
                            continue
                        again = game.redact(attrs.evolve(e, **{name: other}), viewer)
                        if again is not None and game.narrate(again, names) != line:
                            bad.append(
                                f"{t.__name__}: {viewer} reads what {name} holds, hidden "
                                f"from it: {line!r}"
                            )
                            break
    unique = list(dict.fromkeys(bad))
    assert not unique, f"{len(unique)} narrator problems, e.g.:\n" + "\n".join(unique[:30])


def _strings(values: list[Any]) -> set[str]:
    """The strings of two characters or more inside ``values`` (tuples, attrs values)."""
    out: set[str] = set()
    stack = list(values)
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if len(v) >= 2:
                out.add(v)
        elif isinstance(v, (tuple, list, frozenset, set)):
            stack.extend(v)
        elif attrs.has(type(v)):
            stack.extend(getattr(v, f.name) for f in attrs.fields(type(v)))
    return out
