"""``bench/memory.py`` runs (tiny numbers): it measures what the README quotes."""

from __future__ import annotations

import orjson
import pytest

from bench.memory import main


@pytest.mark.redis
def test_the_memory_bench_runs_small(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--games", "20", "--lanes", "5", "--cold", "1"])
    result = orjson.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["memory"]["games"] == 20 and len(result["memory"]["samples"]) == 10
    assert result["listing"]["listed"] == 20  # the cold server listed all, loading none
    assert result["listing"]["games_cached_after"] == 0
