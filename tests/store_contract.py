"""The event store contract, written once; every store implementation subclasses it.

(eventsourcing's recorder test cases are the model: one suite, many backends.)
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from server.store.base import EventStore, NewEvent


def ev(n: int, kind: str = "E") -> NewEvent:
    return NewEvent(kind, {"n": n, "text": f"event {n}"}, str(uuid.uuid4()))


class StoreContract:
    """Subclasses provide a ``store`` fixture yielding a fresh, empty store."""

    async def test_append_and_read_back(self, store: EventStore) -> None:
        r = await store.append("g1", 0, "c1", [ev(1), ev(2)])
        assert (r.status, r.version) == ("ok", 2)
        r = await store.append("g1", 2, "c2", [ev(3)])
        assert (r.status, r.version) == ("ok", 3)
        got = await store.read("g1")
        assert [e.version for e in got] == [1, 2, 3]
        assert [e.data["n"] for e in got] == [1, 2, 3]
        assert [e.command_id for e in got] == ["c1", "c1", "c2"]
        assert await store.head("g1") == 3

    async def test_read_after_version_is_exact(self, store: EventStore) -> None:
        await store.append("g1", 0, "c1", [ev(i) for i in range(1, 8)])
        assert [e.version for e in await store.read("g1", 4)] == [5, 6, 7]
        assert await store.read("g1", 7) == []

    async def test_stale_expected_version_conflicts_and_writes_nothing(
        self, store: EventStore
    ) -> None:
        await store.append("g1", 0, "c1", [ev(1)])
        r = await store.append("g1", 0, "c2", [ev(2), ev(3)])
        assert (r.status, r.version) == ("conflict", 1)
        r = await store.append("g1", 5, "c3", [ev(2)])
        assert (r.status, r.version) == ("conflict", 1)
        assert [e.version for e in await store.read("g1")] == [1]

    async def test_resent_command_id_returns_dup_and_appends_once(self, store: EventStore) -> None:
        await store.append("g1", 0, "c1", [ev(1), ev(2)])
        r = await store.append("g1", 2, "c1", [ev(3)])
        assert (r.status, r.version) == ("dup", 2)
        r = await store.append("g1", 0, "c1", [ev(1), ev(2)])  # the literal retry
        assert (r.status, r.version) == ("dup", 2)
        assert await store.head("g1") == 2

    async def test_same_id_other_digest_is_reused_and_writes_nothing(
        self, store: EventStore
    ) -> None:
        r = await store.append("g1", 0, "0:c1", [ev(1)], digest="aaa")
        assert (r.status, r.version) == ("ok", 1)
        # the literal resend: dup, the head it produced
        r = await store.append("g1", 1, "0:c1", [ev(2)], digest="aaa")
        assert (r.status, r.version) == ("dup", 1)
        # the same id with another command: refused, nothing written, the first stands
        r = await store.append("g1", 1, "0:c1", [ev(2)], {"k": "v"}, digest="bbb")
        assert (r.status, r.version) == ("reused", 1)
        assert await store.head("g1") == 1
        assert await store.get_meta("g1", "k") is None
        assert await store.command_record("g1", "0:c1") == (1, "aaa")
        assert await store.command_record("g1", "1:c1") is None
        # another scope (seat) under the same client id is another command
        r = await store.append("g1", 1, "1:c1", [ev(2)], digest="bbb")
        assert (r.status, r.version) == ("ok", 2)

    async def test_no_digest_is_always_a_resend(self, store: EventStore) -> None:
        r = await store.append("g1", 0, "create:g1", [ev(1)])
        r = await store.append("g1", 1, "create:g1", [ev(2)], digest="x")
        assert (r.status, r.version) == ("dup", 1)
        assert await store.command_record("g1", "create:g1") == (1, "")
        await store.append("g1", 1, "0:c2", [ev(2)], digest="y")
        r = await store.append("g1", 2, "0:c2", [ev(3)])
        assert (r.status, r.version) == ("dup", 2)

    async def test_games_are_independent(self, store: EventStore) -> None:
        await store.append("g1", 0, "c1", [ev(1)])
        await store.append("g2", 0, "c1", [ev(1), ev(2)])
        assert await store.head("g1") == 1
        assert await store.head("g2") == 2
        ids = await store.game_ids()
        assert set(ids) >= {"g1", "g2"}

    async def test_missing_game_reads_empty(self, store: EventStore) -> None:
        assert await store.read("nope") == []
        assert await store.head("nope") == 0
        assert await store.get_meta("nope", "seed") is None

    async def test_meta_is_written_with_the_append_only(self, store: EventStore) -> None:
        await store.append("g1", 0, "c1", [ev(1)], {"seed": "s3cret"})
        assert await store.get_meta("g1", "seed") == "s3cret"
        assert await store.get_meta_many("g1", ["seed", "nope"]) == ["s3cret", None]
        r = await store.append("g1", 0, "c2", [ev(1)], {"seed": "other"})
        assert r.status == "conflict"
        assert await store.get_meta("g1", "seed") == "s3cret"

    async def test_concurrent_writers_exactly_one_wins_each_version(
        self, store: EventStore
    ) -> None:
        await store.append("g1", 0, "c0", [ev(0)])

        async def writer(name: str) -> list[Any]:
            results = []
            for i in range(10):
                head = await store.head("g1")
                results.append(await store.append("g1", head, f"{name}-{i}", [ev(i)]))
            return results

        outcomes = await asyncio.gather(*(writer(f"w{k}") for k in range(5)))
        oks = sum(r.status == "ok" for rs in outcomes for r in rs)
        events = await store.read("g1")
        assert len(events) == 1 + oks
        assert [e.version for e in events] == list(range(1, len(events) + 1))  # gapless
        assert len({e.command_id for e in events[1:]}) == oks  # no command twice

    async def test_doorbell_rings_on_append(self, store: EventStore) -> None:
        store.watch("g9")
        bells = store.doorbells()
        first = asyncio.ensure_future(anext(bells))
        await asyncio.sleep(0.2)  # let the subscription start
        await store.append("g9", 0, "c1", [ev(1), ev(2)])
        game_id, head = await asyncio.wait_for(first, 5)
        while head == 0:  # "subscribed: catch up" comes first where a store has it
            assert game_id == "g9"
            game_id, head = await asyncio.wait_for(anext(bells), 5)
        assert (game_id, head) == ("g9", 2)
        await bells.aclose()  # type: ignore[attr-defined]

    async def test_large_log_reads_completely(self, store: EventStore) -> None:
        version = 0
        for i in range(30):
            r = await store.append("g1", version, f"c{i}", [ev(version + k) for k in range(1, 101)])
            version = r.version
        got = await store.read("g1")
        assert len(got) == 3000 and got[-1].version == 3000

    async def test_deadline_index_keeps_the_newest_version(self, store: Any) -> None:
        """The index of running games' next looks (``server.clocks``): due games come
        soonest first; a write computed at an older version never overwrites a newer one;
        a dropped game is no longer due."""
        await store.set_due([("g1", 5, 1_000), ("g2", 3, 500), ("g3", 1, 9_000)])
        assert await store.due_games(1_000, 10) == ["g2", "g1"]
        assert await store.due_games(1_000, 1) == ["g2"]
        await store.set_due([("g1", 4, 100)])  # older: ignored
        await store.set_due([("g2", 3, 2_000)])  # same version (absence moved on): taken
        assert await store.due_games(1_000, 10) == ["g1"]
        await store.set_due([("g1", 6, None), ("g3", 2, 800)])
        assert await store.due_games(10_000, 10) == ["g3", "g2"]
        await store.set_due([("g1", 5, 100)])  # older than the drop: ignored too
        assert await store.due_games(10_000, 10) == ["g3", "g2"]

    async def test_index_gaps_are_games_the_deadline_index_may_lack(self, store: Any) -> None:
        """The start-up scan's question (``ClockKeeper.rebuild``): which games have no
        entry although their stream may need one (never written, or dropped at a version
        below the head)? An entry, or a drop at the head, is no gap."""
        for gid, n in (("never", 2), ("behind", 3), ("at-head", 2), ("entry", 4)):
            await store.append(gid, 0, "c", [ev(i, f"T{i}") for i in range(1, n + 1)])
        await store.set_due([("behind", 2, None), ("at-head", 2, None), ("entry", 1, 50)])
        ids = ["never", "behind", "at-head", "entry", "no-such-game"]
        assert sorted(await store.index_gaps(ids)) == [("behind", 3, "T3"), ("never", 2, "T2")]
        assert await store.index_gaps([]) == []
