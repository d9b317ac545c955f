"""Every bad input to `cloister` gets ONE clear line on stderr and a non-zero exit, never a
traceback: bad arguments (exit 2, argparse), bad files, unknown ids, server refusals and an
unreachable server (exit 1). Most cases run `main()` in this process; a few run the real
command as a child process, where a traceback would show if anything escaped."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from clients.cli import main
from clients.client import Api

from .helpers import new_game, play_until

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing listens there


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """`cloister ARGS` in this process: (exit code, stdout, stderr)."""
    monkeypatch.setenv("CLOISTER_CONFIG", str(tmp_path / "config"))

    def cli(*args: str, stdin: str | bytes = "") -> tuple[int, str, str]:
        raw = stdin.encode() if isinstance(stdin, str) else stdin
        fake = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", fake)
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return cli


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got: {err!r}"
    assert "Traceback" not in err
    return lines[0]


def refused(result: tuple[int, str, str], *needles: str, code: int = 1) -> str:
    status, _, err = result
    line = one_line(err)
    assert status == code, (status, err)
    for needle in needles:
        assert needle in line, line
    return line


async def _count_games(url: str) -> int:
    async with Api(url) as api:
        return len(await api.games())


# -- arguments (argparse: exit 2, one line naming the command and the help) ----------------
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ((), "required: COMMAND"),
        (("bogus",), "invalid choice: 'bogus'"),
        (("--server", "ftp://x", "games"), "not a server URL"),
        (("serve", "--port", "abc"), "not a whole number"),
        (("serve", "--port", "70000"), "a port is 1 to 65535"),
        (("serve", "--log-level", "loud"), "invalid choice: 'loud'"),
        (("games", "--status", "bogus"), "invalid choice: 'bogus'"),
        (("new",), "required: type"),
        (("new", "high-card", "--bots", "x"), "not a whole number"),
        (("new", "high-card", "--bots", "-1"), "must be 0 or more"),
        (("new", "high-card", "--join", "x" * 41), "a name has 1 to 40 characters"),
        (("join", "g-1"), "required: --name"),
        (("join", "../etc", "--name", "a"), "not a game id"),
        (("join", "g-1", "--name", "a", "--seat", "first"), "not a whole number"),
        (("play", "g 1"), "not a game id"),
        (("play", "g-1", "--token="), "the token is empty"),
        (("play", "g-1", "--seat", "-2"), "must be 0 or more"),
        (("watch", "g/1"), "not a game id"),
        (("watch", "g-1", "--frames"), "unrecognized arguments"),
        (("replay", "g-1", "--to", "last"), "not a whole number"),
        (("export", ""), "not a game id"),
        (("import",), "required: file"),
        (("schema", "--openapi"), "unrecognized arguments"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(
    run: Any, args: tuple[str, ...], needle: str
) -> None:
    line = refused(run(*args), needle, code=2)
    assert line.startswith("cloister")
    assert "--help" in line


# -- the server: unreachable, unknown ids, refusals ----------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ("types",),
        ("games",),
        ("new", "high-card"),
        ("join", "g-1", "--name", "a"),
        ("play", "g-1", "--token=t", "--plain"),
        ("watch", "g-1", "--plain"),
        ("replay", "g-1", "--to", "1"),
        ("export", "g-1"),
    ],
)
def test_an_unreachable_server_is_one_line(run: Any, args: tuple[str, ...]) -> None:
    refused(run("--server", NOWHERE, *args), "cannot reach http://127.0.0.1:9")


@pytest.mark.parametrize(
    "args",
    [
        ("join", "g-000000000000", "--name", "a"),
        ("play", "g-000000000000", "--token=t", "--plain"),
        ("watch", "g-000000000000", "--plain"),
        ("replay", "g-000000000000", "--to", "1"),
        ("export", "g-000000000000"),
    ],
)
def test_unknown_game_ids_are_one_line(run: Any, live_server: Any, args: tuple[str, ...]) -> None:
    refused(run("--server", live_server.url, *args), "game_not_found", "g-000000000000")


def test_new_is_checked_before_anything_is_created(run: Any, live_server: Any) -> None:
    url = live_server.url
    before = asyncio.run(_count_games(url))
    cases = [
        (("new", "high-card", "--bots", "9"), "too_many_seats"),
        (("new", "high-card", "--bots", "1", "--bot", "0", "--join", "ann"), "too_many_seats"),
        (("new", "high-card", "--bot", "5"), "bad_seat"),
        (("new", "high-card", "--bot", "1", "--bot", "1"), "asked for twice"),
        (("new", "high-card", "--bot", "1:genius"), "unknown_bot"),
        (("new", "high-card", "--bot", "one:random"), "--bot wants SEAT[:LEVEL]"),
        (("new", "high-card", "-o", "oops"), "key=value"),
        (("new", "high-card", "-o", "players=9"), "invalid_options"),
        (("new", "illumination", "-o", "difficulty=5"), "applies only when mode is solo"),
        (("new", "no-such-type"), "unknown_game_type"),
        (("new", "high-card", "--join", "   "), "a name has 1 to 40 characters"),
    ]
    for args, needle in cases:
        status, out, err = run("--server", url, *args)
        assert status != 0 and out == "", (args, out)
        assert needle in one_line(err), (args, err)
    assert asyncio.run(_count_games(url)) == before  # no half-made game anywhere
    # and a good one prints the id, with every seat filled in one go
    status, out, err = run("--server", url, "new", "high-card", "--bots", "1", "--join", "ann")
    assert status == 0, err
    gid = out.strip()
    assert f"joined {gid} as Player" in err
    assert asyncio.run(_count_games(url)) == before + 1


def test_join_refusals_are_one_line(run: Any, live_server: Any) -> None:
    gid, _, _ = asyncio.run(new_game(live_server.url, "join-refusals"))
    refused(run("--server", live_server.url, "join", gid, "--name", "cy"), "game_started")
    code, out, err = run("--server", live_server.url, "new", "high-card")
    assert code == 0, err
    open_id = out.strip()
    refused(
        run("--server", live_server.url, "join", open_id, "--name", "cy", "--seat", "7"),
        "bad_seat",
    )


def test_play_with_a_wrong_token_is_one_line(run: Any, live_server: Any) -> None:
    gid, _, _ = asyncio.run(new_game(live_server.url, "bad-token"))
    refused(run("--server", live_server.url, "play", gid, "--token=nope", "--plain"), "bad_token")
    refused(
        run("--server", live_server.url, "replay", gid, "--token=nope", "--to", "1"), "bad_token"
    )


# -- import: every way a file can be wrong --------------------------------------------------
GOOD_HEADER = {"version": 0, "type": "cloister.Export", "data": {}, "text": "export"}


def _lines(*objs: Any) -> bytes:
    return b"".join(orjson.dumps(o) + b"\n" for o in objs)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"", "empty"),
        (b"\n  \n", "empty"),
        (b"\xff\xfe{\x00", "not UTF-8"),
        (b"caf\xe9\n", "not UTF-8"),
        (b"{not json\n", "line 1: not JSON"),
        (_lines(GOOD_HEADER) + b"[1, 2]\n", "line 2: not a JSON object"),
        (_lines({"version": 1, "type": "cloister.GameCreated"}), "line 1: an event needs 'data'"),
        (_lines({"version": 1, "data": {}}), "an event needs 'type'"),
        (_lines({"version": 1, "type": "cloister.GameCreated", "data": []}), "'data' an object"),
        (_lines({"version": 1, "type": "CardDrawn", "data": {}}), "must start with GameCreated"),
        (
            _lines(
                {"version": 1, "type": "cloister.GameCreated", "data": {}},
                {"version": 2, "type": "Hidden", "data": {}},
            ),
            "events [2] are hidden",
        ),
    ],
)
def test_bad_export_files_are_one_line(
    run: Any, tmp_path: Path, content: bytes, needle: str
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(content)
    # (never reaches the server: NOWHERE would say "cannot reach")
    refused(run("--server", NOWHERE, "import", str(path)), str(path), needle)
    refused(run("--server", NOWHERE, "import", "-", stdin=content), needle)


def test_import_of_missing_files_and_folders(run: Any, tmp_path: Path) -> None:
    refused(run("import", str(tmp_path / "nope.jsonl")), "cannot read", "No such file")
    refused(run("import", str(tmp_path)), "is a folder")


def test_import_of_a_running_game_is_refused_by_the_server(run: Any, live_server: Any) -> None:
    """A log with nothing hidden that still stops mid-game (say, edited by hand)."""
    url = live_server.url
    gid, t0, t1 = asyncio.run(new_game(url, "cut"))

    async def finish_and_cut() -> list[dict[str, Any]]:
        from clients.client import GameClient

        async with GameClient(url, gid, t0) as a, GameClient(url, gid, t1) as b:
            await play_until([a, b], lambda: a.finished)
        async with Api(url) as api:
            log = (await api.events(gid))["events"]
        return log[: len(log) // 2]

    cut = asyncio.run(finish_and_cut())
    before = asyncio.run(_count_games(url))
    code, out, err = run("--server", url, "import", "-", stdin=_lines(*cut))
    assert code == 1 and out == ""
    assert "unfinished_log" in one_line(err)
    assert asyncio.run(_count_games(url)) == before


def test_the_real_command_never_shows_a_traceback(live_server: Any, tmp_path: Path) -> None:
    """As a person runs it: a child process, its stderr whole."""
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(b"caf\xe9\n")
    env = {"CLOISTER_CONFIG": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    for args, code in [
        (["import", str(bad)], 1),
        (["--server", live_server.url, "new", "illumination", "--bots", "9"], 1),
        (["new", "illumination", "--bots", "many"], 2),
    ]:
        proc = subprocess.run(
            [sys.executable, "-m", "clients.cli", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=60,
        )
        assert proc.returncode == code, (args, proc.stderr)
        assert proc.stdout == ""
        line = one_line(proc.stderr)
        assert line.startswith("cloister"), line


def test_types_says_demo_once(run: Any, live_server: Any) -> None:
    code, out, _ = run("--server", live_server.url, "types")
    assert code == 0
    [line] = [x for x in out.splitlines() if x.startswith("high-card")]
    assert line.count("(demo)") == 1


def test_schema_prints_json_and_asyncapi(run: Any) -> None:
    code, out, _ = run("schema", "--asyncapi")
    assert code == 0 and json.loads(out)["asyncapi"] == "3.0.0"
