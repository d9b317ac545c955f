"""Views fail closed: their secrets are declared on the view part types (``domain.views``)
and one kernel redactor applies them; an undeclared view or part is refused."""

from __future__ import annotations

import logging
from typing import Any

import attrs
import orjson
import pytest

from domain import REVIEW, SPECTATOR, GameType, default_registry, make_registry, seat_viewer
from domain.game import GameBase
from domain.highcard.game import HighCard
from domain.secrets import UndeclaredSecrets, secret
from domain.views import (
    ByAudience,
    Owned,
    internal,
    public,
    redact_view,
    render,
    view_part,
    wire,
)
from tests.support import Player, http, new_game, running_server

AUDIENCES = (seat_viewer(0), seat_viewer(1), SPECTATOR, REVIEW)


@view_part
class Panel:
    seat: int
    hand_count: int
    hand: list[str] | None = secret(owner="seat")
    deck: list[str] = secret(omit=True)
    plan: str = secret(
        visible=lambda p, v: p.open or v.sees_seat(p.seat), blank_from=lambda p: "?" * p.seat
    )
    open: bool = internal(default=False)


@view_part
class Table:
    title: str
    players: tuple[Panel, ...]
    prompt: ByAudience[str]
    hands: tuple[Owned[list[str]], ...] = ()
    board: dict[str, Any] = public(default={})
    monk: dict[str, int] | None = public(default=None, optional=True)


@view_part
class Static:
    cells: list[int]


@view_part
class WithStatic:
    static: Static
    players: tuple[Panel, ...]


def _table(open_: bool = False) -> Table:
    return Table(
        "t",
        (Panel(0, 1, ["a"], ["d0"], "p0", open_), Panel(1, 2, ["b", "c"], ["d1"], "p1", open_)),
        ByAudience(("yours, 1", "yours, 2"), "watching", "review"),
        (Owned(0, ["a"]), Owned(1, ["b", "c"])),
        {"books": [1, 2]},
    )


def test_a_declared_secret_is_blanked_for_each_audience() -> None:
    view = _table()
    seen = {str(v): render(view, v) for v in AUDIENCES}
    assert seen["seat 0"]["players"] == [
        {"seat": 0, "hand_count": 1, "hand": ["a"], "plan": "p0"},
        {"seat": 1, "hand_count": 2, "hand": None, "plan": "?"},
    ]
    assert seen["seat 1"]["players"][0] == {"seat": 0, "hand_count": 1, "hand": None, "plan": ""}
    assert [p["hand"] for p in seen["spectator"]["players"]] == [None, None]
    assert seen["review"]["players"][1] == {
        "seat": 1,
        "hand_count": 2,
        "hand": ["b", "c"],
        "deck": ["d1"],  # omit=True: the others get no key at all
        "plan": "p1",
    }
    assert [s["prompt"] for s in seen.values()] == ["yours, 1", "yours, 2", "watching", "review"]
    assert [s["hands"] for s in seen.values()] == [
        [["a"], None],
        [None, ["b", "c"]],
        [None, None],
        [["a"], ["b", "c"]],
    ]
    assert all("monk" not in s and "open" not in s["players"][0] for s in seen.values())


def test_a_rule_of_the_game_can_open_a_secret() -> None:
    opened = render(_table(open_=True), SPECTATOR)
    assert [p["plan"] for p in opened["players"]] == ["p0", "p1"]


def test_nothing_hidden_gives_the_very_same_part() -> None:
    static = Static([1, 2, 3])
    view = WithStatic(static, (Panel(0, 1, ["a"], ["d"], "p"),))
    mine = redact_view(view, seat_viewer(0))
    theirs = redact_view(view, seat_viewer(1))
    assert mine is not view  # the deck is omitted even for its owner
    assert theirs.static is static and redact_view(view, REVIEW) is view
    memo: dict[int, Any] = {}
    assert wire(mine, memo)["static"] is wire(theirs, memo)["static"]  # converted once


def test_an_undeclared_part_is_refused_for_every_viewer() -> None:
    @attrs.frozen
    class Loose:
        hand: tuple[str, ...]

    @view_part
    class Holder:
        inner: Any

    for viewer in AUDIENCES:
        with pytest.raises(UndeclaredSecrets, match="Loose in a view declares no secrets"):
            render(Holder(Loose(("a",))), viewer)
        with pytest.raises(UndeclaredSecrets, match="Loose in a view declares no secrets"):
            render(Loose(("a",)), viewer)


def test_a_bare_dict_view_is_refused() -> None:
    for viewer in AUDIENCES:
        with pytest.raises(UndeclaredSecrets, match="a bare dict in a view"):
            render({"hands": [["a"], ["b"]]}, viewer)


def test_a_game_without_a_full_view_is_refused() -> None:
    class Old(HighCard):
        full_view = GameBase.full_view

    with pytest.raises(UndeclaredSecrets, match="no full_view"):
        Old().view(Old().initial_state({"players": 2}), SPECTATOR)


def test_public_data_holding_a_part_is_caught_in_strict_mode() -> None:
    @view_part
    class Sneaky:
        data: list[Any] = public()

    view = Sneaky([Panel(0, 1, ["a"], ["d"], "p")])
    with pytest.raises(UndeclaredSecrets, match="holds a Panel"):
        render(view, SPECTATOR, strict=True)


def test_omit_is_for_views_not_events() -> None:
    from domain.secrets import event

    with pytest.raises(TypeError, match="omit= is for view parts"):

        @event
        class Drawn:
            card: str = secret(omit=True)


def test_every_game_builds_its_view_from_declared_parts() -> None:
    for gtype in default_registry().values():
        assert type(gtype.game).view is GameBase.view, gtype.name


# -- the server never sends an undeclared view ------------------------------------------------
class _HandMade(HighCard):
    name = "hand-made-card"

    def full_view(self, state: Any) -> Any:
        return {"hands": [[f"SECRET-{c}" for c in h] for h in state.hands]}


@pytest.mark.redis
async def test_the_server_never_sends_an_undeclared_view(
    key_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    registry = make_registry(GameType(_HandMade(), demo=True))
    with (
        caplog.at_level(logging.ERROR, logger="cloister.hub"),
        running_server(key_prefix, registry) as base,
    ):
        async with http(base) as c:
            gid, tokens = await new_game(c, "hand-made-card", {"players": 2})
            route = (await c.get(f"/api/games/{gid}/view")).text
        players = [Player(base, gid, t) for t in tokens]
        watcher = Player(base, gid)
        for p in [*players, watcher]:
            welcome = await p.connect()
            assert welcome["view"] is None
            await p.close()
    for text in [*(t for p in [*players, watcher] for t in p.raw), route]:
        assert "SECRET-" not in text
    records = [r for r in caplog.records if "hand-made-card" in r.getMessage()]
    assert records and all("not sent" in r.getMessage() for r in records)
    assert "a bare dict in a view declares no secrets" in records[0].getMessage()
    assert orjson.loads(route)["view"] is None


@view_part(unwrap="value")
class Folded:
    """Sent as its one secret field, left out (None in a list) for the others."""

    seat: int
    value: list[Panel] | None = secret(owner="seat", omit=True)


@view_part
class Hands:
    hands: tuple[Owned[list[str]], ...]
    folded: tuple[Folded, ...]
    blanked: tuple[Owned[int], ...]


def test_a_part_sent_as_one_secret_renders_as_the_two_step_path_does() -> None:
    """``render`` decides a part like ``Owned`` without building its dict
    (``_Plan.sole_secret``); the strict path (redact, then wire) must give the same."""
    panel = Panel(1, 2, ["b"], ["d"], "p")
    view = Hands(
        (Owned(0, ["a"]), Owned(1, ["b", "c"]), Owned(None, ["z"])),
        (Folded(0, [panel]), Folded(1, [panel])),
        (Owned(0, 7), Owned(1, 8)),
    )
    for viewer in (*AUDIENCES, seat_viewer(2)):
        assert render(view, viewer) == render(view, viewer, strict=True), viewer
    assert render(view, seat_viewer(1)) == {
        "hands": [None, ["b", "c"], None],
        "folded": [None, [{"seat": 1, "hand_count": 2, "hand": ["b"], "plan": "p"}]],
        "blanked": [None, 8],
    }
