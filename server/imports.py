"""Importing a finished game's exported log: re-decided, never trusted.

The log is re-decided by ``server.fairness.replay`` (the rules, from the revealed seed,
command by command) in a worker thread, so a large import never stalls the event loop; only
a log the rules would produce is stored, as a new game whose seed is the revealed one.
It is stored in bounded pieces (``RedisStore.append_large``): a log near the size limit
written as one script call held Redis up for every other game while it ran; the game
becomes visible only once all of it is written.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING, Any

from .errors import ServiceError
from .fairness import IMPORTED, Mismatch, Unfinished, Unverifiable, VerifyError, replay
from .games import SEAT_TAKEN

if TYPE_CHECKING:
    from .games import GameRecord, GameService

__all__ = ["import_log", "service_error"]

IMPORT_NAME_MAX = 40


def service_error(exc: VerifyError, import_: bool = True) -> ServiceError:
    """The stable error code of a log that did not re-decide."""
    if isinstance(exc, Unverifiable):
        return ServiceError("unverifiable_log", exc.message)
    if isinstance(exc, Unfinished):
        return ServiceError("unfinished_log", exc.message)
    assert isinstance(exc, Mismatch)
    return ServiceError("import_mismatch" if import_ else exc.code, exc.message)


def _imported_name(name: str) -> str:
    """Imported seats have no tokens: their names say the game came from elsewhere."""
    if name.endswith(IMPORTED):
        return name
    return name[:IMPORT_NAME_MAX] + IMPORTED


async def import_log(service: GameService, events: list[dict[str, Any]]) -> GameRecord:
    try:
        replayed = await asyncio.to_thread(replay, service.registry, events, False)
    except VerifyError as exc:
        raise service_error(exc) from None
    batch: list[tuple[str, dict[str, Any], Any]] = []
    for type_, data, obj in replayed.events:
        if type_ == SEAT_TAKEN and not data.get("bot"):
            data = {**data, "name": _imported_name(data["name"])}
        batch.append((type_, data, obj))
    game_id = "g-" + uuid.uuid4().hex[:12]
    rec = service._record(game_id, batch[0][1], replayed.seed)
    service.games[game_id] = rec
    seed = replayed.seed
    await service._execute(rec, f"import:{game_id}", lambda r: (batch, {"seed": seed}), large=True)
    return rec
