"""The log's names per audience are kept by identity (``server.hub._names``), and
Illumination's narration finds its Reader by them (``describe._BY_ID``): the caches must
give what a fresh ``Names`` gives, and never another table's or audience's."""

from __future__ import annotations

from domain import SPECTATOR, seat_viewer
from domain.illumination import describe
from domain.illumination import events as ev
from domain.illumination.content import CONTENT
from domain.narration import Names
from server.hub import _names


def test_the_same_table_and_audience_give_the_same_names() -> None:
    table = (("Reverent", "Irreverent"), ("Ann", "Bob"))
    first = _names(table, seat_viewer(0))
    assert first is _names(table, seat_viewer(0))
    assert first == Names(*table, seat_viewer(0))


def test_another_table_or_audience_gets_its_own_names() -> None:
    table = (("Reverent", "Irreverent"), ("Ann", "Bob"))
    renamed = (("Reverent", "Irreverent"), ("Ann", "Cleo"))  # a seat changed hands
    assert _names(renamed, seat_viewer(0)).players == ("Ann", "Cleo")
    assert _names(table, seat_viewer(1)).viewer == seat_viewer(1)
    assert _names(table, SPECTATOR) != _names(table, seat_viewer(0))


def test_narration_reads_each_audience_its_own_way() -> None:
    # The north seat numbers Books and squares from its own side: the two audiences of a
    # duel alternate, and each must keep its own Reader.
    table = (("Reverent", "Irreverent"), ("Ann", "Bob"))
    south, north = _names(table, seat_viewer(0)), _names(table, seat_viewer(1))
    placed = ev.TilePlaced(0, next(iter(CONTENT.tiles)), 0, 0, "hand", ())
    for _ in range(3):
        assert describe.narrate(placed, south) == describe.narrate(
            placed, Names(*table, seat_viewer(0))
        )
        assert describe.narrate(placed, north) == describe.narrate(
            placed, Names(*table, seat_viewer(1))
        )
    assert describe.narrate(placed, south) != describe.narrate(placed, north)
    assert "Ann" in describe.narrate(placed, south)
    renamed = (("Reverent", "Irreverent"), ("Dora", "Bob"))
    assert "Dora" in describe.narrate(placed, _names(renamed, seat_viewer(0)))
