"""Cloister's I/O layer: Starlette HTTP + WebSocket, the Redis event store, fan-out."""

from .app import create_app
from .config import Settings

__all__ = ["Settings", "create_app"]
