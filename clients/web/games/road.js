// @ts-check
// Road to Enlightenment: the map of cities and links with who controls each, the Science /
// Art / Religion tracks and the diplomacy chart in SVG; your hand, the three action slots
// and the luminary rows as readable cards under it (pick a card, then click a slot).
import { html, svg, nothing, repeat } from "../lit.js";
import { hot, inert, card, cardBack, hand } from "../ui.js";
import { humanize } from "../dom.js";
import { matching, listWords, plural } from "./util.js";

/**
 * @typedef {Object} ReCard      view.cards[id]: what is printed on a luminary
 * @property {string} name
 * @property {"RED"|"BLUE"|"PURPLE"|"PINK"|"GREEN"|"ORANGE"} color
 * @property {boolean} favorite
 * @property {Record<string, number>} stats   MIL POL SCI IDE WEA ART CAT ANT
 * @property {{type: string, n?: number, track?: string}|null} power
 */
/**
 * @typedef {Object} RePlayer
 * @property {number} seat
 * @property {string} nation      FRA ENG SPA SWE POL AUS RUS OTT
 * @property {string} name        the nation's name ("France")
 * @property {string} religion
 * @property {number} coins
 * @property {number} score       prestige
 * @property {number} sci
 * @property {number} art
 * @property {string[]} medallions
 * @property {string[]|null} hand    only for its owner (and in the review view)
 * @property {number} hand_count
 * @property {Array<{count: number, revealed: boolean, cards: string[]|null}>} slots
 * @property {Array<[string, number]>|null} plan   the owner's phase-1 draft
 * @property {boolean} eliminated
 * @property {number} upkeep
 * @property {number} army
 * @property {number} navy
 */
/**
 * @typedef {Object} ReView
 * @property {string} length
 * @property {number} turn
 * @property {number} final_turn
 * @property {string[]} chits
 * @property {{kind: string, seat: number, other: number, n: number, data: string, waiting: number[]}} stage
 * @property {number[]} to_act
 * @property {number} slot        the slot being resolved (0 outside phase 2)
 * @property {number[]} order     seats in turn order
 * @property {number} religion
 * @property {Record<string, number|null>} medallions
 * @property {Array<{a: string, b: string, status: string}>} diplomacy
 * @property {Array<{id: string, name: string, home: string|null, sea: string|null, links: string[], occupant: string|null, controller: string|null, religion: string}>} cities
 * @property {RePlayer[]} players
 * @property {Record<string, string[]>} rows
 * @property {Record<string, number>} piles
 * @property {any} combat
 * @property {boolean} over
 * @property {number[]} ranking
 * @property {Record<string, ReCard>} cards
 * @property {string} [prompt]
 */

/** @typedef {import("../types.js").RenderCtx} RenderCtx */

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
const MAP = { x: 10, y: 10, w: 700, h: 540 };
// The nations' colours as the board prints them; a seat's colour everywhere is its nation's.
const NATION = {
  FRA: "#2f5fb3", ENG: "#c23b30", SPA: "#e0b02c", SWE: "#5fb0d9", POL: "#d9719a", AUS: "#e8e8e8",
  RUS: "#4e9a4a", OTT: "#2d7f7a", NEU: "#b3a58a",
};
const NATION_NAME = { FRA: "France", ENG: "England", SPA: "Spain", SWE: "Sweden", POL: "Poland", AUS: "Austria", RUS: "Russia", OTT: "the Ottomans", NEU: "neutral" };
const LUM = { RED: "#c4493c", BLUE: "#3f74b5", PURPLE: "#7b4fa0", PINK: "#e38fb1", GREEN: "#5d9a4a", ORANGE: "#e58a2e" };
const STAT = { MIL: "Military", POL: "Politics", SCI: "Science", IDE: "Ideas", WEA: "Wealth", ART: "Art", CAT: "Catholicism", ANT: "Anti-Catholicism" };
const TRACK = { SCI: "Science", ART: "Art" };
const MEDAL = { SCI6: "Science 6", SCI12: "Science 12", ART6: "Art 6", ART12: "Art 12" };
const ROUTE = { LAND: "land", SEA: "sea" };

function project(id, i, n) {
  const g = GEO[id];
  if (!g) {
    const a = (2 * Math.PI * i) / n;
    return [MAP.x + MAP.w / 2 + 220 * Math.cos(a), MAP.y + MAP.h / 2 + 220 * Math.sin(a)];
  }
  return [MAP.x + 24 + ((g[0] + 8) / 47) * (MAP.w - 48), MAP.y + 20 + ((61 - g[1]) / 26) * (MAP.h - 50)];
}

function powerWords(p) {
  if (!p) return "";
  const name = humanize(String(p.type).toLowerCase().replace(/_/g, " "));
  return [name, p.track ? TRACK[p.track] || p.track : "", p.n ? p.n : ""].filter((x) => x !== "").join(" ");
}

function lumInfo(ctx, id) {
  const c = ctx.view.cards?.[id];
  const g = ctx.glossary?.[id];
  const name = g?.name || c?.name || "a luminary";
  const stats = Object.entries(c?.stats || {}).map(([k, v]) => `${STAT[k] || k} ${v}`).join(" · ");
  const power = powerWords(c?.power);
  return {
    name,
    kind: `${c?.color ? humanize(c.color.toLowerCase()) : ""} ${c?.favorite ? "favorite" : "luminary"}`.trim(),
    text: g?.text || [stats, power ? `Power: ${power}` : ""].filter(Boolean).join(". "),
    colour: LUM[c?.color] || "#aaa",
  };
}
const lumName = (ctx, id) => lumInfo(ctx, id).name;

function cityName(view, id) {
  return view.cities?.find((c) => c.id === id)?.name || "a city";
}

function nationName(view, code) {
  return view.players?.find((p) => p.nation === code)?.name || NATION_NAME[code] || "a nation";
}

const seatNation = (view, seat) => view.players?.find((p) => p.seat === seat)?.name || `Player ${seat + 1}`;

/** @type {import("../types.js").Renderer} */
const road = {
  title: "Road to Enlightenment",

  seatColour(seat, view) {
    const p = view?.players?.find((x) => x.seat === seat);
    return p ? NATION[p.nation] || null : null;
  },

  status(ctx) {
    const view = /** @type {ReView} */ (ctx.view);
    if (!view) return "";
    const st = view.stage || /** @type {ReView['stage']} */ ({ kind: "", seat: -1, other: -1, n: 0, data: "", waiting: [] });
    const mine = ctx.seat !== null && ctx.toAct.includes(ctx.seat);
    const base = `Turn ${view.turn} of ${view.final_turn}`;
    if (view.over) return "the game is over";
    const who = st.seat >= 0 ? ctx.seatName(st.seat) : "";
    const slot = view.slot > 0 ? `, slot ${view.slot}` : "";
    const words = {
      assign: mine ? "place your luminaries in the three action slots, then Confirm" : "everyone secretly places luminaries in the three action slots",
      declare: mine ? `declare the action of your slot ${st.n || view.slot}` : `${who} declares an action`,
      war: mine ? "pay the war cost" : `${who} pays the war cost`,
      respond: mine ? "you are attacked: respond with cards, or not" : `${who} may respond to the attack`,
      parley: mine ? "pay 3 coins for the parley, or the attack is cancelled" : `${who} answers the parley`,
      defend: mine ? "defend with cards and coins" : `${who} defends`,
      support: mine ? "support a side of the battle, or pass" : `${who} may support a side`,
      reroll: mine ? "reroll a die, or keep the dice" : `${who} may reroll`,
      forge: mine ? "forge an alliance, or skip" : `${who} may forge an alliance`,
      gift: mine ? "give a gift to an ally, or skip" : `${who} may give a gift`,
      offer: mine ? "offer a card in exchange" : "the exchange offers are made",
      accept: mine ? "accept or refuse the exchange" : "the exchange is decided",
      reorganize: mine ? "take a card from the reorganized stack, or none" : `${who} reorganizes`,
      arrest: mine ? "give up a lesser luminary to the arrest" : `${who} gives up a luminary`,
      russia: mine ? "move Russia's Science or Art marker, or not" : "Russia may move a marker",
      phase3: mine ? "make your religion choices" : "religion choices are made",
      help: mine ? "help an ally with the upkeep, or not" : `${who} may help with the upkeep`,
      abandon: mine ? "choose a foreign city to abandon" : `${who} abandons a city`,
      draft: mine ? "draft a luminary from the rows" : `${who} drafts a luminary`,
      refill: mine ? "refill your hand, keeping favorites if you like" : "hands are refilled",
    }[st.kind] || (mine ? "make your move" : who ? `${who} is on turn` : "");
    return `${base}${slot}: ${words}`;
  },

  label(cmd, ctx) {
    const view = ctx.view;
    const ln = (id) => lumName(ctx, id);
    const cards = (list) => listWords((list || []).map(ln));
    switch (cmd.type) {
      case "PlaceLuminary": return cmd.slot === 0 ? `Take ${ln(cmd.card)} back to your hand` : `Put ${ln(cmd.card)} in slot ${cmd.slot}`;
      case "ConfirmSlots": return "Confirm the action slots";
      case "DeclareAttack": return `Attack ${cityName(view, cmd.target)} by ${ROUTE[cmd.route] || humanize(String(cmd.route).toLowerCase())}${cmd.coins ? ` with ${plural(cmd.coins, "coin")}` : ""}${cmd.enhancement ? ` (enhanced by ${ln(cmd.enhancement)})` : ""}`;
      case "ForgeAlliance": return `Forge an alliance with ${nationName(view, cmd.nation)}${cmd.cards?.length ? ` using ${cards(cmd.cards)}` : ""}`;
      case "GiveGift": return `Give ${cards(cmd.cards)} to ${seatNation(view, cmd.ally)}`;
      case "ExchangeOffer": return cmd.card ? `Offer ${ln(cmd.card)} in exchange` : "Offer nothing";
      case "ExchangeDecision": return cmd.accept ? "Accept the exchange" : "Refuse the exchange";
      case "ReorganizePick": return cmd.card ? `Take ${ln(cmd.card)}` : "Take nothing";
      case "DeclareLuminaryAction": return `Use ${ln(cmd.card)}'s power${cmd.victim >= 0 ? ` against ${seatNation(view, cmd.victim)}` : ""}${cmd.enhancement ? ` (enhanced by ${ln(cmd.enhancement)})` : ""}`;
      case "ArrestChoice": return `Give up ${ln(cmd.card)}`;
      case "DefendWith": return `Defend with ${ln(cmd.card)}`;
      case "SupportWith": return `Support the ${String(cmd.side).toLowerCase()} with ${ln(cmd.card)}`;
      case "SupportFinish": return `Done supporting the ${String(cmd.side).toLowerCase()}${cmd.coins ? `, adding ${plural(cmd.coins, "coin")}` : ""}`;
      case "SupportPass": return "Do not support";
      case "SkipForge": return "Forge no alliance";
      case "SkipGift": return "Give no gift";
      case "DeclareDiplomacy": return "Diplomacy";
      case "DeclareReorganize": return `Reorganize${cmd.enhancement ? ` (enhanced by ${ln(cmd.enhancement)})` : ""}`;
      case "DeclareCensus": return "Take the census";
      case "RussiaMove": return cmd.track ? `Russia: advance ${TRACK[cmd.track] || cmd.track}` : "Russia: no move";
      case "Respond": return cmd.cards?.length ? `Respond with ${cards(cmd.cards)}` : "Respond without cards";
      case "DefenseDone": return `Done defending${cmd.coins ? `, adding ${plural(cmd.coins, "coin")}` : ""}`;
      case "Reroll": return cmd.index === null || cmd.index === undefined ? "Keep the dice" : `Reroll die ${cmd.index + 1}`;
      case "DraftPick": return `Draft ${ln(cmd.card)}`;
      case "RefillHand": return cmd.favorites?.length ? `Refill the hand, keeping ${cards(cmd.favorites)}` : "Refill the hand";
      case "Phase3Choices": return `Religion choices${cmd.catholicism_as ? `: Catholicism as ${STAT[cmd.catholicism_as] || cmd.catholicism_as}` : ""}${cmd.anti_as ? `, Anti-Catholicism as ${STAT[cmd.anti_as] || cmd.anti_as}` : ""}`;
      case "HelpUpkeep": return `Help with the upkeep: ${plural(cmd.coins, "coin")}`;
      case "ParleyAnswer": return cmd.pay ? "Pay 3 coins for the parley" : "Refuse to pay (the attack is cancelled)";
      case "AbandonCity": return `Abandon ${cityName(view, cmd.city)}`;
      case "PayWarCost": return cmd.cards?.length ? `Pay the war cost with ${cards(cmd.cards)}` : "Pay the war cost";
      default: return null;
    }
  },

  groupLabel(type) {
    return {
      PlaceLuminary: "Place a luminary (or pick a card, then click a slot)", ConfirmSlots: "Confirm", DeclareAttack: "Attack a city",
      DeclareLuminaryAction: "Use a luminary's power", DraftPick: "Draft a luminary", DeclareDiplomacy: "Diplomacy",
      DeclareReorganize: "Reorganize", DeclareCensus: "Census",
    }[type] || null;
  },

  confirm(cmd, ctx) {
    const pay = {
      DeclareAttack: cmd.coins ? plural(cmd.coins, "coin") : "",
      PayWarCost: cmd.cards?.length ? listWords(cmd.cards.map((c) => lumName(ctx, c))) : "",
      ForgeAlliance: cmd.cards?.length ? listWords(cmd.cards.map((c) => lumName(ctx, c))) : "",
      GiveGift: cmd.cards?.length ? listWords(cmd.cards.map((c) => lumName(ctx, c))) : "",
      HelpUpkeep: cmd.coins ? plural(cmd.coins, "coin") : "",
      ParleyAnswer: cmd.pay ? "3 coins" : "",
      SupportFinish: cmd.coins ? plural(cmd.coins, "coin") : "",
      DefenseDone: cmd.coins ? plural(cmd.coins, "coin") : "",
    }[cmd.type];
    if (pay) return `This spends ${pay}. ${this.label(cmd, ctx)}?`;
    if (cmd.type === "AbandonCity") return `Abandon ${cityName(ctx.view, cmd.city)} for good?`;
    if (cmd.type === "ArrestChoice") return `Give up ${lumName(ctx, cmd.card)} to the arrest?`;
    if (cmd.type === "ConfirmSlots") {
      const me = ctx.view.players?.find((p) => p.seat === ctx.seat);
      const empty = [1, 2, 3].filter((s) => !(me?.plan || []).some(([, sl]) => sl === s));
      if (empty.length) return `Slot${empty.length > 1 ? "s" : ""} ${listWords(empty.map(String))} ${empty.length > 1 ? "are" : "is"} empty. Confirm the action slots anyway?`;
    }
    return null;
  },

  players(ctx) {
    const view = /** @type {ReView} */ (ctx.view);
    return (view.players || []).map((p) => ({
      seat: p.seat,
      score: `${p.score} prestige`,
      note: `${plural(p.coins, "coin")} · Science ${p.sci} · Art ${p.art} · ${plural(p.hand_count, "card")}${p.medallions?.length ? ` · medallions: ${p.medallions.map((m) => MEDAL[m] || m).join(", ")}` : ""}${p.eliminated ? " · eliminated" : ""}`,
      order: (view.order || []).indexOf(p.seat) + 1 || undefined,
    }));
  },

  marks(prev, view) {
    const out = new Set();
    for (const c of view.cities || []) {
      const o = prev.cities?.find((x) => x.id === c.id);
      if (o && (o.controller !== c.controller || o.occupant !== c.occupant || o.religion !== c.religion)) out.add(`city:${c.id}`);
    }
    for (const p of view.players || []) {
      const o = prev.players?.find((x) => x.seat === p.seat);
      if (!o) continue;
      if (o.sci !== p.sci) out.add(`sci:${p.seat}`);
      if (o.art !== p.art) out.add(`art:${p.seat}`);
      (p.slots || []).forEach((s, i) => { const os = o.slots?.[i]; if (!os || os.count !== s.count || os.revealed !== s.revealed) out.add(`slot:${p.seat}:${i}`); });
    }
    if (prev.religion !== view.religion) out.add("religion");
    if (JSON.stringify(prev.diplomacy) !== JSON.stringify(view.diplomacy)) {
      const before = new Map((prev.diplomacy || []).map((d) => [`${d.a}|${d.b}`, d.status]));
      for (const d of view.diplomacy || []) if (before.get(`${d.a}|${d.b}`) !== d.status) out.add(`dip:${d.a}|${d.b}`);
    }
    for (const [col, cards] of Object.entries(view.rows || {})) {
      const old = new Set(prev.rows?.[col] || []);
      for (const c of cards) if (!old.has(c)) out.add(`row:${c}`);
    }
    return out;
  },

  breakdown(view, result, ctx) {
    if (!view?.players) return null;
    return {
      columns: ["Science", "Art", "Medallions", "Coins"],
      rows: [...view.players].sort((a, b) => (view.ranking || []).indexOf(a.seat) - (view.ranking || []).indexOf(b.seat))
        .map((p) => ({ seat: p.seat, cells: [p.sci, p.art, (p.medallions || []).map((m) => MEDAL[m] || m).join(", ") || "—", p.coins], total: `${result?.scores?.[p.seat] ?? p.score} prestige` })),
    };
  },

  render(ctx) {
    const view = /** @type {ReView} */ (ctx.view);
    const live = ctx.interactive ? ctx.legal : [];
    return html`<div class="re-layout">
      <svg class="board-svg" viewBox="0 0 1200 560" role="group" aria-label="Road to Enlightenment: map, tracks and diplomacy" preserveAspectRatio="xMidYMid meet">
        <rect width="1200" height="560" rx="12" fill="#ece3cd"/>
        ${mapSvg(ctx, view, live)}
        ${tracksSvg(ctx, view)}
        ${diplomacySvg(ctx, view)}
        ${combatSvg(ctx, view)}
      </svg>
      ${tableau(ctx, view, live)}
    </div>`;
  },
};
export default road;

/** @param {RenderCtx} ctx @param {ReView} view */
function mapSvg(ctx, view, live) {
  const cities = view.cities || [];
  const pos = new Map(cities.map((c, i) => [c.id, project(c.id, i, cities.length)]));
  const attacks = matching(live, "DeclareAttack");
  const declaring = view.stage?.kind === "declare" && ctx.interactive;
  const me = view.players?.find((p) => p.seat === ctx.seat);
  const links = [];
  for (const c of cities) for (const l of c.links || []) {
    if (c.id < l && pos.has(l)) {
      const [x1, y1] = pos.get(c.id), [x2, y2] = pos.get(l);
      links.push(svg`<line x1=${x1} y1=${y1} x2=${x2} y2=${y2} stroke="#7a6a4a" stroke-width="3" stroke-linecap="round" opacity="0.7"/>`);
    }
  }
  return svg`<g class="re-map" aria-label="Map of Europe">
    <rect x=${MAP.x} y=${MAP.y} width=${MAP.w} height=${MAP.h} rx="10" fill="#bcd3e0" stroke="#7f98a6"/>
    ${links}
    ${repeat(cities, (c) => c.id, (c) => {
      const [x, y] = pos.get(c.id);
      const ctrl = c.controller || c.home || "NEU";
      const changed = ctx.changed.has(`city:${c.id}`);
      const rel = c.religion === "CATH" ? "Catholic" : c.religion === "ANTI" ? "Protestant or Orthodox" : humanize(String(c.religion).toLowerCase());
      const title = `${c.name}: ${c.controller ? `controlled by ${nationName(view, c.controller)}` : "uncontrolled"}${c.occupant ? `, occupied by ${nationName(view, c.occupant)}` : ""}, ${rel}${c.sea ? ", a port" : ""}`;
      const face = svg`<title>${title}</title>
        <circle cx=${x} cy=${y} r=${c.home && c.home !== "NEU" && c.controller === c.home ? 13 : 11} fill=${NATION[ctrl] || "#ccc"} stroke=${c.home && c.home !== "NEU" ? "#2b2118" : "#6f6254"} stroke-width="2"/>
        <text x=${x} y=${y + 1} text-anchor="middle" dominant-baseline="central" font-size="12" fill=${ctrl === "AUS" || ctrl === "SPA" ? "#2b2118" : "#fff"}>${c.religion === "CATH" ? "✝" : "☦"}</text>
        ${c.occupant ? svg`<rect x=${x + 8} y=${y - 17} width="11" height="11" fill=${NATION[c.occupant] || "#333"} stroke="#000"/>` : nothing}
        ${c.sea ? svg`<path d=${`M${x - 17} ${y + 9} q4 -4 8 0 q4 4 8 0`} fill="none" stroke="#2f5fb3" stroke-width="1.5"/>` : nothing}
        <text x=${x} y=${y + 24} text-anchor="middle" dominant-baseline="central" font-size="14" fill="#2b2118" font-weight="600" paint-order="stroke" stroke="#e3edf2" stroke-width="3">${c.name}</text>
        ${changed ? svg`<circle class="lm-ring" cx=${x} cy=${y} r="17"/>` : nothing}`;
      const cmds = attacks.filter((a) => a.target === c.id);
      if (cmds.length) {
        return hot(cmds.length === 1 ? road.label(cmds[0], ctx) : `Attack ${c.name}: choose the route, coins and enhancement`, () => ctx.send(cmds.length === 1 ? cmds[0] : cmds),
          svg`<circle class="spot-legal" cx=${x} cy=${y} r="19"/>${face}`, { cls: changed ? "last-move" : "" });
      }
      let reason = null;
      if (ctx.seat !== null && ctx.mode === "play") {
        if (!ctx.interactive) reason = "it is not your turn.";
        else if (!declaring) reason = "cities are attacked only when you declare an action for a slot.";
        else if (me && c.controller === me.nation) reason = `${c.name} is already yours.`;
        else if (!matching(live, "DeclareAttack").length) reason = "this slot cannot attack (an attack needs Military in the slot's stack).";
        else reason = `${c.name} is out of reach: attack a city linked to yours by land, or a port by sea.`;
      }
      return inert(ctx, reason, face, { cls: changed ? "last-move" : "" });
    })}
  </g>`;
}

/** @param {RenderCtx} ctx @param {ReView} view */
function tracksSvg(ctx, view) {
  const tx = 730, ty = 34;
  const players = view.players || [];
  const top = Math.max(12, ...players.map((p) => Math.max(p.sci, p.art)));
  const step = 440 / (top + 1);
  const track = (label, y, key) => svg`
    <text x=${tx} y=${y - 12} font-weight="700" fill="#4a3218" font-size="15" dominant-baseline="central">${label}</text>
    ${Array.from({ length: top + 1 }, (_, i) => svg`<rect x=${tx + i * step} y=${y} width=${step - 2} height="24" fill=${i === 6 || i === 12 ? "#f2d78a" : "#fffaf0"} stroke="#a89a7a"><title>${i === 6 || i === 12 ? `${label} ${i}: a medallion space` : `${label} ${i}`}</title></rect>
      ${i % 2 === 0 ? svg`<text x=${tx + i * step + step / 2} y=${y + 33} text-anchor="middle" dominant-baseline="central" font-size="12" fill="#6f6254">${i}</text>` : nothing}`)}
    ${players.map((p, k) => {
      const v = p[key] ?? 0;
      const changed = ctx.changed.has(`${key}:${p.seat}`);
      return svg`<circle cx=${tx + v * step + step / 2} cy=${y + 5 + (k % 3) * 7} r="5" fill=${NATION[p.nation] || "#333"} stroke=${changed ? "#ff8c00" : "#000"} stroke-width=${changed ? 3 : 1} class=${changed ? "last-move" : ""}><title>${p.name}: ${label} ${v}</title></circle>`;
    })}`;
  const medals = Object.entries(view.medallions || {}).map(([m, owner]) => `${MEDAL[m] || m}: ${owner === null || owner === undefined ? "free" : seatNation(view, owner)}`);
  const relChanged = ctx.changed.has("religion");
  return svg`<g class="re-tracks" aria-label="Science, Art and Religion tracks">
    ${track("Science", ty + 10, "sci")}
    ${track("Art", ty + 70, "art")}
    <text x=${tx} y=${ty + 130} font-weight="700" fill="#4a3218" font-size="15" dominant-baseline="central">Religion</text>
    ${Array.from({ length: 11 }, (_, k) => {
      const i = k - 5;
      return svg`<rect x=${tx + 80 + k * 28} y=${ty + 119} width="26" height="22" fill=${i === view.religion ? "#6b3e1f" : i < 0 ? "#e8d6b0" : i > 0 ? "#d4dde8" : "#fff"} stroke=${i === view.religion && relChanged ? "#ff8c00" : "#a89a7a"} stroke-width=${i === view.religion && relChanged ? 3 : 1}><title>Religion track ${i}</title></rect>`;
    })}
    <text x=${tx} y=${ty + 158} font-size="13" fill="#4a3218" dominant-baseline="central">Medallions: ${medals.join(" · ")}</text>
  </g>`;
}

/** @param {RenderCtx} ctx @param {ReView} view */
function diplomacySvg(ctx, view) {
  const nations = Object.keys(NATION).filter((n) => n !== "NEU");
  const dx = 730, dy = 212, cs = 26;
  const rel = new Map((view.diplomacy || []).map((d) => [`${d.a}|${d.b}`, d.status]));
  return svg`<g class="re-diplomacy" aria-label="Diplomacy chart">
    <text x=${dx} y=${dy - 8} font-weight="700" fill="#4a3218" font-size="15" dominant-baseline="central">Diplomacy</text>
    ${nations.map((a, i) => svg`
      <text x=${dx + 44 + i * cs + cs / 2} y=${dy + 10} text-anchor="middle" dominant-baseline="central" font-size="12" fill="#2b2118">${a}</text>
      <text x=${dx + 40} y=${dy + 24 + i * cs + cs / 2} text-anchor="end" dominant-baseline="central" font-size="12" fill="#2b2118">${a}</text>
      ${nations.map((b, j) => {
        const st = a === b ? "self" : rel.get(`${a}|${b}`) || rel.get(`${b}|${a}`) || "";
        const changed = ctx.changed.has(`dip:${a}|${b}`) || ctx.changed.has(`dip:${b}|${a}`);
        const fill = st === "self" ? NATION[a] : st === "ALLY" ? "#8cc58a" : st === "WAR" ? "#e07b6f" : "#fffaf0";
        return svg`<rect x=${dx + 44 + j * cs} y=${dy + 24 + i * cs} width=${cs - 2} height=${cs - 2} fill=${fill} stroke=${changed ? "#ff8c00" : "#a89a7a"} stroke-width=${changed ? 3 : 1}><title>${st === "self" ? NATION_NAME[a] : `${NATION_NAME[a]} and ${NATION_NAME[b]}: ${st === "ALLY" ? "allied" : st === "WAR" ? "at war" : "neutral"}`}</title></rect>
          ${st && st !== "self" ? svg`<text x=${dx + 44 + j * cs + cs / 2 - 1} y=${dy + 24 + i * cs + cs / 2 - 1} text-anchor="middle" dominant-baseline="central" font-size="12" fill="#2b2118" pointer-events="none">${st === "ALLY" ? "A" : st === "WAR" ? "W" : ""}</text>` : nothing}`;
      })}`)}
    <text x=${dx + 270} y=${dy + 40} font-size="13" fill="#4a3218" dominant-baseline="central">A: allied</text>
    <text x=${dx + 270} y=${dy + 60} font-size="13" fill="#4a3218" dominant-baseline="central">W: at war</text>
  </g>`;
}

/** @param {RenderCtx} ctx @param {ReView} view */
function combatSvg(ctx, view) {
  const cb = view.combat;
  if (!cb) return nothing;
  const bx = 730, by = 440;
  const att = view.players.find((p) => p.seat === cb.attacker);
  return svg`<g aria-label="Combat">
    <rect x=${bx} y=${by} width="460" height="110" rx="10" fill="#fbe9e4" stroke="#a3322b" stroke-width="2"/>
    <text x=${bx + 12} y=${by + 18} font-weight="700" fill="#7a1f18" font-size="15" dominant-baseline="central">${att?.name || "An attacker"} attacks ${cityName(view, cb.city)} (${nationName(view, cb.defender)})</text>
    <text x=${bx + 12} y=${by + 42} font-size="13" dominant-baseline="central">by ${ROUTE[cb.route] || cb.route} · coins ${cb.coins} against ${cb.def_coins} · support ${cb.att_support} against ${cb.def_support}</text>
    ${cb.def_cards?.length ? svg`<text x=${bx + 12} y=${by + 62} font-size="13" dominant-baseline="central">defenders: ${cb.def_cards.map((c) => lumName(ctx, c)).join(", ")}</text>` : nothing}
    ${(cb.dice || []).map((d, i) => svg`<rect x=${bx + 12 + i * 32} y=${by + 74} width="26" height="26" rx="5" fill="#fff" stroke="#2b2118"/>
      <text x=${bx + 25 + i * 32} y=${by + 87} text-anchor="middle" dominant-baseline="central" font-weight="700" font-size="15">${d}</text>`)}
  </g>`;
}

/** Hands, slots and rows as readable HTML cards. @param {RenderCtx} ctx @param {ReView} view */
function tableau(ctx, view, live) {
  const ui = ctx.ui;
  const me = view.players.find((p) => p.seat === ctx.seat);
  const places = matching(live, "PlaceLuminary");
  const pickable = [...new Set(places.map((c) => c.card))];
  const planned = new Map((me?.plan || []).map(([c, sl]) => [c, sl]));
  // After a card goes into a slot, offer the next card of the hand that has none yet.
  if (!pickable.includes(ui.picked) || (planned.has(ui.picked) && ui.picked !== ui.lastPicked)) {
    ui.picked = pickable.find((c) => !planned.has(c)) ?? null;
  }
  ui.lastPicked = null;
  const drafts = matching(live, "DraftPick");
  const confirm = matching(live, "ConfirmSlots")[0];
  const others = view.players.filter((p) => p.seat !== ctx.seat);
  const handCard = (p, id) => {
    const info = lumInfo(ctx, id);
    const sl = planned.get(id);
    const mine = p.seat === ctx.seat;
    const canPick = mine && pickable.includes(id);
    const draft = mine ? matching(drafts, "DraftPick", { card: id })[0] : null;
    return card(ctx, {
      key: id, ...info, corner: sl ? `slot ${sl}` : "", cls: { compact: true, chosen: mine && id === ui.picked, planned: !!sl },
      act: canPick ? () => { ui.picked = id; ui.lastPicked = id; ctx.rerender(); } : draft ? () => ctx.send(draft) : null, ui: canPick,
      label: canPick ? `Pick ${info.name} for a slot. ${info.text}` : undefined,
    });
  };
  return html`<div class="re-tableau">
    ${me ? html`<section class="re-hand" style=${`--seat:${NATION[me.nation]}`} aria-label="Your hand">
      <h3>Your hand (${me.name}): ${(me.hand || []).length} luminaries${places.length ? " — pick one, then a slot" : ""}</h3>
      ${hand("Your hand", me.hand || [], (id) => id, (id) => handCard(me, id))}
    </section>
    <section class="re-slots" aria-label="Your action slots">
      <div class="re-slot-row"><h3>Your action slots${view.slot ? ` (now: slot ${view.slot})` : ""}</h3>${[1, 2, 3].map((n) => slotBox(ctx, view, me, n, places))}
      ${confirm ? html`<button type="button" class="primary confirm-slots" @click=${() => ctx.send(confirm)}>Confirm slots</button>` : nothing}</div>
    </section>` : nothing}
    ${others.some((p) => p.hand) ? others.filter((p) => p.hand).map((p) => html`<section class="re-hand other" style=${`--seat:${NATION[p.nation]}`} aria-label=${`${p.name}'s hand`}>
      <h3>${p.name}'s hand: ${(p.hand || []).length} luminaries</h3>${hand(`${p.name}'s hand`, p.hand || [], (id) => id, (id) => handCard(p, id))}</section>`) : nothing}
    <section class="re-others" aria-label="Other nations' slots">
      ${others.map((p) => html`<div class="re-other" style=${`--seat:${NATION[p.nation]}`}><strong>${p.name}</strong> slots
        ${(p.slots || []).map((s, i) => html`${i ? " · " : ""}<span class=${ctx.changed.has(`slot:${p.seat}:${i}`) ? "last-move-text" : ""}
          title=${`slot ${i + 1}`}>${s.revealed && s.cards ? (s.cards.map((c) => lumName(ctx, c)).join(", ") || "empty") : `${s.count}`}</span>`)}
        ${(p.slots || []).some((s) => !(s.revealed && s.cards)) ? " face down" : ""}${!p.hand ? html` · ${p.hand_count} in hand` : nothing}</div>`)}
    </section>
    ${view.over ? nothing : html`<section class="re-rows" aria-label="Luminary rows">
      <h3>Luminary rows</h3>
      <div class="re-row-cols">${Object.entries(view.rows || {}).map(([col, cards]) => html`<div class="re-row" style=${`--lum:${LUM[col] || "#999"}`}>
        <div class="re-row-head">${humanize(col.toLowerCase())} <span class="muted">(${view.piles?.[col] ?? 0} left)</span></div>
        ${repeat(cards, (id) => id, (id) => {
          const info = lumInfo(ctx, id);
          const cmd = matching(drafts, "DraftPick", { card: id })[0];
          return card(ctx, { key: id, ...info, cls: "chip", act: cmd ? () => ctx.send(cmd) : null, changed: ctx.changed.has(`row:${id}`), label: cmd ? `Draft ${info.name}. ${info.text}` : undefined });
        })}</div>`)}</div>
    </section>`}
  </div>`;
}

function slotBox(ctx, view, me, n, places) {
  const ui = ctx.ui;
  const slot = me.slots?.[n - 1];
  const planned = (me.plan || []).filter(([, sl]) => sl === n).map(([c]) => c);
  const shown = slot?.cards?.length ? slot.cards : planned;
  const cmd = ui.picked ? matching(places, "PlaceLuminary", { card: ui.picked, slot: n })[0] : null;
  const act = cmd ? () => ctx.send(cmd) : null;
  const changed = ctx.changed.has(`slot:${me.seat}:${n - 1}`);
  const inner = html`<div class="re-slot-title">Slot ${n}${view.slot === n ? " (now)" : ""}</div>
    ${shown.map((id) => {
      const back = matching(places, "PlaceLuminary", { card: id, slot: 0 })[0];
      return html`<button type="button" class="small secondary re-slot-card" ?disabled=${!back} aria-label=${back ? road.label(back, ctx) : lumName(ctx, id)}
        @click=${(e) => { e.stopPropagation(); if (back) ctx.send(back); }}>${lumName(ctx, id)}${back ? " ✕" : ""}</button>`;
    })}
    ${!shown.length && slot?.count ? Array.from({ length: slot.count }, () => cardBack("a face-down luminary")) : nothing}
    ${!shown.length && !slot?.count ? html`<div class="muted small-text">empty</div>` : nothing}`;
  const put = act ? html`<button type="button" role="button" class="small primary re-put" aria-label=${road.label(cmd, ctx)} @click=${act}>Put here</button>` : nothing;
  return html`<div class=${`re-slot ${act ? "target" : ""} ${view.slot === n ? "now" : ""} ${changed ? "last-move-box" : ""}`}>${inner}${put}</div>`;
}
