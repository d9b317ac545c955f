"""The API in the formats tools read, and the docs people read, match the code.

* ``/api/openapi.json`` is a valid OpenAPI 3.1 document (``openapi-spec-validator``), and
  every answer a real server gives, errors included, fits the schema it documents for that
  route and status; every documented operation is exercised.
* ``cloister schema --asyncapi`` validates against AsyncAPI 3.0.0's published JSON Schema
  (vendored from the npm package ``@asyncapi/specs``: no PyPI package ships it; see
  tests/data/README.md), its ``$ref``s resolve, and every message of a real game fits its
  payload schema.
* docs/api.md lists exactly the app's routes; docs/cli.md exactly the parser's
  subcommands and flags; docs/protocol.md the rate limit the server applies.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import orjson
import pytest
from openapi_spec_validator import validate as validate_openapi
from starlette.routing import Mount, Route, WebSocketRoute

from clients.cli import build_parser
from domain.highcard import GAME_TYPE as HIGH_CARD
from protocol import Accepted, Error, GameOverMessage, Pong, Rejected, encode
from protocol.asyncapi import asyncapi
from server import Settings, create_app
from tests.support import http, play_random_game, running_server

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


# -- OpenAPI ---------------------------------------------------------------------------------
class Checker:
    """Validates real answers against the document, and counts which operations were seen."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.seen: set[tuple[str, str]] = set()

    def __call__(self, method: str, path: str, r: httpx.Response) -> Any:
        op = self.doc["paths"][path][method.lower()]
        documented = op["responses"].get(str(r.status_code))
        assert documented, f"{method} {path} answered {r.status_code}, not documented: {r.text}"
        [(media, content)] = documented["content"].items()
        assert r.headers["content-type"].startswith(media.split(";")[0])
        if media == "application/json" and content["schema"]:
            body = r.json()
            schema = {**content["schema"], "components": self.doc["components"]}
            jsonschema.Draft202012Validator(schema).validate(body)
        self.seen.add((method.upper(), path))
        return r.json() if media == "application/json" else r.text


@pytest.fixture
def base(key_prefix: str, redis_store: object) -> Iterator[str]:
    with running_server(key_prefix) as url:
        yield url


@pytest.mark.redis
async def test_openapi_is_valid_and_every_answer_fits_it(base: str) -> None:
    async with http(base) as c:
        doc = (await c.get("/api/openapi.json")).json()
        validate_openapi(doc)  # OpenAPI 3.1 (the validator picks the version from the doc)
        assert doc["openapi"] == "3.1.0"
        check = Checker(doc)
        check("GET", "/api/openapi.json", await c.get("/api/openapi.json"))
        check("GET", "/api/health", await c.get("/api/health"))
        check("GET", "/api/game-types", await c.get("/api/game-types"))
        check("GET", "/metrics", await c.get("/metrics"))
        glossary = "/api/types/{type_name}/glossary"
        check("GET", glossary, await c.get("/api/types/illumination/glossary"))
        check("GET", glossary, await c.get("/api/types/chess/glossary"))  # 404
        game = check("POST", "/api/games", await c.post("/api/games", json={"type": "high-card"}))
        gid = game["id"]
        path = "/api/games/{game_id}"
        check("GET", path, await c.get(f"/api/games/{gid}"))
        check("GET", path, await c.get("/api/games/g-nope"))  # 404
        seat = check(
            "POST", path + "/seats", await c.post(f"/api/games/{gid}/seats", json={"name": "a"})
        )
        check("POST", path + "/seats", await c.post(f"/api/games/{gid}/seats", json={"seat": 0}))
        check("POST", path + "/seats", await c.post(f"/api/games/{gid}/seats", json={"name": 1}))
        check("POST", path + "/bots", await c.post(f"/api/games/{gid}/bots", json={}))
        check("POST", path + "/bots", await c.post(f"/api/games/{gid}/bots", json={}))  # 409
        auth = {"Authorization": f"Bearer {seat['token']}"}
        check("GET", path + "/events", await c.get(f"/api/games/{gid}/events", headers=auth))
        check("GET", path + "/events", await c.get(f"/api/games/{gid}/events?since=x"))
        wrong = {"Authorization": "Bearer x"}
        check("GET", path + "/events", await c.get(f"/api/games/{gid}/events", headers=wrong))
        check("GET", path + "/view", await c.get(f"/api/games/{gid}/view", headers=auth))
        check("GET", path + "/view", await c.get(f"/api/games/{gid}/view?version=2"))
        check("GET", path + "/view", await c.get(f"/api/games/{gid}/view?version=9999"))
        check("GET", "/api/games", await c.get("/api/games"))
        check("GET", "/api/games", await c.get("/api/games?status=running"))
        check("GET", "/api/games", await c.get("/api/games?status=bogus"))
        body = {"type": "illumination", "join": {"name": "ann"}, "bots": [{"level": "random"}]}
        made = check("POST", "/api/games", await c.post("/api/games", json=body))
        assert made["you"]["seat"] == 0 and made["status"] == "running"
        check("POST", "/api/games", await c.post("/api/games", json={"type": "chess"}))
        check("POST", "/api/games", await c.post("/api/games", content=b"{"))
        check("POST", "/api/games", await c.post("/api/games", content=b"x" * 100_000))
        check("POST", "/api/play", await c.post("/api/play", json={"type": "high-card"}))
        play = {"type": "road-to-enlightenment", "friend": True}
        check("POST", "/api/play", await c.post("/api/play", json=play))
        check("POST", "/api/play", await c.post("/api/play", json={"type": "x", "extra": 1}))
        check("GET", "/", await c.get("/"))
        check("GET", "/", await c.get("/no-such-file.js"))
        check("GET", "/api/games", await c.put("/api/games"))  # 405 is documented everywhere
    out = await play_random_game(base, HIGH_CARD, {"players": 2}, seed=3)
    async with http(base) as c:
        events = out["review"]["events"]
        r = await c.post("/api/games/import", json={"events": events})
        check("POST", "/api/games/import", r)
        cut = events[: len(events) // 2]
        r = await c.post("/api/games/import", json={"events": cut})
        assert check("POST", "/api/games/import", r)["error"]["code"] == "unfinished_log"
        verify = "/api/games/{game_id}/verify"
        r = await c.get(f"/api/games/{out['game_id']}/verify")
        assert check("GET", verify, r)["verified"] is True, r.text
        r = await c.get(f"/api/games/{gid}/verify")  # running: the seed is still secret
        assert check("GET", verify, r)["error"]["code"] == "game_not_finished"
        gid = out["game_id"]
        path = "/api/games/{game_id}"
        fork = {"version": 12, "join": {"name": "ann"}, "bots": [{"level": "random"}]}
        forked = check("POST", path + "/fork", await c.post(f"/api/games/{gid}/fork", json=fork))
        check("POST", path + "/fork", await c.post(f"/api/games/{gid}/fork", json={"version": 1}))
        auth = {"Authorization": f"Bearer {forked['you']['token']}"}
        fid = forked["id"]
        check("POST", path + "/fork", await c.post(f"/api/games/{fid}/fork", json={"version": 9}))
        check("GET", path + "/undo", await c.get(f"/api/games/{fid}/undo", headers=auth))
        check("GET", path + "/undo", await c.get(f"/api/games/{fid}/undo"))  # 401
        check("POST", path + "/undo", await c.post(f"/api/games/{fid}/undo", headers=auth))
        check("POST", path + "/undo", await c.post(f"/api/games/{fid}/undo", json={"x": 1}))
        report = {"text": "stuck"}
        r = await c.post(f"/api/games/{fid}/report", headers=auth, json=report)
        check("POST", path + "/report", r)
        r = await c.post(f"/api/games/{fid}/report", json={"text": "x" * 3000})
        check("POST", path + "/report", r)
    everything = {(method.upper(), path) for path, ops in doc["paths"].items() for method in ops}
    assert everything - check.seen == set()


def test_openapi_describes_exactly_the_app_routes() -> None:
    from server.app import SERVER_VERSION
    from server.openapi import openapi

    app = create_app(Settings(redis_url="redis://unused"))
    doc = openapi(app.routes, SERVER_VERSION)
    validate_openapi(doc)
    described = {(m.upper(), p) for p, ops in doc["paths"].items() for m in ops}
    assert described == app_routes(app) - {("WS", "/api/games/{game_id}/ws")}
    assert set(doc["x-websockets"]) == {"/api/games/{game_id}/ws"}
    # A request schema is closed (the server refuses unknown fields); an answer's is open.
    schemas = doc["components"]["schemas"]
    assert schemas["PlayNow"]["additionalProperties"] is False
    assert "additionalProperties" not in schemas["GameSummary"]


# -- AsyncAPI --------------------------------------------------------------------------------
ASYNCAPI_SCHEMA = json.loads((ROOT / "tests" / "data" / "asyncapi-3.0.0.schema.json").read_text())


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                yield v
            else:
                yield from _refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from _refs(v)


def _resolve(doc: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def test_asyncapi_validates_against_the_published_schema() -> None:
    doc = asyncapi()
    jsonschema.Draft7Validator(ASYNCAPI_SCHEMA).validate(doc)
    for ref in _refs(doc):
        _resolve(doc, ref)  # KeyError: a dangling $ref
    # and the published schema does reject a broken document (the check can fail)
    broken = json.loads(json.dumps(doc))
    broken["operations"]["receiveHello"]["action"] = "listen"
    assert list(jsonschema.Draft7Validator(ASYNCAPI_SCHEMA).iter_errors(broken))


def test_asyncapi_lists_every_message_and_the_cli_prints_it(capsys: Any) -> None:
    from clients.cli import main
    from protocol import CLIENT_MESSAGES, SERVER_MESSAGES

    assert main(["schema", "--asyncapi"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == asyncapi()
    names = {getattr(c, "TYPE") for c in (*CLIENT_MESSAGES, *SERVER_MESSAGES)}  # noqa: B009
    assert set(printed["channels"]["game"]["messages"]) == names
    actions = {op["action"] for op in printed["operations"].values()}
    assert actions == {"send", "receive"}


@pytest.mark.redis
async def test_every_message_of_a_real_game_fits_its_asyncapi_payload(base: str) -> None:
    doc = asyncapi()
    messages = doc["components"]["messages"]

    def validate(message: dict[str, Any]) -> None:
        payload = messages[message["type"]]["payload"]
        schema = {**payload, "components": doc["components"]}
        jsonschema.Draft7Validator(schema).validate(message)

    out = await play_random_game(base, HIGH_CARD, {"players": 2}, seed=11)
    seen = set()
    for conn in [*out["players"], out["spectator"]]:
        for message in conn.received:
            validate(message)
            seen.add(message["type"])
    assert {"welcome", "update"} <= seen
    # the rarer server messages, as the server's own encoder writes them
    for message in (
        GameOverMessage(9, {"scores": [3, 1], "winners": [0], "summary": "Player 1 wins"}),
        Accepted("c1", 4, True),
        Rejected("c1", "not_your_turn", "it is Player 2's turn"),
        Error("bad_message", "malformed", ["required field missing @ $.command_id"]),
        Pong(3),
    ):
        validate(orjson.loads(encode(message)))
    for sent in (
        {"type": "hello", "v": 1, "token": None, "since": 3},
        {"type": "command", "command_id": "c1", "command": {"type": "Draw"}},
        {"type": "chat", "command_id": "c2", "text": "hi"},
        {"type": "ping", "nonce": 1},
        {"type": "resync", "since": 2},
    ):
        validate(sent)
    with pytest.raises(jsonschema.ValidationError):
        validate({"type": "ping", "nonce": "one"})


# -- docs/api.md <-> the route table ---------------------------------------------------------
def app_routes(app: Any) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for route in app.routes:
        if isinstance(route, WebSocketRoute):
            out.add(("WS", route.path))
        elif isinstance(route, Mount):
            out.add(("GET", route.path + "/"))
        elif isinstance(route, Route):
            out |= {(m, route.path) for m in (route.methods or set()) - {"HEAD"}}
    return out


def _normalise(path: str) -> str:
    return re.sub(r"{[^}]*}", "{}", path.split("?")[0])


def documented_routes() -> set[tuple[str, str]]:
    text = (DOCS / "api.md").read_text()
    rows = re.findall(r"^\| `(GET|POST|PUT|PATCH|DELETE) (/[^` ]*)`", text, re.MULTILINE)
    out = {(m, _normalise(p)) for m, p in rows}
    out |= {("WS", _normalise(p)) for p in re.findall(r"^## WebSocket `(/[^`]+)`", text, re.M)}
    return out


def test_every_route_is_documented_and_every_documented_route_exists() -> None:
    app = create_app(Settings(redis_url="redis://unused"))
    actual = {(m, _normalise(p)) for m, p in app_routes(app)}
    documented = documented_routes()
    assert actual - documented == set(), "routes missing from docs/api.md"
    assert documented - actual == set(), "docs/api.md lists routes the app does not have"


# -- docs/cli.md <-> the argument parser ------------------------------------------------------
def parser_commands() -> dict[str, set[str]]:
    parser = build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {
        name: {o for a in p._actions for o in a.option_strings if o not in ("-h", "--help")}
        for name, p in sub.choices.items()
    }


def global_flags() -> set[str]:
    return {o for a in build_parser()._actions for o in a.option_strings} - {"-h", "--help"}


def documented_commands() -> dict[str, str]:
    """Section title ("new", "types, games", "export and import", "play, watch, replay: …")
    -> its text, per command."""
    text = (DOCS / "cli.md").read_text()
    out: dict[str, str] = {}
    for title, body in re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", text, re.M | re.S):
        names = title.split(":")[0]  # "play, watch, replay: the terminal UI"
        for name in re.split(r",\s*|\s+and\s+", names.strip()):
            out[name.strip()] = body
    return out


def _flags(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-z])(?![\w-])", text))


def test_every_cli_flag_is_documented_and_every_documented_flag_exists() -> None:
    commands = parser_commands()
    sections = documented_commands()
    assert set(commands) - set(sections) == set(), "subcommands missing from docs/cli.md"
    assert set(sections) - set(commands) == set(), "docs/cli.md documents unknown commands"
    intro = (DOCS / "cli.md").read_text().split("\n## ", 1)[0]
    assert global_flags() <= _flags(intro), "global flags missing from docs/cli.md"
    for name, flags in commands.items():
        missing = flags - _flags(sections[name])
        assert not missing, f"`cloister {name}` flags missing from its section: {missing}"
    groups = {frozenset(n for n, b in sections.items() if b is body) for body in sections.values()}
    for title_names in groups:
        body = sections[next(iter(title_names))]
        # "new --join" in another command's section names new's flag: check it there.
        pattern = rf"\b({'|'.join(map(re.escape, commands))}) (--[a-z][a-z-]*)"
        for other, flag in re.findall(pattern, body):
            assert flag in commands[other], f"docs/cli.md: `{other} {flag}` does not exist"
        body = re.sub(pattern, "", body)
        known = set().union(*(commands[n] for n in title_names)) | global_flags()
        unknown = _flags(body) - known - {"--help"}
        assert not unknown, f"docs/cli.md section {sorted(title_names)} names {unknown}"


def test_the_cli_and_the_server_agree_on_log_levels() -> None:
    from clients.cli import LOG_LEVELS as CLI
    from server.run import LOG_LEVELS as SERVER

    assert CLI == SERVER


def test_the_documented_rate_limit_is_the_servers() -> None:
    settings = Settings()
    text = (DOCS / "protocol.md").read_text()
    assert f"{settings.rate_per_second:g}/s, bursts of {settings.rate_burst}" in text
