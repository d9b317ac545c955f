"""Server settings, from arguments or the environment. No module-level state."""

from __future__ import annotations

import math
import os
from typing import Any

import attrs

__all__ = ["CLOCK_WATCH_RANGE", "Settings", "clock_watch_seconds"]

CLOCK_WATCH_RANGE = (0.01, 3600.0)
"""Seconds between two reads of the deadline index, at least and at most: below, every
process would read Redis hundreds of times a second for nothing; above an hour, a game
nobody holds would time out an hour late."""


def clock_watch_seconds(raw: object, source: str = "clock_watch") -> float:
    """``raw`` (a number, or its text from the environment or the command line) as the
    seconds between two reads of the deadline index; ValueError naming ``source`` and the
    range for anything else (so a typo stops the server with one line, not a traceback)."""
    low, high = CLOCK_WATCH_RANGE
    why = f"{source} must be a number of seconds from {low:g} to {high:g}, not {raw!r}"
    if isinstance(raw, bool):
        raise ValueError(why)
    try:
        value = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(why) from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(why)
    return value


def _clock_watch(_: Any, attribute: Any, value: float) -> None:
    clock_watch_seconds(value)


@attrs.frozen
class Settings:
    redis_url: str | None = None
    """None: start and own an embedded Redis (see ``server.embedded``)."""
    key_prefix: str = "cloister"
    data_dir: str = ".cloister"
    """Where the embedded Redis keeps its AOF, so games survive a restart."""
    max_message_bytes: int = 16 * 1024
    """A WebSocket message's limit: a bigger one is answered ``too_large`` (socket open)."""
    max_frame_bytes: int = 64 * 1024
    """A WebSocket message bigger than this is not even read: the server closes the socket
    with 1009 (``cloister serve`` passes it to uvicorn as ``ws_max_size``)."""
    max_body_bytes: int = 16 * 1024
    """An HTTP request body's limit on every route but those with their own (below):
    refused with 413 before more than this is read (``server.limits``)."""
    max_import_bytes: int = 64 << 20
    """The body limit of ``POST /api/games/import`` (a whole game's log)."""
    rate_per_second: float = 200.0
    """Per connection. Generous for people and bots; stops a runaway loop or a flood."""
    rate_burst: int = 400
    cache_games: int = 2000
    """Games this process keeps in memory at most (least recently used dropped first;
    a dropped game reloads from its stream on its next use; ``server.cache``)."""
    cache_bytes: int = 256 << 20
    """The cached games' estimated memory at most."""
    bot_delay: float = 0.0
    reconcile_seconds: float = 5.0
    hello_timeout: float = 10.0
    clock_tick: float = 1.0
    """Longest sleep of the clock keeper between looks (``server.clocks``)."""
    clock_watch: float = attrs.field(default=5.0, validator=_clock_watch)
    """Seconds between two reads of the deadline index, for due games no process holds
    (``server.clocks``; also read once at start-up). Env ``CLOISTER_CLOCK_WATCH``, or
    ``--clock-watch``; a game nobody holds times out at most this late."""

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """The settings of the environment (``overrides``: from the command line, when not
        None). ValueError, naming the variable, for a value that is not one."""
        env = os.environ
        values: dict[str, object] = {
            "redis_url": env.get("REDIS_URL") or None,
            "key_prefix": env.get("CLOISTER_PREFIX", "cloister"),
            "data_dir": env.get("CLOISTER_DATA", ".cloister"),
            "bot_delay": float(env.get("CLOISTER_BOT_DELAY", "0.4")),
            "rate_per_second": float(env.get("CLOISTER_RATE", "200")),
            "cache_games": int(env.get("CLOISTER_CACHE_GAMES", "2000")),
            "cache_bytes": int(env.get("CLOISTER_CACHE_MB", "256")) << 20,
        }
        if "CLOISTER_CLOCK_WATCH" in env:
            values["clock_watch"] = clock_watch_seconds(
                env["CLOISTER_CLOCK_WATCH"], "CLOISTER_CLOCK_WATCH"
            )
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
