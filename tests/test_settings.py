"""Server settings from the environment and the command line: ``CLOISTER_CLOCK_WATCH`` /
``--clock-watch`` (seconds between two reads of the deadline index, ``server.clocks``)
reach the clock keeper, and a bad value stops the server with one line naming it."""

from __future__ import annotations

import pytest

from clients.cli import main as cloister
from server import Settings, create_app
from server.config import CLOCK_WATCH_RANGE
from server.run import main as serve_main
from server.store.memory import MemoryStore

BAD = ["abc", "", "0", "-1", "0.001", "nan", "inf", "3601", "5s"]


def test_clock_watch_defaults_to_five_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLOISTER_CLOCK_WATCH", raising=False)
    assert Settings.from_env().clock_watch == 5.0 == Settings().clock_watch


@pytest.mark.parametrize("raw", ["0.5", "2", "3600", "0.01"])
def test_clock_watch_from_the_environment(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("CLOISTER_CLOCK_WATCH", raw)
    assert Settings.from_env().clock_watch == float(raw)


def test_the_command_line_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLOISTER_CLOCK_WATCH", "2")
    assert Settings.from_env(clock_watch=0.25).clock_watch == 0.25


@pytest.mark.parametrize("raw", BAD)
def test_a_bad_clock_watch_in_the_environment_is_named(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("CLOISTER_CLOCK_WATCH", raw)
    with pytest.raises(ValueError) as err:
        Settings.from_env()
    low, high = CLOCK_WATCH_RANGE
    assert str(err.value) == (
        f"CLOISTER_CLOCK_WATCH must be a number of seconds from {low:g} to {high:g}, not {raw!r}"
    )


@pytest.mark.parametrize("value", [0, -1.0, 1e9, float("nan"), True])
def test_settings_refuse_a_bad_clock_watch(value: object) -> None:
    with pytest.raises(ValueError, match="clock_watch must be a number of seconds"):
        Settings(clock_watch=value)  # type: ignore[arg-type]


async def test_the_clock_keeper_reads_the_deadline_index_as_often_as_set() -> None:
    app = create_app(Settings(clock_watch=0.75), store=MemoryStore())
    async with app.router.lifespan_context(app):
        assert app.state.clocks.watch == 0.75


def test_python_m_server_refuses_a_bad_clock_watch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CLOISTER_CLOCK_WATCH", raising=False)
    with pytest.raises(SystemExit) as exit_:
        serve_main(["--clock-watch", "soon"])
    assert exit_.value.code == 2
    assert "--clock-watch must be a number of seconds from 0.01 to 3600, not 'soon'" in (
        capsys.readouterr().err
    )
    monkeypatch.setenv("CLOISTER_CLOCK_WATCH", "-3")
    with pytest.raises(SystemExit) as exit_:
        serve_main([])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "cloister: bad setting: CLOISTER_CLOCK_WATCH must be a number of seconds "
        "from 0.01 to 3600, not '-3'\n"
    )


def test_cloister_serve_refuses_a_bad_clock_watch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CLOISTER_CLOCK_WATCH", raising=False)
    with pytest.raises(SystemExit) as exit_:
        cloister(["serve", "--clock-watch", "0"])
    assert exit_.value.code == 2
    assert "--clock-watch must be a number of seconds from 0.01 to 3600, not '0'" in (
        capsys.readouterr().err
    )
    monkeypatch.setenv("CLOISTER_CLOCK_WATCH", "often")
    code = cloister(["serve"])
    assert code == 1
    assert "CLOISTER_CLOCK_WATCH must be a number of seconds" in capsys.readouterr().err
