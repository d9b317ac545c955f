"""High Card's bots: the kernel's random bot is enough for a demo."""

from __future__ import annotations

from collections.abc import Mapping

from ..bots import Bot, RandomBot

__all__ = ["BOTS"]

BOTS: Mapping[str, Bot] = {"random": RandomBot()}
