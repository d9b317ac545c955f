"""End-to-end tests of the server over real HTTP and WebSockets against a real Redis."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import orjson
import pytest

from domain import default_registry
from domain.highcard import GAME_TYPE as HIGH_CARD
from server.store.redis import RedisStore
from tests.narration_rules import problems
from tests.support import REDIS_URL, Player, http, new_game, play_random_game, running_server

pytestmark = pytest.mark.redis


@pytest.fixture
def base(key_prefix: str) -> Iterator[str]:
    with running_server(key_prefix) as url:
        yield url


@pytest.fixture
async def cleanup(key_prefix: str):  # type: ignore[no-untyped-def]
    yield
    store = RedisStore(REDIS_URL, key_prefix)
    await store.delete_prefix()
    await store.close()


pytestmark = [pytest.mark.redis, pytest.mark.usefixtures("cleanup")]


# -- HTTP ----------------------------------------------------------------------------------
async def test_health_and_game_types(base: str) -> None:
    async with http(base) as c:
        assert (await c.get("/api/health")).json()["status"] == "ok"
        types = {t["name"]: t for t in (await c.get("/api/game-types")).json()["game_types"]}
        assert set(types) == set(default_registry())
        hc = types["high-card"]
        assert hc["options"][0] == {
            "name": "players",
            "default": 2,
            "choices": [2, 3, 4],
            "label": "Players",
            "description": "",
            "applies_when": None,
        }
        assert "random" in hc["bots"] and hc["default_bot"] == "random"
        illumination = {o["name"]: o for o in types["illumination"]["options"]}
        assert illumination["difficulty"]["applies_when"] == {"mode": "solo"}
        assert illumination["mode"]["applies_when"] is None
        assert types["illumination"]["default_bot"] == "greedy"


async def test_create_with_defaults_join_and_start(base: str) -> None:
    async with http(base) as c:
        r = await c.post("/api/games", json={"type": "high-card"})
        assert r.status_code == 201
        game = r.json()
        assert game["status"] == "open" and game["options"] == {"players": 2}
        gid = game["id"]
        a = (await c.post(f"/api/games/{gid}/seats", json={"name": "ann"})).json()
        assert a["seat"] == 0 and len(a["token"]) > 20
        assert (await c.get(f"/api/games/{gid}")).json()["status"] == "open"
        r = await c.post(f"/api/games/{gid}/seats", json={"name": "bob", "seat": 0})
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
        b = (await c.post(f"/api/games/{gid}/seats", json={"name": "bob"})).json()
        assert b["seat"] == 1
        summary = (await c.get(f"/api/games/{gid}")).json()
        assert summary["status"] == "running"
        assert [s["name"] for s in summary["seats"]] == ["ann", "bob"]
        assert a["token"] not in json.dumps(summary) and b["token"] not in json.dumps(summary)
        r = await c.post(f"/api/games/{gid}/seats", json={"name": "cy"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_started"
        listed = (await c.get("/api/games", params={"status": "running"})).json()["games"]
        assert [g["id"] for g in listed] == [gid]
        assert (await c.get("/api/games", params={"status": "open"})).json()["games"] == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"type": "chess"}, 404, "unknown_game_type"),
        ({"type": "high-card", "options": {"players": 9}}, 400, "invalid_options"),
        ({"type": "high-card", "options": {"colour": "red"}}, 400, "invalid_options"),
        ({"options": {}}, 400, "bad_request"),
        ({"type": "high-card", "options": []}, 400, "bad_request"),
    ],
)
async def test_bad_create_requests(base: str, body: object, status: int, code: str) -> None:
    async with http(base) as c:
        r = await c.post("/api/games", json=body)
        assert r.status_code == status and r.json()["error"]["code"] == code
        assert r.json()["error"]["message"]


async def test_bad_http_input_is_refused_with_codes(base: str) -> None:
    async with http(base) as c:
        r = await c.post("/api/games", content=b"{not json")
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
        r = await c.post("/api/games", content=b"x" * 100_000)
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        r = await c.get("/api/games/g-nope")
        assert r.status_code == 404 and r.json()["error"]["code"] == "game_not_found"
        gid, _ = await new_game(c, "high-card")
        r = await c.get(f"/api/games/{gid}/events", headers={"Authorization": "Bearer nope"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
        r = await c.get(f"/api/games/{gid}/view", params={"version": "x"})
        assert r.status_code == 400
        r = await c.post(f"/api/games/{gid}/bots", json={"level": "genius"})
        assert r.status_code in (400, 409)


# -- WebSocket -----------------------------------------------------------------------------
async def test_bad_ws_input_gets_structured_errors_and_changes_nothing(base: str) -> None:
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card")
        before = (await c.get(f"/api/games/{gid}/events")).json()
    p = Player(base, gid, tokens[1])  # seat 1: not its turn in the draw phase
    await p.connect()
    version = p.version

    async def error_for(raw: str) -> dict[str, object]:
        await p.ws.send(raw)
        return await p.recv()

    assert (await error_for("{nope"))["code"] == "bad_json"
    assert (await error_for("[1, 2]"))["code"] == "bad_message"
    assert (await error_for('{"type": "teleport"}'))["code"] == "unknown_message"
    assert (await error_for('{"type": "command"}'))["code"] == "bad_message"
    assert (await error_for("x" * 20_000))["code"] == "too_large"
    assert (await error_for('{"type": "hello"}'))["code"] == "hello_twice"
    reply = await p.command({"type": "Fly"})
    assert reply["code"] == "unknown_command" and "Fly" in reply["message"]
    reply = await p.command({"type": "PlayCard"})
    assert reply["code"] == "invalid_command"
    reply = await p.command({"type": "Draw"})
    assert reply["code"] == "not_your_turn"
    reply = await p.command({"type": "PlayCard", "card": "hc-01"})
    assert reply["code"] == "wrong_phase"
    async with http(base) as c:
        after = (await c.get(f"/api/games/{gid}/events")).json()
    assert after == before and p.version == version
    await p.close()


async def test_hello_must_come_first_and_tokens_are_checked(base: str) -> None:
    async with http(base) as c:
        gid, _ = await new_game(c, "high-card")
    p = Player(base, gid)
    import websockets

    p.ws = await websockets.connect(f"{base.replace('http', 'ws')}/api/games/{gid}/ws")
    await p.send({"type": "ping"})
    assert (await p.recv())["code"] == "hello_first"
    p.ws = await websockets.connect(f"{base.replace('http', 'ws')}/api/games/{gid}/ws")
    await p.send({"type": "hello", "token": "forged"})
    assert (await p.recv())["code"] == "bad_token"
    spectator = Player(base, gid)
    welcome = await spectator.connect()
    assert welcome["seat"] is None and welcome["legal"] == []
    reply = await spectator.command({"type": "Draw"})
    assert reply["code"] == "spectator"
    await spectator.send({"type": "ping", "nonce": 7})
    assert await spectator.recv() == {"type": "pong", "nonce": 7}
    await spectator.close()


async def test_flood_is_rate_limited(key_prefix: str) -> None:
    with running_server(key_prefix, rate_per_second=5.0, rate_burst=5) as base:
        async with http(base) as c:
            gid, _ = await new_game(c, "high-card")
        p = Player(base, gid)
        await p.connect()
        for i in range(20):
            await p.send({"type": "ping", "nonce": i})
        replies = [await p.recv() for _ in range(20)]
        assert sum(r["type"] == "pong" for r in replies) <= 7
        assert any(r.get("code") == "rate_limited" for r in replies)
        await p.close()


async def test_retried_command_id_applies_once(base: str) -> None:
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card")
    p = Player(base, gid, tokens[0])
    await p.connect()
    first = await p.command({"type": "Draw"}, cid="retry-me")
    again = await p.command({"type": "Draw"}, cid="retry-me")
    assert first["type"] == again["type"] == "accepted"
    assert (first["duplicate"], again["duplicate"]) == (False, True)
    assert again["version"] == first["version"]
    async with http(base) as c:
        log = (await c.get(f"/api/games/{gid}/events")).json()["events"]
    assert sum(e["type"] == "CardDrawn" for e in log) == 1
    # a retry from a brand-new connection (the client reconnected) is a duplicate too
    q = Player(base, gid, tokens[0])
    await q.connect()
    assert (await q.command({"type": "Draw"}, cid="retry-me"))["duplicate"] is True
    await p.close()
    await q.close()


async def test_reconnect_with_since_gets_exactly_the_missed_events(base: str) -> None:
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card", {"players": 3})
    a, b, cc = (Player(base, gid, t) for t in tokens)
    for p in (a, b, cc):
        await p.connect()
    await a.command({"type": "Pass"})
    await b.wait_version(a.version)
    seen = b.version
    await b.close()
    await b.ws.wait_closed()
    # b reconnects at once: nothing was missed, so the welcome brings no events
    b = Player(base, gid, tokens[1])
    welcome = await b.connect(since=seen)
    assert welcome["events"] == []
    await b.command({"type": "Pass"})
    seen = b.version
    await b.close()
    await cc.wait_version(seen)
    await cc.command({"type": "Pass"})  # ends the draw phase
    for p in (a, cc):
        await p.wait_version(cc.version)
    await a.command({"type": "PlayCard", "card": a.view["hands"][0][0]})
    missed_to = a.version
    b2 = Player(base, gid, tokens[1])
    welcome = await b2.connect(since=seen)
    versions = [e["version"] for e in welcome["events"]]
    assert versions == list(range(seen + 1, missed_to + 1))
    assert welcome["version"] == missed_to
    # the choice a committed is secret from b: its event arrives redacted
    commit = [e for e in welcome["events"] if e["type"] == "ChoiceCommitted"]
    assert commit and commit[0]["data"] == {"seat": 0, "choice": None}
    for p in (a, cc, b2):
        await p.close()


async def test_chat_reaches_everyone_and_never_touches_the_game(base: str) -> None:
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card")
    a, b, watcher = Player(base, gid, tokens[0]), Player(base, gid, tokens[1]), Player(base, gid)
    for p in (a, b, watcher):
        await p.connect()
    await a.command({"type": "Draw"})
    await b.wait_version(a.version)
    before = (b.version, b.view, b.legal)
    reply = await a.chat("  Pass now and I will pass too.  ", cid="talk-1")
    assert reply["type"] == "accepted" and reply["version"] == before[0] + 1
    for p in (b, watcher):
        await p.wait_version(reply["version"])
        update = p.received[-1]
        [event] = update["events"]
        assert event["type"] == "cloister.Chat"
        assert event["data"] == {"seat": 0, "text": "Pass now and I will pass too."}
        assert event["text"].endswith("says: Pass now and I will pass too.")
    # the game did not move: same view and choices, and the promise binds nobody
    assert (b.view, b.legal) == before[1:]
    resent = await a.chat("Pass now and I will pass too.", cid="talk-1")
    assert resent["duplicate"] is True
    other = await a.chat("again?", cid="talk-1")  # another text under a used id (issue 14)
    assert (other["type"], other["code"]) == ("rejected", "command_id_reused")
    refusals = [
        (watcher, "spectators may not talk", "spectator"),
        (a, "   ", "chat_empty"),
        (a, "x" * 501, "chat_too_long"),
        (a, "bell\x07", "chat_bad_text"),
    ]
    for who, text, code in refusals:
        r = await who.chat(text)
        assert (r["type"], r["code"]) == ("rejected", code)
    r = await b.command({"type": "Draw"})  # the game goes on right after the talk
    assert r["type"] == "accepted"
    async with http(base) as c:
        log = (await c.get(f"/api/games/{gid}/events")).json()["events"]
    assert [e["data"]["text"] for e in log if e["type"] == "cloister.Chat"] == [
        "Pass now and I will pass too."
    ]
    # an exported log keeps the talk on import; a forged chat line is refused
    async with http(base) as c:
        r = await c.post("/api/games/import", json={"events": log})
        # (a running game's log is not importable: what a spectator sees is redacted)
        assert r.status_code == 400 and r.json()["error"]["code"] == "unfinished_log", r.text
    await a.wait_version(b.version)
    turn = 0
    while a.status != "finished":  # play on to the end: then the log is whole
        # Take turns among those who may act: in a simultaneous choice each seat commits.
        movers = [p for p in (a, b) if p.legal]
        mover = movers[turn % len(movers)]
        turn += 1
        move = next((m for m in mover.legal if m["type"] == "Draw"), mover.legal[0])
        assert (await mover.command(move))["type"] == "accepted"
        for p in (a, b):
            await p.wait_version(mover.version)
    async with http(base) as c:
        log = (await c.get(f"/api/games/{gid}/events")).json()["events"]
        r = await c.post("/api/games/import", json={"events": log})
        assert r.status_code == 201, r.text
        copy = (await c.get(f"/api/games/{r.json()['id']}/events")).json()["events"]
        assert [e["data"] for e in copy if e["type"] == "cloister.Chat"] == [
            {"seat": 0, "text": "Pass now and I will pass too."}
        ]
        at = next(i for i, e in enumerate(log) if e["type"] == "cloister.Chat")
        for forged in ({"seat": 7, "text": "hi"}, {"seat": 0, "text": ""}):
            bad = [*log[:at], {**log[at], "data": forged}, *log[at + 1 :]]
            r = await c.post("/api/games/import", json={"events": bad})
            assert r.status_code == 400, r.text
            assert r.json()["error"]["code"] == "import_mismatch", r.text
        bad = [*log[:at], {**log[at], "type": "cloister.Nonsense"}, *log[at + 1 :]]
        r = await c.post("/api/games/import", json={"events": bad})
        assert r.status_code == 400 and "cloister.Nonsense" in r.json()["error"]["message"]
    for p in (a, b, watcher):
        await p.close()


async def test_racing_commands_never_share_a_version(key_prefix: str) -> None:
    """Two server processes' worth of services on one Redis decide on the same cached
    version; the append arbitrates and the loser is re-decided on the new state."""
    from domain import make_registry
    from server.games import GameService

    store_a = RedisStore(REDIS_URL, key_prefix)
    store_b = RedisStore(REDIS_URL, key_prefix)
    node_a = GameService(store_a, make_registry(HIGH_CARD))
    node_b = GameService(store_b, make_registry(HIGH_CARD))
    rec_a = await node_a.create("high-card", {"players": 3})
    for _ in range(3):
        await node_a.take_seat(rec_a, None, "x")
    for seat in range(3):
        await node_a.command(rec_a, seat, f"pass{seat}", {"type": "Pass"})
    rec_b = await node_b.load(rec_a.id)
    assert rec_b.version == rec_a.version and rec_b.state == rec_a.state
    # play phase: all three commit at once, through two nodes with the same cached version
    cards = [rec_a.state.hands[s][0] for s in range(3)]
    results = await asyncio.gather(
        node_a.command(rec_a, 0, "r0", {"type": "PlayCard", "card": cards[0]}),
        node_b.command(rec_b, 1, "r1", {"type": "PlayCard", "card": cards[1]}),
        node_a.command(rec_a, 2, "r2", {"type": "PlayCard", "card": cards[2]}),
    )
    versions = [v for v, _ in results]
    assert len(set(versions)) == 3
    assert node_a.stats["conflicts"] + node_b.stats["conflicts"] >= 1
    log = await store_a.read(rec_a.id)
    assert [e.version for e in log] == list(range(1, len(log) + 1))
    assert sum(e.type == "ChoiceCommitted" for e in log) == 3
    assert sum(e.type == "ChoicesRevealed" for e in log) == 1
    await node_b.catch_up(rec_b)
    await node_a.catch_up(rec_a)
    assert rec_a.state == rec_b.state
    await store_a.close()
    await store_b.close()


async def test_whole_random_game_leaks_nothing(base: str) -> None:
    for players in (2, 4):
        out = await play_random_game(base, HIGH_CARD, {"players": players}, seed=players)
        assert out["summary"]["status"] == "finished"
        assert out["summary"]["result"]["winners"]
        # the spectator ends with the same public board as the players
        assert out["spectator"].view == out["players"][0].view


async def test_after_the_game_the_whole_log_is_public(base: str) -> None:
    out = await play_random_game(base, HIGH_CARD, {"players": 2}, seed=11)
    events = out["review"]["events"]
    assert out["review"]["audience"] == "review"
    shuffled = next(e for e in events if e["type"] == "DeckShuffled")
    assert len(shuffled["data"]["order"]) == 12
    # while running, a spectator saw the shuffle with no order
    spec_shuffle = [
        e
        for m in out["spectator"].received
        if m["type"] in ("welcome", "update")
        for e in m.get("events", [])
        if e["type"] == "DeckShuffled"
    ]
    assert all(e["data"]["order"] is None for e in spec_shuffle)


async def test_bot_seats_play_a_game_to_its_end(base: str) -> None:
    async with http(base) as c:
        gid = (
            await c.post("/api/games", json={"type": "high-card", "options": {"players": 3}})
        ).json()["id"]
        for _ in range(3):
            r = await c.post(f"/api/games/{gid}/bots", json={"level": "random"})
            assert r.status_code == 201
        for _ in range(200):
            summary = (await c.get(f"/api/games/{gid}")).json()
            if summary["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        assert summary["status"] == "finished", summary
        assert all(s["bot"] == "random" for s in summary["seats"])
        # Bots are told apart by names from the game (High Card's), marked as bots.
        assert [s["name"] for s in summary["seats"]] == ["Ada (bot)", "Bert (bot)", "Cleo (bot)"]
        result = summary["result"]
        assert result["summary"].endswith(f"with {max(result['scores'])}")
        assert [b["total"] for b in result["breakdown"]] == result["scores"]
        events = (await c.get(f"/api/games/{gid}/events")).json()["events"]
    # Accepted commands are quiet bookkeeping: no line (the events after them say it).
    assert all(e["text"] == "" for e in events if e["type"] == "cloister.CommandAccepted")
    texts = [e["text"] for e in events if e["type"] != "cloister.CommandAccepted"]
    assert texts[:2] == ["A new game of High Card (demo)", "Ada (bot) sits down as Player 1"]
    assert "All seats are taken: the game begins" in texts
    assert any(t.startswith("Bert (Player 2) ") for t in texts)  # no "(bot)" in game lines
    # The game's last line, then the platform's: the seed, for anyone to verify the game.
    assert texts[-2] == f"Game over: {result['summary']}"
    assert texts[-1].startswith("The random seed is revealed")
    names = [t.__name__ for t in HIGH_CARD.game.event_types]
    for text in texts:
        assert problems(text, None, names) == [], text


async def test_a_person_may_not_pose_as_a_bot(base: str) -> None:
    async with http(base) as c:
        gid = (await c.post("/api/games", json={"type": "high-card"})).json()["id"]
        r = await c.post(f"/api/games/{gid}/seats", json={"name": "Ada (bot)"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        r = await c.post(f"/api/games/{gid}/bots", json={})
        assert r.status_code == 201 and r.json()["name"] == "Ada (bot)"


async def test_glossary_of_each_game_type(base: str) -> None:
    async with http(base) as c:
        for name, gtype in default_registry().items():
            r = await c.get(f"/api/types/{name}/glossary")
            assert r.status_code == 200 and r.headers["content-type"] == "application/json"
            body = r.json()
            expected = gtype.game.glossary()
            assert set(body) == set(expected) and body, name
            some = next(iter(expected))
            e = expected[some]
            assert body[some] == {"name": e.name, "kind": e.kind, "text": e.text}
        ill = (await c.get("/api/types/illumination/glossary")).json()
        assert ill["R-RITUS-2"]["name"] == "Ritus" and "Ritual token" in ill["R-RITUS-2"]["text"]
        r = await c.get("/api/types/chess/glossary")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game_type"


async def test_bot_and_person_share_a_game(base: str) -> None:
    async with http(base) as c:
        gid = (await c.post("/api/games", json={"type": "high-card"})).json()["id"]
        token = (await c.post(f"/api/games/{gid}/seats", json={"name": "me"})).json()["token"]
        assert (await c.post(f"/api/games/{gid}/bots", json={})).json()["seat"] == 1
    me = Player(base, gid, token)
    await me.connect()
    while me.status != "finished":
        if me.legal:
            assert (await me.command(me.legal[0]))["type"] == "accepted"
        else:
            await me.recv()
    assert any(m["type"] == "game_over" for m in me.received) or me.status == "finished"
    await me.close()


async def test_replay_view_at_each_version(base: str) -> None:
    out = await play_random_game(base, HIGH_CARD, {"players": 2}, seed=5)
    gid = out["game_id"]
    async with http(base) as c:
        early = (await c.get(f"/api/games/{gid}/view", params={"version": 2})).json()
        assert early["view"] is None and early["version"] == 2
        last = out["summary"]["version"]
        final = (await c.get(f"/api/games/{gid}/view", params={"version": last})).json()
        assert final["view"]["phase"] == "over"
        assert final["view"]["scores"] == out["summary"]["result"]["scores"]


def test_schema_and_encoding_are_consistent() -> None:
    from protocol import json_schema

    schema = json_schema()
    assert {"ClientMessage", "ServerMessage", "Welcome", "Rejected"} <= set(schema["$defs"])
    assert orjson.loads(orjson.dumps(schema)) == schema


async def test_export_then_import_replays_the_same_game(base: str) -> None:
    out = await play_random_game(base, HIGH_CARD, {"players": 3}, seed=21)
    events = out["review"]["events"]
    async with http(base) as c:
        r = await c.post("/api/games/import", json={"events": events})
        assert r.status_code == 201, r.text
        copy = r.json()
        assert copy["id"] != out["game_id"]
        assert copy["status"] == "finished"
        assert copy["result"]["scores"] == out["summary"]["result"]["scores"]
        assert copy["version"] == out["summary"]["version"]
        # a tampered log is refused and creates nothing
        bad = [dict(e) for e in events]
        bad[5] = {**bad[5], "type": "NoSuchEvent"}
        r = await c.post("/api/games/import", json={"events": bad})
        assert r.status_code == 400 and r.json()["error"]["code"] == "import_mismatch"
        assert r.json()["error"]["message"].startswith("version 6: ")
        r = await c.post("/api/games/import", json={"events": events[1:]})
        assert r.status_code == 400
        games = (await c.get("/api/games")).json()["games"]
        assert len(games) == 2


async def test_the_senders_update_is_its_acceptance(base: str) -> None:
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card")
    a, b = Player(base, gid, tokens[0]), Player(base, gid, tokens[1])
    await a.connect()
    await b.connect()
    await a.command({"type": "Draw"}, cid="mine")
    await a.send({"type": "ping", "nonce": 1})
    while (await a.recv())["type"] != "pong":
        pass
    own = [m for m in a.received if m.get("command_id") == "mine"]
    assert [m["type"] for m in own] == ["update"]  # one frame: no separate accepted
    await b.wait_version(a.version)
    assert all(m.get("command_id") is None for m in b.received)  # others never see it
    await a.close()
    await b.close()


async def test_random_nations_name_the_seats_once_dealt(base: str) -> None:
    async with http(base) as c:
        game = (
            await c.post(
                "/api/games",
                json={
                    "type": "road-to-enlightenment",
                    "options": {"players": 2, "nations": "random"},
                },
            )
        ).json()
        gid = game["id"]
        assert [s["label"] for s in game["seats"]] == ["Player 1", "Player 2"]
        for name in ("ann", "bob"):
            assert (await c.post(f"/api/games/{gid}/seats", json={"name": name})).status_code == 201
        seats = (await c.get(f"/api/games/{gid}")).json()["seats"]
        assert sorted(s["label"] for s in seats) == ["England", "France"]
        events = (await c.get(f"/api/games/{gid}/events")).json()["events"]
    texts = [e["text"] for e in events]
    assert "ann sits down as Player 1" in texts  # the seat as it was taken
    dealt = next(t for t in texts if t.startswith("The nations are dealt at random"))
    assert f"ann ({seats[0]['label']})" in dealt and f"bob ({seats[1]['label']})" in dealt
    assert not any(e["text"] for e in events if e["type"] in ("StageSet", "CursorSet"))
