"""The store on a real Redis Cluster while it reshards: a game's slot moves to another
master under a running store (MOVED), a new game is created in a slot being migrated (ASK),
and the game's sharded doorbell follows its slot. The contract itself runs on the cluster in
``tests/test_store.py`` (``TestRedisClusterStore``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.crc import key_slot

from server.app import create_app
from server.config import Settings
from server.store.redis import RedisStore
from server.store.resp import ClusterConnection
from tests.store_contract import ev

pytestmark = pytest.mark.cluster


async def next_bell(bells: AsyncIterator[tuple[str, int]], timeout: float = 10) -> tuple[str, int]:
    return await asyncio.wait_for(anext(bells), timeout)


def same_slot_game(slot: int, avoid: str) -> str:
    """Another game id whose keys hash to ``slot``."""
    n = 0
    while True:
        gid = f"s{n}"
        if gid != avoid and key_slot(gid.encode()) == slot:
            return gid
        n += 1


async def test_a_game_follows_its_slot_to_another_master(cluster_store: RedisStore) -> None:
    store = cluster_store
    fast = store._fast
    assert isinstance(fast, ClusterConnection)
    gid = "moving"
    key = store._key(gid, "events")
    slot = key_slot(key.encode())
    assert (await store.append(gid, 0, "c1", [ev(1), ev(2)], {"seed": "s"})).status == "ok"
    store.watch(gid)
    bells = store.doorbells()
    try:
        assert await next_bell(bells) == (gid, 0)

        src = await fast.owner(key)
        shards = await fast.node(src).execute("CLUSTER", "SLOTS")
        masters = {(master[0].decode(), int(master[1])) for _, _, master, *_ in shards}
        dst = sorted(masters - {src})[0]
        src_node, dst_node = fast.node(src), fast.node(dst)
        src_id = (await src_node.execute("CLUSTER", "MYID")).decode()
        dst_id = (await dst_node.execute("CLUSTER", "MYID")).decode()

        # 1) the slot is being migrated: a read of a key the source no longer has (here:
        # never had) is sent on by ASK and answered by the importing master
        await dst_node.execute("CLUSTER", "SETSLOT", slot, "IMPORTING", src_id)
        await src_node.execute("CLUSTER", "SETSLOT", slot, "MIGRATING", dst_id)
        newcomer = same_slot_game(slot, gid)
        assert await store.read(newcomer) == []
        # ... while the existing game, still whole on the source, is served there
        assert [e.version for e in await store.read(gid)] == [1, 2]
        # a new game's append needs all its keys on one side: Redis answers TRYAGAIN until
        # the migration ends, and the store retries it
        creating = asyncio.ensure_future(store.append(newcomer, 0, "c1", [ev(1)]))
        await asyncio.sleep(0.1)
        assert not creating.done()

        # 2) the keys move and the slot is handed over: the store's map is stale
        keys = await src_node.execute("CLUSTER", "GETKEYSINSLOT", slot, 100)
        assert keys
        await src_node.execute("MIGRATE", dst[0], dst[1], "", 0, 5000, "KEYS", *keys)
        for addr in [dst, src, *(masters - {src, dst})]:
            await fast.node(addr).execute("CLUSTER", "SETSLOT", slot, "NODE", dst_id)
        assert (await asyncio.wait_for(creating, 10)).status == "ok"
        assert await dst_node.execute("XLEN", store._key(newcomer, "events")) == 1

        # the next append meets MOVED, follows it, and the game goes on at its version
        r = await store.append(gid, 2, "c2", [ev(3)])
        assert (r.status, r.version) == ("ok", 3)
        assert await fast.owner(key) == dst
        assert [e.version for e in await store.read(gid)] == [1, 2, 3]
        assert await store.get_meta(gid, "seed") == "s"
        assert await store.append(gid, 2, "c2", [ev(3)]) == r.__class__("dup", 3)

        # the source dropped the sharded subscription with the slot: the bells resubscribe
        # on the new owner and say so (catch up), then ring again
        while (bell := await next_bell(bells)) != (gid, 0):
            assert bell == (gid, 3)  # the bell of the append above, if it came first
        r = await store.append(gid, 3, "c3", [ev(4)])
        assert await next_bell(bells) == (gid, 4)
    finally:
        await bells.aclose()  # type: ignore[attr-defined]


async def test_a_plain_url_to_a_cluster_node_is_refused_with_advice(
    redis_cluster_url: str,
) -> None:
    plain = redis_cluster_url.replace("redis+cluster://", "redis://")
    store = RedisStore(plain, "refused")
    try:
        with pytest.raises(RuntimeError, match=r"redis\+cluster://") as raised:
            await store.append("g1", 0, "c1", [ev(1)])
        # it names the node by address only: a URL can hold a password
        assert "127.0.0.1:" in str(raised.value) and "redis://" not in str(raised.value)
    finally:
        await store.close()
    # a server given that URL does not start (rather than failing every command)
    app = create_app(Settings(redis_url=redis_cluster_url.replace("+cluster", "")))
    with pytest.raises(RuntimeError, match=r"redis\+cluster://"):
        async with app.router.lifespan_context(app):
            pass
