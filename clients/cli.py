"""The ``cloister`` command line: run a server, create and join games, play in a terminal,
watch, replay, export and import. See ``docs/cli.md``.

Every subcommand talks to a server over the public HTTP and WebSocket API only (``--server``,
env ``CLOISTER_SERVER``), so it works the same against a local ``cloister serve`` and a
remote deployment. Seat tokens from ``join`` are kept in ``tokens.json`` under the user's
config folder, keyed by server and game, so ``play``/``export`` find them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import httpx
import orjson

from . import tui
from .client import Api, ApiError, CloisterError

__all__ = ["main"]

DEFAULT_SERVER = "http://127.0.0.1:8000"


# -- output helpers -------------------------------------------------------------------------
def out(*parts: Any, file: TextIO | None = None) -> None:
    """print + flush: the output is often a pipe (tests, ``| tee``) read while we run."""
    print(*parts, file=file or sys.stdout, flush=True)


def err(message: str) -> None:
    out(f"cloister: {message}", file=sys.stderr)


# -- token store ----------------------------------------------------------------------------
def config_dir() -> Path:
    explicit = os.environ.get("CLOISTER_CONFIG")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cloister"


class TokenStore:
    """``tokens.json``: ``{"<server>|<game>": {"<seat>": {"token", "name"}}}``.

    Tokens are secrets, so the file is created readable by its owner only.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "tokens.json"

    def _load(self) -> dict[str, dict[str, dict[str, str]]]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    @staticmethod
    def _key(server: str, game_id: str) -> str:
        return f"{server.rstrip('/')}|{game_id}"

    def save(self, server: str, game_id: str, seat: int, token: str, name: str) -> None:
        data = self._load()
        data.setdefault(self._key(server, game_id), {})[str(seat)] = {"token": token, "name": name}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=2)
        tmp.replace(self.path)

    def find(self, server: str, game_id: str, seat: int | None = None) -> tuple[int, str] | None:
        seats = self._load().get(self._key(server, game_id), {})
        for key in sorted(seats, key=int):
            if seat is None or int(key) == seat:
                return int(key), seats[key]["token"]
        return None


def resolve_token(args: argparse.Namespace) -> str | None:
    if getattr(args, "token", None):
        return str(args.token)
    found = TokenStore().find(args.server, args.game, getattr(args, "seat", None))
    return found[1] if found else None


# -- option parsing -------------------------------------------------------------------------
def parse_value(raw: str) -> Any:
    """``3`` → 3, ``true`` → True, anything else stays a string (options compare types)."""
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(raw)
    except ValueError:
        return raw


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CloisterError(f"--option wants key=value, not {pair!r}")
        options[key.strip()] = parse_value(value.strip())
    return options


# -- subcommands ----------------------------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    from server.config import Settings
    from server.run import serve

    settings = Settings.from_env()
    where = settings.redis_url or f"an embedded Redis (data in {settings.data_dir}/)"
    out(f"Cloister on http://{args.host}:{args.port}/  (Redis: {where}; Ctrl-C stops)")
    # server.run holds the measured uvicorn settings: websockets-sansio, no
    # permessage-deflate, 1 MiB frames, lifespan on (see the performance notes).
    serve(settings, args.host, args.port, args.workers)
    return 0


async def cmd_types(args: argparse.Namespace) -> int:
    async with Api(args.server) as api:
        for t in await api.game_types():
            opts = ", ".join(f"{o['name']}={o['default']} {o['choices']}" for o in t["options"])
            demo = " (demo)" if t.get("demo") else ""
            out(f"{t['name']:<24} {t['title']}{demo}  options: {opts or '-'}  bots: {t['bots']}")
    return 0


async def cmd_games(args: argparse.Namespace) -> int:
    async with Api(args.server) as api:
        for g in await api.games(args.status):
            seats = " ".join(
                (s["name"] or "-") + (f"[{s['bot']}]" if s["bot"] else "") for s in g["seats"]
            )
            out(f"{g['id']}  {g['type']:<16} {g['status']:<8} v{g['version']:<5} {seats}")
    return 0


async def cmd_new(args: argparse.Namespace) -> int:
    options = parse_options(args.option or [])
    async with Api(args.server) as api:
        game = await api.create_game(args.type, options, args.seed)
        gid = game["id"]
        for _ in range(args.bots or 0):
            await api.add_bot(gid)
        for spec in args.bot or []:
            seat, _, level = spec.partition(":")
            await api.add_bot(gid, int(seat), level or None)
        if args.join:
            seat, token = await api.join(gid, args.join)
            TokenStore().save(args.server, gid, seat, token, args.join)
            err(f"joined {gid} as seat {seat}; token saved")
    out(gid)
    return 0


async def cmd_join(args: argparse.Namespace) -> int:
    async with Api(args.server) as api:
        seat, token = await api.join(args.game, args.name, args.seat)
    TokenStore().save(args.server, args.game, seat, token, args.name)
    out(f"seat {seat}")
    out(f"token {token}")
    return 0


# -- play, watch, replay: the terminal UI (clients/tui) ------------------------------------
async def cmd_play(args: argparse.Namespace) -> int:
    token = resolve_token(args)
    if token is None:
        raise CloisterError(
            f"no token for game {args.game} on {args.server}: run `cloister join` or pass --token"
        )
    if args.plain:
        return await tui.plain.plain_play(args.server, args.game, token)
    tui.run.needs_terminal("play")
    return await tui.run.play(args.server, args.game, token)


async def cmd_watch(args: argparse.Namespace) -> int:
    token = resolve_token(args) if args.token else None
    if args.plain:
        return await tui.plain.plain_watch(args.server, args.game, token, args.history, args.views)
    tui.run.needs_terminal("watch")
    return await tui.run.watch(args.server, args.game, token)


async def cmd_replay(args: argparse.Namespace) -> int:
    token = resolve_token(args)
    if args.plain or args.to is not None:
        return await tui.plain.plain_replay(args.server, args.game, token, args.to)
    tui.run.needs_terminal("replay")
    return await tui.run.replay(args.server, args.game, token)


async def cmd_export(args: argparse.Namespace) -> int:
    token = resolve_token(args)
    async with Api(args.server) as api:
        log = await api.events(args.game, token)
        summary = await api.game(args.game)
    if log["audience"] != "review":
        err(
            f"the game is not finished: this export shows what {log['audience']} may see, "
            "with secrets hidden, and cannot be imported"
        )
    # A header line in the same {version, type, data} shape as the events: the game type and
    # options travel with the log, whichever platform events the server keeps in it.
    header = {"version": 0, "type": EXPORT_HEADER, "data": summary, "text": "export"}
    sys.stdout.write(orjson.dumps(header).decode() + "\n")
    for e in log["events"]:
        sys.stdout.write(orjson.dumps(e).decode() + "\n")
    sys.stdout.flush()
    return 0


GAME_CREATED = "cloister.GameCreated"
EXPORT_HEADER = "cloister.Export"


def read_export(path: str) -> list[dict[str, Any]]:
    """An export file → the events for ``POST /api/games/import`` (header line dropped)."""
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    with stream:
        try:
            lines = [orjson.loads(line) for line in stream if line.strip()]
        except orjson.JSONDecodeError as exc:
            raise CloisterError(f"{path}: not JSON lines: {exc}") from None
    events = [e for e in lines if isinstance(e, dict) and e.get("type") != EXPORT_HEADER]
    if not events or events[0].get("type") != GAME_CREATED:
        raise CloisterError(f"{path}: not a Cloister export (it must start with GameCreated)")
    hidden = [e.get("version") for e in events if e.get("type") == "Hidden"]
    if hidden:
        raise CloisterError(
            f"{path}: events {hidden[:5]} are hidden; only a finished game's full log "
            "(exported after the game ended) can be imported"
        )
    return [{"version": e.get("version"), "type": e["type"], "data": e["data"]} for e in events]


async def cmd_import(args: argparse.Namespace) -> int:
    events = read_export(args.file)
    async with Api(args.server) as api:
        try:
            game = await api.import_game(events)
        except ApiError as exc:
            if exc.status in (404, 405) and exc.code == "http_error":
                raise CloisterError(
                    "this server has no import route (POST /api/games/import)"
                ) from None
            raise
    out(game["id"])
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from protocol import json_schema

    out(json.dumps(json_schema(), indent=2))
    return 0


# -- argument parsing -----------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cloister", description="Cloister game server and terminal client."
    )
    p.add_argument(
        "--server",
        default=os.environ.get("CLOISTER_SERVER", DEFAULT_SERVER),
        help="server URL (env CLOISTER_SERVER; default %(default)s)",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("serve", help="run a server (REDIS_URL, else an embedded Redis)")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument(
        "--workers", type=int, default=1, metavar="N", help="N server processes on the port"
    )

    sub.add_parser("types", help="list the game types")
    s = sub.add_parser("games", help="list games")
    s.add_argument("--status", choices=["open", "running", "finished"])

    s = sub.add_parser("new", help="create a game; prints its id")
    s.add_argument("type", help="game type, e.g. high-card (see `cloister types`)")
    s.add_argument("--option", "-o", action="append", metavar="K=V", help="a game option")
    s.add_argument("--seed", help="random seed (same seed, same deal)")
    s.add_argument("--bots", type=int, metavar="N", help="fill N seats with bots")
    s.add_argument(
        "--bot", action="append", metavar="SEAT[:LEVEL]", help="a bot in this seat (repeatable)"
    )
    s.add_argument("--join", metavar="NAME", help="also take a seat under this name")

    s = sub.add_parser("join", help="take a seat; prints seat and token (and saves the token)")
    s.add_argument("game")
    s.add_argument("--name", required=True)
    s.add_argument("--seat", type=int)

    plain = "line by line instead of full-screen (for pipes, scripts and screen readers)"
    s = sub.add_parser("play", help="play in the terminal (full-screen)")
    s.add_argument("game")
    s.add_argument("--token", help="seat token (default: the one saved by `join`)")
    s.add_argument("--seat", type=int, help="which saved seat, if you joined several")
    s.add_argument("--plain", action="store_true", help=plain)

    s = sub.add_parser("watch", help="spectate a game as it is played (full-screen)")
    s.add_argument("game")
    s.add_argument("--token", help="watch as this seat instead of as a spectator")
    s.add_argument("--plain", action="store_true", help=plain)
    s.add_argument("--history", action="store_true", help="--plain: print the log so far first")
    s.add_argument(
        "--views", action="store_true", help="--plain: print the board after every update"
    )

    s = sub.add_parser("replay", help="step back and forth through a game's history (full-screen)")
    s.add_argument("game")
    s.add_argument("--token")
    s.add_argument("--seat", type=int)
    s.add_argument("--plain", action="store_true", help=plain)
    s.add_argument("--to", type=int, metavar="N", help="print the game at version N and exit")

    s = sub.add_parser("export", help="print the game's log as JSON lines")
    s.add_argument("game")
    s.add_argument("--token")
    s.add_argument("--seat", type=int)

    s = sub.add_parser("import", help="create a game from an exported full log")
    s.add_argument("file", help="an export file, or - for stdin")

    sub.add_parser("schema", help="print the wire protocol's JSON Schema")
    return p


ASYNC_COMMANDS = {
    "types": cmd_types,
    "games": cmd_games,
    "new": cmd_new,
    "join": cmd_join,
    "play": cmd_play,
    "watch": cmd_watch,
    "replay": cmd_replay,
    "export": cmd_export,
    "import": cmd_import,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.server = args.server.rstrip("/")
    try:
        if args.command == "serve":
            return cmd_serve(args)
        if args.command == "schema":
            return cmd_schema(args)
        return asyncio.run(ASYNC_COMMANDS[args.command](args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `cloister export G | head`: the reader left; that is not an error.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except ApiError as exc:
        err(f"{exc.code}: {exc.message}")
        return 1
    except (httpx.ConnectError, ConnectionRefusedError):
        err(f"cannot reach {args.server} (is `cloister serve` running?)")
        return 1
    except (CloisterError, TimeoutError, OSError) as exc:
        err(str(exc) or type(exc).__name__)
        return 1


if __name__ == "__main__":
    sys.exit(main())
