"""Campus Galli: the monastery plan with its buildings and the sections laid on it, the task
board, the hut and the bag, and every player's tiles, cards and monks.

The plan is drawn 21 columns by 14 rows, numbered 1–21 west to east and 1–14 north to south;
a section is placed by typing the column and row of its footprint's top-left square and the
orientation number drawn under "Your section" (``place 3 5 2``).
"""

from __future__ import annotations

from typing import Any

from ..frame import Frame
from .base import Block, GameUI, humanize, join_words, plural, side_by_side, text, wrap

COLOURS = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "W": "white (joker)"}
STYLE = {
    "R": "white on red3",
    "B": "white on blue3",
    "G": "black on green3",
    "Y": "black on gold1",
    "W": "black on grey93",
}
SHAPES = {
    "D2": "2-square",
    "I3": "I-shaped",
    "L3": "L-shaped",
    "O4": "square",
    "T4": "T-shaped",
}
# The distinct footprints of each shape, in the server's orientation order
# (docs/games/campus-galli.md, "Orientation"; domain.campus_galli.geometry is the authority).
ORIENTATIONS = {
    "D2": [[(0, 0), (1, 0)], [(0, 0), (0, 1)]],
    "I3": [[(0, 0), (1, 0), (2, 0)], [(0, 0), (0, 1), (0, 2)]],
    "L3": [
        [(0, 0), (0, 1), (1, 0)],
        [(0, 0), (1, 0), (1, 1)],
        [(0, 1), (1, 0), (1, 1)],
        [(0, 0), (0, 1), (1, 1)],
    ],
    "O4": [[(0, 0), (0, 1), (1, 0), (1, 1)]],
    "T4": [
        [(0, 0), (1, 0), (1, 1), (2, 0)],
        [(0, 1), (1, 0), (1, 1), (1, 2)],
        [(0, 1), (1, 0), (1, 1), (2, 1)],
        [(0, 0), (0, 1), (0, 2), (1, 1)],
    ],
}
ROMAN = {1: "I", 2: "II", 3: "III"}
AREAS = {"N": "north", "S": "south", "E": "east", "W": "west"}
STAGES = {
    "source": "chooses to act now (bag) or later (hut) with the double card",
    "act": "performs the action card",
    "place": "lays the section in hand on the plan",
    "flip": "may flip a completed building",
    "lazy_monk": "chooses which of their monks lies down lazy",
    "rescore": "may score earlier books or guests again",
    "exchange": "may exchange 3 tiles for 1, then ends the turn",
    "alms": "chooses 2 tiles (Alms)",
    "beg": "begs for 2 tiles",
}


def cword(x: Any) -> str:
    """A tile colour as one word to type: ``"R"`` → ``"red"``, ``"W"`` → ``"white"``."""
    return COLOURS.get(str(x), "").split(" ")[0] if x else ""


def colours(xs: list[str] | None) -> str:
    return join_words(COLOURS.get(x, "any") if x != "?" else "any" for x in xs or []) or "nothing"


def tiles_word(xs: list[str] | None) -> str:
    """``["R", "R", "?"]`` → ``"2 red and 1 any"``."""
    counts: dict[str, int] = {}
    for x in xs or []:
        counts[x] = counts.get(x, 0) + 1
    return join_words(f"{n} {COLOURS.get(x, 'any')}" for x, n in counts.items()) or "nothing"


def section_name(sid: str | None) -> str:
    """``"H-Y-L3"`` → ``"yellow L-shaped section"`` (ids name colour and shape)."""
    parts = str(sid).split("-")
    colour = next((COLOURS[p] for p in parts if p in COLOURS), "")
    shape = next((SHAPES[p] for p in parts if p in SHAPES), "")
    return f"{colour} {shape} section".strip()


def section_short(sid: str | None) -> str:
    """What to type for a section: ``"yellow l3"``."""
    parts = str(sid).split("-")
    colour = next((COLOURS[p].split()[0] for p in parts if p in COLOURS), "")
    shape = next((p for p in parts if p in SHAPES), "")
    return f"{colour} {shape.lower()}".strip()


def card_info(v: dict[str, Any], cid: str | None) -> dict[str, Any]:
    return dict((v.get("cards") or {}).get(str(cid)) or {})


def card_name(v: dict[str, Any], cid: str | None) -> str:
    """An action card as printed: "red card 65", "book: Bible (green)", "Angel"."""
    c = card_info(v, cid)
    if not c:
        return "a card"
    if c.get("name"):
        return str(c["name"])
    kind = str(c.get("kind", ""))
    if kind == "angel":
        return "Angel"
    number = c.get("number")
    large = f"/{c['large']}" if c.get("large") else ""
    return f"{humanize(kind)} card {number}{large}" if number is not None else humanize(kind)


def shapes_word(xs: list[str] | None) -> str:
    xs = list(xs or [])
    return "any shape" if len(xs) >= 5 else join_words((SHAPES.get(x, x) for x in xs), "or")


def card_text(v: dict[str, Any], cid: str | None) -> str:
    """What an action card does, as printed on it."""
    c = card_info(v, cid)
    kind = str(c.get("kind", ""))
    cost = f"; pay {tiles_word(c.get('cost'))}" if c.get("cost") else ""
    cols = c.get("colours") or []
    colour = "any colour" if len(cols) >= 4 else join_words((cword(x) for x in cols), "or")
    match kind:
        case "red":
            return f"a {colour} section from the builders' hut{cost}"
        case "blue":
            return f"a {shapes_word(c.get('shapes'))} section from the prayer pouch{cost}"
        case "double":
            return (
                f"a {shapes_word(c.get('shapes'))} section: from the pouch at "
                f"{c.get('number')}, or from the hut at {c.get('large')}"
            )
        case "angel":
            return "any section, free"
        case "book":
            return f"produce a book ({cword(c.get('book_tile')) or 'any'} tile){cost}"
        case "guest":
            return f"a guest at building {c.get('guest_building')}{cost}"
        case "unfinished":
            return f"take an unfinished task{cost}"
    return ""


def task_text(v: dict[str, Any], tid: str | None) -> str:
    """A task card's requirement in the rulebook's words (its printed name if it has one)."""
    c = card_info(v, tid)
    kind = str(c.get("kind", ""))
    seals = int(c.get("seals", 0)) + 0.5 * int(c.get("half_seals", 0))
    reward = f" ({seals:g} seal{'s' if seals != 1 else ''})" if seals else ""
    b = c.get("building")
    blds = join_words(c.get("buildings") or [], "or")
    match kind:
        case "progress":
            what = f"Building progress: cover a square of building {b}"
        case "colour_combo":
            what = f"Colour combination: {colours(c.get('a'))} next to {colours(c.get('b'))}"
        case "shape_combo":
            a = join_words(SHAPES.get(x, x) for x in c.get("a") or [])
            bb = join_words(SHAPES.get(x, x) for x in c.get("b") or [])
            what = f"Shape combination: {a} next to {bb}"
        case "direction":
            area = AREAS.get(str(c.get("area")), "").capitalize()
            what = f"{area}: a {colours(c.get('colours'))} section on building {blds}"
        case "letter_shape":
            what = f"Building {b}: cover it with a {SHAPES.get(str(c.get('shape')), '')} section"
        case "long_hours":
            what = f"Long hours of prayer: end a turn with no {colours(c.get('colours'))} tile"
        case "alms":
            what = "Alms: end a turn with 2 tiles or fewer"
        case "new_person":
            area = AREAS.get(str(c.get("area")), "")
            what = f"New person in the {area}: bring a monk to a building there"
        case "all_together":
            what = f"All together: receive {colours(c.get('colours'))} this turn"
        case "expansion":
            what = f"Expansion of building {b}: cover the marked grass and the building"
        case "connection":
            what = f"Connection: join buildings {blds} across the marked grass"
        case "complete":
            what = "Complete a building"
        case "new_book":
            what = "Produce a new book"
        case "reconstruction":
            what = f"Reconstruction: move a laid {SHAPES.get(str(c.get('shape')), '')} section"
        case _:
            what = humanize(kind).capitalize() if kind else "a task"
    if c.get("name"):
        what = f"{c['name']}: {what}" if kind not in ("tile_task",) else str(c["name"])
    if c.get("cost"):
        what += f", pay {tiles_word(c.get('cost'))}"
    return what + reward


class CampusGalliUI(GameUI):
    title = "Campus Galli"
    legend = (
        "Plan: columns 1-21 west to east, rows 1-14 north to south.",
        "A square is two letters: what covers it, then a mark.",
        "  first: R B G Y W a laid section of that colour (W joker); a-k an uncovered square",
        "         of building A-K; '.' grass; '♣' a tree; '#' a building on its parchment side.",
        "  second: m your master builder, M another player's; z a lazy monk;",
        "          r b g y a printed symbol of that colour.",
        "Tiles: R red, B blue, G green, Y yellow; m: monks in supply; * you.",
        "Buildings: + construction side (being built), # parchment side, ✓ complete.",
    )
    syntax = (
        ("select 65  (or the card's words)", "select the action card numbered 65"),
        ("place 3 5 2", "lay your section at column 3, row 5, in orientation 2"),
        ("place 3 5 2 no builder", "the same without placing the master builder"),
        ("hut yellow l3", "take the yellow L section from the hut"),
        ("bag t4", "draw a T section from the bag"),
        ("bag / hut", "with the double card: act now (bag) or at the large number (hut)"),
        ("exchange r r g for y", "exchange 3 tiles for 1"),
        ("beg red blue / tiles red blue", "beg for (or choose) two tiles"),
        ("book / guest", "produce a book / bring a guest"),
        ("flip a / flip none", "flip a completed building"),
        ("end", "end the turn"),
        ("pass", "pass the special actions"),
    )

    # -- the sentence ---------------------------------------------------------------------------
    def status(self, f: Frame) -> str:
        v = f.view
        if f.status == "open" or not isinstance(v, dict) or "plan" not in v:
            return super().status(f)
        if f.finished or v.get("phase") == "over":
            return self.game_over(f)
        head = f"Year {v.get('year', 1)}, round {v.get('round', 1)}"
        phase = v.get("phase")
        t = v.get("turn")
        ev = v.get("event")
        if ev:
            who = join_words(f.who(s) for s in ev.get("waiting_on") or f.to_act)
            kind = humanize(str(ev.get("kind", "event")))
            return f"{head}: event, {kind}; waiting for {who or 'nobody'} to answer."
        if phase == "select":
            who = join_words(f.who(s) for s in f.to_act)
            return f"{head}: everyone secretly selects an action card; waiting for {who}."
        if t:
            stage = str(t.get("stage", ""))
            what = STAGES.get(stage, humanize(stage))
            holding = t.get("holding")
            if stage == "place" and holding:
                what = f"lays the {section_name(holding)} on the plan"
            return f"{head}: {f.who(int(t['seat']))} {what} ({card_name(v, t.get('card'))})."
        if phase == "special":
            who = join_words(f.who(s) for s in f.to_act)
            return f"{head}, special actions: {who} may take one, or pass."
        return super().status(f)

    # -- the board ------------------------------------------------------------------------------
    def board(self, f: Frame) -> Block:
        v = f.view
        if not isinstance(v, dict) or "plan" not in v:
            return super().board(f)
        level = ROMAN.get(int(v.get("level", 1)), str(v.get("level")))
        supply = v.get("tile_supply") or {}
        out: Block = [
            text(
                (f"Level {level}", "bold"),
                f" {v.get('mode', '')} · supply: ",
                ", ".join(f"{cword(k)} {supply.get(k, 0)}" for k in "RBGY"),
            )
        ]
        out += side_by_side(self._plan(f), self._side(f), gap=1)
        out += self._holding(f)
        out += self._mine(f)
        out += self._tasks(f)
        out += self._stock(f)
        return out

    def _plan(self, f: Frame) -> Block:
        v = f.view
        plan = v["plan"]
        width, height = int(plan.get("width", 21)), int(plan.get("height", 14))
        terrain: list[str] = plan.get("terrain") or []
        symbols = plan.get("symbols") or []
        covered: dict[tuple[int, int], str] = {}
        for s in v.get("sections_placed") or []:
            for x, y in s.get("cells") or []:
                covered[(x, y)] = str(s.get("colour", "?"))
        marks: dict[tuple[int, int], str] = {}
        for m in v.get("monks") or []:
            mine = m.get("owner") == f.seat
            if m.get("kind") == "lazy":
                for x, y in m.get("cells") or []:
                    marks[(x, y)] = "z"
            elif m.get("kind") == "section" and m.get("section"):
                for s in v.get("sections_placed") or []:
                    if s.get("id") == m["section"] and s.get("cells"):
                        x, y = min(s["cells"], key=lambda c: (c[1], c[0]))
                        marks[(x, y)] = "m" if mine else "M"
        parchment = {b["letter"] for b in v.get("buildings") or [] if b.get("side") == "parchment"}
        tens = "".join(f"{(x + 1) // 10 or ' '} " for x in range(width))
        units = "".join(f"{(x + 1) % 10} " for x in range(width))
        out: Block = [text("   ", (tens.rstrip(), "dim")), text("   ", (units.rstrip(), "dim"))]
        for y in range(height):
            row = text((f"{y + 1:>2} ", "dim"))
            line = terrain[y] if y < len(terrain) else "." * width
            for x in range(width):
                ch = line[x] if x < len(line) else "."
                sym = symbols[y][x] if y < len(symbols) and x < len(symbols[y]) else None
                mark = marks.get((x, y))
                if (x, y) in covered:
                    colour = covered[(x, y)]
                    row.append(colour + (mark or " "), style=STYLE.get(colour, ""))
                    continue
                if ch == ".":
                    first, style = ".", "dim"
                elif ch == "T":
                    first, style = "♣", "green"
                elif ch in parchment:
                    first, style = "#", "dim"
                else:
                    first, style = ch.lower(), "bold"
                second = mark or (str(sym).lower() if sym else " ")
                row.append(first, style=style)
                row.append(second, style=STYLE.get(str(sym), "") if sym and not mark else "bold")
            row.rstrip()
            out.append(row)
        return out

    def _side(self, f: Frame) -> Block:
        v = f.view
        out: Block = [text(("Players", "bold"), " score")]
        for p in v.get("players") or []:
            seat = int(p["seat"])
            name = f.label_of(seat) + ("*" if seat == f.seat else "")
            mark = "►" if seat in f.to_act else " "
            out.append(
                text(
                    mark,
                    (f"{name[:14]:<15}", "bold" if seat == f.seat else ""),
                    f"{p.get('score', 0):>3}",
                )
            )
            t = p.get("tiles") or {}
            out.append(
                text(
                    "  " + " ".join(f"{k}{t.get(k, 0)}" for k in "RBGY"),
                    f" m{p.get('monks_in_supply', 0)}",
                )
            )
        out.append(text(("Buildings", "bold")))
        for b in v.get("buildings") or []:
            state = "✓" if b.get("complete") else "#" if b.get("side") == "parchment" else "+"
            out.append(text(f" {b['letter']} {str(b.get('name', ''))[:15]:<15} {state}"))
        return out

    def _holding(self, f: Frame) -> Block:
        v = f.view
        t = v.get("turn") or {}
        holding = t.get("holding")
        if not holding:
            return []
        shape = next((p for p in str(holding).split("-") if p in ORIENTATIONS), "")
        shapes = ORIENTATIONS.get(shape, [])
        out: Block = [
            text(("Your section: ", "bold"), f"the {section_name(holding)}"),
            text("type: place COLUMN ROW ORIENTATION (its top-left square)"),
        ]
        drawings: list[Block] = []
        for i, foot in enumerate(shapes, 1):
            w = max(x for x, _ in foot) + 1
            h = max(y for _, y in foot) + 1
            block: Block = [text((f"{i}", "bold"))]
            for y in range(h):
                block.append(text("".join("██" if (x, y) in foot else "··" for x in range(w))))
            drawings.append(block)
        out += side_by_side(*drawings, gap=3)
        return out

    def _tasks(self, f: Frame) -> Block:
        v = f.view
        out: Block = [text(("Task board", "bold"))]
        for i, slot in enumerate(v.get("task_board") or [], 1):
            status = slot.get("status")
            note = "" if status == "open" else f" [{humanize(str(status))}]"
            line = text(f" {i}. {task_text(v, slot.get('card'))}{note}")
            line.truncate(68, overflow="ellipsis")
            out.append(line)
        return out

    def _stock(self, f: Frame) -> Block:
        v = f.view
        hut = [section_short(s) for s in v.get("hut") or []]
        out = wrap("Builders' hut ", hut) if hut else [text(("Builders' hut ", "bold"), "empty")]
        bag = v.get("bag") or {}
        shapes = {k: sum(c.values()) for k, c in (bag.get("by_shape") or {}).items()}
        out += wrap(
            f"Prayer pouch (bag) {plural(int(bag.get('count', 0)), 'section')}: ",
            [f"{k} {n}" for k, n in shapes.items()],
        )
        return out

    def _mine(self, f: Frame) -> Block:
        v = f.view
        if f.seat is None:
            return []
        p = next((x for x in v.get("players") or [] if x["seat"] == f.seat), None)
        if not p:
            return []
        out: Block = []
        for c in p.get("hand") or []:
            line = text(("Your hand: ", "bold"), f"{card_name(v, c)}: {card_text(v, c)}")
            line.truncate(68, overflow="ellipsis")
            out.append(line)
        sel = (v.get("selection") or {}).get("mine") or p.get("selected")
        if sel and isinstance(sel, str):
            out.append(text(("Selected: ", "bold"), card_name(v, sel)))
        if p.get("next_year"):
            out += wrap("Next year: ", [card_name(v, c) for c in p["next_year"]])
        if p.get("library") or p.get("guests"):
            out += wrap(
                "Library and guests: ",
                [card_name(v, c) for c in (p.get("library") or []) + (p.get("guests") or [])],
            )
        return out

    # -- the moves ------------------------------------------------------------------------------
    def label(self, cmd: dict[str, Any], f: Frame) -> str:
        v = f.view or {}
        t = cmd.get("type")
        pay = f", paying {tiles_word(cmd['pay'])}" if cmd.get("pay") else ""
        match t:
            case "SelectActionCard":
                what = card_text(v, cmd["card"])
                return f"Select {card_name(v, cmd['card'])}" + (f": {what}" if what else "")
            case "ChooseSource":
                if cmd["source"] == "hut":
                    return "Act later, at the large number (from the builders' hut)"
                return "Act now, at the small number (from the prayer pouch)"
            case "DeclareBeg":
                return "Beg instead of paying"
            case "Beg":
                return f"Beg for {colours(cmd.get('tiles'))}"
            case "ChooseTiles":
                return f"Take {colours(cmd.get('tiles'))}"
            case "ExchangeTiles":
                return f"Exchange {tiles_word(cmd['give'])} for 1 {COLOURS.get(cmd['take'])}"
            case "TakeFromHut":
                return f"Take the {section_name(cmd['section'])} from the hut{pay}"
            case "DrawFromBag":
                shape = SHAPES.get(cmd["shape"], cmd["shape"])
                return f"Draw a {shape} section from the prayer pouch{pay}"
            case "PlaceSection":
                no = ", without the master builder" if cmd.get("master_builder") is False else ""
                return (
                    f"Lay the section at column {cmd['x'] + 1}, row {cmd['y'] + 1}, "
                    f"orientation {cmd['orientation'] + 1}{no}"
                )
            case "ForfeitBuild":
                return "No spot fits: give up building"
            case "FlipBuilding":
                if not cmd.get("building"):
                    return "Flip no building"
                no = " without the master builder" if cmd.get("master_builder") is False else ""
                return f"Flip building {cmd['building']}{no}"
            case "ProduceBook":
                return f"Produce a book, taking a {cword(cmd.get('tile'))} tile{pay}"
            case "BringGuest":
                tile = f"taking a {COLOURS.get(cmd['tile'])} tile" if cmd.get("tile") else "no tile"
                no = ", placing no guest monk" if cmd.get("monks") is False else ""
                return f"Bring a guest, {tile}{pay}{no}"
            case "Rescore":
                return f"Score {card_name(v, cmd['card'])} again ({cword(cmd.get('tile'))} tile)"
            case "EndTurn":
                stage = (v.get("turn") or {}).get("stage")
                return "Stop scoring earlier cards" if stage == "rescore" else "End the turn"
            case "RespondFeastDay" | "RespondStudyDay":
                chosen = cmd.get("guests") or cmd.get("books") or []
                if not chosen:
                    return "Score no guest" if t == "RespondFeastDay" else "Score no book"
                rewards = cmd.get("rewards") or []
                parts = [
                    card_name(v, c)
                    + (
                        f" ({COLOURS.get(rewards[i])} tile)"
                        if i < len(rewards) and rewards[i]
                        else ""
                    )
                    for i, c in enumerate(chosen)
                ]
                return "Score " + join_words(parts) + " again"
            case "ChooseLazyMonk":
                kind, _, where_ = str(cmd["monk"]).partition(":")
                what = {
                    "section": f"the master builder on the {section_name(where_)}",
                    "grass": f"the master builder next to building {where_}",
                    "guest": f"the guest monk at building {where_}",
                }.get(kind, kind)
                return f"Out of monks: {what} lies down lazy"
            case "PassSpecial":
                return "Pass (no more special actions this round)"
            case "TakeUnfinished":
                return f"Take the unfinished task from the {COLOURS.get(cmd['pile'])} pile{pay}"
            case "SpecialFulfillTask":
                return f"Fulfil the task {task_text(v, cmd['task'])}{pay}"
            case "SpecialExpand":
                no = " without the master builder" if cmd.get("master_builder") is False else ""
                return f"Expand: bring building {cmd['building']} into the game{no}"
            case "SpecialBuyFromHut":
                return f"Buy the {section_name(cmd['section'])} from the hut{pay}"
            case "SpecialBuyFromBag":
                shape = SHAPES.get(cmd["shape"], cmd["shape"])
                return f"Buy a {shape} section from the prayer pouch{pay}"
            case "SpecialRemoveHalt":
                return f"Remove the construction halt{pay}"
            case "SpecialReconstruct":
                return f"Reconstruct the {section_name(cmd['section'])}{pay}"
            case "PayEvent":
                to = f", the monk to building {cmd['building']}" if cmd.get("building") else ""
                return f"Answer the event{pay}{to}"
            case "DeclineEvent":
                lose = cmd.get("lose")
                if not lose:
                    return "Decline"
                what = card_name(v, lose) if len(str(lose)) > 1 else f"building {lose}"
                return f"Decline, losing {what}"
        return super().label(cmd, f)

    def group(self, cmd: dict[str, Any], f: Frame) -> str:
        t = str(cmd.get("type"))
        return {
            "SelectActionCard": "Select an action card",
            "PlaceSection": "Lay the section",
            "ExchangeTiles": "Exchange 3 tiles for 1",
            "TakeFromHut": "Take from the hut",
            "DrawFromBag": "Draw from the bag",
            "EndTurn": "End",
            "PassSpecial": "End",
        }.get(t, humanize(t).capitalize())

    def order(self, cmd: dict[str, Any], f: Frame) -> tuple[Any, ...]:
        if cmd.get("type") == "PlaceSection":
            return (cmd["y"], cmd["x"], cmd["orientation"], cmd.get("master_builder") is False)
        return ()

    def forms(self, cmd: dict[str, Any], f: Frame) -> list[str]:
        v = f.view or {}
        t = cmd.get("type")
        pay = " ".join(COLOURS.get(x, "any").split()[0] for x in cmd.get("pay") or [])
        paid = [f" pay {pay}"] if pay else []
        match t:
            case "SelectActionCard":
                c = card_info(v, cmd["card"])
                n = c.get("number")
                return ([f"select {n}", str(n)] if n is not None else []) + [
                    f"select {card_name(v, cmd['card'])}"
                ]
            case "ChooseSource":
                return [str(cmd["source"])]
            case "DeclareBeg":
                return ["beg"]
            case "Beg" | "ChooseTiles":
                words = " ".join(COLOURS.get(x, x).split()[0] for x in cmd.get("tiles") or [])
                verb = "beg" if t == "Beg" else "tiles"
                return [f"{verb} {words}", f"take {words}"]
            case "ExchangeTiles":
                give = " ".join(COLOURS.get(x, x).split()[0] for x in cmd["give"])
                short = " ".join(str(x).lower() for x in cmd["give"])
                take = cword(cmd["take"])
                return [
                    f"exchange {short} for {str(cmd['take']).lower()}",
                    f"exchange {give} for {take}",
                ]
            case "TakeFromHut" | "SpecialBuyFromHut":
                verb = "hut" if t == "TakeFromHut" else "buy hut"
                s = section_short(cmd["section"])
                return [f"{verb} {s}"] + [f"{verb} {s}{p}" for p in paid]
            case "DrawFromBag" | "SpecialBuyFromBag":
                verb = "bag" if t == "DrawFromBag" else "buy bag"
                s = str(cmd["shape"]).lower()
                return [f"{verb} {s}"] + [f"{verb} {s}{p}" for p in paid]
            case "PlaceSection":
                base = f"place {cmd['x'] + 1} {cmd['y'] + 1} {cmd['orientation'] + 1}"
                return [f"{base} no builder"] if cmd.get("master_builder") is False else [base]
            case "ForfeitBuild":
                return ["forfeit", "give up"]
            case "FlipBuilding":
                b = str(cmd.get("building") or "none").lower()
                no = " no builder" if cmd.get("master_builder") is False else ""
                return [f"flip {b}{no}"]
            case "ProduceBook":
                tile = cword(cmd.get("tile")) if cmd.get("tile") else ""
                return ["book", f"book {tile}".strip()] + [f"book {tile}{p}".strip() for p in paid]
            case "BringGuest":
                tile = cword(cmd.get("tile")) if cmd.get("tile") else "none"
                no = " no monks" if cmd.get("monks") is False else ""
                return [f"guest{no}", f"guest {tile}{no}"] + [f"guest {tile}{no}{p}" for p in paid]
            case "Rescore":
                c = card_info(v, cmd["card"])
                return [f"rescore {c.get('number', '')} {cword(cmd.get('tile'))}"]
            case "EndTurn":
                return ["end", "stop"]
            case "PassSpecial":
                return ["pass"]
            case "TakeUnfinished":
                return [f"unfinished {cword(cmd['pile'])}"]
            case "SpecialExpand":
                no = " no builder" if cmd.get("master_builder") is False else ""
                return [f"expand {str(cmd['building']).lower()}{no}"]
            case "SpecialRemoveHalt":
                return ["halt"] + [f"halt{p}" for p in paid]
            case "DeclineEvent":
                return ["decline"]
            case "PayEvent":
                to = f" {str(cmd['building']).lower()}" if cmd.get("building") else ""
                return [f"pay{to}"] + [f"pay{to}{p}" for p in paid]
        return super().forms(cmd, f)
