"""Small shared helpers for the client tests."""

from __future__ import annotations

from typing import Any

from clients.client import Api, GameClient


def draw_first(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Draw when possible, else the first legal command.

    High Card deadlocks a seat that passed twice (no card left to play in round 3), so the
    test players never pass.
    """
    for command in legal:
        if command.get("type") == "Draw":
            return command
    return legal[0]


async def new_game(url: str, seed: str = "t") -> tuple[str, str, str]:
    """A started two-seat High Card game: (game id, seat 0 token, seat 1 token)."""
    async with Api(url) as api:
        game = await api.create_game("high-card", {"players": 2}, seed)
        _, t0 = await api.join(game["id"], "ann", 0)
        _, t1 = await api.join(game["id"], "bob", 1)
    return game["id"], t0, t1


async def play_until(clients: list[GameClient], stop: Any, timeout: float = 20.0) -> int:
    """Let every seat client that is to act move (draw_first) until ``stop()``; returns
    the number of commands sent."""
    sent = 0
    while not stop():
        movers = [c for c in clients if c.my_turn]
        if not movers:
            await clients[0].next_update(timeout)
            continue
        for c in movers:
            if c.my_turn:
                reply = await c.send(draw_first(c.legal), timeout=timeout)
                assert reply.TYPE == "accepted", reply
                sent += 1
    return sent


def versions(client: GameClient) -> list[int]:
    return [e.version for e in client.events]
