"""The clock fold (``server.clocks.TableClock``) over logs a service wrote, with the test's
own time: a decision restarts on each of the seat's own commands, a fischer bank spent to
nothing gets the retake grace, and the fold from the whole log equals the running one."""

from __future__ import annotations

from typing import Any

from domain import default_registry
from server.clocks import RETAKE_GRACE_MS, ClockKeeper, ClockSpec, TableClock
from server.games import GameRecord, GameService, SeatClaim
from server.store.memory import MemoryStore

START = 1_800_000_000_000


class Time:
    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> int:
        return self.ms


async def _game(type_: str, options: dict[str, Any]) -> tuple[GameService, GameRecord, Time]:
    t = Time()
    service = GameService(MemoryStore(), default_registry())
    service.now = t
    n = service.game_type(type_).game.seat_count(service.validated_options(type_, options))
    claims = [SeatClaim(f"p{i}") for i in range(n)]
    rec, _ = await service.create_table(type_, options, "seed", claims)
    return service, rec, t


async def test_a_move_clock_restarts_on_each_own_command_of_a_turn() -> None:
    service, rec, t = await _game("illumination", {"mode": "duel", "clock": "move:60"})
    keeper = ClockKeeper(service)
    table = keeper.table(rec)
    assert table is not None
    (seat,) = rec.to_act()
    assert table.deadline(seat) == START + 60_000
    moves = 0
    # the seat's turn has several commands: each one starts a fresh decision
    while rec.to_act() == [seat] and moves < 3:
        t.ms += 10_000
        legal = rec.codec.encode_commands(rec.game.legal_commands(rec.state, seat))
        pick = next((c for c in legal if c["type"] != "Pass"), legal[0])  # keep the turn
        await service.command(rec, seat, f"c{moves}", pick)
        moves += 1
        table = keeper.table(rec)
        assert table is not None
        if rec.to_act() == [seat]:
            assert table.deadline(seat) == t.ms + 60_000
    assert moves >= 2, "the test needs a turn of several commands"
    # the fold of the whole log, as after a restart, says the same
    again = TableClock(rec, ClockSpec.parse("move:60"))
    again.feed(rec.log, t.ms)
    assert [again.deadline(s) for s in range(2)] == [table.deadline(s) for s in range(2)]


async def test_a_spent_fischer_bank_gets_the_grace_when_the_seat_is_retaken() -> None:
    service, rec, t = await _game("high-card", {"players": 2, "clock": "fischer:1+2"})
    keeper = ClockKeeper(service)
    t.ms += 20_000
    await service.command(rec, 0, "d0", {"type": "Draw"})
    table = keeper.table(rec)
    assert table is not None
    assert table.remaining(0, t.ms) == 60_000 - 20_000 + 2_000  # spent 20 s, gained 2 s
    t.ms += 60_000  # seat 1 runs out
    assert await keeper.check() == [(rec.id, 1, "clock")]
    assert rec.seats[1] is not None and rec.seats[1].stand_in == "random"
    assert await keeper.check() == []  # once
    await keeper.retake(rec, 1, "back")
    table = keeper.table(rec)
    assert table is not None
    assert table.remaining(1, t.ms) == RETAKE_GRACE_MS
    assert rec.seats[1] is not None and rec.seats[1].stand_in is None


async def test_after_an_undo_the_clocks_follow_the_restored_state() -> None:
    from server.undo import undo

    service, rec, t = await _game("illumination", {"mode": "duel", "clock": "move:60"})
    keeper = ClockKeeper(service)
    (seat,) = rec.to_act()
    before = rec.to_act()
    legal = rec.codec.encode_commands(rec.game.legal_commands(rec.state, seat))
    t.ms += 5_000
    await service.command(rec, seat, "c0", next(c for c in legal if c["type"] != "Pass"))
    t.ms += 5_000
    await undo(service, rec, seat)
    assert rec.log[-1].type == "cloister.Undone" and rec.log[-1].data["at"] == t.ms
    table = keeper.table(rec)
    assert table is not None
    assert table.state == rec.state  # the fold went back with the undo
    assert table.acting() == set(rec.to_act()) == set(before)
    again = TableClock(rec, ClockSpec.parse("move:60"))
    again.feed(rec.log, t.ms)
    assert again.acting() == table.acting()
    assert [again.deadline(s) for s in range(2)] == [table.deadline(s) for s in range(2)]


async def test_only_clocked_moves_and_seat_changes_wake_the_clock_loop() -> None:
    # A move of a game without a clock leaves the loop asleep until its tick (absence is
    # measured in seconds); with a clock, a move moves the deadlines and wakes it.
    for options, woken in (({"mode": "duel"}, False), ({"mode": "duel", "clock": "move:60"}, True)):
        service, rec, _ = await _game("illumination", options)
        keeper = ClockKeeper(service)
        keeper._wake.clear()
        (seat,) = rec.to_act()
        legal = rec.codec.encode_commands(rec.game.legal_commands(rec.state, seat))
        await service.command(rec, seat, "c0", legal[0])
        assert keeper._wake.is_set() is woken, options
        started = [e for e in rec.log if e.type.endswith("GameStarted")]
        keeper.on_entries(rec, started)  # a seat change or a start always wakes it
        assert keeper._wake.is_set()


class _Counting:
    """A game's rules, counting how often a look asks whether the game is over."""

    def __init__(self, game: Any) -> None:
        self.game, self.asked = game, 0

    def is_terminal(self, state: Any) -> bool:
        self.asked += 1
        return bool(self.game.is_terminal(state))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


async def test_every_look_passes_over_a_game_it_found_finished() -> None:
    """A node holds many more finished games than running ones, their players' pages still
    open: the clock loop's looks (presence, absence, the deadline index) ask the rules about
    a finished game once, then pass over it; a running game is still looked at."""
    service, done, t = await _game("high-card", {})
    while not done.terminal:
        seat = done.to_act()[0]
        legal = done.codec.encode_commands(done.game.legal_commands(done.state, seat))
        await service.command(done, seat, f"c{done.version}", legal[0])
    running, _ = await service.create_table(
        "high-card", {}, "seed", [SeatClaim("a"), SeatClaim("b")]
    )
    keeper = ClockKeeper(service)
    for rec in (done, running):
        rec.game = _Counting(rec.game)
        keeper.connected(rec, 0)

    async def look() -> None:
        t.ms += 60_000  # every seat's presence due again
        await keeper._heartbeat()
        await keeper.check()
        await keeper.index()

    await look()
    assert done.game.asked > 0 and running.game.asked > 0
    done.game.asked = running.game.asked = 0
    await look()
    assert done.game.asked == 0
    assert running.game.asked > 0
