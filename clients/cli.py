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
import re
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

import orjson

from . import tui
from .client import Api, ApiError, CloisterError, ServerUnreachable

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
def _without_password(url: str) -> str:
    """``url`` with its password replaced by ``***``: the banner goes to terminals and logs,
    which must never hold a credential."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = f"{parts.username}:" if parts.username else ":"
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{user}***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def cmd_serve(args: argparse.Namespace) -> int:
    from server.config import Settings
    from server.embedded import FolderBusy
    from server.run import ServeError, serve

    try:
        settings = Settings.from_env(clock_watch=args.clock_watch)
    except ValueError as exc:
        raise CloisterError(f"bad environment: {exc}") from None
    where = (
        _without_password(settings.redis_url)
        if settings.redis_url
        else f"an embedded Redis (data in {settings.data_dir}/)"
    )

    def ready(url: str) -> None:
        out(f"Cloister on {url}  (Redis: {where}; Ctrl-C stops)")

    # server.run holds the measured uvicorn settings: websockets-sansio, no
    # permessage-deflate, 1 MiB frames, lifespan on (see the performance notes). It binds
    # the port and locks the data folder before anything starts.
    try:
        serve(settings, args.host, args.port, args.workers, args.log_level, on_ready=ready)
    except (ServeError, FolderBusy) as exc:
        raise CloisterError(str(exc)) from None
    return 0


def _choices(choices: list[Any]) -> str:
    if len(choices) > 8:
        return f"{', '.join(map(str, choices[:3]))}, … ({len(choices)} choices)"
    return ", ".join(map(str, choices))


async def cmd_types(args: argparse.Namespace) -> int:
    async with Api(args.server) as api:
        for t in await api.game_types():
            # The title of a demo says so already ("High Card (demo)"); say it once.
            demo = " (demo)" if t.get("demo") and "demo" not in t["title"].lower() else ""
            out(f"{t['name']:<24} {t['title']}{demo}")
            for o in t["options"]:
                when = o.get("applies_when") or {}
                only = f"  (only when {', '.join(f'{k}={v}' for k, v in when.items())})"
                out(
                    f"    {o['name']}={o['default']}  [{_choices(o['choices'])}]"
                    f"{only if when else ''}"
                )
            default = t.get("default_bot")
            bots = ", ".join(f"{b} (default)" if b == default else b for b in t["bots"])
            out(f"    bots: {bots}")
    return 0


async def cmd_games(args: argparse.Namespace) -> int:
    async with Api(args.server) as api:
        for g in await api.games(args.status):
            seats = " ".join(
                (s["name"] or "-") + (f"[{s['bot']}]" if s["bot"] else "") for s in g["seats"]
            )
            out(f"{g['id']}  {g['type']:<16} {g['status']:<8} v{g['version']:<5} {seats}")
    return 0


def parse_bot(spec: str) -> dict[str, Any]:
    """``--bot 1:greedy`` → ``{"seat": 1, "level": "greedy"}`` (the level may be left out)."""
    seat, _, level = spec.partition(":")
    if not seat.strip().isdigit():
        raise CloisterError(f"--bot wants SEAT[:LEVEL] with a seat number, not {spec!r}")
    bot: dict[str, Any] = {"seat": int(seat)}
    if level.strip():
        bot["level"] = level.strip()
    return bot


async def cmd_new(args: argparse.Namespace) -> int:
    options = parse_options(args.option or [])
    bots = [parse_bot(spec) for spec in args.bot or []] + [{} for _ in range(args.bots or 0)]
    join = {"name": args.join} if args.join is not None else None
    # One request: the server checks the type, the options, the seat count and the bot
    # levels before the game exists, so a refusal (say --bots 9) leaves no game behind,
    # and a success always prints the new id.
    async with Api(args.server) as api:
        game = await api.create_game(args.type, options, args.seed, bots=bots, join=join)
    gid = str(game["id"])
    you = game.get("you")
    if join is not None and you:
        seat = int(you["seat"])
        TokenStore().save(args.server, gid, seat, str(you["token"]), str(args.join))
        label = game["seats"][seat]["label"]
        err(f"joined {gid} as {label} (seat {seat}); token saved")
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


def read_export(path: str, allow_hidden: bool = False) -> list[dict[str, Any]]:
    """An export file → the events for ``POST /api/games/import`` (header line dropped).

    Every way a file can be wrong is one ``CloisterError`` naming the file (and the line).
    """
    try:
        if path == "-":
            raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        else:
            raw = Path(path).read_bytes()
    except IsADirectoryError:
        raise CloisterError(f"{path}: is a folder, not an export file") from None
    except OSError as exc:
        raise CloisterError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise CloisterError(
            f"{path}: not UTF-8 text (byte {exc.start}); an export is JSON lines"
        ) from None
    lines: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            lines.append((number, orjson.loads(line)))
        except orjson.JSONDecodeError as exc:
            raise CloisterError(f"{path}, line {number}: not JSON ({exc})") from None
    if not lines:
        raise CloisterError(f"{path}: empty; an export has one JSON object per line")
    events: list[dict[str, Any]] = []
    for number, e in lines:
        if not isinstance(e, dict):
            raise CloisterError(f"{path}, line {number}: not a JSON object")
        if e.get("type") == EXPORT_HEADER:
            continue
        missing = [k for k in ("type", "data") if k not in e]
        if missing:
            raise CloisterError(
                f"{path}, line {number}: an event needs {' and '.join(repr(k) for k in missing)}"
            )
        if not isinstance(e["type"], str) or not isinstance(e["data"], dict):
            raise CloisterError(
                f"{path}, line {number}: 'type' must be a string and 'data' an object"
            )
        events.append(e)
    if not events or events[0].get("type") != GAME_CREATED:
        raise CloisterError(f"{path}: not a Cloister export (it must start with GameCreated)")
    hidden = [e.get("version") for e in events if e.get("type") == "Hidden"]
    if hidden and not allow_hidden:
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
            if exc.status in (404, 405) and exc.code in ("http_error", "not_found"):
                raise CloisterError(
                    "this server has no import route (POST /api/games/import)"
                ) from None
            raise
    out(game["id"])
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Re-decide an exported finished game here, from its revealed seed (no server needed)."""
    from domain import default_registry
    from server.fairness import report

    events = read_export(args.file, allow_hidden=True)
    try:
        verdict = report(default_registry(), events)
    except Exception as exc:  # Unfinished: the seed is not revealed before the end
        err(f"{args.file}: cannot verify: {getattr(exc, 'message', exc)}")
        return 1
    if not verdict["verified"]:
        err(f"{args.file}: NOT verified ({verdict['code']}): {verdict['message']}")
        return 1
    out(f"{args.file}: {verdict['message']} (seed {verdict['seed']!r})")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    if args.asyncapi:
        from protocol.asyncapi import asyncapi

        out(json.dumps(asyncapi(), indent=2))
        return 0
    from protocol import json_schema

    out(json.dumps(json_schema(), indent=2))
    return 0


# -- argument parsing -----------------------------------------------------------------------
class Parser(argparse.ArgumentParser):
    """argparse, with a bad argument reported in ONE line (not the usage block) and exit 2."""

    def error(self, message: str) -> NoReturn:
        sub = self.prog.removeprefix("cloister").strip()
        hint = f"cloister {sub} --help" if sub else "cloister --help"
        self.exit(2, f"{self.prog}: {message} (see `{hint}`)\n")


GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def game_id(raw: str) -> str:
    """A game id as the server makes them (``g-5f2c0e1a9b3d``): letters, digits, - and _."""
    if not GAME_ID.fullmatch(raw):
        raise argparse.ArgumentTypeError(f"not a game id: {raw!r} (ids look like g-5f2c0e1a9b3d)")
    return raw


def count(raw: str) -> int:
    """A whole number ≥ 0."""
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {raw!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive(raw: str) -> int:
    """A whole number ≥ 1."""
    value = count(raw)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def clock_watch(raw: str) -> float:
    """``serve --clock-watch``: checked by the server's own rule (``server.config``)."""
    from server.config import clock_watch_seconds

    try:
        return clock_watch_seconds(raw, "--clock-watch")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def port(raw: str) -> int:
    value = count(raw)
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value}")
    return value


def token(raw: str) -> str:
    if not raw.strip():
        raise argparse.ArgumentTypeError("the token is empty")
    return raw


def name(raw: str) -> str:
    if not 1 <= len(raw.strip()) <= 40:
        raise argparse.ArgumentTypeError(f"a name has 1 to 40 characters, not {len(raw.strip())}")
    return raw.strip()


def server_url(raw: str) -> str:
    if not re.match(r"https?://[^/\s]+", raw):
        raise argparse.ArgumentTypeError(f"not a server URL: {raw!r} (e.g. http://127.0.0.1:8000)")
    return raw.rstrip("/")


LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
"""uvicorn's levels (as ``server.run.LOG_LEVELS``; not imported: ``server`` is heavy)."""


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="cloister", description="Cloister game server and terminal client.")
    p.add_argument(
        "--server",
        type=server_url,
        default=os.environ.get("CLOISTER_SERVER", DEFAULT_SERVER),
        help="server URL (env CLOISTER_SERVER; default %(default)s)",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)

    s = sub.add_parser("serve", help="run a server (REDIS_URL, else an embedded Redis)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (%(default)s)")
    s.add_argument(
        "--port",
        type=port,
        default=os.environ.get("CLOISTER_PORT", "8000"),
        help="port to listen on (env CLOISTER_PORT; default %(default)s)",
    )
    s.add_argument(
        "--log-level", choices=LOG_LEVELS, default="info", help="server log level (%(default)s)"
    )
    s.add_argument(
        "--workers", type=positive, default=1, metavar="N", help="N server processes on the port"
    )
    s.add_argument(
        "--clock-watch",
        type=clock_watch,
        metavar="SECONDS",
        help="seconds between two reads of the deadline index (env CLOISTER_CLOCK_WATCH; 5)",
    )

    sub.add_parser("types", help="list the game types")
    s = sub.add_parser("games", help="list games")
    s.add_argument("--status", choices=["open", "running", "finished"])

    s = sub.add_parser("new", help="create a game; prints its id")
    s.add_argument("type", help="game type, e.g. high-card (see `cloister types`)")
    s.add_argument("--option", "-o", action="append", metavar="K=V", help="a game option")
    s.add_argument("--seed", help="random seed (same seed, same deal)")
    s.add_argument("--bots", type=count, metavar="N", help="fill N seats with bots")
    s.add_argument(
        "--bot", action="append", metavar="SEAT[:LEVEL]", help="a bot in this seat (repeatable)"
    )
    s.add_argument("--join", type=name, metavar="NAME", help="also take a seat under this name")

    s = sub.add_parser("join", help="take a seat; prints seat and token (and saves the token)")
    s.add_argument("game", type=game_id)
    s.add_argument("--name", type=name, required=True)
    s.add_argument("--seat", type=count)

    plain = "line by line instead of full-screen (for pipes, scripts and screen readers)"
    s = sub.add_parser("play", help="play in the terminal (full-screen)")
    s.add_argument("game", type=game_id)
    s.add_argument("--token", type=token, help="seat token (default: the one saved by `join`)")
    s.add_argument("--seat", type=count, help="which saved seat, if you joined several")
    s.add_argument("--plain", action="store_true", help=plain)

    s = sub.add_parser("watch", help="spectate a game as it is played (full-screen)")
    s.add_argument("game", type=game_id)
    s.add_argument("--token", type=token, help="watch as this seat instead of as a spectator")
    s.add_argument("--plain", action="store_true", help=plain)
    s.add_argument("--history", action="store_true", help="--plain: print the log so far first")
    s.add_argument(
        "--views", action="store_true", help="--plain: print the board after every update"
    )

    s = sub.add_parser("replay", help="step back and forth through a game's history (full-screen)")
    s.add_argument("game", type=game_id)
    s.add_argument("--token", type=token)
    s.add_argument("--seat", type=count)
    s.add_argument("--plain", action="store_true", help=plain)
    s.add_argument("--to", type=count, metavar="N", help="print the game at version N and exit")

    s = sub.add_parser("export", help="print the game's log as JSON lines")
    s.add_argument("game", type=game_id)
    s.add_argument("--token", type=token)
    s.add_argument("--seat", type=count)

    s = sub.add_parser("import", help="create a game from an exported full log")
    s.add_argument("file", help="an export file, or - for stdin")

    s = sub.add_parser("verify", help="re-decide an exported finished game from its revealed seed")
    s.add_argument("file", help="an export file, or - for stdin")

    s = sub.add_parser("schema", help="print the wire protocol's JSON Schema")
    s.add_argument(
        "--asyncapi", action="store_true", help="print the AsyncAPI 3.0 document instead"
    )
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
    try:
        if args.command == "serve":
            return cmd_serve(args)
        if args.command == "schema":
            return cmd_schema(args)
        if args.command == "verify":
            return cmd_verify(args)
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
    except (ServerUnreachable, ConnectionRefusedError):
        err(f"cannot reach {args.server} (is `cloister serve` running?)")
        return 1
    except (CloisterError, TimeoutError, OSError) as exc:
        err(str(exc) or type(exc).__name__)
        return 1
    except Exception as exc:
        # Never a traceback for a person; one line, and the trace on request.
        if os.environ.get("CLOISTER_DEBUG"):
            traceback.print_exc()
        err(f"unexpected error: {type(exc).__name__}: {exc} (CLOISTER_DEBUG=1 shows more)")
        return 1


if __name__ == "__main__":
    sys.exit(main())
