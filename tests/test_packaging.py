"""A bare ``pip install .`` must run everything the package ships: every module the shipped
packages import is the standard library, the package itself, or declared in
``[project.dependencies]`` (with its extras). This is how ``cloister serve`` once crashed on
a bare machine: the CLI imported httpx, which only the dev extra installed.

This test reads the imports statically (every ``import`` anywhere, lazy ones included), so
it fails at once; ``.ci/run`` also proves it for real in a fresh venv without extras."""

from __future__ import annotations

import ast
import importlib.metadata as md
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("domain", "protocol", "server", "clients")


def _name(requirement: str) -> tuple[str, set[str]]:
    m = re.match(r"\s*([A-Za-z0-9_.-]+)\s*(?:\[([^\]]*)\])?", requirement)
    assert m, requirement
    extras = {e.strip() for e in (m.group(2) or "").split(",") if e.strip()}
    return m.group(1).lower().replace("_", "-"), extras


def runtime_distributions() -> set[str]:
    """The declared runtime dependencies and what their requested extras pull in."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    out: set[str] = set()
    for req in project["dependencies"]:
        dist, extras = _name(req)
        out.add(dist)
        for line in md.requires(dist) or []:
            marker = line.partition(";")[2]
            if any(re.search(rf"extra\s*==\s*['\"]{e}['\"]", marker) for e in extras):
                out.add(_name(line)[0])
    return out


def imported_modules() -> dict[str, set[str]]:
    """Top-level module name -> the shipped files importing it."""
    found: dict[str, set[str]] = {}
    for package in SHIPPED:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for name in names:
                    found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_shipped_import_is_a_runtime_dependency() -> None:
    allowed = runtime_distributions()
    providers = md.packages_distributions()
    problems = []
    for module, files in sorted(imported_modules().items()):
        if module in sys.stdlib_module_names or module in SHIPPED or module == "__future__":
            continue
        dists = {d.lower().replace("_", "-") for d in providers.get(module, [])}
        if not dists & allowed:
            problems.append(
                f"{module} (from {', '.join(sorted(dists)) or 'nowhere'}) "
                f"imported by {sorted(files)}"
            )
    assert not problems, "not in [project.dependencies]:\n" + "\n".join(problems)


def test_the_check_would_catch_a_dev_only_import() -> None:
    """httpx is installed here (a dev dependency) but is not a runtime one."""
    assert "httpx" in {d.lower() for d in md.packages_distributions().get("httpx", [])}
    assert "httpx" not in runtime_distributions()
    assert {"starlette", "uvicorn", "redis", "hiredis", "websockets"} <= runtime_distributions()


def test_the_dockerfile_copies_every_shipped_package() -> None:
    """The image runs `pip install .` on what it COPYs: all shipped packages and their
    data files must be among them (README.md too: pyproject reads it)."""
    copied = {
        line.split()[1]
        for line in (ROOT / "deploy" / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ")
    }
    copied |= {
        part
        for line in (ROOT / "deploy" / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ")
        for part in line.split()[1:-1]
    }
    assert set(SHIPPED) | {"pyproject.toml", "README.md"} <= copied
