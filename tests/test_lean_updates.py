"""Lean updates: view deltas, compact legal commands, views computed once, direct frames.

The deltas and the legal compaction are checked for exactness over random games of every
game type (Python and, with node, the browser's ``delta.js`` on the very same cases); the
server is checked over real WebSockets against a real Redis.
"""

from __future__ import annotations

import asyncio
import copy
import json
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import orjson
import pytest
import uvicorn
from hypothesis import given, settings
from hypothesis import strategies as st

from clients.client import GameClient
from domain import SPECTATOR, Context, GameType, Rng, default_registry, seat_viewer
from domain.game import validate_options
from domain.highcard import GAME_TYPE as HIGH_CARD
from protocol import (
    DeltaError,
    GameCodec,
    Update,
    apply_delta,
    compact_legal,
    diff,
    expand_legal,
)
from server import Settings, create_app
from server.store.redis import RedisStore
from tests.state_views import StateViews
from tests.support import REDIS_URL, Player, free_port, http, new_game, uvicorn_config

ROOT = Path(__file__).resolve().parents[1]

# -- deltas: pure -----------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", "ü"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "c", "0"]), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_a_delta_turns_the_old_view_into_the_new_and_leaves_the_old_alone(
    old: Any, new: Any
) -> None:
    before = copy.deepcopy(old)
    delta = diff(old, new)
    wire = orjson.loads(orjson.dumps(delta))  # what a client receives
    assert apply_delta(old, wire) == new
    assert old == before
    assert (delta == []) == (old == new)


def test_a_small_change_is_a_small_delta() -> None:
    old = {"players": [{"score": 3, "hand": ["a", "b"]}, {"score": 1, "hand": []}], "turn": 0}
    new = {"players": [{"score": 5, "hand": ["a", "b"]}, {"score": 1, "hand": []}], "turn": 1}
    assert diff(old, new) == [[["players", 0, "score"], 5], [["turn"], 1]]
    grown = {**old, "log": [1]}
    assert diff(old, grown) == [[["log"], [1]]]
    assert diff(grown, old) == [[["log"]]]
    assert diff([1, 2, 3], [1, 2]) == [[[2]]]  # cut to 2 elements
    assert diff([1, 2], [1, 2, 3]) == [[[2], 3]]  # append
    assert diff(None, {"a": 1}) == [[[], {"a": 1}]]  # the game starts: the whole view


def test_a_list_whose_elements_mostly_changed_a_little_is_walked_into() -> None:
    # Two of three Books' margins changed (a tile moved between them): the delta says
    # so in two operations instead of resending all three Books.
    cells = [{"tile": None}] * 25
    old = {"books": [{"cells": cells, "margin": ["a", "b"]}, {"cells": cells, "margin": []}]}
    old["books"].append({"cells": cells, "margin": ["c"]})
    new = copy.deepcopy(old)
    new["books"][0]["margin"] = ["a"]
    new["books"][1]["margin"] = ["b"]
    assert diff(old, new) == [[["books", 0, "margin", 1]], [["books", 1, "margin", 0], "b"]]
    # Elements changed everywhere (a fresh row of tiles in every archway): set whole.
    rows = [[{"id": i, "f": i, "c": i, "s": i, "g": i} for i in range(3)] for _ in range(3)]
    fresh = [[{"id": -i, "f": -i, "c": -i, "s": -i, "g": -i} for i in range(1, 4)]] * 3
    assert diff({"arch": rows}, {"arch": fresh}) == [[["arch"], fresh]]
    # A changed element that is no longer a container of its kind: the list is set whole.
    assert diff([{"a": 1}, {"a": 2}], [None, {"a": 3}]) == [[[], [None, {"a": 3}]]]
    assert len(str(diff(old, new))) * 10 < len(str(new["books"]))


@pytest.mark.parametrize(
    ("view", "delta"),
    [
        ({"a": 1}, [[["b", "c"], 1]]),  # no b to go through
        ({"a": [1]}, [[["a", 3], 1]]),  # index past the end
        ({"a": [1]}, [[["a", "x"], 1]]),  # a key into an array
        ({"a": 1}, [[["a", "b"], 1]]),  # through a number
        ({"a": 1}, [[["z"]]]),  # remove what is not there
        ({"a": 1}, [[[]]]),  # remove the whole view
        ({"a": 1}, [["a", 1]]),  # the path is not an array
        ({"a": 1}, [[["a"], 1, 2]]),  # too long an operation
    ],
)
def test_a_delta_that_does_not_fit_is_refused(view: Any, delta: Any) -> None:
    with pytest.raises(DeltaError):
        apply_delta(view, delta)


# -- legal commands: pure ---------------------------------------------------------------------
def test_a_product_of_choices_costs_the_sum_of_its_sides() -> None:
    commands = [
        {"type": "PlaceTile", "tile": t, "row": r, "col": c}
        for t in ("A", "B", "C")
        for r in range(5)
        for c in range(5)
    ]
    groups = compact_legal(commands)
    # As the wire has it (the groups are tuples in memory, arrays in JSON).
    assert orjson.loads(orjson.dumps(groups)) == [
        {
            "type": "PlaceTile",
            "keys": ["tile", "row", "col"],
            "tree": [[["A", "B", "C"], [[[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]]]],
        }
    ]
    assert expand_legal(groups) == commands


def test_kept_groups_are_left_alone_by_the_garbage_collector() -> None:
    # The groups are cached for as long as games ask for them again; their trees of plain
    # values are tuples, which collections stop tracking (from the leaves up), so that
    # later collections do not walk them: they were half of all the objects the collector
    # tracked at 100 Illumination duels. Lists would all stay tracked.
    import gc

    commands = [
        {"type": "PlaceTile", "tile": t, "row": r, "col": c}
        for t in "ABC"
        for r in range(5)
        for c in range(5)
        if (r + c) % 3
    ]
    groups = compact_legal(commands)

    def tracked(node: Any) -> int:
        inner = sum(tracked(x) for x in node) if isinstance(node, (list, tuple)) else 0
        return inner + gc.is_tracked(node)

    before = tracked(groups[0]["tree"])
    for _ in range(3):
        gc.collect()
    # (How far up the collector gets in a few passes is CPython's business: most of it.)
    assert before > 10 and tracked(groups[0]["tree"]) * 4 < before, before
    assert not gc.is_tracked(groups[0]["keys"])
    assert expand_legal(groups) == commands


def test_compaction_keeps_order_mixed_types_and_object_values() -> None:
    commands = [
        {"type": "Pass"},
        {"type": "Buy", "payment": [1, 0]},
        {"type": "Buy", "payment": [0, 1]},
        {"type": "Move", "to": 2, "payment": [1, 0]},
        {"type": "Pass"},
        {"type": "Move", "to": 1, "payment": [1, 0]},
        {"type": "Move", "to": 1, "payment": {"gold": 2}},
    ]
    groups = compact_legal(commands)
    assert expand_legal(orjson.loads(orjson.dumps(groups))) == commands
    assert expand_legal([]) == [] and compact_legal([]) == []


commands_strategy = st.lists(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["A", "B"])},
        optional={"x": st.integers(0, 3), "y": st.sampled_from(["p", "q"]), "z": json_values},
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(commands_strategy)
def test_compaction_is_lossless(commands: list[dict[str, Any]]) -> None:
    wire = orjson.loads(orjson.dumps(compact_legal(commands)))
    assert expand_legal(wire) == commands


# -- both, over random games of every game ----------------------------------------------------
GAMES = [
    ("illumination", {"mode": "duel"}),
    ("illumination", {"mode": "solo"}),
    ("campus-galli", {"players": 4, "level": 3}),
    ("road-to-enlightenment", {"players": 7}),
    ("high-card", {"players": 3}),
]


def _states(gtype: GameType, options: dict[str, Any], seed: int) -> Iterator[Any]:
    game = gtype.game
    opts = validate_options(game, {k: v for k, v in options.items() if _has(game, k)})
    state = game.initial_state(opts)
    for e in game.setup(state, Context.for_version(f"lean-{seed}", 0)):
        state = game.evolve(state, e)
    rng = Rng(seed)
    yield state
    for n in range(1, 400):
        if game.is_terminal(state):
            return
        seat = rng.choice(sorted(game.to_act(state)))
        command = rng.choice(list(game.legal_commands(state, seat)))
        for e in game.decide(state, seat, command, Context.for_version(f"lean-{seed}", n)):
            state = game.evolve(state, e)
        yield state


def _has(game: Any, option: str) -> bool:
    return any(spec.name == option for spec in game.option_specs)


def _cases(limit_js: int = 60) -> tuple[int, list[dict[str, Any]]]:
    """Check every consecutive view pair and every legal list of a few random games; return
    the count and a sample of cases for the JavaScript check."""
    registry = default_registry()
    js_cases: list[dict[str, Any]] = []
    checked = 0
    for name, options in GAMES:
        gtype = registry[name]
        game, codec = gtype.game, GameCodec(gtype.game)
        seats = range(game.seat_count(validate_options(game, _opts(game, options))))
        viewers = [SPECTATOR, *(seat_viewer(s) for s in seats)]

        def wire(value: Any, codec: GameCodec[Any] = codec) -> Any:
            return orjson.loads(orjson.dumps(value, default=codec.default))

        prev: dict[Any, Any] = {}
        sizes = [0, 0]  # compact, expanded
        for i, state in enumerate(_states(gtype, options, seed=len(js_cases) + 11)):
            views = StateViews(game, state)  # game.view(state, viewer), full view built once
            for viewer in viewers:
                raw = views(viewer)
                new_wire = wire(raw)
                if viewer in prev:
                    old_raw, old_wire = prev[viewer]
                    delta = wire(diff(old_raw, raw))
                    assert apply_delta(old_wire, delta) == new_wire, (name, i, viewer)
                    if i % 7 == 0 and len(js_cases) < limit_js * len(GAMES):
                        js_cases.append({"old": old_wire, "delta": delta, "new": wire(raw)})
                    checked += 1
                prev[viewer] = (raw, new_wire)
            if game.is_terminal(state):
                break
            for seat in sorted(game.to_act(state)):
                commands = game.legal_commands(state, seat)
                legal = wire([codec.encode_command(c) for c in commands])
                # the server's fast path (field by field, cached) encodes the same JSON
                fast = codec.encode_commands(commands)
                assert wire(fast) == legal, (name, i, seat)
                groups = wire(compact_legal(fast))
                assert expand_legal(groups) == legal, (name, i, seat)
                sizes[0] += len(orjson.dumps(groups))
                sizes[1] += len(orjson.dumps(legal))
                if i % 5 == 0:
                    js_cases.append({"groups": groups, "legal": legal})
                checked += 1
        if name != "high-card":  # lists of two or three: about even; where it matters, smaller
            assert sizes[0] < sizes[1] / 2, (name, sizes)
    return checked, js_cases


def _opts(game: Any, options: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in options.items() if _has(game, k)}


_CASES: list[tuple[int, list[dict[str, Any]]]] = []


def _cached_cases() -> tuple[int, list[dict[str, Any]]]:
    if not _CASES:
        _CASES.append(_cases())
    return _CASES[0]


def test_deltas_and_compact_legal_are_exact_over_random_games_of_every_game() -> None:
    checked, _ = _cached_cases()
    assert checked > 1000


NODE_CHECK = """
import { applyDelta, expandLegal } from "%s";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(0, "utf8"));
const same = (a, b) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  }
  return v;
}
let bad = 0, n = 0;
for (const c of cases) {
  n += 1;
  if ("delta" in c) {
    const before = JSON.stringify(c.old);
    if (!same(applyDelta(c.old, c.delta), c.new) || JSON.stringify(c.old) !== before) bad += 1;
  } else if (!same(expandLegal(c.groups), c.legal)) bad += 1;
}
console.log(JSON.stringify({ n, bad }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_applies_the_same_deltas_and_expands_the_same_commands() -> None:
    _, cases = _cached_cases()
    script = NODE_CHECK % (ROOT / "clients" / "web" / "delta.js").as_uri()
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(cases).encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    result = json.loads(out.stdout.decode().strip().splitlines()[-1])
    assert result == {"n": len(cases), "bad": 0} and len(cases) > 100


# -- the server -------------------------------------------------------------------------------
@attrs.define
class Counting:
    """High Card with its full view counted per version, legal_commands per seat."""

    inner: Any
    views: list[Any] = attrs.field(factory=list)
    legals: list[tuple[Any, int]] = attrs.field(factory=list)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def full_view(self, state: Any) -> Any:
        self.views.append(state)
        return self.inner.full_view(state)

    def legal_commands(self, state: Any, seat: int) -> Any:
        self.legals.append((state, seat))
        return self.inner.legal_commands(state, seat)


@pytest.fixture
def app_server(key_prefix: str) -> Iterator[tuple[str, Any, Counting]]:
    counting = Counting(HIGH_CARD.game)
    registry = {"high-card": GameType(counting, HIGH_CARD.bots, demo=True)}  # type: ignore[arg-type]
    app = create_app(Settings(redis_url=REDIS_URL, key_prefix=key_prefix), registry)
    port = free_port()
    server = uvicorn.Server(uvicorn_config(app, port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app, counting
    finally:
        server.should_exit = True
        thread.join(10)
        asyncio.run(_delete(key_prefix))


async def _delete(prefix: str) -> None:
    store = RedisStore(REDIS_URL, prefix)
    await store.delete_prefix()
    await store.close()


pytestmark_server = pytest.mark.redis


@pytest.mark.redis
async def test_updates_carry_deltas_and_legal_only_when_it_changes(
    app_server: tuple[str, Any, Counting],
) -> None:
    base, app, _ = app_server
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card")
    p0, p1, watcher = Player(base, gid, tokens[0]), Player(base, gid, tokens[1]), Player(base, gid)
    welcomes = [await p.connect() for p in (p0, p1, watcher)]
    assert all(w["view"] is not None and "delta" not in w for w in welcomes)
    assert welcomes[0]["legal"] == [{"type": "Draw"}, {"type": "Pass"}]  # seat 0 is to act
    assert welcomes[1]["legal"] == [] and welcomes[2]["legal"] == []  # nobody else gets any
    # every connection writes straight to its socket: no outbox, no sender task
    conns = app.state.hub.connections[gid]
    assert len(conns) == 3 and all(c.writer is not None and c.outbox is None for c in conns)

    reply = await p0.command({"type": "Pass"})
    assert reply["type"] == "accepted"
    for p in (p1, watcher):
        await p.wait_version(reply["version"])
    own = next(m for m in p0.received if m.get("command_id"))
    other, seen = p1.received[-1], watcher.received[-1]
    for update in (own, other, seen):
        assert update["type"] == "update" and "view" not in update
        assert update["base"] == welcomes[0]["version"] and update["delta"]
    assert own["legal"] == []  # seat 0 passed: nothing left to do until its turn
    assert expand_legal(other["legal"]) == [{"type": "Draw"}, {"type": "Pass"}]
    assert "legal" not in seen  # a spectator's never changes: never sent
    # the deltas, applied, give what a fresh connection sees whole
    fresh = Player(base, gid, tokens[1])
    welcome = await fresh.connect()
    assert p1.view == welcome["view"] and p1.legal == expand_legal(welcome["legal"])
    later = Player(base, gid)
    assert watcher.view == (await later.connect())["view"]
    for p in (p0, p1, watcher, fresh, later):
        await p.close()


@pytest.mark.redis
async def test_views_and_legal_commands_are_computed_once_per_state(
    app_server: tuple[str, Any, Counting],
) -> None:
    base, _, counting = app_server
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card")
    players = [Player(base, gid, t) for t in tokens]
    watchers = [Player(base, gid) for _ in range(4)]
    for p in [*players, *watchers]:
        await p.connect()
    counting.views.clear()
    counting.legals.clear()
    reply = await players[0].command({"type": "Draw"})
    for p in [*players, *watchers]:
        await p.wait_version(reply["version"])
    # one full view for three audiences (two seats, the spectators) and six connections
    assert len(counting.views) == 1
    assert [seat for _, seat in counting.legals] == [1]  # only the seat that can act
    # a newcomer and a resync reuse them
    more = Player(base, gid)
    await more.connect()
    await players[1].send({"type": "resync", "since": 0})
    full = await players[1].recv()
    assert full["type"] == "update" and full["view"] == players[1].view and "delta" not in full
    assert len(counting.views) == 1 and len(counting.legals) == 1
    for p in [*players, *watchers, more]:
        await p.close()


@pytest.mark.redis
async def test_the_client_resyncs_by_itself_on_a_delta_that_does_not_fit(
    app_server: tuple[str, Any, Counting],
) -> None:
    base, _, _ = app_server
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card")
    async with GameClient(base, gid, tokens[1]) as client:
        good, version = client.view, client.version
        # A delta from a version we do not hold, then one that does not fit our view.
        for bogus in (
            Update(client.version + 5, [], [0], base=client.version + 4, delta=[[["x"], 1]]),
            Update(client.version + 1, [], [0], base=client.version, delta=[[["nope", 1], 1]]),
        ):
            client._resyncing = False
            await client._on_message(client._ws, bogus)  # type: ignore[arg-type]
            assert client.view == good  # not applied
            # the resync's answer is a full update at the current version
            await client.wait_for(lambda: not client._resyncing, timeout=10)
            assert client.view == good and client.version == version
        async with http(base) as c:
            served = (await c.get(f"/api/games/{gid}/view", headers=_auth(tokens[1]))).json()
        assert client.view == served["view"] and client.legal == served["legal"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.redis
async def test_an_old_client_is_told_the_protocol_version(
    app_server: tuple[str, Any, Counting],
) -> None:
    base, _, _ = app_server
    async with http(base) as c:
        gid, _ = await new_game(c, "high-card")
    p = Player(base, gid)
    import websockets

    p.ws = await websockets.connect(f"{base.replace('http', 'ws')}/api/games/{gid}/ws")
    await p.send({"type": "hello", "v": 1, "token": None, "since": None})
    error = await p.recv()
    assert error["code"] == "unsupported_version" and "version 2" in error["message"]
    await p.close()


def test_direct_frames_are_the_frames_websockets_makes() -> None:
    """``direct_writer`` frames a text message itself when the connection is plainly open
    (no extension, nothing queued): byte for byte what websockets would write, and a
    client's parser reads the very messages back, in order, with the other path's."""
    from websockets.frames import Frame, Opcode
    from websockets.protocol import CLIENT, Protocol, State
    from websockets.server import ServerProtocol

    from server.ws import RAW_SEND, direct_writer, text_frame_header

    for n in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        payload = b"x" * n
        made = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
        assert text_frame_header(n) + payload == made, n

    class Transport:
        def __init__(self) -> None:
            self.out: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.out.append(data)

        def is_closing(self) -> bool:
            return False

        def get_write_buffer_size(self) -> int:
            return 0

    class WebSocketsSansIOProtocol:  # uvicorn's class, as the writer recognises it
        def __init__(self) -> None:
            self.close_sent = False
            self.conn = ServerProtocol()
            self.conn.state = State.OPEN
            self.transport = Transport()

        async def send(self, message: Any) -> None:
            raise AssertionError("not through ASGI")

    proto = WebSocketsSansIOProtocol()
    ws: Any = type("Ws", (), {"scope": {RAW_SEND: proto.send}})()
    write = direct_writer(ws)
    assert write is not None
    messages = [b'{"type":"update"}', "é".encode() * 100, b"y" * 70000]
    assert write(messages[0]) and write(messages[1])
    proto.conn.send_frame(Frame(Opcode.PONG, b"p"))  # queued by uvicorn, not yet written
    assert write(messages[2])  # the other path: after what was queued
    client = Protocol(CLIENT, state=State.OPEN, max_size=None)
    client.receive_data(b"".join(proto.transport.out))
    got = [(f.opcode, f.data) for f in client.events_received()]
    text = Opcode.TEXT
    assert got == [
        (text, messages[0]),
        (text, messages[1]),
        (Opcode.PONG, b"p"),
        (text, messages[2]),
    ]
    proto.conn.state = State.CLOSING
    assert not write(b"late")  # closing: nothing written, the hub drops it
