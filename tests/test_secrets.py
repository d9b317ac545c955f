"""Secrets fail closed: declared on the event types, applied by the one kernel redactor."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from domain import REVIEW, SPECTATOR, GameType, default_registry, make_registry, seat_viewer
from domain.highcard.game import HighCard
from domain.secrets import UndeclaredSecrets, declaration, event, redact, secret
from tests.support import Player, http, new_game, running_server


@event
class Dealt:
    seat: int | None
    cards: tuple[str, ...] | None = secret(owner="seat")
    order: tuple[str, ...] | None = secret(default=None)


@event(private_to="seat")
class Planned:
    seat: int
    card: str


@event
class Offers:
    seat: int
    other: int
    offer: str | None = secret(owners=("seat", "other"))
    hidden: bool = secret(owners=("seat", "other"), blank=True, default=False)


@event
class Board:
    kind: str
    data: str = secret(visible=lambda e, v: e.kind == "public", blank_from=lambda e: "?")


@event
class Deal:
    hands: tuple[tuple[str, ...] | None, ...] = secret(by_seat=True)


@attrs.frozen
class Undeclared:
    order: tuple[str, ...]


def test_an_owner_sees_its_field_and_nobody_else_does() -> None:
    e = Dealt(1, ("a", "b"), ("x", "y"))
    assert redact(e, seat_viewer(1)) == Dealt(1, ("a", "b"), None)
    assert redact(e, seat_viewer(0)) == Dealt(1, None, None)
    assert redact(e, SPECTATOR) == Dealt(1, None, None)
    assert redact(e, REVIEW) is e


def test_a_field_by_seat_gives_each_seat_its_own_item() -> None:
    e = Deal((("a",), ("b", "c")))
    assert redact(e, seat_viewer(0)) == Deal((("a",), None))
    assert redact(e, seat_viewer(1)) == Deal((None, ("b", "c")))
    assert redact(e, SPECTATOR) == Deal((None, None))
    assert redact(e, REVIEW) is e


def test_by_seat_is_for_events_a_view_says_it_with_owned() -> None:
    from domain.views import render, view_part

    @view_part
    class Hands:
        hands: tuple[tuple[str, ...], ...] = secret(by_seat=True)

    with pytest.raises(TypeError, match="by_seat= is for events"):
        render(Hands((("a",),)), SPECTATOR)


def test_a_field_owned_by_no_seat_is_hidden_from_spectators_too() -> None:
    e = Dealt(None, ("a",))
    assert redact(e, SPECTATOR) == Dealt(None, None)  # seat None is nobody, not spectators


def test_nothing_to_hide_gives_the_same_object() -> None:
    e = Dealt(0, None, None)
    assert redact(e, SPECTATOR) is e


def test_a_private_event_reaches_only_its_seat() -> None:
    e = Planned(2, "c")
    assert redact(e, seat_viewer(2)) is e
    assert redact(e, seat_viewer(0)) is None
    assert redact(e, SPECTATOR) is None
    assert redact(e, REVIEW) is e


def test_two_owners_and_a_blank_of_its_own() -> None:
    e = Offers(0, 3, "card")
    assert redact(e, seat_viewer(3)) is e
    assert redact(e, seat_viewer(1)) == Offers(0, 3, None, True)


def test_a_rule_decides_and_the_blank_can_be_computed() -> None:
    assert redact(Board("public", "d"), SPECTATOR) == Board("public", "d")
    assert redact(Board("secret", "d"), seat_viewer(0)) == Board("secret", "?")


def test_an_undeclared_event_type_is_refused_for_every_viewer() -> None:
    for viewer in (SPECTATOR, seat_viewer(0), REVIEW):
        with pytest.raises(UndeclaredSecrets, match="declares no secrets"):
            redact(Undeclared(("x",)), viewer)


def test_every_event_type_of_every_game_declares_its_secrets() -> None:
    for gtype in default_registry().values():
        for t in gtype.game.event_types:
            declaration(t)  # raises for an undeclared type


def test_no_game_keeps_a_redactor_of_its_own() -> None:
    """The kernel's is the only one (a game's own would fail open again)."""
    from domain.game import GameBase

    for gtype in default_registry().values():
        assert type(gtype.game).redact is GameBase.redact, gtype.name


# -- the server drops an undeclared event -------------------------------------------------------
@attrs.frozen
class Shout:
    """Not made with ``event``: its secrets are undeclared."""

    order: tuple[str, ...]


class _Careless(HighCard):
    name = "careless-card"
    event_types = (*HighCard.event_types, Shout)

    def setup(self, state: Any, ctx: Any) -> Sequence[Any]:
        events = list(super().setup(state, ctx))
        return [*events, Shout(tuple(f"SECRET-{c}" for c in events[0].order))]

    def evolve(self, state: Any, event: Any) -> Any:
        return state if isinstance(event, Shout) else super().evolve(state, event)

    def narrate(self, event: Any, names: Any) -> str | None:
        return "a shout" if isinstance(event, Shout) else super().narrate(event, names)


@pytest.mark.redis
async def test_the_server_never_sends_an_undeclared_event(
    key_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    registry = make_registry(GameType(_Careless(), demo=True))
    with (
        caplog.at_level(logging.ERROR, logger="cloister.hub"),
        running_server(key_prefix, registry) as base,
    ):
        async with http(base) as c:
            gid, tokens = await new_game(c, "careless-card", {"players": 2})
            review = (await c.get(f"/api/games/{gid}/events")).text
        players = [Player(base, gid, t) for t in tokens]
        watcher = Player(base, gid)
        for p in [*players, watcher]:
            welcome = await p.connect(since=0)
            types = [e["type"] for e in welcome["events"]]
            assert "Shout" not in types and "Hidden" in types
            await p.close()
    for text in [*(t for p in [*players, watcher] for t in p.raw), review]:
        assert "SECRET-" not in text
    assert any("declares no secrets" in r.getMessage() for r in caplog.records)


@event
class Nested:
    holder: Dealt
    note: str | None = secret(owner="holder.seat")


def test_the_quick_owner_check_says_what_the_general_rule_says() -> None:
    """Plain owner fields are read with one getattr each (``Secret._fields``); dotted ones
    take the general path. Both agree with "the viewer holds one of the owners' seats"."""
    from domain.secrets import _path, _sees

    events: list[Any] = [
        Offers(0, 3, "x"),
        Offers(2, 2, "x"),
        Dealt(None, ("a",)),
        Dealt(1, ("a",)),
        Nested(Dealt(1, ("a",)), "n"),
        Nested(Dealt(None, ("a",)), "n"),
    ]
    viewers = [seat_viewer(s) for s in range(5)] + [SPECTATOR, REVIEW, seat_viewer(40)]
    for e in events:
        for name, spec in declaration(type(e)).secrets:
            assert (spec._fields is None) == any("." in o for o in spec.owners)
            for viewer in viewers:
                expected = viewer.omniscient or any(
                    _sees(viewer, _path(e, owner)) for owner in spec.owners
                )
                assert spec.sees(e, viewer) is expected, (e, name, viewer)


def test_seat_viewers_are_shared_and_equal_to_any_other() -> None:
    from domain import Viewer

    assert seat_viewer(3) is seat_viewer(3)
    assert seat_viewer(3) == Viewer(seat=3) and hash(seat_viewer(3)) == hash(Viewer(seat=3))
    assert seat_viewer(99) == Viewer(seat=99) and seat_viewer(99).seat == 99
    assert {seat_viewer(0): "x"}[Viewer(seat=0)] == "x"
