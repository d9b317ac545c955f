// Road to Enlightenment: the map of cities and links with who controls each, the Science /
// Art / Religion tracks, the diplomacy chart, the luminary rows, your hand and the three
// action slots (pick a card, then click a slot).
import { s, text, svgRoot, clickable, humanize } from "../dom.js";
import { matching } from "./util.js";
import { cardBack } from "./card.js";

const W = 1200;
const H = 900;
// Approximate longitude / latitude of each city, projected onto the map area.
const GEO = {
  PAR: [2.35, 48.85], BOR: [-0.58, 44.84], MAR: [5.37, 43.3], LON: [-0.13, 51.5], EDI: [-3.19, 55.95],
  DUB: [-6.26, 53.35], MAD: [-3.7, 40.4], CAD: [-6.29, 36.53], BAR: [2.17, 41.39], STO: [18.07, 59.33],
  GOT: [11.97, 57.7], RIG: [24.1, 56.95], WAR: [21.0, 52.23], KRA: [19.94, 50.06], DAN: [18.65, 54.35],
  VIE: [16.37, 48.2], PRA: [14.42, 50.08], TRI: [13.77, 45.65], MOS: [37.6, 55.75], NOV: [31.27, 58.52],
  KIE: [30.52, 50.45], CON: [28.97, 41.0], BEL: [20.46, 44.8], BUD: [19.04, 47.5], AMS: [4.9, 52.37],
  COP: [12.57, 55.68], BER: [13.4, 52.52], DRE: [13.74, 51.05], MUN: [11.58, 48.14], SWI: [8.0, 46.8],
  VEN: [12.33, 45.44], ROM: [12.5, 41.9],
};
const MAP = { x: 16, y: 34, w: 720, h: 520 };
const NATION = {
  FRA: "#2f5fb3", ENG: "#c23b30", SPA: "#e0b02c", SWE: "#5fb0d9", POL: "#d9719a", AUS: "#efefef",
  RUS: "#4e9a4a", OTT: "#2d7f7a", NEU: "#b3a58a",
};
const LUM = { RED: "#c4493c", BLUE: "#3f74b5", PURPLE: "#7b4fa0", PINK: "#e38fb1", GREEN: "#5d9a4a", ORANGE: "#e58a2e" };

let picked = null; // the hand card chosen for a slot (local UI state)
let lastPicked = null; // set for one drawing when the player picked a card by hand

function project(id, i, n) {
  const g = GEO[id];
  if (!g) {
    const a = (2 * Math.PI * i) / n;
    return [MAP.x + MAP.w / 2 + 220 * Math.cos(a), MAP.y + MAP.h / 2 + 220 * Math.sin(a)];
  }
  return [MAP.x + 20 + ((g[0] + 8) / 47) * (MAP.w - 40), MAP.y + 20 + ((61 - g[1]) / 26) * (MAP.h - 40)];
}

function lumName(view, id) {
  const c = view.cards?.[id];
  return c ? `${c.name} (${humanize(c.color.toLowerCase())})` : id;
}

function nationName(view, code) {
  return view.players?.find((p) => p.nation === code)?.name || code;
}

export default {
  title: "Road to Enlightenment",

  status({ view, seatName }) {
    if (!view) return "";
    const st = view.stage || {};
    const base = `turn ${view.turn} of ${view.final_turn}`;
    if (view.over) return "the game is over";
    if (st.kind === "assign") return `${base}: everyone secretly places luminaries in the three action slots`;
    const who = st.seat >= 0 ? seatName(st.seat) : "";
    return `${base}, slot ${view.slot || "-"}: ${humanize(st.kind)}${who ? ` — ${who}` : ""}`;
  },

  label(cmd, { view }) {
    switch (cmd.type) {
      case "PlaceLuminary": return cmd.slot === 0 ? `Take ${lumName(view, cmd.card)} back to hand` : `Put ${lumName(view, cmd.card)} in slot ${cmd.slot}`;
      case "ConfirmSlots": return "Confirm the action slots";
      case "DeclareAttack": return `Attack ${cityName(view, cmd.target)} by ${cmd.route}${cmd.coins ? ` with ${cmd.coins} coins` : ""}${cmd.enhancement ? ` (${humanize(cmd.enhancement).toLowerCase()})` : ""}`;
      case "ForgeAlliance": return `Forge an alliance with ${nationName(view, cmd.nation)}${cmd.cards?.length ? ` using ${cmd.cards.map((c) => lumName(view, c)).join(", ")}` : ""}`;
      case "GiveGift": return `Give ${cmd.cards.map((c) => lumName(view, c)).join(", ")} to ${view.players?.[cmd.ally]?.name || `seat ${cmd.ally + 1}`}`;
      case "ExchangeOffer": return cmd.card ? `Offer ${lumName(view, cmd.card)} in exchange` : "Offer nothing";
      case "ExchangeDecision": return cmd.accept ? "Accept the exchange" : "Refuse the exchange";
      case "ReorganizePick": return cmd.card ? `Take ${lumName(view, cmd.card)}` : "Take nothing";
      case "DeclareLuminaryAction": return `Use ${lumName(view, cmd.card)}'s power${cmd.victim >= 0 ? ` against ${view.players?.[cmd.victim]?.name}` : ""}`;
      case "ArrestChoice": return `Give up ${lumName(view, cmd.card)}`;
      case "DefendWith": return `Defend with ${lumName(view, cmd.card)}`;
      case "SupportWith": return `Support the ${String(cmd.side).toLowerCase()} with ${lumName(view, cmd.card)}`;
      case "SupportFinish": return `Done supporting the ${String(cmd.side).toLowerCase()}${cmd.coins ? `, adding ${cmd.coins} coins` : ""}`;
      case "SupportPass": return "Do not support";
      case "SkipForge": return "Forge no alliance";
      case "SkipGift": return "Give no gift";
      case "DeclareDiplomacy": return "Diplomacy";
      case "DeclareReorganize": return `Reorganize${cmd.enhancement ? ` (${humanize(String(cmd.enhancement).toLowerCase())})` : ""}`;
      case "DeclareCensus": return "Take the census";
      case "RussiaMove": return cmd.track ? `Russia: advance ${humanize(String(cmd.track).toLowerCase())}` : "Russia: no move";
      case "Respond": return cmd.cards?.length ? `Respond with ${cmd.cards.map((c) => lumName(view, c)).join(", ")}` : "Respond without cards";
      case "DefenseDone": return `Done defending${cmd.coins ? `, adding ${cmd.coins} coins` : ""}`;
      case "Reroll": return cmd.index === null || cmd.index === undefined ? "Keep the dice" : `Reroll die ${cmd.index + 1}`;
      case "DraftPick": return `Draft ${lumName(view, cmd.card)}`;
      case "RefillHand": return cmd.favorites?.length ? `Refill the hand, keeping ${cmd.favorites.map((c) => lumName(view, c)).join(", ")}` : "Refill the hand";
      case "Phase3Choices": return `Religion choices${cmd.catholicism_as ? `: Catholicism as ${cmd.catholicism_as}` : ""}${cmd.anti_as ? `, Anti-Catholicism as ${cmd.anti_as}` : ""}`;
      case "HelpUpkeep": return `Help with upkeep: ${cmd.coins} coins`;
      case "ParleyAnswer": return cmd.pay ? "Pay for the parley" : "Refuse to pay";
      case "AbandonCity": return `Abandon ${cityName(view, cmd.city)}`;
      case "PayWarCost": return cmd.cards?.length ? `Pay the war cost with ${cmd.cards.map((c) => lumName(view, c)).join(", ")}` : "Pay the war cost";
      default: return null;
    }
  },

  render(host, ctx) {
    const { view } = ctx;
    const live = ctx.interactive ? ctx.legal : [];
    const svg = svgRoot(W, H, "Road to Enlightenment: map, tracks, diplomacy and your luminaries");
    svg.append(s("rect", { width: W, height: H, rx: 14, fill: "#ece3cd" }));
    svg.append(text(MAP.x, 18, `Turn ${view.turn} of ${view.final_turn} · ${view.length} game · chit: ${view.chits?.[view.turn - 1] ?? "-"}`, { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 15 }));

    // -- map --------------------------------------------------------------------------------------
    const map = s("g", { class: "re-map", "aria-label": "Map of Europe" });
    map.append(s("rect", { x: MAP.x, y: MAP.y, width: MAP.w, height: MAP.h, rx: 10, fill: "#bcd3e0", stroke: "#7f98a6" }));
    const cities = view.cities || [];
    const pos = new Map(cities.map((c, i) => [c.id, project(c.id, i, cities.length)]));
    for (const c of cities) {
      for (const l of c.links || []) {
        if (c.id < l && pos.has(l)) {
          const [x1, y1] = pos.get(c.id), [x2, y2] = pos.get(l);
          map.append(s("line", { x1, y1, x2, y2, stroke: "#7a6a4a", "stroke-width": 3, "stroke-linecap": "round", opacity: 0.7 }));
        }
      }
    }
    const attacks = matching(live, "DeclareAttack");
    for (const c of cities) {
      const [x, y] = pos.get(c.id);
      const ctrl = c.controller || c.home || "NEU";
      const g = s("g", { class: "re-city" }, s("title", { text: `${c.name}: ${c.controller ? `controlled by ${nationName(view, c.controller)}` : "uncontrolled"}${c.occupant ? `, occupied by ${nationName(view, c.occupant)}` : ""}, ${c.religion === "CATH" ? "Catholic" : c.religion === "ANTI" ? "Protestant/Orthodox" : c.religion}${c.sea ? `, port on sea ${c.sea}` : ""}` }));
      g.append(s("circle", { cx: x, cy: y, r: c.home && c.home !== "NEU" && c.controller === c.home ? 13 : 11, fill: NATION[ctrl] || "#ccc", stroke: c.home && c.home !== "NEU" ? "#2b2118" : "#6f6254", "stroke-width": 2 }));
      g.append(text(x, y + 1, c.religion === "CATH" ? "✝" : "☦", { "font-size": 11, fill: ctrl === "AUS" || ctrl === "SPA" ? "#2b2118" : "#fff" }));
      if (c.occupant) g.append(s("rect", { x: x + 8, y: y - 16, width: 10, height: 10, fill: NATION[c.occupant] || "#333", stroke: "#000" }));
      if (c.sea) g.append(s("path", { d: `M${x - 16} ${y + 9} q4 -4 8 0 q4 4 8 0`, fill: "none", stroke: "#2f5fb3", "stroke-width": 1.5 }));
      g.append(text(x, y + 22, c.name, { "font-size": 10, fill: "#2b2118", "font-weight": 600 }));
      const cmd = attacks.find((a) => a.target === c.id);
      if (cmd) {
        g.prepend(s("circle", { cx: x, cy: y, r: 18, class: "spot-legal" }));
        clickable(g, this.label(cmd, ctx), () => ctx.send(cmd));
      }
      map.append(g);
    }
    svg.append(map);

    // -- tracks -----------------------------------------------------------------------------------
    const tx = 760, ty = 40;
    const players = view.players || [];
    const top = Math.max(12, ...players.map((p) => Math.max(p.sci, p.art)));
    const track = (label, y, key, medals) => {
      svg.append(text(tx, y - 8, label, { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 13 }));
      const step = 420 / (top + 1);
      for (let i = 0; i <= top; i++) {
        svg.append(s("rect", { x: tx + i * step, y, width: step - 2, height: 22, fill: medals.includes(i) ? "#f2d78a" : "#fffaf0", stroke: "#a89a7a" }));
        if (i % 2 === 0) svg.append(text(tx + i * step + step / 2, y + 30, String(i), { "font-size": 8, fill: "#6f6254" }));
      }
      players.forEach((p, k) => {
        const v = p[key] ?? 0;
        svg.append(s("circle", { cx: tx + v * step + step / 2, cy: y + 5 + (k % 3) * 6, r: 4, fill: NATION[p.nation] || "#333", stroke: "#000" }, s("title", { text: `${p.name}: ${label} ${v}` })));
      });
    };
    track("Science", ty + 12, "sci", [6, 12]);
    track("Art", ty + 62, "art", [6, 12]);
    svg.append(text(tx, ty + 118, `Religion track: ${view.religion}`, { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 13 }));
    for (let i = -5; i <= 5; i++) {
      svg.append(s("rect", { x: tx + 110 + (i + 5) * 26, y: ty + 106, width: 24, height: 20, fill: i === view.religion ? "#6b3e1f" : i < 0 ? "#e8d6b0" : i > 0 ? "#d4dde8" : "#fff", stroke: "#a89a7a" }));
    }
    const medals = Object.entries(view.medallions || {}).map(([m, owner]) => `${m}: ${owner === null || owner === undefined ? "free" : players.find((p) => p.seat === owner)?.name || owner}`);
    svg.append(text(tx, ty + 146, `Medallions — ${medals.join(" · ")}`, { "text-anchor": "start", "font-size": 11, fill: "#4a3218" }));

    // -- diplomacy chart ----------------------------------------------------------------------------
    const nations = Object.keys(NATION).filter((n) => n !== "NEU");
    const dx = 760, dy = 215, cs = 24;
    svg.append(text(dx, dy - 6, "Diplomacy", { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 13 }));
    const rel = new Map((view.diplomacy || []).map((d) => [`${d.a}|${d.b}`, d.status]));
    nations.forEach((a, i) => {
      svg.append(text(dx + 40 + i * cs + cs / 2, dy + 8, a, { "font-size": 8, fill: "#2b2118" }));
      svg.append(text(dx + 36, dy + 22 + i * cs + cs / 2, a, { "text-anchor": "end", "font-size": 8, fill: "#2b2118" }));
      nations.forEach((b, j) => {
        const st = a === b ? "self" : rel.get(`${a}|${b}`) || rel.get(`${b}|${a}`) || "";
        const fill = st === "self" ? NATION[a] : st === "ALLY" ? "#8cc58a" : st === "WAR" ? "#e07b6f" : "#fffaf0";
        svg.append(s("rect", { x: dx + 40 + j * cs, y: dy + 22 + i * cs, width: cs - 2, height: cs - 2, fill, stroke: "#a89a7a" }, s("title", { text: st === "self" ? a : `${a} – ${b}: ${st ? humanize(st.toLowerCase()) : "neutral"}` })));
        if (st && st !== "self") svg.append(text(dx + 40 + j * cs + cs / 2 - 1, dy + 22 + i * cs + cs / 2 - 1, st === "ALLY" ? "A" : st === "WAR" ? "W" : st[0], { "font-size": 9, fill: "#2b2118" }));
      });
    });

    // -- players summary ------------------------------------------------------------------------------
    const px = 1000;
    players.forEach((p, k) => {
      const y = dy + 4 + k * 28;
      svg.append(s("rect", { x: px, y, width: 180, height: 24, rx: 5, fill: "#fffaf0", stroke: NATION[p.nation] || "#333", "stroke-width": (view.to_act || []).includes(p.seat) ? 3 : 1.5 }));
      svg.append(s("circle", { cx: px + 12, cy: y + 12, r: 7, fill: NATION[p.nation] || "#333", stroke: "#000" }));
      svg.append(text(px + 24, y + 12, `${p.name}${p.seat === ctx.seat ? " (you)" : ""}: ${p.score} pts, ${p.coins}¢`, { "text-anchor": "start", "font-size": 10, fill: "#2b2118" }, ));
    });

    // -- combat in progress (all public) ------------------------------------------------------------
    const cb = view.combat;
    if (cb) {
      const bx = 760, by = 440;
      const att = players.find((p) => p.seat === cb.attacker);
      const g = s("g", { "aria-label": "Combat" });
      g.append(s("rect", { x: bx, y: by, width: 420, height: 150, rx: 10, fill: "#fbe9e4", stroke: "#a3322b", "stroke-width": 2 }));
      g.append(text(bx + 12, by + 18, `Combat at ${cityName(view, cb.city)} — ${humanize(cb.step)}`, { "text-anchor": "start", "font-weight": 700, fill: "#7a1f18" }));
      g.append(s("circle", { cx: bx + 30, cy: by + 55, r: 16, fill: NATION[att?.nation] || "#333", stroke: "#000" }));
      g.append(text(bx + 30, by + 82, att?.name || `seat ${cb.attacker + 1}`, { "font-size": 11 }));
      g.append(text(bx + 100, by + 55, "⚔", { "font-size": 28, fill: "#7a1f18" }));
      g.append(s("circle", { cx: bx + 170, cy: by + 55, r: 16, fill: NATION[cb.defender] || "#ccc", stroke: "#000" }));
      g.append(text(bx + 170, by + 82, nationName(view, cb.defender), { "font-size": 11 }));
      const lines = [
        `by ${cb.route}${cb.enhancement ? `, ${humanize(String(cb.enhancement).toLowerCase())}` : ""} · coins ${cb.coins} vs ${cb.def_coins}`,
        `support ${cb.att_support} vs ${cb.def_support} · fortify ${cb.fortify} · extra dice ${cb.extra_dice}`,
        cb.def_cards?.length ? `defenders: ${cb.def_cards.map((c) => view.cards?.[c]?.name || c).join(", ")}` : "",
      ].filter(Boolean);
      lines.forEach((l, i) => g.append(text(bx + 220, by + 42 + i * 16, l, { "text-anchor": "start", "font-size": 10 })));
      (cb.dice || []).forEach((d, i) => {
        g.append(s("rect", { x: bx + 20 + i * 34, y: by + 100, width: 28, height: 28, rx: 5, fill: "#fff", stroke: "#2b2118" }));
        g.append(text(bx + 34 + i * 34, by + 114, String(d), { "font-weight": 700 }));
      });
      svg.append(g);
    }

    // -- luminary rows ---------------------------------------------------------------------------------
    const rx = 16, ry = 575;
    svg.append(text(rx, ry, "Luminary rows", { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 13 }));
    Object.entries(view.rows || {}).forEach(([col, cards], i) => {
      const x = rx + i * 120;
      svg.append(text(x + 50, ry + 16, `${humanize(col.toLowerCase())} (${view.piles?.[col] ?? 0})`, { "font-size": 10, fill: LUM[col] || "#333", "font-weight": 700 }));
      cards.slice(0, 3).forEach((id, k) => {
        const cg = lumCard(x + k * 38, ry + 24, 34, 48, id, view.cards?.[id], true);
        const cmd = matching(live, "DraftPick", { card: id })[0];
        if (cmd) clickable(cg, this.label(cmd, ctx), () => ctx.send(cmd));
        svg.append(cg);
      });
    });

    // -- your hand and the three action slots -------------------------------------------------------------
    const me = players.find((p) => p.seat === ctx.seat);
    const places = matching(live, "PlaceLuminary");
    const handIds = me?.hand || [];
    const pickable = [...new Set(places.map((c) => c.card))];
    const plannedIds = new Set((me?.plan || []).map(([c]) => c));
    // After a card goes into a slot, offer the next card of the hand that has none yet.
    if (!pickable.includes(picked) || (plannedIds.has(picked) && picked !== lastPicked)) {
      picked = pickable.find((c) => !plannedIds.has(c)) ?? pickable[0] ?? null;
    }
    lastPicked = null;
    const hx = 16, hy = 690;
    svg.append(s("rect", { x: hx - 6, y: hy - 22, width: 760, height: 200, rx: 10, fill: "#fffaf0", stroke: "#a89a7a" }));
    svg.append(text(hx, hy - 8, me ? `Your hand (${me.nation}: ${me.name}) — pick a luminary, then a slot` : "Hands", { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 13 }));
    if (me) {
      handIds.forEach((id, k) => {
        const g = lumCard(hx + k * 74, hy + 4, 70, 100, id, view.cards?.[id], false, id === picked ? "chosen" : plannedIds.has(id) ? "planned" : "");
        if (pickable.includes(id)) clickable(g, `Pick ${lumName(view, id)} for a slot`, () => { picked = id; lastPicked = id; ctx.rerender?.(); }, true);
        svg.append(g);
      });
    } else {
      players.forEach((p, k) => {
        svg.append(text(hx, hy + 20 + k * 22, `${p.name}: ${p.hand_count} cards in hand`, { "text-anchor": "start", "font-size": 12 }));
        for (let n = 0; n < Math.min(p.hand_count, 10); n++) svg.append(cardBack(hx + 200 + n * 10, hy + 8 + k * 22, 14, 20));
      });
    }
    const slotsOf = me || null;
    const sx = 800, sy = 620;
    svg.append(text(sx, sy, "Action slots", { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 13 }));
    for (let i = 0; i < 3; i++) {
      const x = sx + i * 128, y = sy + 10;
      const slot = slotsOf?.slots?.[i];
      const g = s("g", {});
      g.append(s("rect", { x, y, width: 120, height: 150, rx: 10, fill: view.slot === i + 1 ? "#f7e7b5" : "#f6efdc", stroke: "#7a5a32", "stroke-width": 2 }));
      g.append(text(x + 60, y + 14, `Slot ${i + 1}`, { "font-weight": 700, "font-size": 12 }));
      const planned = (slotsOf?.plan || []).filter(([, sl]) => sl === i + 1).map(([c]) => c);
      const shown = slot?.cards?.length ? slot.cards : planned;
      shown.slice(0, 4).forEach((id, k) => {
        const cg = lumCard(x + 8 + k * 24, y + 24, 56, 80, id, view.cards?.[id], true);
        const back = matching(live, "PlaceLuminary", { card: id, slot: 0 })[0];
        if (back) clickable(cg, this.label(back, ctx), (ev) => { ev.stopPropagation(); ctx.send(back); });
        g.append(cg);
      });
      if (!shown.length && slot?.count) for (let k = 0; k < slot.count; k++) g.append(cardBack(x + 8 + k * 20, y + 24, 56, 80));
      const cmd = picked ? matching(places, "PlaceLuminary", { card: picked, slot: i + 1 })[0] : null;
      if (cmd) {
        g.prepend(s("rect", { x: x - 4, y: y - 4, width: 128, height: 158, rx: 12, class: "spot-legal" }));
        clickable(g, this.label(cmd, ctx), () => ctx.send(cmd));
      }
      svg.append(g);
    }
    const confirm = matching(live, "ConfirmSlots")[0];
    if (confirm) {
      const b = s("g", { class: "svg-button", transform: `translate(${sx} ${sy + 170})` }, s("rect", { width: 160, height: 34, rx: 17 }), text(80, 17, "Confirm slots"));
      clickable(b, "Confirm the action slots", () => ctx.send(confirm));
      svg.append(b);
    }
    // Other players' slots: counts (and cards once revealed).
    players.filter((p) => p.seat !== ctx.seat).slice(0, 4).forEach((p, k) => {
      const y = sy + 215 + k * 16;
      const desc = (p.slots || []).map((sl, i) => `${i + 1}: ${sl.revealed && sl.cards ? sl.cards.map((c) => view.cards?.[c]?.name || c).join(", ") : `${sl.count} face down`}`).join(" · ");
      svg.append(text(sx, y, `${p.name} — ${desc}`, { "text-anchor": "start", "font-size": 10, fill: "#2b2118" }));
    });
    host.append(svg);
  },
};

function cityName(view, id) {
  return view.cities?.find((c) => c.id === id)?.name || id;
}

function lumCard(x, y, w, h, id, info, small, cls = "") {
  const c = info || {};
  const g = s("g", { class: `card face ${cls}`, transform: `translate(${x} ${y})` }, s("title", { text: c.name ? `${c.name} (${id})` : id }));
  g.append(s("rect", { width: w, height: h, rx: 5, class: "card-face" }));
  g.append(s("rect", { x: 2, y: 2, width: w - 4, height: small ? 8 : 14, rx: 3, fill: LUM[c.color] || "#aaa" }));
  if (!small) {
    const words = (c.name || id).split(" ");
    g.append(text(w / 2, 28, words.slice(0, 2).join(" ").slice(0, 14), { "font-size": 8, "font-weight": 700 }));
    if (words.length > 2) g.append(text(w / 2, 38, words.slice(2).join(" ").slice(0, 14), { "font-size": 8, "font-weight": 700 }));
    Object.entries(c.stats || {}).forEach(([k, v], i) => g.append(text(w / 2, 54 + i * 11, `${k} ${v}`, { "font-size": 9, fill: "#4a3218" })));
    if (c.power) g.append(text(w / 2, h - 8, humanize(String(c.power.type).toLowerCase()).slice(0, 14), { "font-size": 7, fill: "#7a2f22" }));
  } else {
    g.append(text(w / 2, h / 2 + 3, (c.name || id).split(" ").pop().slice(0, 7), { "font-size": Math.max(6, w / 6), fill: "#2b2118" }));
  }
  return g;
}
