"""Expected conditions the server reports to clients, each with a stable code."""

from __future__ import annotations

__all__ = ["STORE_ERRORS", "UNAVAILABLE", "ServiceError"]


class ServiceError(Exception):
    """A request the server refuses: ``code`` is stable, ``status`` is the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def _store_errors() -> tuple[type[BaseException], ...]:
    import redis.exceptions

    return (
        ConnectionError,
        TimeoutError,
        redis.exceptions.ConnectionError,
        redis.exceptions.TimeoutError,
    )


STORE_ERRORS: tuple[type[BaseException], ...] = _store_errors()
"""What a Redis outage raises (refused, reset, stalled past its timeout): answered
``unavailable`` (retry later, with the same command id), never a crash or a silent close."""

UNAVAILABLE = "the game store (Redis) is unreachable just now; retry in a moment"
