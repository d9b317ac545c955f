"""Illumination: the three Books, the Monastery, the Battle cards and both players' mats.

Everything is drawn from the viewer's seat, as the rulebook numbers it: "Books I, II, and III
are based on each player's perspective from left to right", so the north player sees the
Books in the other order and each Book turned round. Book squares are numbered 1–5 by row
(top to bottom) and column (left to right) *as drawn*, archways 1–3 on the mat owner's mat,
Monastery stations 1–8 clockwise from the Candle station; the typed moves use the same numbers.

A tile is three letters: its colour (``r`` red, ``y`` yellow, ``s`` silver, ``w`` white) and
its faction (``An`` Angel, ``De`` Demon, ...); ``x`` instead of the colour is a defeated
(face-down) tile. An empty Quill shows its colour letter, text ``≡``, the Drollery ``✦``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..frame import Frame
from .base import Block, GameUI, join_words, plural, side_by_side, text

SIDES = {"REV": "Reverent", "IRR": "Irreverent"}
COLOURS = {"R": "red", "Y": "yellow", "S": "silver", "W": "white"}
QUILL_STYLE = {
    "R": "white on dark_red",
    "Y": "black on gold3",
    "S": "black on grey70",
    "W": "black on grey93",
}
FACTIONS = {
    "Angel": "An",
    "Knight": "Kn",
    "Monk": "Mo",
    "Dog": "Do",
    "Demon": "De",
    "Dragon": "Dr",
    "Rabbit": "Ra",
    "Squirrel": "Sq",
}
RITUALS = ("Candle", "Bell", "Wine", "Bread")
PAYMENT = ("coin", "Candle", "Bell", "Wine", "Bread")
CARDS = {
    "MOTUS": (
        "Motus",
        "move one of your placed tiles to an open Quill in any Book, "
        "or move the Abbot to any station",
    ),
    "MUTATIO": ("Mutatio", "exchange any two tiles on your Player mat"),
    "EXILIUM": (
        "Exilium",
        "send an opponent's tile to the Book of your choice; its owner places it there",
    ),
    "PORTICUS": ("Porticus", "exchange all tiles of two rows or two columns of your mat"),
    "SCRIPTUM": ("Scriptum", "place one tile this turn on text instead of a Quill"),
    "RITUS": ("Ritus", "gain 1 Ritual token of your choice"),
}
BOOK_W = 21
MAT_W = 33


# -- reading the view ---------------------------------------------------------------------------
def viewer_side(v: dict[str, Any]) -> str:
    """The side whose seat the board is drawn from (a spectator sees it from the south)."""
    return str(v.get("you") or v.get("south") or "REV")


def north(v: dict[str, Any]) -> bool:
    return viewer_side(v) != str(v.get("south", "REV"))


def book_no(v: dict[str, Any], pos: int) -> int:
    for b in v.get("books", []):
        if b["pos"] == pos:
            return int(b["number"].get(viewer_side(v), pos + 1))
    return pos + 1


def shown(v: dict[str, Any], row: int, col: int) -> tuple[int, int]:
    """A Book square (south frame, 0-based) as drawn for this viewer, 1-based."""
    return (5 - row, 5 - col) if north(v) else (row + 1, col + 1)


def where(v: dict[str, Any], pos: int, row: int, col: int) -> str:
    r, c = shown(v, row, col)
    return f"Book {book_no(v, pos)}, row {r}, column {c}"


def side_name(f: Frame, side: str) -> str:
    """ "Reverent (you)", "Irreverent (greedy bot)", "the Mystic Monk"."""
    for p in (f.view or {}).get("players", []):
        if p["side"] == side:
            if p.get("seat") is None:
                return "the Mystic Monk"
            return f.who(int(p["seat"]))
    return SIDES.get(side, side)


def abbr(t: dict[str, Any] | None) -> str:
    """A tile in three letters: ``rAn`` a red Angel, ``xAn`` a defeated Angel, ``$2`` coins."""
    if not t:
        return " · "
    if t.get("two_coin"):
        return " $2"
    fac = FACTIONS.get(str(t.get("faction")), "??")
    return ("x" if not t.get("faceup", True) else str(t.get("colour", "?")).lower()) + fac


def tile_name(t: dict[str, Any] | None) -> str:
    """ "the red Angel", "a Two-Coin tile", "the defeated Demon"."""
    if not t:
        return "an empty archway"
    if t.get("two_coin"):
        return "a Two-Coin tile"
    if not t.get("faceup", True):
        return f"the defeated {t.get('faction')}"
    return f"the {COLOURS.get(str(t.get('colour')), '')} {t.get('faction')}"


def tiles(v: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str, tuple[int, ...]]]:
    """Every tile in view with where it is: ``("margin", (pos,))``, ``("book", (pos, row,
    col))`` or ``("arch", (side index, row, col))``."""
    for b in v.get("books", []):
        for t in b.get("margin", []):
            yield t, "margin", (b["pos"],)
        for c in b.get("cells", []):
            if c.get("tile"):
                yield c["tile"], "book", (b["pos"], c["row"], c["col"])
    for i, p in enumerate(v.get("players", [])):
        for r, row in enumerate(p.get("archways") or []):
            for c, t in enumerate(row):
                if t:
                    yield t, "arch", (i, r, c)


Found = tuple[dict[str, Any] | None, str, tuple[int, ...]]
_index: tuple[dict[str, Any] | None, dict[str, Found]] = (None, {})


def find(v: dict[str, Any], tile_id: str) -> Found:
    """The tile with this id and where it is. The index of the last view asked about is
    kept: a menu asks about the same view once per legal command."""
    global _index
    view, index = _index
    if view is not v:
        index = {}
        for t, kind, at in tiles(v):
            index.setdefault(str(t.get("id")), (t, kind, at))
        _index = (v, index)
    return index.get(tile_id, (None, "", ()))


def me(v: dict[str, Any]) -> dict[str, Any]:
    side = viewer_side(v)
    for p in v.get("players", []):
        if p["side"] == side:
            return dict(p)
    return {}


def payment(pay: list[int] | None) -> str:
    """``[1, 0, 0, 1, 0]`` → ``"1 coin and 1 Wine token"``."""
    parts = []
    for n, what in zip(pay or [], PAYMENT, strict=False):
        if n:
            parts.append(
                plural(n, "coin") if what == "coin" else f"{n} {what} token" + "s" * (n > 1)
            )
    return join_words(parts) or "nothing"


def pay_words(pay: list[int] | None) -> str:
    parts = []
    for n, what in zip(pay or [], PAYMENT, strict=False):
        if n:
            parts.append(f"{n} {what.lower()}")
    return " ".join(parts)


def bare(name: str) -> str:
    """ "the red Angel" → "red Angel" (for "your red Angel")."""
    return name[4:] if name.startswith("the ") else name


def card_name(card: str) -> str:
    """``"R-MOTUS-2"`` → ``"Motus"``; a Crusade ``"CR-REV-DRAGON"`` → ``"Crusade: Dragons"``."""
    parts = str(card).split("-")
    if parts[0] == "CR" and len(parts) >= 3:
        return f"Crusade: {parts[-1].capitalize()}s"
    for p in parts:
        if p in CARDS:
            return CARDS[p][0]
    return str(card)


def station(v: dict[str, Any], i: int) -> str:
    names = (v.get("monastery") or {}).get("stations") or []
    name = names[i] if 0 <= i < len(names) else None
    return f"station {i + 1} ({name})" if name else f"station {i + 1}"


# -- the module ---------------------------------------------------------------------------------
class IlluminationUI(GameUI):
    title = "Illumination"
    legend = (
        "Books: rows and columns 1-5 as drawn; Book 1 is your left Book.",
        "A tile is colour + faction: r red, y yellow, s silver, w white; An Angel, Kn Knight,",
        "Mo Monk, Do Dog (Reverent), De Demon, Dr Dragon, Ra Rabbit, Sq Squirrel (Irreverent).",
        "x = a defeated (face-down) tile. Empty Quill: its colour letter; ≡ text; ✦ Drollery.",
        "$2 = a Two-Coin tile. margin: the active tiles waiting to be placed in that Book.",
        "Ritual sets: size=points (e.g. 4=4), or the side that claimed it.",
        "Battle cards: markers Reverent:Irreverent.",
        *(f"{name}: {what}." for name, what in CARDS.values()),
    )
    syntax = (
        ("row 2 / col 3", "take row 2 (or column 3) of your archways to Book 2 (3)"),
        ("ran 3 4", "place the red Angel (rAn) on row 3, column 4 of its Book"),
        ("angel 3 4", "the same, naming the faction (add the colour if two differ)"),
        ("move ran 2", "move the active red Angel to Book 2 (pay ... if asked)"),
        ("abbot 3", "move the Abbot to station 3"),
        ("buy", "buy a Scriptorium card for 2 coins"),
        ("claim wine 4", "claim the Wine Ritual set of 4"),
        ("pen ran", "send an active tile to the Sheep Pen"),
        (
            "motus 1 3 4 to 2 1 1",
            "Motus: your tile on Book 1, row 3, column 4 to Book 2, row 1, column 1",
        ),
        ("motus abbot 5", "Motus: the Abbot to station 5"),
        ("mutatio 1 2 3 3", "Mutatio: exchange archways row 1 column 2 and row 3 column 3"),
        ("porticus rows 1 2", "Porticus: exchange rows 1 and 2 (or: porticus cols 1 3)"),
        ("exilium 2 3 4 to 1", "Exilium: the tile on Book 2 row 3 column 4 goes to Book 1"),
        ("scriptum ran 2 3", "Scriptum: place the red Angel on the text at row 2, column 3"),
        ("ritus wine", "Ritus: gain a Wine token"),
        ("discard coin / discard wine", "discard down to 7 items"),
        ("3 4", "put an exiled tile on row 3, column 4 (when asked)"),
        ("token wine", "take a Wine token for completing a Book"),
        ("end", "end the turn"),
        ("pass", "pass for the rest of the game"),
    )

    # -- the sentence ---------------------------------------------------------------------------
    def status(self, f: Frame) -> str:
        v = f.view
        if f.status == "open" or not isinstance(v, dict) or "books" not in v:
            return super().status(f)
        if f.finished or v.get("phase") == "over":
            return self.game_over(f)
        turn = side_name(f, str(v.get("turn")))
        head = f"Turn {v.get('turn_no', 1)}: "
        p = v.get("pending")
        if p:
            who = side_name(f, str(p.get("side")))
            if p.get("kind") == "exile":
                return (
                    f"{head}{who} chooses where {tile_name(p.get('tile'))} goes in "
                    f"Book {book_no(v, int(p.get('pos', 0)))} (exiled by Exilium)."
                )
            return f"{head}{who} chooses a Ritual token for completing a Book."
        if v.get("discarding"):
            return f"{head}{turn} discards {plural(int(v['discarding']), 'item')} down to 7."
        if not v.get("line_chosen"):
            return (
                f"{head}{turn} chooses a row or column of archways "
                "(or plays a card first, or passes)."
            )
        waiting = [(b["pos"], len(b["margin"])) for b in v.get("books", []) if b.get("margin")]
        if waiting:
            where_ = join_words(f"Book {book_no(v, pos)}" for pos, _ in waiting)
            n = sum(k for _, k in waiting)
            return (
                f"{head}{turn} places {plural(n, 'active tile')} in {where_}, then ends the turn."
            )
        return f"{head}{turn} may spend coins or play cards, then ends the turn."

    def game_over(self, f: Frame) -> str:
        return super().game_over(f)

    # -- the board ------------------------------------------------------------------------------
    def board(self, f: Frame) -> Block:
        v = f.view
        if not isinstance(v, dict) or "books" not in v:
            return super().board(f)
        books = sorted(v["books"], key=lambda b: book_no(v, b["pos"]))
        out: Block = side_by_side(*(self._book(f, b) for b in books), gap=1)
        out += self._monastery(f)
        mats = [self._mat(f, p) for p in self._mat_order(v)]
        out += side_by_side(*mats, gap=2)
        mine = me(v)
        if mine.get("hand"):
            names = ", ".join(card_name(c) for c in mine["hand"])
            out.append(text(("Your hand: ", "bold"), names))
        return out

    def _mat_order(self, v: dict[str, Any]) -> list[dict[str, Any]]:
        # The opponent's mat on the left, yours on the right (next to the log's newest lines).
        you = viewer_side(v)
        return sorted(v.get("players", []), key=lambda p: p["side"] == you)

    def _book(self, f: Frame, b: dict[str, Any]) -> Block:
        v = f.view
        flip = north(v)
        title = text((f"Book {book_no(v, b['pos'])}", "bold"), f" · {b.get('layout', '')}")
        if b.get("closed"):
            title.append(" closed", style="bold red")
        lines: Block = [title, text("  ", *(f" {c}  " for c in range(1, 6)))]
        grid = {(c["row"], c["col"]): c for c in b.get("cells", [])}
        for r in range(5):
            row = text(f"{r + 1} ")
            for c in range(5):
                cell = grid.get((4 - r, 4 - c) if flip else (r, c))
                row.append_text(self._cell(cell))
                row.append(" ")
            lines.append(row)
        margin = [abbr(t) for t in b.get("margin", [])]
        if b.get("completed_by"):
            lines.append(text(("done: ", "dim"), SIDES.get(b["completed_by"], "")))
        if margin:
            line = text(("margin", "bold yellow"))
            for m in margin:
                if line.cell_len + 1 + len(m) > BOOK_W:
                    lines.append(line)
                    line = text("      ")
                line.append(" " + m)
            lines.append(line)
        return lines

    def _cell(self, cell: dict[str, Any] | None) -> Any:
        if cell is None:
            return text("   ")
        t = cell.get("tile")
        if t:
            colour = str(t.get("colour"))
            style = QUILL_STYLE.get(colour, "") if t.get("faceup", True) else "dim strike"
            return text((abbr(t), f"bold {style}"))
        if cell.get("drollery"):
            return text((" ✦ ", "magenta"))
        q = cell.get("quill")
        if q:
            return text((f" {str(q).lower()} ", f"dim {QUILL_STYLE.get(q, '')}"))
        return text((" ≡ ", "dim"))

    def _monastery(self, f: Frame) -> Block:
        v = f.view
        m = v.get("monastery") or {}
        abbot = int(m.get("abbot", -1))
        line = text(("Monastery ", "bold"))
        for i, name in enumerate(m.get("stations") or []):
            piece = f"{i + 1}{' ' + name if name else ''}"
            line.append(
                f"[{piece} Abbot]" if i == abbot else piece,
                style="bold reverse" if i == abbot else "",
            )
            line.append(" ")
        out: Block = [line]
        spaces = m.get("ritual_spaces") or []
        supply = v.get("supply") or {}
        rows: list[Any] = []
        for ritual in RITUALS:
            sets = text((ritual, "bold"), f" ({supply.get(ritual, 0)} left)")
            for sp in (s for s in spaces if s["ritual"] == ritual):
                owner = sp.get("owner")
                sets.append(" ")
                if owner:
                    sets.append(f"{sp['size']}={SIDES.get(owner, owner)[:3]}", style="reverse")
                else:
                    sets.append(f"{sp['size']}={sp['points']}")
            rows.append(sets)
        left_w = max(rows[0].cell_len, rows[2].cell_len) + 2
        for a, b in ((0, 1), (2, 3)):
            left = rows[a].copy()
            left.pad_right(left_w - left.cell_len)
            out.append(text(" ").append_text(left).append_text(rows[b]))
        battle = text(("Battle cards", "bold"))
        for bc in v.get("battle_cards") or []:
            a, b = (FACTIONS.get(x, x) for x in bc.get("factions", ["?", "?"]))
            battle.append(f"  {a}-{b} {bc.get('REV', 0)}:{bc.get('IRR', 0)}")
        battle.append("  (Rev:Irr)", style="dim")
        out.append(battle)
        return out

    def _mat(self, f: Frame, p: dict[str, Any]) -> Block:
        v = f.view
        active = v.get("turn") == p["side"] and v.get("phase") != "over"
        head = text((side_name(f, p["side"]), "bold"))
        if active:
            head.append(" ◄ to act", style="bold yellow")
        if p.get("passed"):
            head.append(" passed", style="dim")
        arch = p.get("archways") or [[None] * 3] * 3
        score = (v.get("score_preview") or {}).get(p["side"], 0)
        info = [
            f"coins {p.get('coins', 0)}  items {p.get('items', 0)}/7",
            f"score {score}  hand {p.get('hand_count', 0)}",
            f"stacks {p.get('stacks_remaining', 0)}  deck {p.get('deck_count', 0)}",
            f"Sheep Pen {len(p.get('sheep_pen') or [])}",
        ]
        lines: Block = [head, text("   1   2   3 ", info[0])]
        for r in range(3):
            row = text(f"{r + 1} ")
            for c in range(3):
                t = arch[r][c] if r < len(arch) and c < len(arch[r]) else None
                if t and not t.get("two_coin"):
                    row.append(abbr(t), style=f"bold {QUILL_STYLE.get(str(t.get('colour')), '')}")
                else:
                    row.append(abbr(t))
                row.append(" ")
            row.append(info[r + 1])
            lines.append(row)
        tokens = p.get("tokens") or {}
        lines.append(text(" ".join(f"{k} {tokens.get(k, 0)}" for k in RITUALS)))
        markers = f" · markers {p.get('markers', 0)}"
        if p.get("crusade"):
            lines.append(text(card_name(p["crusade"]), markers))
        elif p.get("has_crusade"):
            lines.append(text(("Crusade (secret)", "dim"), markers))
        else:
            lines.append(text(markers[3:]))
        monk = p.get("monk")
        if monk:
            track = " ".join(f"{k} {monk.get('track', {}).get(k, 0)}" for k in RITUALS)
            lines.append(text(f"Monk track: {track}"))
            if monk.get("last_die"):
                lines.append(text(f"last die {monk['last_die']}"))
        for line in lines:
            line.truncate(MAT_W, overflow="ellipsis")
        return lines

    # -- the moves ------------------------------------------------------------------------------
    def _tile(self, f: Frame, tile_id: str) -> dict[str, Any] | None:
        return find(f.view, tile_id)[0]

    def label(self, cmd: dict[str, Any], f: Frame) -> str:
        v = f.view
        t = cmd.get("type")
        tile = self._tile(f, str(cmd.get("tile"))) if "tile" in cmd else None
        name = tile_name(tile)
        pay = f", paying {payment(cmd['payment'])}" if any(cmd.get("payment") or []) else ""
        match t:
            case "Pass":
                return "Pass for the rest of the game"
            case "ChooseLine":
                k, i = cmd["kind"], int(cmd["index"])
                arch = me(v).get("archways") or [[None] * 3] * 3
                got = (
                    [arch[i - 1][c] for c in range(3)]
                    if k == "row"
                    else [arch[r][i - 1] for r in range(3)]
                )
                what = join_words(tile_name(x) for x in got if x)
                word = "row" if k == "row" else "column"
                return f"Take {word} {i} to Book {i}: {what}"
            case "PlaceTile":
                _, _, at = find(v, str(cmd["tile"]))
                pos = at[0] if at else 0
                return f"Place {name} on {where(v, pos, cmd['row'], cmd['col'])}"
            case "MoveActiveTile":
                return f"Move {name} to Book {book_no(v, cmd['to_pos'])}{pay}"
            case "SendToSheepPen":
                return f"Send {name} to the Sheep Pen (-1 point at the end)"
            case "MoveAbbot":
                return f"Move the Abbot to {station(v, cmd['station'])}{pay}"
            case "BuyCard":
                return f"Buy a Scriptorium card{pay}"
            case "ClaimRitual":
                pts = next(
                    (
                        s["points"]
                        for s in (v.get("monastery") or {}).get("ritual_spaces", [])
                        if s["ritual"] == cmd["ritual"] and s["size"] == cmd["size"]
                    ),
                    "?",
                )
                return f"Claim the {cmd['ritual']} Ritual set of {cmd['size']} ({pts} points)"
            case "PlayMotus":
                _, _, at = find(v, str(cmd["tile"]))
                src = where(v, *at) if len(at) == 3 else "its Book"
                dst = where(v, cmd["to_pos"], cmd["row"], cmd["col"])
                return f"Motus: move your {bare(name)} from {src} to {dst}"
            case "PlayMotusAbbot":
                return f"Motus: move the Abbot to {station(v, cmd['station'])}"
            case "PlayMutatio":
                (r1, c1), (r2, c2) = cmd["first"], cmd["second"]
                arch = me(v).get("archways") or [[None] * 3] * 3
                a = bare(tile_name(arch[r1 - 1][c1 - 1]))
                b = bare(tile_name(arch[r2 - 1][c2 - 1]))
                return (
                    f"Mutatio: exchange archways row {r1} column {c1} ({a}) "
                    f"and row {r2} column {c2} ({b})"
                )
            case "PlayExilium":
                _, _, at = find(v, str(cmd["tile"]))
                src = where(v, *at) if len(at) == 3 else "its Book"
                return f"Exilium: send {name} on {src} to Book {book_no(v, cmd['to_pos'])}"
            case "PlayPorticus":
                word = "rows" if cmd["kind"] == "row" else "columns"
                return (
                    f"Porticus: exchange {word} {cmd['first']} and {cmd['second']} of your archways"
                )
            case "PlayScriptum":
                _, _, at = find(v, str(cmd["tile"]))
                pos = at[0] if at else 0
                return (
                    f"Scriptum: place {name} on the text at {where(v, pos, cmd['row'], cmd['col'])}"
                )
            case "PlayRitus":
                return f"Ritus: gain a {cmd['ritual']} token"
            case "EndTurn":
                return "End the turn"
            case "DiscardItem":
                item = cmd["item"]
                return "Discard a coin" if item == "coin" else f"Discard a {item} token"
            case "ChooseExiliumSpace":
                pos = int((v.get("pending") or {}).get("pos", 0))
                return f"Put the exiled tile on {where(v, pos, cmd['row'], cmd['col'])}"
            case "ChooseCompletionToken":
                return f"Take a {cmd['ritual']} token for completing the Book"
        return super().label(cmd, f)

    def group(self, cmd: dict[str, Any], f: Frame) -> str:
        return {
            "ChooseLine": "Choose a row or column of archways",
            "PlaceTile": "Place an active tile",
            "MoveActiveTile": "Move an active tile to another Book",
            "SendToSheepPen": "Send an active tile to the Sheep Pen",
            "MoveAbbot": "Move the Abbot",
            "ClaimRitual": "Claim a Ritual set",
            "BuyCard": "Buy a Scriptorium card",
            "EndTurn": "End the turn",
            "DiscardItem": "Discard down to 7 items",
            "ChooseExiliumSpace": "Place the exiled tile",
            "ChooseCompletionToken": "Take a Ritual token",
            "Pass": "Pass for the rest of the game",
        }.get(str(cmd.get("type")), "Play a Scriptorium card")

    def forms(self, cmd: dict[str, Any], f: Frame) -> list[str]:
        v = f.view
        t = cmd.get("type")
        tile = self._tile(f, str(cmd.get("tile"))) if "tile" in cmd else None
        ab = abbr(tile).strip().lower() if tile else "?"
        fac = str((tile or {}).get("faction", "?")).lower()
        col = COLOURS.get(str((tile or {}).get("colour")), "")
        pw = pay_words(cmd.get("payment"))
        paid = [f" pay {pw}"] if pw else []
        match t:
            case "Pass":
                return ["pass"]
            case "ChooseLine":
                i = cmd["index"]
                return [f"row {i}"] if cmd["kind"] == "row" else [f"col {i}", f"column {i}"]
            case "PlaceTile" | "PlayScriptum":
                _, _, at = find(v, str(cmd["tile"]))
                r, c = shown(v, cmd["row"], cmd["col"])
                b = book_no(v, at[0]) if at else 0
                pre = "scriptum " if t == "PlayScriptum" else ""
                return [
                    f"{pre}{ab} {r} {c}",
                    f"{pre}{fac} {r} {c}",
                    f"{pre}{col} {fac} {r} {c}",
                    f"{pre}{ab} {r}{c}",
                    f"{pre}book {b} {ab} {r} {c}",
                ]
            case "MoveActiveTile":
                b = book_no(v, cmd["to_pos"])
                base = [f"move {ab} {b}", f"move {fac} {b}", f"move {ab} book {b}"]
                return base + [x + p for x in base for p in paid]
            case "SendToSheepPen":
                return [f"pen {ab}", f"pen {fac}", f"sheep pen {ab}"]
            case "MoveAbbot":
                n = cmd["station"] + 1
                return [f"abbot {n}"] + [f"abbot {n}{p}" for p in paid]
            case "BuyCard":
                return ["buy"] + [f"buy{p}" for p in paid]
            case "ClaimRitual":
                rit = str(cmd["ritual"]).lower()
                return [f"claim {rit} {cmd['size']}", f"{rit} {cmd['size']}"]
            case "PlayMotus":
                _, _, at = find(v, str(cmd["tile"]))
                if len(at) != 3:
                    return [f"motus {ab}"]
                r1, c1 = shown(v, at[1], at[2])
                r2, c2 = shown(v, cmd["row"], cmd["col"])
                b1, b2 = book_no(v, at[0]), book_no(v, cmd["to_pos"])
                return [
                    f"motus {b1} {r1} {c1} to {b2} {r2} {c2}",
                    f"motus {b1} {r1} {c1} {b2} {r2} {c2}",
                ]
            case "PlayMotusAbbot":
                return [f"motus abbot {cmd['station'] + 1}"]
            case "PlayMutatio":
                (r1, c1), (r2, c2) = cmd["first"], cmd["second"]
                return [f"mutatio {r1} {c1} {r2} {c2}", f"mutatio {r1}{c1} {r2}{c2}"]
            case "PlayExilium":
                _, _, at = find(v, str(cmd["tile"]))
                b2 = book_no(v, cmd["to_pos"])
                if len(at) != 3:
                    return [f"exilium {ab} to {b2}"]
                r, c = shown(v, at[1], at[2])
                b = book_no(v, at[0])
                return [f"exilium {b} {r} {c} to {b2}", f"exilium {b} {r} {c} {b2}"]
            case "PlayPorticus":
                k, a, b = cmd["kind"], cmd["first"], cmd["second"]
                return [
                    f"porticus {k}s {cmd['first']} {cmd['second']}",
                    f"porticus {k} {cmd['first']} {cmd['second']}",
                    f"porticus {'columns' if k == 'col' else 'rows'} {a} {b}",
                ]
            case "PlayRitus":
                return [f"ritus {str(cmd['ritual']).lower()}"]
            case "EndTurn":
                return ["end", "end turn"]
            case "DiscardItem":
                return [f"discard {str(cmd['item']).lower()}"]
            case "ChooseExiliumSpace":
                r, c = shown(v, cmd["row"], cmd["col"])
                return [f"{r} {c}", f"space {r} {c}", f"{r}{c}"]
            case "ChooseCompletionToken":
                rit = str(cmd["ritual"]).lower()
                return [f"token {rit}", rit]
        return super().forms(cmd, f)

    def order(self, cmd: dict[str, Any], f: Frame) -> tuple[Any, ...]:
        # Squares in reading order as drawn (the north player's Books are turned round).
        if cmd.get("type") in ("PlaceTile", "PlayScriptum", "ChooseExiliumSpace", "PlayMotus"):
            r, c = shown(f.view, cmd["row"], cmd["col"])
            return (str(cmd.get("tile", "")), book_no(f.view, cmd.get("to_pos", 0)), r, c)
        return ()

    def confirm(self, cmd: dict[str, Any], f: Frame) -> str | None:
        if cmd.get("type") == "Pass":
            return "Pass for the rest of the game? You will not play again."
        if cmd.get("type") == "SendToSheepPen":
            return "Send this tile to the Sheep Pen? It costs 1 point at the end."
        return None
