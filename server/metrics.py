"""Prometheus text exposition of a few counters and gauges (no client library needed)."""

from __future__ import annotations

from .games import GameService
from .handoff import STATS as HANDOFF
from .hub import Hub

__all__ = ["render"]


def render(service: GameService, hub: Hub) -> str:
    lines = [
        "# HELP cloister_commands_total Game commands received.",
        "# TYPE cloister_commands_total counter",
        f"cloister_commands_total {service.stats['commands']}",
        "# HELP cloister_commands_rejected_total Game commands refused by the rules.",
        "# TYPE cloister_commands_rejected_total counter",
        f"cloister_commands_rejected_total {service.stats['rejected']}",
        "# HELP cloister_append_conflicts_total Appends that lost a race and were re-decided.",
        "# TYPE cloister_append_conflicts_total counter",
        f"cloister_append_conflicts_total {service.stats['conflicts']}",
        "# HELP cloister_duplicate_commands_total Retried commands answered from the log.",
        "# TYPE cloister_duplicate_commands_total counter",
        f"cloister_duplicate_commands_total {service.stats['duplicates']}",
        "# HELP cloister_divergences_total Games whose history in Redis was not the one this "
        "node held (lost writes): reloaded.",
        "# TYPE cloister_divergences_total counter",
        f"cloister_divergences_total {service.stats.get('divergences', 0)}",
        "# HELP cloister_games_cached Games held in this node's memory.",
        "# TYPE cloister_games_cached gauge",
        f"cloister_games_cached {len(service.games)}",
        "# HELP cloister_games_cached_bytes Estimated memory of the cached games.",
        "# TYPE cloister_games_cached_bytes gauge",
        f"cloister_games_cached_bytes {getattr(service.games, 'bytes', 0)}",
        "# HELP cloister_games_dropped_total Cached games dropped to keep the cache's bounds.",
        "# TYPE cloister_games_dropped_total counter",
        f"cloister_games_dropped_total {getattr(service.games, 'dropped', 0)}",
        "# HELP cloister_ws_connections Open WebSocket connections.",
        "# TYPE cloister_ws_connections gauge",
        f"cloister_ws_connections {sum(len(c) for c in hub.connections.values())}",
        "# HELP cloister_handoffs_sent_total Game sockets this worker passed to their home.",
        "# TYPE cloister_handoffs_sent_total counter",
        f"cloister_handoffs_sent_total {HANDOFF['sent']}",
        "# HELP cloister_handoffs_adopted_total Game sockets another worker passed to this one.",
        "# TYPE cloister_handoffs_adopted_total counter",
        f"cloister_handoffs_adopted_total {HANDOFF['adopted']}",
        "# HELP cloister_handoff_fallbacks_total Hand-offs the home did not take: served here "
        "(or, shutting down, refused with 503).",
        "# TYPE cloister_handoff_fallbacks_total counter",
        f"cloister_handoff_fallbacks_total {HANDOFF['fallbacks']}",
        "# HELP cloister_handoff_timeouts_total Hand-offs whose home did not answer in time "
        "(then counted as sent or as a fallback, as they ended).",
        "# TYPE cloister_handoff_timeouts_total counter",
        f"cloister_handoff_timeouts_total {HANDOFF['timeouts']}",
    ]
    return "\n".join(lines) + "\n"
