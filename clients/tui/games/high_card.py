"""High Card, the demo game: each seat's hand and score, the deck and the secret choices."""

from __future__ import annotations

from typing import Any

from ..frame import Frame
from .base import Block, GameUI, join_words, plural, text

ROUNDS = 3


def value(card: str) -> int:
    return int(str(card)[3:])


class HighCardUI(GameUI):
    title = "High Card (demo)"
    legend = ("Cards are shown by their value; a hidden card is [?].",)
    syntax = (
        ("draw", "draw the top card of the deck"),
        ("pass", "take no card this draw"),
        ("play 9  (or just 9)", "secretly choose the card of value 9 for this round"),
    )

    def status(self, f: Frame) -> str:
        v = f.view
        if f.status == "open" or not isinstance(v, dict):
            return super().status(f)
        if f.finished or v.get("phase") == "over":
            return self.game_over(f)
        rnd = f"Round {v.get('round', 1)} of {ROUNDS}"
        if v.get("phase") == "draw":
            return f"{rnd}, draw phase: {f.who(int(v.get('turn', 0)))} draws a card or passes."
        waiting = (v.get("choices") or {}).get("waiting_on") or list(f.to_act)
        names = join_words(f.who(s) for s in waiting)
        return f"{rnd}, play phase: every player secretly picks a card; waiting for {names}."

    def board(self, f: Frame) -> Block:
        v = f.view
        if not isinstance(v, dict):
            return super().board(f)
        committed = set((v.get("choices") or {}).get("committed") or [])
        mine = (v.get("choices") or {}).get("mine")
        out: Block = [
            text(
                ("High Card", "bold"),
                f" · round {v.get('round', 1)} of {ROUNDS} · ",
                f"{v.get('phase', '')} phase · deck: {plural(int(v.get('deck_count', 0)), 'card')}",
            ),
            text(),
        ]
        for seat, count in enumerate(v.get("hand_counts") or []):
            hand = (v.get("hands") or [None])[seat] if seat < len(v.get("hands") or []) else None
            cards = " ".join(f"[{value(c)}]" for c in hand) if hand is not None else "[?] " * count
            marks = []
            if seat in f.to_act:
                marks.append(("◄ to act", "bold yellow"))
            if seat in committed:
                marks.append(("has chosen", "green"))
            line = text(
                (f"{f.who(seat):<24}", "bold" if seat == f.seat else ""),
                f"score {(v.get('scores') or [0] * 9)[seat]:>2}   hand {cards.strip():<16} ",
            )
            for m in marks:
                line.append(" ")
                line.append(m[0], style=m[1])
            out.append(line)
        discard = v.get("discard") or []
        out.append(text())
        out.append(text("Discard pile: ", " ".join(f"[{value(c)}]" for c in discard) or "empty"))
        if mine:
            out.append(text("Your secret choice: ", (f"[{value(mine[0])}]", "bold")))
        return out

    def label(self, command: dict[str, Any], f: Frame) -> str:
        match command.get("type"):
            case "Draw":
                n = (f.view or {}).get("deck_count", "?")
                return f"Draw a card ({n} left in the deck)"
            case "Pass":
                return "Pass (take no card)"
            case "PlayCard":
                return f"Play the {value(command['card'])}"
        return super().label(command, f)

    def group(self, command: dict[str, Any], f: Frame) -> str:
        return "Play a card" if command.get("type") == "PlayCard" else "Draw or pass"

    def forms(self, command: dict[str, Any], f: Frame) -> list[str]:
        match command.get("type"):
            case "Draw":
                return ["draw", "d"]
            case "Pass":
                return ["pass"]
            case "PlayCard":
                n = value(command["card"])
                return [str(n), f"play {n}"]
        return super().forms(command, f)
