"""The browser client's JSDoc types hold: ``tsc --noEmit`` over clients/web (its tsconfig).

TypeScript comes from npm into tests/web/tsc/node_modules (``npm ci --prefix tests/web/tsc``,
which .ci/run does); without it this test is skipped with the reason, and .ci/run runs the
same check itself so CI fails when the types do not.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TSC = Path(__file__).parent / "tsc" / "node_modules" / ".bin" / "tsc"


def test_the_web_client_type_checks() -> None:
    if not TSC.exists():
        pytest.skip("TypeScript is not installed (npm ci --prefix tests/web/tsc)")
    files = sorted((ROOT / "clients" / "web").glob("**/*.js"))
    own = [f for f in files if "vendor" not in f.parts]
    unchecked = [f.name for f in own if "// @ts-check" not in f.read_text()[:200]]
    assert not unchecked, f"files without // @ts-check: {unchecked}"
    run = subprocess.run(
        [str(TSC), "-p", str(ROOT / "clients" / "web" / "tsconfig.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
