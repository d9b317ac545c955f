"""One game shape (issue 11, item 3): every game package has the same modules for the same
concerns, and the kernel imports no game (games import the kernel), so there is no import
cycle between them."""

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


def _modules(package: str) -> set[str]:
    return {p.stem for p in (DOMAIN / package).glob("*.py")}


@pytest.mark.parametrize("package", GAMES)
def test_every_game_has_the_shared_modules(package: str) -> None:
    missing = [m for m in SHARED if m not in _modules(package)]
    assert not missing, f"domain/{package} lacks {missing}"
    assert not (DOMAIN / package / "rules").exists(), f"{package}: rules/ is decide/evolve/legal"


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
