"""The snapshot's copy of the log (``server.logcache``): a load that takes the log's prefix
from it gives exactly the record a load of the whole stream gives, reads only the stream's
tail, and falls back to the whole stream whenever the copy does not fit."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from domain import default_registry
from server.games import GameRecord, GameService
from server.logcache import LOG_CHUNK, decode_chunks, encode_chunk, fits, log_chunks
from server.snapshots import UuidChain
from server.store.base import NewEvent, RawColumns
from server.store.redis import RedisStore
from tests.test_divergence import lose_last
from tests.test_snapshots import play, same_record, settle

ROAD = ("road-to-enlightenment", {"players": 2})


class _Cold:
    """The store without snapshots: every load reads and folds the whole stream."""

    def __init__(self, store: RedisStore) -> None:
        self.read = store.read
        self.get_meta = store.get_meta
        self.get_meta_many = store.get_meta_many


async def cold_load(store: RedisStore, game_id: str) -> GameRecord:
    return await GameService(_Cold(store), default_registry()).load(game_id)  # type: ignore[arg-type]


def reads(store: RedisStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ``after`` of every ``read_columns`` of the stream from now on."""
    seen: list[int] = []
    real: Callable[..., Any] = store.read_columns

    async def read_columns(game_id: str, after: int = 0) -> RawColumns:
        seen.append(after)
        cols: RawColumns = await real(game_id, after)
        return cols

    monkeypatch.setattr(store, "read_columns", read_columns)
    return seen


def columns(fields: dict[Any, Any]) -> RawColumns | None:
    found = decode_chunks(fields)
    return found[0] if found is not None else None


def snap_key(store: RedisStore, gid: str) -> str:
    return f"{store.prefix}:{{{gid}}}:snap"


# -- the chunks ----------------------------------------------------------------------------
def test_a_chunk_decodes_to_the_columns_it_was_made_of() -> None:
    ids = ["u1", "u2", "u3"]
    blob = encode_chunk(
        1, ["A", "B", "B"], [1, 2, 1], ids, ["c1", 1, "c2", 2],
        [b'{"a":1}', b"{}", b'{"s":"x\\ny"}'], UuidChain(ids).digest(),
    )  # fmt: skip
    assert blob is not None
    found = decode_chunks({b"l0": blob, b"v": b"3"})
    assert found is not None and found[1].digest() == UuidChain(ids).digest()
    assert found[0] == RawColumns(
        [1, 2, 3], ["A", "B", "B"], [1, 2, 1], ["u1", "u2", "u3"], ["c1", "c2", "c2"],
        [b'{"a":1}', b"{}", b'{"s":"x\\ny"}'],
    )  # fmt: skip
    # payloads are framed by their lengths: any bytes come back
    odd = encode_chunk(1, ["A"], [1], ["u"], ["c", 1], [b"{\n}"], UuidChain(["u"]).digest())
    assert (columns({"l0": odd}) or RawColumns.from_rows([])).payloads == [b"{\n}"]


def test_chunks_are_taken_only_while_they_follow_each_other_from_version_1() -> None:
    def chunk(first: int, n: int, history: str = "u", before: str = "u") -> bytes:
        ids = [f"{history}{first + i}" for i in range(n)]
        chain = UuidChain([f"{before}{v}" for v in range(1, first)] + ids).digest()
        blob = encode_chunk(first, ["T"] * n, [1] * n, ids, ["c", n], [b"{}"] * n, chain)
        assert blob is not None
        return blob

    full, short = chunk(1, LOG_CHUNK), chunk(LOG_CHUNK + 1, 7)
    assert decode_chunks({"l1": full}) is None  # no chunk 0
    cols = columns({"l0": full, "l1": short, "l2": chunk(2 * LOG_CHUNK + 1, 3)})
    assert cols is not None and cols.versions == list(range(1, LOG_CHUNK + 8))  # short: last
    assert decode_chunks({"l0": chunk(2, 5)}) is None  # not where its field says
    for bad in (b"junk", full + b"\n{}", full[:-3], b'["zz"' + full[5:], 17):
        assert decode_chunks({"l0": bad}) is None
    one, two = UuidChain(["u"]).digest(), UuidChain(["u", "v"]).digest()
    wrong_types = encode_chunk(1, [3], [1], ["u"], ["c", 1], [b"{}"], one)  # type: ignore[list-item]
    assert decode_chunks({"l0": wrong_types}) is None
    wrong_runs = encode_chunk(1, ["T", "T"], [1, 1], ["u", "v"], ["c", 1], [b"{}", b"{}"], two)
    assert decode_chunks({"l0": wrong_runs}) is None
    wrong_hash = encode_chunk(1, ["T"], [1], ["u"], ["c", 1], [b"{}"], two)
    assert decode_chunks({"l0": wrong_hash}) is None


def test_a_chunk_of_another_history_ends_the_run() -> None:
    # chunk 1 written by a node that held history "x" (its hash covers x1..x200), after
    # chunk 0 of history "u": it cannot follow, though its own ids are consistent
    mine = encode_chunk(
        1,
        ["T"] * LOG_CHUNK,
        [1] * LOG_CHUNK,
        [f"u{v}" for v in range(1, LOG_CHUNK + 1)],
        ["c", LOG_CHUNK],
        [b"{}"] * LOG_CHUNK,
        UuidChain([f"u{v}" for v in range(1, LOG_CHUNK + 1)]).digest(),
    )
    ids = [f"u{v}" for v in range(LOG_CHUNK + 1, LOG_CHUNK + 6)]
    theirs = encode_chunk(
        LOG_CHUNK + 1,
        ["T"] * 5,
        [1] * 5,
        ids,
        ["d", 5],
        [b"{}"] * 5,
        UuidChain([f"x{v}" for v in range(1, LOG_CHUNK + 1)] + ids).digest(),
    )
    cols = columns({"l0": mine, "l1": theirs})
    assert cols is not None and cols.versions == list(range(1, LOG_CHUNK + 1))


class _Entry:
    def __init__(self, version: int) -> None:
        self.version, self.type, self.schema = version, f"T{version % 3}", 1 + version % 2

    def payload(self) -> bytes:
        return orjson.dumps({"v": self.version})


def test_the_command_of_each_event_follows_from_the_index() -> None:
    # appends of 1, 3 and 5 events, one across a chunk's end, and a last short chunk
    ends, v, n = {}, 0, 0
    sizes = [1, 3, 5] * 40
    per_event = []
    for size in sizes:
        v += size
        ends[f"cmd{n}"] = v
        per_event += [f"cmd{n}"] * size
        n += 1
    log = [_Entry(i) for i in range(1, v + 1)]
    uuids = [f"e{i}" for i in range(1, v + 1)]
    fields = log_chunks(log, uuids, ends, 0, v)
    assert sorted(fields) == [f"l{k}" for k in range(-(-v // LOG_CHUNK))]
    cols = columns(fields)
    assert cols is not None
    assert cols.commands == per_event and cols.uuids == uuids
    assert cols.versions == list(range(1, v + 1))
    assert cols.types == [e.type for e in log] and cols.schemas == [e.schema for e in log]
    assert cols.payloads == [e.payload() for e in log]
    # from a later chunk on: only those chunks
    assert sorted(log_chunks(log, uuids, ends, LOG_CHUNK, v)) == ["l1", "l2"][: len(fields) - 1]
    # an index that does not reach the last version: no chunk past the last it reaches
    del ends[f"cmd{n - 1}"]
    assert sorted(log_chunks(log, uuids, ends, 0, v)) == ["l0"]
    ends["twice"] = ends["cmd0"]  # two appends cannot end at one version: nothing
    assert log_chunks(log, uuids, ends, 0, v) == {}


# -- loads ---------------------------------------------------------------------------------
@pytest.mark.redis
async def test_a_load_takes_the_prefix_from_the_copy_and_reads_only_the_tail(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = await play(GameService(redis_store, default_registry()), *ROAD)
    assert rec.version > 2 * LOG_CHUNK
    # two more appends after the end-of-game snapshot: not in the copy
    for i in range(2):
        chat = [NewEvent("cloister.Chat", {"seat": 0, "text": f"gg {i}"}, uuid.uuid4().hex)]
        await redis_store.append(rec.id, rec.version + i, f"chat-{i}", chat)
    cold = await cold_load(redis_store, rec.id)
    seen = reads(redis_store, monkeypatch)
    loaded = await GameService(redis_store, default_registry()).load(rec.id)
    assert seen == [rec.version - 1]  # the stream from the copy's last event on
    same_record(loaded, cold)
    # the command-id index the copy gives is the store's own (every append's id -> its head)
    flat = await redis_store.redis.hgetall(f"{redis_store.prefix}:{{{rec.id}}}:cmds")
    assert loaded.commands == {
        k.decode(): int(v.decode().partition(":")[0]) for k, v in flat.items()
    }
    # lazily decoded entries give what eager ones give
    assert [e.event for e in loaded.log] == [e.event for e in cold.log]
    assert [e.schema for e in loaded.log] == [e.schema for e in cold.log]


@pytest.mark.redis
async def test_resent_commands_are_answered_the_same_after_a_load_from_the_copy(
    redis_store: RedisStore,
) -> None:
    service = GameService(redis_store, default_registry())
    rec = await play(service, "high-card", {"players": 2})
    # the game's first command of seat 0: in the copy's prefix; the game is over, so only
    # the index can answer its resend
    first = next(c for c, v in rec.commands.items() if c.startswith("0:"))
    done = rec.commands[first]
    loaded = await GameService(redis_store, default_registry()).load(rec.id)
    assert decode_chunks(await redis_store.get_snapshot(rec.id) or {}) is not None
    assert loaded.commands == rec.commands
    other = GameService(redis_store, default_registry())
    loaded = await other.load(rec.id)
    client_id = first.partition(":")[2]
    command = next(
        e.data["command"] for e in rec.log if e.type == "cloister.CommandAccepted"
        and e.data["seat"] == 0 and e.data["command_id"] == client_id
    )  # fmt: skip
    assert await other.command(loaded, 0, client_id, command) == (done, True)
    with pytest.raises(Exception) as err:
        await other.chat(loaded, 0, client_id, "hi")
    assert getattr(err.value, "code", None) == "command_id_reused"


@pytest.mark.redis
@pytest.mark.parametrize("damage", ["garbage", "no-first", "gap", "other-ids"])
async def test_a_copy_that_does_not_fit_is_not_used_and_is_written_again(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    service = GameService(redis_store, default_registry())
    rec = await play(service, *ROAD, seed=3)
    key = snap_key(redis_store, rec.id)
    if damage == "garbage":
        await redis_store.redis.hset(key, "l0", b"not a chunk")
    elif damage == "no-first":
        await redis_store.redis.hdel(key, "l0")
    elif damage == "gap":
        await redis_store.redis.hdel(key, "l1")
    else:  # the stream's last events were lost and others appended: the copy ends elsewhere
        await lose_last(redis_store, rec.id, 3, "rewrite")
        head = await redis_store.head(rec.id)
        chat = [NewEvent("cloister.Chat", {"seat": 1, "text": "hm"}, uuid.uuid4().hex)]
        await redis_store.append(rec.id, head, "chat-other", chat)
    cold = await cold_load(redis_store, rec.id)
    seen = reads(redis_store, monkeypatch)
    fresh = GameService(redis_store, default_registry())
    loaded = await fresh.load(rec.id)
    same_record(loaded, cold)
    if damage == "other-ids":
        assert seen == [rec.version - 1, 0]  # the copy's end is not in the stream: whole
    elif damage == "gap":
        assert seen == [LOG_CHUNK - 1]  # chunk 0 still fits
    else:
        assert seen == [0]
    await settle(fresh)
    cols = columns(await redis_store.get_snapshot(rec.id) or {})
    assert cols is not None and cols.uuids == cold.uuids  # written again, whole
    seen.clear()
    again = await GameService(redis_store, default_registry()).load(rec.id)
    assert seen == [cold.version - 1]
    same_record(again, cold)


@pytest.mark.redis
async def test_a_game_without_a_copy_gets_one_on_its_next_load(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as a game written before the copy existed: a snapshot, no chunks
    rec = await play(GameService(redis_store, default_registry()), *ROAD, seed=5)
    key = snap_key(redis_store, rec.id)
    chunks = [k for k in await redis_store.redis.hkeys(key) if k.startswith(b"l")]
    await redis_store.redis.hdel(key, *chunks)
    seen = reads(redis_store, monkeypatch)
    service = GameService(redis_store, default_registry())
    loaded = await service.load(rec.id)
    assert seen == [0]
    await settle(service)
    seen.clear()
    again = await GameService(redis_store, default_registry()).load(rec.id)
    assert seen == [rec.version - 1]
    same_record(again, loaded)


def test_fits_needs_the_same_event_at_the_copys_last_version() -> None:
    cached = RawColumns([1, 2], ["A", "B"], [1, 1], ["u1", "u2"], ["c", "c"], [b"{}", b"{}"])
    stream = RawColumns([2, 3], ["B", "C"], [1, 1], ["u2", "u3"], ["c", "d"], [b"{}", b"{}"])
    assert fits(cached, stream)
    assert not fits(cached, RawColumns([2], ["B"], [1], ["x"], ["c"], [b"{}"]))
    assert not fits(cached, RawColumns([], [], [], [], [], []))
