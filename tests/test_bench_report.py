"""The peer benchmark's summary and table (``bench.peers.summarise``, ``bench.report``)."""

from __future__ import annotations

from typing import Any

import pytest

import bench.__main__ as bench_main
from bench.peers import describe, summarise


def rep(moves: int, server_s: float, redis_s: float, load_s: float | None) -> dict[str, Any]:
    return {
        "moves": moves,
        "per_s": moves / 2.0,
        "p50_ms": 1.0,
        "p99_ms": 2.0,
        "cpu_s": [server_s, redis_s],
        "load_cpu_s": load_s,
        "bytes_per_update": 900.0,
        "median_update_bytes": 880,
        "rss_mb": 100.0,
        "wall_s": 2.0,
    }


def test_the_load_generators_cpu_is_a_median_per_move_beside_the_servers() -> None:
    runs = {
        "swap-100": {
            "cloister": [
                rep(1000, 0.2, 0.05, 0.1),
                rep(1000, 0.3, 0.05, 0.3),
                rep(2000, 0.4, 0.1, 0.2),
            ]
        }
    }
    row = summarise(runs)["swap-100"]["cloister"]
    assert row["server_cpu_us"] == pytest.approx(200.0)
    assert row["load_cpu_us"] == pytest.approx(100.0)  # 100, 300 and 100 µs a move
    assert "load  100 µs/move" in describe(rep(1000, 0.2, 0.05, 0.1))


def test_a_result_without_the_load_generators_cpu_still_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    older = summarise({"swap-100": {"cloister": [rep(1000, 0.2, 0.05, None)]}})
    assert older["swap-100"]["cloister"]["load_cpu_us"] is None
    bench_main.report({"peers": older})
    out = capsys.readouterr().out
    assert "load µs" in out and "swap-100" in out


def test_the_targets_give_the_ratio_within_each_round_too() -> None:
    def row(rates: list[float]) -> dict[str, Any]:
        out: dict[str, Any] = summarise(
            {"s": {"x": [rep(int(r * 2), 0.2, 0.05, 0.1) for r in rates]}}
        )
        one: dict[str, Any] = out["s"]["x"]
        return one

    bg, cl = row([1000.0, 2000.0, 1500.0]), row([900.0, 2200.0, 1200.0])
    assert bg["moves_per_s_rounds"] == [1000.0, 2000.0, 1500.0]
    peers = {"illumination-100": {"cloister": cl}, "swap-100": {"boardgame.io": bg}}
    mine, theirs = ("illumination-100", "cloister"), ("swap-100", "boardgame.io")
    assert bench_main.by_round(peers, mine, theirs) == "; round by round 0.90x, 1.10x, 0.80x"
    # a result saved before the rounds were kept: nothing to add
    del cl["moves_per_s_rounds"]
    assert bench_main.by_round(peers, mine, theirs) == ""
