"""The deadline index rebuilt from the logs at start-up (``ClockKeeper.rebuild``, issue 13):
games the index lacks (created before it existed, or whose process died between an append
and its index write) are put back to be looked at; finished ones are noted without a load;
a game the scan found is no gap at the next start. In-process store, the test's own time."""

from __future__ import annotations

from typing import Any

from domain import default_registry
from server.clocks import ClockKeeper
from server.games import GameRecord, GameService, SeatClaim
from server.store.memory import MemoryStore

START = 1_800_000_000_000


class Time:
    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> int:
        return self.ms


def _service(store: MemoryStore, t: Time) -> GameService:
    service = GameService(store, default_registry())
    service.now = t
    return service


async def _play_out(service: GameService, rec: GameRecord) -> None:
    n = 0
    while not rec.terminal:
        seat = rec.to_act()[0]
        legal = rec.codec.encode_commands(rec.game.legal_commands(rec.state, seat))
        await service.command(rec, seat, f"c{n}", legal[0])
        n += 1


async def _games(service: GameService) -> dict[str, GameRecord]:
    two = [SeatClaim("ann"), SeatClaim("bob")]
    clock = {"players": 2, "clock": "move:20"}
    clocked, _ = await service.create_table("high-card", clock, "a", two)
    absent, _ = await service.create_table("high-card", {"players": 2, "absent": 60}, "b", two)
    waiting, _ = await service.create_table("high-card", {"players": 2}, "c", two[:1])
    over, _ = await service.create_table("high-card", {"players": 2}, "d", two)
    await _play_out(service, over)
    return {"clocked": clocked, "absent": absent, "waiting": waiting, "over": over}


async def test_games_the_index_lacks_are_put_back_and_time_out_after_a_restart() -> None:
    t = Time()
    store = MemoryStore()
    games = await _games(_service(store, t))  # no keeper ran: nothing was indexed
    ids = {name: rec.id for name, rec in games.items()}
    assert await store.due_games(START + 10**9, 100) == []

    # a restart: a fresh service and keeper on the same store
    service = _service(store, t)
    keeper = ClockKeeper(service, watch=0.05)
    assert await keeper.rebuild() == 3  # every game but the finished one
    over = games["over"]
    assert store._due[ids["over"]] == (over.version, None)  # noted, not loaded
    assert sorted(await store.due_games(t.ms, 100)) == sorted(
        ids[n] for n in ("clocked", "absent", "waiting")
    )
    assert not list(service.games)

    # the sweep loads them; the index gets their real next looks
    assert sorted(await keeper.sweep()) == sorted(ids[n] for n in ("clocked", "absent", "waiting"))
    await keeper.index()
    assert store._due[ids["clocked"]][1] == START + 20_000
    assert store._due[ids["absent"]][1] == START + 60_000
    assert store._due[ids["waiting"]] == (games["waiting"].version, None)
    assert ids["over"] not in service.games

    # the next start finds no gap: each game has its entry, or was dropped at its head
    again = ClockKeeper(_service(store, t))
    assert await again.rebuild() == 0

    # and the clock runs out as the log says
    t.ms += 21_000
    handed = await keeper.check()
    assert (ids["clocked"], 0, "clock") in handed
    log = service.games[ids["clocked"]].log
    assert [e.data["reason"] for e in log if e.type == "cloister.SeatHandedToBot"] == ["clock"]


async def test_an_entry_dropped_below_the_head_is_a_gap() -> None:
    """The process that started the game died before its index write: the index still
    says 'dropped' at the version the game was open at."""
    t = Time()
    store = MemoryStore()
    service = _service(store, t)
    rec, _ = await service.create_table("high-card", {"players": 2}, "s", [SeatClaim("ann")])
    await store.set_due([(rec.id, rec.version, None)])  # open: nothing to look at
    keeper = ClockKeeper(service)
    assert await keeper.rebuild() == 0
    await service.take_seat(rec, None, "bob")  # starts the game; no index write follows
    assert rec.state is not None
    assert await ClockKeeper(_service(store, t)).rebuild() == 1
    assert store._due[rec.id] == (rec.version, t.ms)


async def test_a_game_held_here_that_the_scan_marked_due_gets_its_entry_back() -> None:
    t = Time()
    store = MemoryStore()
    service = _service(store, t)
    keeper = ClockKeeper(service)
    options: dict[str, Any] = {"players": 2, "clock": "move:20"}
    rec, _ = await service.create_table("high-card", options, "s", [SeatClaim("a"), SeatClaim("b")])
    await keeper.index()
    assert store._due[rec.id] == (rec.version, START + 20_000)
    # another process's scan (which saw no entry) marks it due now
    await store.set_due([(rec.id, rec.version, t.ms)])
    assert await keeper.sweep() == []  # held here: not loaded again...
    assert await keeper.index() == 1  # ...but its entry is written again
    assert store._due[rec.id] == (rec.version, START + 20_000)


async def test_what_a_node_keeps_per_game_stays_bounded_by_its_cache() -> None:
    """Presence and start times of games the cache dropped are forgotten at the next look
    (a process that serves for weeks sees every game once): a reloaded game reads them
    again from the store and its log."""
    import asyncio

    from server.cache import GameCache

    t = Time()
    service = _service(MemoryStore(), t)
    service.games = GameCache(5, 1 << 40)
    clocks = ClockKeeper(service)
    two = [SeatClaim("ann"), SeatClaim("bob")]
    ids = []
    for i in range(40):
        rec, _ = await service.create_table("high-card", {"players": 2}, f"p{i}", two)
        ids.append(rec.id)
        clocks.connected(rec, 0)
        t.ms += 10_000
        clocks.disconnected(rec, 0)
        await asyncio.sleep(0)  # its presence written to the store
        t.ms += 60_000  # read again at its next look
        await clocks.check()
        await clocks.index()
    held = set(service.games)
    assert len(held) == 5
    assert {g for g, _ in clocks._seen} <= held
    assert {g for g, _ in clocks._since} <= held and len(clocks._since) == 10
    assert set(clocks._refreshed) <= held
    again = await service.load(ids[0])  # dropped long ago: its absence is still measured
    assert await clocks._last_seen(again, 0, 500) == START + 10_000
    assert await clocks._last_seen(again, 1, 500) == START  # never seen: since the start
