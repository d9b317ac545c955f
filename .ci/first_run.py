"""First run on a bare machine, as a new user does it (run by .ci/run; standard library only).

``readme``: README command 1, taken from README.md and run literally with bash, in a fresh
venv (no extras), in a fresh copy of the repository in an empty folder, with no REDIS_URL
(so the server starts its embedded Redis). Then: /api/health, the ``cloister`` command of
that venv (types; an all-bot game created with ``new`` and followed to its end; export and
import of it), a clean stop, and no Redis left behind.

``docker``: what deploy/Dockerfile does, without Docker (CI has none): copy what it COPYs
into an empty folder, run its ``pip install`` in a fresh venv, start its CMD (on loopback
and a free port instead of 0.0.0.0:8000, and on this machine's Redis instead of the
compose service ``redis``), check /api/health and a game.

The port comes from ``CLOISTER_PORT`` (command 1 itself is run unchanged). Exits non-zero
on any failure, with the server's output shown.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GAME_TIMEOUT = 300.0


def say(message: str) -> None:
    print(f"[first run] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def readme_command() -> str:
    """README command 1: the line after the '# 1.' comment of the first bash block."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block, "README.md has no bash block"
    lines = block.group(1).splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith("# 1."):
            command = lines[i + 1].split("  #")[0].strip()
            assert command, "README command 1 is empty"
            return command
    raise AssertionError("README.md has no '# 1.' command")


def copy_repository(dest: Path) -> None:
    """The repository's files (tracked, and new ones not ignored), nothing else: no venv,
    no .cloister data, no caches."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for raw in listed:
        if not raw:
            continue
        rel = Path(raw.decode())
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def fresh_venv(where: Path) -> dict[str, str]:
    """A new venv; the environment that has it first on PATH, like an activated one."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PYTHONPATH")}
    env["VIRTUAL_ENV"] = str(where)
    env["PATH"] = f"{where / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def get(url: str, timeout: float = 5) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def wait_healthy(base: str, proc: subprocess.Popen[bytes], timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode} before it was up")
        try:
            status, body = get(base + "/api/health", timeout=2)
            if status == 200:
                return dict(body)
        except (OSError, ValueError):
            pass
        time.sleep(0.5)
    raise AssertionError(f"no healthy server at {base} within {timeout:.0f} s")


def cloister(env: dict[str, str], cwd: Path, *args: str) -> str:
    """The venv's ``cloister``; its stdout (fails on a non-zero exit or a traceback)."""
    done = subprocess.run(
        ["cloister", *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )
    if done.returncode != 0 or "Traceback" in done.stderr:
        raise AssertionError(f"cloister {' '.join(args)} -> {done.returncode}: {done.stderr}")
    return done.stdout


def play_to_the_end(base: str, env: dict[str, str], cwd: Path, type_: str, bots: int) -> str:
    out = cloister(env, cwd, "--server", base, "new", type_, "--bots", str(bots))
    gid = out.strip()
    assert re.fullmatch(r"g-[0-9a-f]{12}", gid), out
    deadline = time.monotonic() + GAME_TIMEOUT
    while True:
        status, game = get(f"{base}/api/games/{gid}")
        assert status == 200, game
        if game["status"] == "finished":
            say(f"{type_} {gid}: finished at version {game['version']}: "
                f"{game['result']['summary']}")  # fmt: skip
            return gid
        assert time.monotonic() < deadline, f"{type_} game {gid} did not end: {game}"
        time.sleep(0.5)


def stop(proc: subprocess.Popen[bytes], timeout: float = 30) -> int:
    """Ctrl-C, as a person stops it: SIGINT to the whole command (bash and cloister)."""
    os.killpg(proc.pid, signal.SIGINT)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise AssertionError("the server did not stop on Ctrl-C") from None


def redis_children(folder: Path) -> list[int]:
    """redis-server processes working in ``folder`` (Redis chdirs into its --dir)."""
    pids = []
    folder = folder.resolve()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
                if "redis-server" in cmdline and os.readlink(entry / "cwd") == str(folder):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def run_readme(tmp: Path) -> None:
    command = readme_command()
    say(f"README command 1: {command}")
    repo = tmp / "cloister"
    repo.mkdir()
    copy_repository(repo)
    assert not (repo / ".cloister").exists() and not (repo / ".venv").exists()
    env = fresh_venv(tmp / "venv")
    port = free_port()
    env["CLOISTER_PORT"] = str(port)
    env["CLOISTER_BOT_DELAY"] = "0.02"
    base = f"http://127.0.0.1:{port}"
    log = (tmp / "server.log").open("wb")
    proc = subprocess.Popen(
        ["bash", "-c", command], cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        health = wait_healthy(base, proc, timeout=600)  # pip install comes first
        assert health["redis"] == "ok", health
        say(f"healthy at {base}: {health}")
        assert (repo / ".cloister" / "server.lock").exists(), "no data folder in the checkout"
        installed = subprocess.run(
            ["pip", "list", "--format=freeze"], env=env, capture_output=True, text=True
        ).stdout
        for dev_only in ("httpx", "pytest", "playwright"):
            assert f"{dev_only}==" not in installed.lower(), f"{dev_only} got installed"
        types = cloister(env, tmp, "--server", base, "types")
        assert "illumination" in types and "road-to-enlightenment" in types, types
        gid = play_to_the_end(base, env, tmp, "illumination", 2)
        play_to_the_end(base, env, tmp, "high-card", 2)
        export = tmp / "game.jsonl"
        export.write_text(cloister(env, tmp, "--server", base, "export", gid))
        copy = cloister(env, tmp, "--server", base, "import", str(export)).strip()
        status, game = get(f"{base}/api/games/{copy}")
        assert status == 200 and game["status"] == "finished", game
        say(f"exported {gid} and imported it as {copy}")
        status, page = 0, ""
        with urllib.request.urlopen(base + "/", timeout=5) as resp:
            status, page = resp.status, resp.read().decode()
        assert status == 200 and "<html" in page.lower(), "no web client at /"
        code = stop(proc)
        # 130: the shell's code for "ended by Ctrl-C" (uvicorn re-raises the SIGINT once
        # it has shut down), as docs/cli.md says.
        assert code in (0, 130), f"the server exited with {code} on Ctrl-C"
        deadline = time.monotonic() + 10
        while redis_children(repo / ".cloister") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not redis_children(repo / ".cloister"), "the embedded Redis outlived the server"
        say("stopped cleanly; its Redis is gone")
    except BaseException:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        sys.stdout.write((tmp / "server.log").read_text(errors="replace")[-6000:])
        raise
    log.close()


def dockerfile() -> tuple[list[list[str]], list[str], dict[str, str], list[str]]:
    """(COPY argument lists, RUN commands, ENV, CMD) of deploy/Dockerfile."""
    text = (ROOT / "deploy" / "Dockerfile").read_text().replace("\\\n", " ")
    copies, runs, env, cmd = [], [], {}, []
    for line in text.splitlines():
        word, _, rest = line.strip().partition(" ")
        if word == "COPY":
            copies.append(rest.split())
        elif word == "RUN":
            runs.append(rest)
        elif word == "ENV":
            for pair in shlex.split(rest):
                key, _, value = pair.partition("=")
                env[key] = value
        elif word == "CMD":
            cmd = json.loads(rest)
    assert copies and runs and cmd, "deploy/Dockerfile: no COPY, RUN or CMD"
    return copies, runs, env, cmd


def run_docker(tmp: Path) -> None:
    copies, runs, image_env, cmd = dockerfile()
    app = tmp / "app"
    app.mkdir()
    for args in copies:
        *sources, target = args
        for src in sources:
            dest = app / (target if target not in ("./", ".") else src)
            if (ROOT / src).is_dir():
                shutil.copytree(ROOT / src, dest, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(ROOT / src, app / src)
    env = fresh_venv(tmp / "venv")
    for run in runs:
        if run.startswith(("mkdir", "chown")):  # image set-up for its data volume
            continue
        say(f"RUN {run}")
        subprocess.run(["bash", "-c", run], cwd=app, env=env, check=True)
    env.update(image_env)
    prefix = f"ci-docker-{uuid.uuid4().hex[:8]}"
    env["REDIS_URL"] = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    env["CLOISTER_PREFIX"] = prefix
    env["CLOISTER_BOT_DELAY"] = "0.02"
    env.pop("CLOISTER_DATA", None)
    port = free_port()
    # Loopback only: never 0.0.0.0 on this machine.
    args = ["127.0.0.1" if a == "0.0.0.0" else str(port) if a == "8000" else a for a in cmd]
    say(f"CMD {' '.join(args)}")
    log = (tmp / "docker.log").open("wb")
    proc = subprocess.Popen(
        args, cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc, timeout=120)
        play_to_the_end(base, env, tmp, "high-card", 2)
        assert stop(proc) in (0, 130)
        say("the image's install and command serve and play")
    except BaseException:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        sys.stdout.write((tmp / "docker.log").read_text(errors="replace")[-6000:])
        raise
    finally:
        if shutil.which("redis-cli"):
            url = env["REDIS_URL"]
            subprocess.run(
                ["bash", "-c", f"redis-cli -u {shlex.quote(url)} --scan --pattern "
                 f"{shlex.quote(prefix + '*')} | xargs -r redis-cli -u {shlex.quote(url)} del"],
                check=False, capture_output=True,
            )  # fmt: skip
    log.close()


def main() -> int:
    which = sys.argv[1] if len(sys.argv) > 1 else "readme"
    tmp = Path(tempfile.mkdtemp(prefix=f"cloister-{which}-"))
    started = time.monotonic()
    try:
        {"readme": run_readme, "docker": run_docker}[which](tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    say(f"{which}: passed in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
