"""Expected conditions the server reports to clients, each with a stable code."""

from __future__ import annotations

__all__ = ["ServiceError"]


class ServiceError(Exception):
    """A request the server refuses: ``code`` is stable, ``status`` is the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
