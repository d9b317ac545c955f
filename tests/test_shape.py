"""One game shape (issue 11, item 3): every game package has the same modules for the same
concerns, plus at most a few of its own; no module of the rules is much over 500 lines; and
the kernel imports no game (games import the kernel), so there is no import cycle between
them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import domain

DOMAIN = Path(domain.__file__).parent
GAMES = ("illumination", "campus_galli", "road_to_enlightenment", "highcard")
SHARED = (
    "__init__",
    "content",
    "state",
    "commands",
    "events",
    "decide",
    "evolve",
    "legal",
    "view",
    "describe",
    "glossary",
    "bots",
    "game",
)


MAX_OWN = 4
"""Modules a game may add beyond the shared ones ("at most a few of its own")."""
MAX_LINES = 520
"""About 500 lines: a little slack, so that a one-line fix does not force a split."""


def _modules(package: str) -> set[str]:
    return {p.stem for p in (DOMAIN / package).glob("*.py")}


@pytest.mark.parametrize("package", GAMES)
def test_every_game_has_the_shared_modules(package: str) -> None:
    missing = [m for m in SHARED if m not in _modules(package)]
    assert not missing, f"domain/{package} lacks {missing}"
    assert not (DOMAIN / package / "rules").exists(), f"{package}: rules/ is decide/evolve/legal"


@pytest.mark.parametrize("package", GAMES)
def test_every_game_has_at_most_a_few_modules_of_its_own(package: str) -> None:
    own = sorted(_modules(package) - set(SHARED))
    assert len(own) <= MAX_OWN, f"domain/{package} has {len(own)} modules of its own: {own}"


def _too_long(root: Path, limit: int) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > limit:
            found.append(f"{path.relative_to(root.parent)} ({n} lines)")
    return found


def test_no_module_of_the_rules_is_over_about_500_lines() -> None:
    assert not _too_long(DOMAIN, MAX_LINES), "split by concern: " + ", ".join(
        _too_long(DOMAIN, MAX_LINES)
    )


def test_the_length_check_sees_an_oversized_module(tmp_path: Path) -> None:
    # The check above must be able to fail: a long file in a nested package is found.
    (tmp_path / "game" / "rules").mkdir(parents=True)
    (tmp_path / "game" / "rules" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "game" / "short.py").write_text("x = 1\n" * MAX_LINES)
    assert _too_long(tmp_path / "game", MAX_LINES) == [
        f"game/rules/long.py ({MAX_LINES + 1} lines)"
    ]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("domain."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("domain."))
    return found


def test_the_kernel_imports_no_game() -> None:
    games = {p.name for p in DOMAIN.iterdir() if (p / "__init__.py").exists()}
    for path in DOMAIN.glob("*.py"):
        assert not _imports(path) & games, f"domain/{path.name} imports a game"
