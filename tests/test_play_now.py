"""A ready game on first open: POST /api/play (the lobby's "Play now" and "Play with a
friend") and POST /api/games with bots and join, which set a whole table in one request and
one append, checked before anything exists."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from domain import default_registry
from server.store.redis import RedisStore
from tests.support import REDIS_URL, Player, http, running_server

pytestmark = pytest.mark.redis

TYPES = sorted(default_registry())


@pytest.fixture
def base(key_prefix: str) -> Iterator[str]:
    with running_server(key_prefix) as url:
        yield url


@pytest.fixture(autouse=True)
async def cleanup(key_prefix: str):  # type: ignore[no-untyped-def]
    yield
    store = RedisStore(REDIS_URL, key_prefix)
    await store.delete_prefix()
    await store.close()


async def _games(base: str) -> list[dict[str, Any]]:
    async with http(base) as c:
        games: list[dict[str, Any]] = (await c.get("/api/games")).json()["games"]
        return games


@pytest.mark.parametrize("type_", TYPES)
async def test_play_now_is_a_started_game_against_bots(base: str, type_: str) -> None:
    gtype = default_registry()[type_]
    async with http(base) as c:
        r = await c.post("/api/play", json={"type": type_, "name": "Ann"})
        assert r.status_code == 201, r.text
        reply = r.json()
    game = reply["game"]
    assert game["status"] == "running"
    me, *others = game["seats"]
    assert (reply["seat"], me["name"], me["bot"]) == (0, "Ann", None)
    assert others and all(s["bot"] == gtype.bot(None).name for s in others)
    assert reply["invite_url"] is None
    assert reply["play_url"] == f"{base}/#/game/{game['id']}"
    # the token is the first seat's
    player = Player(base, game["id"], reply["token"])
    welcome = await player.connect()
    assert welcome["seat"] == 0 and welcome["status"] == "running"
    await player.close()
    assert reply["token"] not in str(game)


@pytest.mark.parametrize("type_", TYPES)
async def test_play_with_a_friend_keeps_the_second_seat(base: str, type_: str) -> None:
    async with http(base) as c:
        r = await c.post("/api/play", json={"type": type_, "friend": True})
        assert r.status_code == 201, r.text
        reply = r.json()
        game = reply["game"]
        seats = game["seats"]
        assert game["status"] == "open"
        assert seats[0]["name"] == "Player" and not seats[1]["taken"]
        assert all(s["bot"] for s in seats[2:])  # a third player and more are bots
        assert reply["invite_url"] == f"{base}/#/game/{game['id']}"
        # the friend opens the link; the page offers the free seat: the game starts
        r = await c.post(f"/api/games/{game['id']}/seats", json={"name": "Bea"})
        assert r.status_code == 201 and r.json()["seat"] == 1
        after = (await c.get(f"/api/games/{game['id']}")).json()
        assert after["status"] == "running"


async def test_play_now_refusals_create_nothing(base: str) -> None:
    cases = [
        ({"type": "illumination", "friend": True, "options": {"mode": "solo"}}, 400,
         "no_seat_for_friend"),
        ({"type": "illumination", "level": "genius"}, 400, "unknown_bot"),
        ({"type": "chess"}, 404, "unknown_game_type"),
        ({"type": "high-card", "name": "x" * 41}, 400, "bad_request"),
        ({"type": "high-card", "name": "   "}, 400, "bad_request"),
        ({"type": "high-card", "friend": "yes"}, 400, "bad_request"),
        ({"type": "high-card", "bots": 2}, 400, "bad_request"),
        ({"type": "high-card", "options": {"players": 9}}, 400, "invalid_options"),
        ({"type": "illumination", "options": {"difficulty": 5}}, 400, "invalid_options"),
        ({}, 400, "bad_request"),
    ]  # fmt: skip
    async with http(base) as c:
        for body, status, code in cases:
            r = await c.post("/api/play", json=body)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), (body, r.text)
    assert await _games(base) == []


async def test_solo_illumination_play_now_is_one_seat(base: str) -> None:
    async with http(base) as c:
        r = await c.post("/api/play", json={"type": "illumination", "options": {"mode": "solo"}})
        assert r.status_code == 201, r.text
        game = r.json()["game"]
    assert [s["name"] for s in game["seats"]] == ["Player"] and game["status"] == "running"
    assert game["options"]["difficulty"] == 2  # solo keeps its own options


async def test_a_table_in_one_request_is_dealt_like_one_seat_at_a_time(
    base: str, key_prefix: str
) -> None:
    road = "road-to-enlightenment"
    async with http(base) as c:
        body = {"type": road, "seed": "same", "join": {"name": "ann"}}
        body["bots"] = [{"seat": 2, "level": "random"}, {}]
        r = await c.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        one = r.json()
        assert one["you"]["seat"] == 0 and one["status"] == "running"
        assert [s["bot"] for s in one["seats"]] == [None, "greedy", "random"]
        # the same seats, one request each
        gid = (await c.post("/api/games", json={"type": road, "seed": "same"})).json()["id"]
        for path, seat in (("seats", {"name": "ann"}), ("bots", {"seat": 2, "level": "random"})):
            assert (await c.post(f"/api/games/{gid}/{path}", json=seat)).status_code == 201
        assert (await c.post(f"/api/games/{gid}/bots", json={"seat": 1})).status_code == 201
    # Compare the stored (unredacted) set-up: the deal of both, up to the first append's end.
    store = RedisStore(REDIS_URL, key_prefix)
    try:
        logs = [
            [(e.version, e.type, e.data) for e in await store.read(g)
             if e.version <= one["version"] and not e.type.startswith("cloister.")]
            for g in (one["id"], gid)
        ]  # fmt: skip
        created = await store.read(one["id"])
    finally:
        await store.close()
    assert len(logs[0]) > 3 and logs[0] == logs[1]
    # one append: created, three seats, started and the set-up, nothing between
    assert [e.type for e in created[:5]] == [
        "cloister.GameCreated",
        *["cloister.SeatTaken"] * 3,
        "cloister.GameStarted",
    ]
    assert one["version"] == 5 + len(logs[0])


async def test_create_refusals_leave_no_game(base: str) -> None:
    cases = [
        ({"type": "high-card", "bots": [{}, {}, {}]}, "too_many_seats"),
        ({"type": "high-card", "bots": [{}], "join": {"name": "a"}, "options": {"players": 2},
          "seed": 1}, None),
        ({"type": "high-card", "bots": [{"seat": 2}]}, "bad_seat"),
        ({"type": "high-card", "bots": [{"seat": 1}], "join": {"name": "a", "seat": 1}},
         "bad_seat"),
        ({"type": "high-card", "bots": [{"level": "genius"}]}, "unknown_bot"),
        ({"type": "high-card", "bots": [{"seat": -1}]}, "bad_request"),
        ({"type": "high-card", "join": {"name": ""}}, "bad_request"),
        ({"type": "high-card", "join": {"nom": "a"}}, "bad_request"),
    ]  # fmt: skip
    made = 0
    async with http(base) as c:
        for body, code in cases:
            r = await c.post("/api/games", json=body)
            if code is None:
                assert r.status_code == 201, r.text
                made += 1
            else:
                assert r.status_code == 400 and r.json()["error"]["code"] == code, (body, r.text)
    assert len(await _games(base)) == made
