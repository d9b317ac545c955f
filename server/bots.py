"""Bot seats: a bot plays through the same command path as a person.

Whenever a game this node holds advances and a bot seat is to act, the node schedules that
bot's move. The bot's random source is seeded from the game's secret seed and the version,
so every node would choose the same command. Its command id is random (nobody can guess it:
ids are scoped by seat anyway, and a player must not be able to block a bot's future
moves) and it carries ``expected_version``: if several nodes schedule the same move, the
first append wins and the others are refused ``stale`` and look again at the new state.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from domain import DomainError, Rng
from domain.bots import bot_move

from .errors import ServiceError
from .games import GameRecord, GameService, LogEntry

__all__ = ["BotRunner"]

log = logging.getLogger("cloister.bots")


class BotRunner:
    def __init__(self, service: GameService, delay: float = 0.0) -> None:
        self.service = service
        self.delay = delay
        self._pending: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._closed = False
        service.listeners.append(self.on_entries)

    def on_entries(
        self, rec: GameRecord, entries: list[LogEntry], command_id: str | None = None
    ) -> None:
        if self._closed or rec.state is None:
            return
        # The seats first: with no bot at the table and none standing in (most games,
        # every move), nothing is scheduled, and the rules need not be asked anything.
        for held in rec.seats:
            if held is not None and (held.bot or held.stand_in) is not None:
                break
        else:
            return
        if rec.terminal:
            return
        for seat in rec.game.to_act(rec.state):
            info = rec.seats[seat]
            # A bot's own seat, or a person's a bot stands in for (``server.clocks``).
            level = None if info is None else info.bot or info.stand_in
            if level is None or (rec.id, seat) in self._pending:
                continue
            task = asyncio.get_running_loop().create_task(self._move(rec, seat, level))
            self._pending[(rec.id, seat)] = task

    async def _move(self, rec: GameRecord, seat: int, level: str) -> None:
        start = rec.version
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            version = rec.version
            if rec.state is None or rec.terminal or seat not in rec.game.to_act(rec.state):
                return
            info = rec.seats[seat]
            if info is None or (info.bot or info.stand_in) is None:
                return  # its player took the seat back meanwhile
            bot = rec.gtype.bot(level)
            rng = Rng(f"{rec.seed}:bot:{seat}:{version}")
            command = bot_move(bot, rec.game, rec.state, seat, rng)  # the view, never the state
            raw = rec.codec.encode_command(command)
            cid = "bot-" + secrets.token_hex(12)
            await self.service.command(rec, seat, cid, raw, expected_version=version)
        except (DomainError, ServiceError) as exc:
            log.info("bot %s/%s refused: %s", rec.id, seat, exc)
        except Exception:
            log.exception("bot %s/%s failed", rec.id, seat)
        finally:
            self._pending.pop((rec.id, seat), None)
        # Our own append notified the listeners while this task was still pending, so a
        # seat that acts again would be missed: look again, but only if the game moved
        # (a refused move on an unchanged state must not spin).
        if not self._closed and rec.version != start:
            self.on_entries(rec, [])

    def busy(self, game_id: str, seats: int) -> bool:
        """Is a move of one of the game's bots pending (the cache keeps such a game)?"""
        return bool(self._pending) and any((game_id, s) in self._pending for s in range(seats))

    async def close(self) -> None:
        self._closed = True
        for task in list(self._pending.values()):
            task.cancel()
        await asyncio.gather(*self._pending.values(), return_exceptions=True)
