"""Games are plugins: found through the ``cloister.games`` entry points, no import cycle."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import textwrap
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from domain import default_registry
from domain.registry import BUILT_IN, ENTRY_POINT_GROUP, discover
from tests.game_contract import Playout, modes

ROOT = Path(__file__).parents[1]
DOMAIN = ROOT / "domain"


def test_pyproject_registers_the_built_in_games() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["entry-points"][ENTRY_POINT_GROUP]
    assert sorted(declared.values()) == sorted(BUILT_IN)
    registry = default_registry()
    assert {registry[name].name for name in declared} == set(declared)


def test_the_installed_metadata_has_the_entry_points() -> None:
    found = {ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    if not found & set(BUILT_IN):
        # A checkout whose editable install predates the entry points (registry falls back
        # to the built-ins with a warning); a fresh install must have all of them.
        pytest.skip("install metadata predates the entry points: run pip install -e .")
    assert set(BUILT_IN) <= found


FAKE_GAME = """
from domain import GameType
from domain.highcard.game import HighCard


class FakeCard(HighCard):
    name = "fake-card"
    title = "Fake Card"


GAME_TYPE = GameType(FakeCard(), demo=True)
"""


def test_a_game_in_another_package_registers_through_an_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fake_cloister_game").mkdir()
    (tmp_path / "fake_cloister_game" / "__init__.py").write_text(FAKE_GAME)
    info = tmp_path / "fake_cloister_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fake-cloister-game\nVersion: 0.1\n"
    )
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nfake-card = fake_cloister_game:GAME_TYPE\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    registry = default_registry()
    assert list(registry)[:4] == [
        "illumination",
        "campus-galli",
        "road-to-enlightenment",
        "high-card",
    ]
    assert "fake-card" in registry
    # ... and the whole contract applies to it, by registering alone
    gtype = registry["fake-card"]
    for options in modes(gtype):
        Playout(gtype, options, 0).run()
    # ... and a server can snapshot it (its files are hashed, its classes may be unpickled)
    from server.snapshots import dumps_state, fingerprint, loads_state

    module = type(gtype.game).__module__
    assert len(fingerprint(module)) == 32
    state = gtype.game.initial_state({"players": 2})
    assert loads_state(dumps_state(state), module) == state


def test_two_games_of_one_name_are_refused() -> None:
    eps = [
        metadata.EntryPoint("a", "domain.highcard:GAME_TYPE", ENTRY_POINT_GROUP),
        metadata.EntryPoint("b", "tests.test_plugins:_TWIN", ENTRY_POINT_GROUP),
    ]
    with pytest.raises(ValueError, match="two games are named 'high-card'"):
        discover(eps)


def test_an_entry_point_that_is_not_a_game_type_is_refused() -> None:
    eps = [metadata.EntryPoint("x", "domain.highcard:GAME", ENTRY_POINT_GROUP)]
    with pytest.raises(TypeError, match="is not a GameType"):
        discover(eps)


def _twin() -> object:
    from domain import GameType
    from domain.highcard.game import HighCard

    return GameType(HighCard())


_TWIN = _twin()


def _module_level_imports(path: Path, package: str) -> set[str]:
    """``domain.*`` modules imported when ``path`` (a module of ``package``) is imported
    (not under TYPE_CHECKING, not inside functions)."""
    tree = ast.parse(path.read_text())
    out: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")
                if node.level:
                    base = base[: len(base) - node.level + 1]
                    if node.module is None:  # from . import x
                        out.update(".".join([*base, a.name]) for a in node.names)
                        continue
                    out.add(".".join([*base, node.module]))
                else:
                    out.add(node.module or "")
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names)

    visit(tree.body)
    return {m for m in out if m == "domain" or m.startswith("domain.")}


def test_the_kernel_imports_no_game() -> None:
    """The kernel (``domain/*.py``) never imports a game package, so there is no cycle
    between the registry and the games: the games import the kernel only."""
    games = {p.name for p in DOMAIN.iterdir() if (p / "__init__.py").exists()}
    for path in sorted(DOMAIN.glob("*.py")):
        imported = _module_level_imports(path, "domain")
        bad = {m for m in imported if m.split(".")[1:2] and m.split(".")[1] in games}
        assert not bad, f"{path.name} imports game packages {sorted(bad)}"


@pytest.mark.parametrize(
    "first",
    ["domain.registry", *(t.split(":")[0] for t in BUILT_IN)],
)
def test_each_entry_module_imports_first_in_a_fresh_interpreter(first: str) -> None:
    others = [m for m in ["domain.registry", *(t.split(":")[0] for t in BUILT_IN)] if m != first]
    code = textwrap.dedent(
        f"""
        import importlib
        for name in {[first, *others]!r}:
            importlib.import_module(name)
        from domain import default_registry
        assert len(default_registry()) >= 4
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=120)


def test_the_import_check_sees_what_it_must(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import illumination\n"
        "from .campus_galli import GAME\n"
        "import domain.highcard\n"
        "if TYPE_CHECKING:\n"
        "    from .road_to_enlightenment import GAME\n"
        "def f():\n"
        "    from . import road_to_enlightenment\n"
    )
    assert _module_level_imports(path, "domain") == {
        "domain.illumination",
        "domain.campus_galli",
        "domain.highcard",
    }
