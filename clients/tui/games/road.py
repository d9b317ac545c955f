"""Road to Enlightenment: the map by nation, the tracks, the diplomacy chart, your hand and
your three action slots, the draft rows.

Luminaries are named as printed ("Cardinal Richelieu") and typed by their last name
("richelieu"); cities by name ("attack amsterdam"); slots 1–3 as on the mat.
"""

from __future__ import annotations

from typing import Any

from ..frame import Frame
from .base import Block, GameUI, humanize, join_words, plural, text, wrap

# Printed names of every nation on the map, the uncontrolled and neutral ones too (the view
# names only the seated nations).
NATIONS = {
    "FRA": "France",
    "ENG": "England",
    "SPA": "Spain",
    "SWE": "Sweden",
    "POL": "Poland",
    "AUS": "Austria",
    "RUS": "Russia",
    "OTT": "the Ottoman Empire",
    "NEU": "neutral",
}
STATS = (
    ("MIL", "Mil", "military"),
    ("POL", "Pol", "politics"),
    ("WEA", "Wea", "wealth"),
    ("IDE", "Ide", "ideas"),
    ("ART", "Art", "art"),
    ("SCI", "Sci", "science"),
    ("CAT", "Cat", "Catholicism"),
    ("ANT", "Ant", "Anti-Catholicism"),
)
TRACKS = {"SCI": "Science", "ART": "Art", "WEA": "wealth", "POL": "politics", "MIL": "military"}
POWERS = {
    "ADVANCE": "action: move your {track} marker up {n}",
    "PIETY": "action: shift the religion marker {n} toward your religion",
    "TAX": "action: gain {n} coins",
    "PATRON": "action: gain {n} prestige, then remove this luminary",
    "COLONY": "action: a colonial power gains 4 coins and 1 prestige; remove it",
    "ARREST": "action: another player boxes a lesser luminary from hand",
    "SETBACK": "action: move another player's {track} marker down {n}",
    "MIGHT": "enhancement: +{n} attack strength",
    "CASUS_BELLI": "enhancement: declare war without exhausting politics",
    "TRIUMPH": "enhancement: a margin of -4..+4 is a win, not a negotiation",
    "EXPEDITION": "enhancement: +{n} attack strength by sea; then remove it",
    "SCHOLAR": "enhancement: reorganize views {n} more cards",
    "RENOWN": "enhancement: +{n} steps when your {track} marker moves up",
    "FORTIFY": "response: +{n} defense strength when attacked",
    "LEVY": "response: +1 defense die when attacked",
    "PARLEY": "response: the attacker pays you 3 coins or the attack is cancelled",
}
CHITS = {
    "NONE": "no census",
    "SCIENCE": "Science census",
    "ART": "Art census",
    "RELIGION": "Religion census",
    "FINAL": "final scoring",
}


def nation(code: str | None) -> str:
    return NATIONS.get(str(code), str(code))


def card(v: dict[str, Any], cid: str | None) -> dict[str, Any]:
    return dict((v.get("cards") or {}).get(str(cid)) or {})


def lum(v: dict[str, Any], cid: str | None) -> str:
    """A luminary by its printed name."""
    return str(card(v, cid).get("name") or "a luminary")


def short(v: dict[str, Any], cid: str | None) -> str:
    """The word to type for a luminary: its last name ("richelieu")."""
    name = lum(v, cid).replace(",", " ").split()
    return name[-1].lower() if name else "?"


def lums(v: dict[str, Any], cids: list[str] | None) -> str:
    return join_words(lum(v, c) for c in cids or []) or "no luminary"


def city(v: dict[str, Any], cid: str | None) -> str:
    for c in v.get("cities") or []:
        if c["id"] == cid:
            return str(c["name"])
    return str(cid)


def player(v: dict[str, Any], seat: int) -> dict[str, Any]:
    for p in v.get("players") or []:
        if p["seat"] == seat:
            return dict(p)
    return {}


def power_text(power: dict[str, Any] | None) -> str:
    if not power:
        return ""
    what = POWERS.get(str(power.get("type")), humanize(str(power.get("type"))))
    return what.format(n=power.get("n", ""), track=TRACKS.get(str(power.get("track")), "a"))


def stats_line(c: dict[str, Any]) -> str:
    st = c.get("stats") or {}
    return " ".join(f"{st[k]:>3}" if st.get(k) else "  ." for k, _, _ in STATS)


class RoadUI(GameUI):
    title = "Road to Enlightenment"
    legend = (
        "Stats: Mil military, Pol politics, Wea wealth, Ide ideas, Art art, Sci science,",
        "Cat Catholicism, Ant Anti-Catholicism ('.' = none). ★ a favorite luminary;",
        "after the stats: the luminary's power (below: what each power does).",
        "Map: each nation's home cities; (held by X) a city another nation controls;",
        "port A/M/B: on the Atlantic, the Mediterranean, the Baltic.",
        "Players: prestige, coins/treasury limit, Science and Art track (* locked), army/navy,",
        "upkeep, cards in hand; ► to act; out = eliminated.",
        *(f"{humanize(k).capitalize()}: {v.format(n='n', track='a')}." for k, v in POWERS.items()),
    )
    syntax = (
        ("1 richelieu", "phase 1: put Cardinal Richelieu in action slot 1 (0 = back to hand)"),
        ("confirm", "phase 1: your slots are ready"),
        ("attack amsterdam", "attack a city (add land/sea, coins, the enhancement's name)"),
        ("diplomacy / reorganize / census", "declare that action for the slot"),
        ("power tilly", "use the action printed on Tilly"),
        ("defend tilly / support attacker tilly", "add a luminary to a side"),
        ("done 2", "stop defending or supporting, adding 2 coins"),
        ("ally poland / gift england", "forge an alliance / give gifts to an ally"),
        ("draft richelieu", "phase 5: take a face-up luminary"),
        ("pass / keep / accept / refuse", "the one-word answers when they are asked"),
    )

    # -- the sentence ---------------------------------------------------------------------------
    def who(self, f: Frame, seat: int) -> str:
        p = player(f.view or {}, seat)
        name = str(p.get("name") or f.label_of(seat))
        if seat == f.seat:
            return f"{name} (you)"
        info = f.seat_info(seat)
        return f"{name} ({info.name})" if info and info.name else name

    def status(self, f: Frame) -> str:
        v = f.view
        if f.status == "open" or not isinstance(v, dict) or "stage" not in v:
            return super().status(f)
        if f.finished or v.get("over"):
            return self.game_over(f)
        st = v.get("stage") or {}
        kind = str(st.get("kind"))
        seat = int(st.get("seat", -1))
        who = self.who(f, seat) if seat >= 0 else ""
        combat = v.get("combat") or {}
        target = city(v, combat.get("city")) if combat else "the city"
        head = f"Turn {v.get('turn')} of {v.get('final_turn')}"
        slot = v.get("slot") or st.get("n")
        match kind:
            case "assign":
                waiting = join_words(self.who(f, s) for s in st.get("waiting") or f.to_act)
                return (
                    f"{head}, phase 1: everyone secretly places luminaries in the three "
                    f"action slots; waiting for {waiting or 'nobody'}."
                )
            case "declare":
                census = ", the census" if int(st.get("n", 0)) == 2 else ""
                return (
                    f"{head}, slot {st.get('n')}: {who} reveals the stack and declares an "
                    f"action (attack, diplomacy, reorganize{census} or a luminary's)."
                )
            case "war":
                return f"{head}: {who} declares war, exhausting 5 politics from the stack."
            case "respond":
                return f"{head}: {who} may answer the attack on {target} with response cards."
            case "parley":
                return f"{head}: {who} pays 3 coins for the parley, or the attack is cancelled."
            case "defend":
                return f"{head}: {who} builds the stack defending {target}."
            case "support":
                return f"{head}: {who} may support the attacker or the defender of {target}."
            case "reroll":
                return f"{head}: {who} may reroll one die of the battle for {target}."
            case "forge":
                return f"{head}, slot {slot}: {who} may forge a new alliance (diplomacy)."
            case "gift":
                return f"{head}, slot {slot}: {who} may exchange gifts with an ally."
            case "offer" | "accept":
                return f"{head}: {who} and the ally may exchange a lesser luminary."
            case "reorganize":
                return f"{head}: {who} may take one luminary from the top of the deck."
            case "arrest":
                return f"{head}: {who} gives up a lesser luminary from hand (arrested)."
            case "russia":
                return f"{head}: {who} may move the Science or Art marker (Russia's power)."
            case "phase3":
                return f"{head}, phase 3: religious luminaries in slot 3 choose what they count as."
            case "help":
                other = self.who(f, int(st.get("other", -1)))
                return f"{head}, phase 3: {who} may help {other} pay the upkeep."
            case "abandon":
                return f"{head}, phase 3: {who} cannot pay the upkeep and abandons a city."
            case "draft":
                return f"{head}, phase 5: {who} drafts a face-up luminary."
            case "refill":
                return f"{head}, phase 5: players refill their hands."
        return f"{head}: {who or 'someone'} is to act ({humanize(kind)})."

    # -- the board ------------------------------------------------------------------------------
    def board(self, f: Frame) -> Block:
        v = f.view
        if not isinstance(v, dict) or "stage" not in v:
            return super().board(f)
        out: Block = []
        chits = v.get("chits") or []
        turn = int(v.get("turn", 1))
        chit = CHITS.get(chits[turn - 1], "") if 0 < turn <= len(chits) else ""
        out.append(
            text(
                (f"Turn {turn} of {v.get('final_turn')}", "bold"),
                f" · {v.get('length', '')} game · this turn: {chit}"
                f" · religion {int(v.get('religion', 0)):+d}",
            )
        )
        out += self._players(f)
        mine = player(v, f.seat) if f.seat is not None else {}
        drafting = (v.get("stage") or {}).get("kind") in ("draft", "refill")
        if drafting:  # what can be drafted comes first while drafting
            out += self._rows(f)
        if mine:
            out += self._mine(f, mine)
        out += self._map(f)
        out += self._diplomacy(f)
        if not drafting:
            out += self._rows(f)
        return out

    def _players(self, f: Frame) -> Block:
        v = f.view
        order = v.get("order") or []
        head = text(("  Nation          prestige coins  Sci Art army/navy upkeep hand", "bold"))
        out: Block = [head]
        players = sorted(
            v.get("players") or [],
            key=lambda p: order.index(p["seat"]) if p["seat"] in order else 99,
        )
        to_act = set(f.to_act)
        for p in players:
            mark = "►" if p["seat"] in to_act else " "
            name = str(p.get("name")) + (" (you)" if p["seat"] == f.seat else "")
            sci_lock = "*" if p.get("sci_locked") else " "
            art_lock = "*" if p.get("art_locked") else " "
            line = text(
                f"{mark} ",
                (f"{name:<16}", "bold" if p["seat"] == f.seat else ""),
                f"{p.get('score', 0):>6}  {p.get('coins', 0):>2}/{p.get('treasury_limit', 0):<2} "
                f"{p.get('sci', 0):>3}{sci_lock}{p.get('art', 0):>3}{art_lock}"
                f"   {p.get('army', 0)}/{p.get('navy', 0)}    {p.get('upkeep', 0):>3}  "
                f"{p.get('hand_count', 0):>3}",
            )
            if p.get("eliminated"):
                line.append(" out", style="red")
            out.append(line)
        medals = v.get("medallions") or {}
        if medals:
            parts = [
                f"{TRACKS.get(k[:3], k[:3])} {k[3:]} "
                f"{player(v, s).get('name') if s is not None else 'free'}"
                for k, s in medals.items()
            ]
            out += wrap("Medallions ", parts)
        return out

    def _mine(self, f: Frame, p: dict[str, Any]) -> Block:
        v = f.view
        out: Block = []
        slots = p.get("slots") or []
        for i, s in enumerate(slots, 1):
            cards = s.get("cards")
            names = (
                [lum(v, c) for c in cards]
                if cards
                else ["empty" if cards == [] else plural(int(s.get("count", 0)), "card")]
            )
            out += wrap(f"Your slot {i}: ", names, indent=13)
        hand = p.get("hand") or []
        if hand:
            cols = " ".join(f"{short_:>3}" for _, short_, _ in STATS)
            out.append(text((f"Your hand ({len(hand)})".ljust(26) + cols, "bold")))
            for cid in hand:
                c = card(v, cid)
                star = "★" if c.get("favorite") else " "
                power = c.get("power") or {}
                name = humanize(str(power.get("type", ""))).capitalize() if power else ""
                if power.get("n"):
                    name += f" {power['n']}"
                out.append(text(f"{star}{lum(v, cid)[:24]:<25}", stats_line(c), f" {name[:10]}"))
        return out

    def _map(self, f: Frame) -> Block:
        v = f.view
        by_home: dict[str, list[str]] = {}
        for c in v.get("cities") or []:
            label = str(c["name"])
            holder = c.get("occupant") or c.get("controller")
            if holder and holder != c.get("home"):
                label += f" (held by {nation(holder)})"
            if c.get("sea"):
                label += f" ~{c['sea']}"
            by_home.setdefault(str(c.get("home")), []).append(label)
        out: Block = [text(("Map", "bold"), " by home nation (~A/M/B: port on a sea)")]
        for home, names in by_home.items():
            head = nation(home).removeprefix("the ")
            out += wrap(text((f"{head[0].upper() + head[1:]:<15}", "bold")), names, indent=15)
        return out

    def _diplomacy(self, f: Frame) -> Block:
        v = f.view
        groups: dict[str, list[str]] = {}
        for d in v.get("diplomacy") or []:
            groups.setdefault(str(d.get("status")), []).append(
                f"{nation(d['a']).removeprefix('the ')}-{nation(d['b']).removeprefix('the ')}"
            )
        out: Block = []
        for status, pairs in groups.items():
            word = {"ALLY": "Alliances", "WAR": "At war"}.get(status, humanize(status))
            out += wrap(f"{word} ", pairs, sep="  ")
        return out

    def _rows(self, f: Frame) -> Block:
        v = f.view
        rows = v.get("rows") or {}
        names = [lum(v, c) for cards in rows.values() for c in cards]
        return wrap("Draft rows ", names) if names else []

    # -- the moves ------------------------------------------------------------------------------
    def label(self, cmd: dict[str, Any], f: Frame) -> str:
        v = f.view or {}
        t = cmd.get("type")
        enh = cmd.get("enhancement")
        with_enh = f", enhanced by {lum(v, enh)}" if enh else ""

        def side(s: Any) -> str:
            return "the attacker" if str(s).upper().startswith("ATT") else "the defender"

        match t:
            case "PlaceLuminary":
                if cmd["slot"] == 0:
                    return f"Take {lum(v, cmd['card'])} back to your hand"
                return f"Put {lum(v, cmd['card'])} in action slot {cmd['slot']}"
            case "ConfirmSlots":
                return "Confirm the action slots (you may still change them until all confirm)"
            case "DeclareAttack":
                extra = f", adding {plural(int(cmd['coins']), 'coin')}" if cmd.get("coins") else ""
                route = "by land" if cmd.get("route") == "LAND" else "by sea"
                return f"Attack {city(v, cmd['target'])} {route}{extra}{with_enh}"
            case "DeclareDiplomacy":
                return "Diplomacy: forge an alliance and/or exchange gifts"
            case "DeclareReorganize":
                return f"Reorganize: look at the top of your deck{with_enh}"
            case "DeclareLuminaryAction":
                victim = cmd.get("victim")
                against = (
                    f" against {self.who(f, int(victim))}"
                    if victim is not None and victim >= 0
                    else ""
                )
                what = power_text(card(v, cmd["card"]).get("power"))
                return f"Use {lum(v, cmd['card'])}'s {what or 'power'}{against}{with_enh}"
            case "DeclareCensus":
                return "Support this turn's census with the stack"
            case "PayWarCost":
                return f"Declare war, exhausting {lums(v, cmd.get('cards'))}"
            case "Respond":
                cards = cmd.get("cards") or []
                return f"Respond with {lums(v, cards)}" if cards else "Respond with no card"
            case "ParleyAnswer":
                return (
                    "Pay 3 coins for the parley"
                    if cmd.get("pay")
                    else "Refuse: the attack is cancelled"
                )
            case "DefendWith":
                return f"Defend with {lum(v, cmd['card'])}"
            case "DefenseDone":
                coins = int(cmd.get("coins") or 0)
                return (
                    f"Done defending, adding {plural(coins, 'coin')}" if coins else "Done defending"
                )
            case "SupportPass":
                return "Do not support either side"
            case "SupportWith":
                return f"Support {side(cmd['side'])} with {lum(v, cmd['card'])}"
            case "SupportFinish":
                coins = int(cmd.get("coins") or 0)
                add = f", adding {plural(coins, 'coin')}" if coins else ""
                return f"Done supporting {side(cmd['side'])}{add}"
            case "Reroll":
                if cmd.get("index") is None:
                    return "Keep the dice"
                return f"Reroll die {int(cmd['index']) + 1}"
            case "ForgeAlliance":
                paid = lums(v, cmd.get("cards"))
                return f"Forge an alliance with {nation(cmd['nation'])}, exhausting {paid}"
            case "SkipForge":
                return "Forge no alliance"
            case "GiveGift":
                paid = lums(v, cmd.get("cards"))
                return f"Exchange gifts with {self.who(f, int(cmd['ally']))}, exhausting {paid}"
            case "SkipGift":
                return "Give no gifts"
            case "ExchangeOffer":
                return (
                    f"Offer {lum(v, cmd['card'])} in exchange"
                    if cmd.get("card")
                    else "Offer nothing"
                )
            case "ExchangeDecision":
                return "Accept the exchange" if cmd.get("accept") else "Refuse the exchange"
            case "ReorganizePick":
                return (
                    f"Take {lum(v, cmd['card'])} into your hand"
                    if cmd.get("card")
                    else "Take nothing"
                )
            case "ArrestChoice":
                return f"Give up {lum(v, cmd['card'])} (to the box)"
            case "RussiaMove":
                track = cmd.get("track")
                return (
                    f"Russia: move the {TRACKS.get(track, track)} marker up"
                    if track
                    else "Russia: no move"
                )
            case "Phase3Choices":
                parts = []
                if cmd.get("catholicism_as"):
                    parts.append(f"Catholicism as {TRACKS.get(cmd['catholicism_as'])}")
                if cmd.get("anti_as"):
                    parts.append(f"Anti-Catholicism as {TRACKS.get(cmd['anti_as'])}")
                return "Count " + join_words(parts) if parts else "No religious choice"
            case "HelpUpkeep":
                return f"Help with the upkeep: {plural(int(cmd['coins']), 'coin')}"
            case "AbandonCity":
                return f"Abandon {city(v, cmd['city'])}"
            case "DraftPick":
                c = card(v, cmd["card"])
                colour = str(c.get("color", "")).lower()
                return f"Draft {lum(v, cmd['card'])} ({colour})"
            case "RefillHand":
                fav = cmd.get("favorites") or []
                return (
                    f"Refill your hand, taking back {lums(v, fav)}"
                    if fav
                    else "Refill your hand by drawing"
                )
        return super().label(cmd, f)

    def group(self, cmd: dict[str, Any], f: Frame) -> str:
        t = str(cmd.get("type"))
        if t == "PlaceLuminary":
            return "Back to hand" if cmd.get("slot") == 0 else f"Action slot {cmd.get('slot')}"
        if t == "DeclareAttack":
            return f"Attack {city(f.view or {}, cmd.get('target'))}"
        return {
            "ConfirmSlots": "Confirm",
            "DeclareDiplomacy": "Other actions",
            "DeclareReorganize": "Other actions",
            "DeclareLuminaryAction": "A luminary's action",
            "DeclareCensus": "Other actions",
            "DefendWith": "Defend",
            "DefenseDone": "Defend",
            "SupportWith": "Support",
            "SupportFinish": "Support",
            "SupportPass": "Support",
        }.get(t, humanize(t).capitalize())

    def forms(self, cmd: dict[str, Any], f: Frame) -> list[str]:
        v = f.view or {}
        t = cmd.get("type")
        enh = f" {short(v, cmd['enhancement'])}" if cmd.get("enhancement") else ""
        names = " ".join(short(v, c) for c in cmd.get("cards") or [])
        match t:
            case "PlaceLuminary":
                n, s = cmd["slot"], short(v, cmd["card"])
                if n == 0:
                    return [f"back {s}", f"0 {s}", f"back {lum(v, cmd['card'])}"]
                return [f"{n} {s}", f"slot {n} {s}", f"{n} {lum(v, cmd['card'])}"]
            case "ConfirmSlots":
                return ["confirm", "done"]
            case "DeclareAttack":
                c = city(v, cmd["target"]).lower()
                route = "land" if cmd["route"] == "LAND" else "sea"
                coins = int(cmd.get("coins") or 0)
                base = [f"attack {c}", f"attack {c} {route}"]
                full = [f"attack {c} {route} {coins}{enh}", f"attack {c} {coins}{enh}"]
                return (base if not coins and not enh else []) + full
            case "DeclareDiplomacy":
                return ["diplomacy"]
            case "DeclareReorganize":
                return [f"reorganize{enh}"]
            case "DeclareLuminaryAction":
                victim = cmd.get("victim")
                who = (
                    f" {str(player(v, int(victim)).get('name', '')).lower()}"
                    if victim is not None and victim >= 0
                    else ""
                )
                return [f"power {short(v, cmd['card'])}{who}{enh}"]
            case "DeclareCensus":
                return ["census"]
            case "PayWarCost":
                return [f"war {names}", f"pay {names}"]
            case "Respond":
                return [
                    f"respond {names}" if names else "respond none",
                    "respond" if not names else f"r {names}",
                ]
            case "ParleyAnswer":
                return ["pay"] if cmd.get("pay") else ["refuse"]
            case "DefendWith":
                return [f"defend {short(v, cmd['card'])}"]
            case "DefenseDone" | "SupportFinish":
                coins = int(cmd.get("coins") or 0)
                side = (
                    ""
                    if t == "DefenseDone"
                    else (
                        " attacker" if str(cmd["side"]).upper().startswith("ATT") else " defender"
                    )
                )
                return ([f"done{side}"] if not coins else []) + [f"done{side} {coins}"]
            case "SupportPass":
                return ["pass", "no support"]
            case "SupportWith":
                s = "attacker" if str(cmd["side"]).upper().startswith("ATT") else "defender"
                return [f"support {s} {short(v, cmd['card'])}"]
            case "Reroll":
                return ["keep"] if cmd.get("index") is None else [f"reroll {int(cmd['index']) + 1}"]
            case "ForgeAlliance":
                n = nation(cmd["nation"]).replace("the ", "").lower()
                return [f"ally {n}", f"ally {n} {names}"]
            case "SkipForge":
                return ["no alliance", "skip"]
            case "GiveGift":
                n = str(player(v, int(cmd["ally"])).get("name", "")).lower()
                return [f"gift {n}", f"gift {n} {names}"]
            case "SkipGift":
                return ["no gift", "skip"]
            case "ExchangeOffer":
                return (
                    [f"offer {short(v, cmd['card'])}"]
                    if cmd.get("card")
                    else ["offer none", "offer nothing"]
                )
            case "ExchangeDecision":
                return ["accept"] if cmd.get("accept") else ["refuse"]
            case "ReorganizePick":
                return (
                    [f"take {short(v, cmd['card'])}"]
                    if cmd.get("card")
                    else ["take none", "take nothing"]
                )
            case "ArrestChoice":
                return [f"give {short(v, cmd['card'])}"]
            case "RussiaMove":
                track = cmd.get("track")
                return [f"russia {TRACKS.get(track, '').lower()}"] if track else ["russia none"]
            case "Phase3Choices":
                a = TRACKS.get(cmd.get("catholicism_as") or "", "").lower()
                b = TRACKS.get(cmd.get("anti_as") or "", "").lower()
                return [f"religion {a} {b}".strip()]
            case "HelpUpkeep":
                return [f"help {cmd['coins']}"]
            case "AbandonCity":
                return [f"abandon {city(v, cmd['city']).lower()}"]
            case "DraftPick":
                return [f"draft {short(v, cmd['card'])}", f"draft {lum(v, cmd['card'])}"]
            case "RefillHand":
                return [f"refill {names}".strip()]
        return super().forms(cmd, f)
