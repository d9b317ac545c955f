// @ts-check
// Illumination: the three Books, the Monastery ring with the Abbot and Ritual spaces, the
// Battle cards, and each player's mat (3×3 archways, coins, Ritual tokens); hands and Crusades
// as readable cards under the board. Board clicks map to the legal commands whose fields
// match; every legal command is also a labelled button in the page's action list.
import { html, svg, nothing, repeat } from "../lit.js";
import { hot, inert, card, cardBack, hand } from "../ui.js";
import { matching, plural } from "./util.js";

/**
 * @typedef {Object} IllTile
 * @property {string} id
 * @property {"REV"|"IRR"} side
 * @property {string|null} faction      Angel, Knight, Monk, Dog / Demon, Dragon, Rabbit, Squirrel
 * @property {"R"|"Y"|"S"|"W"|null} colour
 * @property {boolean} two_coin
 * @property {boolean} faceup           false: a defeated tile (its identity stays public)
 * @property {string[]} gold_leaf
 */
/**
 * @typedef {Object} IllCell
 * @property {number} row   0..4, south frame
 * @property {number} col
 * @property {"R"|"Y"|"S"|"W"|null} quill   null for text
 * @property {boolean} drollery
 * @property {IllTile|null} tile
 */
/**
 * @typedef {Object} IllBook
 * @property {number} pos     0..2 left to right from the south seat
 * @property {string} layout
 * @property {Record<string, number>} number   each side's own number for this Book
 * @property {boolean} closed
 * @property {string|null} completed_by
 * @property {IllCell[]} cells
 * @property {IllTile[]} margin
 */
/**
 * @typedef {Object} IllPlayer
 * @property {"REV"|"IRR"} side
 * @property {string} name
 * @property {number|null} seat
 * @property {boolean} human
 * @property {number} coins
 * @property {Record<string, number>} tokens
 * @property {Array<Array<IllTile|null>>} archways
 * @property {number} stacks_remaining
 * @property {string[]} sheep_pen
 * @property {string[]|null} hand
 * @property {number} hand_count
 * @property {number} deck_count
 * @property {string[]} discard
 * @property {boolean} has_crusade
 * @property {string|null} crusade
 * @property {number} markers
 * @property {boolean} passed
 * @property {any} [monk]
 */
/**
 * @typedef {Object} IllView
 * @property {"duel"|"solo"} mode
 * @property {string} phase
 * @property {string|null} you
 * @property {string} south
 * @property {string} turn
 * @property {number} turn_no
 * @property {boolean} line_chosen
 * @property {boolean} can_pass
 * @property {number} discarding
 * @property {any} pending
 * @property {IllBook[]} books
 * @property {IllPlayer[]} players
 * @property {{abbot: number, stations: Array<string|null>, ritual_spaces: Array<{ritual: string, size: number, points: number, owner: string|null}>, book_spaces: Array<string|null>}} monastery
 * @property {Array<{pair: string, factions: string[], REV: number, IRR: number}>} battle_cards
 * @property {Record<string, number>} supply
 * @property {number|null} difficulty
 * @property {Record<string, number>} score_preview
 * @property {{scores: Record<string, number>, winners: string[], breakdown: Record<string, number[]>}|null} result
 * @property {string} [prompt]
 */

/** @typedef {import("../types.js").RenderCtx} RenderCtx */
/** @typedef {import("../types.js").Command} Command */

const QUILL = { R: "#c0392b", Y: "#e2b33c", S: "#8aa4bd", W: "#f4efe2" };
const QUILL_NAME = { R: "red", Y: "yellow", S: "silver", W: "white" };
const RITUAL = { Candle: "#e2b33c", Bell: "#8aa4bd", Wine: "#c0392b", Bread: "#e9dcc0" };
// The mats' own colours: the Reverent mat is cream, the Irreverent mat purple. The seat's
// colour everywhere (players panel, log) is its mat's.
const SIDE_FILL = { REV: "#f3e3bd", IRR: "#4b3b5e" };
const SIDE_MARK = { REV: "#d8b86a", IRR: "#6a4f8c" };
const SIDE_INK = { REV: "#3b2a12", IRR: "#f3e9ff" };
const SIDE_NAME = { REV: "Reverent", IRR: "Irreverent" };
const ICON = { Angel: "✧", Knight: "♞", Monk: "✝", Dog: "D", Demon: "ψ", Dragon: "Ѫ", Rabbit: "R", Squirrel: "S" };
const CARD_NAMES = { MOTUS: "Motus", EXILIUM: "Exilium", MUTATIO: "Mutatio", PORTICUS: "Porticus", SCRIPTUM: "Scriptum", RITUS: "Ritus" };
const PAY_NAMES = ["coin", "Candle token", "Bell token", "Wine token", "Bread token"];
const BREAKDOWN = ["Monastery", "Battle cards", "Books", "Crusade", "Sheep Pen", "Monk's Books", "Gold leaf"];
const CELL = 44;

function tileLabel(t) {
  if (!t) return "empty";
  if (!t.faceup) return `a defeated ${SIDE_NAME[t.side] || ""} tile`;
  if (t.two_coin) return `${SIDE_NAME[t.side] || ""} Two-Coin tile`;
  return `${QUILL_NAME[t.colour] || ""} ${t.faction}`;
}

/** Glossary entry for an id or for its card type ("R-MOTUS-2" → "MOTUS"). */
function gloss(ctx, id) {
  const g = ctx.glossary || {};
  const kind = String(id).split("-")[1];
  return g[id] || g[kind] || g[CARD_NAMES[kind]] || null;
}

function cardInfo(ctx, id) {
  const s = String(id);
  const g = gloss(ctx, s);
  if (s.startsWith("CR-")) {
    const faction = s.split("-")[2] || "";
    const name = `Crusade: ${faction.charAt(0)}${faction.slice(1).toLowerCase()}s`;
    return { name: g?.name || name, kind: "Crusade card", text: g?.text || "" };
  }
  const kind = s.split("-")[1];
  return { name: g?.name || CARD_NAMES[kind] || "Scriptorium card", kind: "Scriptorium card", text: g?.text || "" };
}

function tileDetail(t, ctx = null) {
  if (!t) return null;
  const g = ctx?.glossary?.[t.id];
  if (g?.name) return { title: g.name, kind: g.kind, text: g.text, lines: t.faceup ? [] : ["Defeated in a Bounded Battle: it lies face down."] };
  const lines = [];
  if (t.two_coin) lines.push("Pays 2 coins when its archway line is taken.");
  if (!t.faceup) lines.push("Defeated in a Bounded Battle: it lies face down.");
  if (t.gold_leaf?.length) lines.push(`${t.gold_leaf.length} gold leaf beneath it.`);
  return { title: tileLabel(t), kind: `${SIDE_NAME[t.side]} tile`, lines };
}

const frameNorth = (view) => !!(view.you && view.south && view.you !== view.south);

function bookNo(view, pos) {
  const b = view.books?.find((x) => x.pos === pos);
  const you = view.you || view.south;
  return b?.number?.[you] ?? pos + 1;
}

function stationName(view, i) {
  const n = view.monastery?.stations?.[i];
  return n ? `the ${n} station` : `the blank station ${stationNo(view, i)}`;
}

/** Blank stations are numbered 1..4 clockwise, as on the printed ring's empty spaces. */
function stationNo(view, i) {
  const st = view.monastery?.stations || [];
  return st.slice(0, i + 1).filter((x) => !x).length;
}

function payment(p) {
  return p.map((n, i) => (n ? `${n} ${PAY_NAMES[i]}${n > 1 ? "s" : ""}` : null)).filter(Boolean).join(" and ");
}
const pays = (p) => Array.isArray(p) && p.some((n) => n);

function activePos(view, tileId) {
  for (const b of view.books || []) if (b.margin.some((t) => t.id === tileId)) return b.pos;
  return null;
}

function findTile(view, id) {
  for (const b of view.books || []) {
    for (const t of b.margin) if (t.id === id) return t;
    for (const c of b.cells) if (c.tile && c.tile.id === id) return c.tile;
  }
  for (const p of view.players || []) for (const row of p.archways || []) for (const t of row) if (t && t.id === id) return t;
  return null;
}
const tileName = (view, id) => { const t = findTile(view, id); return t ? tileLabel(t) : "a tile"; };

/** A Book square in words, from the viewer's seat (squares are given in the south frame). */
function rc(view, row, col) {
  return frameNorth(view) ? `row ${5 - row}, column ${5 - col}` : `row ${row + 1}, column ${col + 1}`;
}

/** A tile as a small square: side colour, faction glyph, quill colour stripe, gold leaf. */
function tileSvg(x, y, size, t, extra = "") {
  if (!t.faceup) {
    return svg`<g class=${`ill-tile ${extra}`} transform=${`translate(${x} ${y})`}><title>${tileLabel(t)}</title>
      <rect width=${size} height=${size} rx="5" fill="#6b4b2a" stroke="#2b1d10"/>
      <path d=${`M${size / 2} 6 L${size - 6} ${size / 2} L${size / 2} ${size - 6} L6 ${size / 2}z`} fill="#c8a064"/></g>`;
  }
  return svg`<g class=${`ill-tile ${extra}`} transform=${`translate(${x} ${y})`}><title>${tileLabel(t)}</title>
    <rect width=${size} height=${size} rx="5" fill=${SIDE_FILL[t.side] || "#ddd"} stroke="#2b1d10" stroke-width="1.5"/>
    ${t.two_coin
      ? svg`<circle cx=${size / 2} cy=${size / 2} r=${size * 0.3} fill="#d9a441" stroke="#6b4a12"/>
          <text x=${size / 2} y=${size / 2 + 1} text-anchor="middle" dominant-baseline="central" font-size=${size * 0.38} font-weight="700" fill="#2b2118">2</text>`
      : svg`<rect x="3" y=${size - 9} width=${size - 6} height="6" rx="2" fill=${QUILL[t.colour] || "#999"} stroke="#0003"/>
          <text x=${size / 2} y=${size / 2 - 3} text-anchor="middle" dominant-baseline="central" font-size=${size * 0.46} fill=${SIDE_INK[t.side] || "#000"} font-weight="700">${ICON[t.faction] || (t.faction || "?")[0]}</text>`}
    ${(t.gold_leaf || []).map((_, i) => svg`<circle cx=${7 + i * 7} cy="7" r="3" fill="#ffd54a" stroke="#8a6d00"/>`)}
  </g>`;
}

/** @type {import("../types.js").Renderer} */
const illumination = {
  title: "Illumination",

  seatColour(seat, view) {
    const p = view?.players?.find((x) => x.seat === seat);
    return p ? SIDE_MARK[p.side] : null;
  },

  status(ctx) {
    const view = ctx.view;
    if (!view) return "";
    const mine = ctx.seat !== null && view.you === view.turn && ctx.toAct.includes(ctx.seat);
    const p = view.pending;
    if (view.phase === "over") return "the game is over";
    if (p) {
      const whoP = SIDE_NAME[p.side] || p.side;
      if (p.kind === "exile") return `${whoP} chooses where the exiled ${tileLabel(p.tile)} goes`;
      return `${whoP} chooses a Ritual token for the completed Book`;
    }
    const who = SIDE_NAME[view.turn] || view.turn;
    const t = `Turn ${view.turn_no}`;
    if (view.discarding) return mine ? `discard down to 7 items (${view.discarding} to go)` : `${who} discards down to 7 items`;
    if (!view.line_chosen && view.phase === "play") return mine ? `${t}: take a row or column of your archways (the green arrows), or play a card` : `${t}: ${who} chooses a row or column of archways`;
    const waiting = (view.books || []).some((b) => b.margin.length);
    if (waiting) return mine ? `${t}: place your active tiles on the Books (pick a tile in a Book's margin, then a highlighted Quill)` : `${t}: ${who} places the active tiles`;
    return mine ? `${t}: play a card or buy if you like, then End turn` : `${t}: ${who} finishes the turn`;
  },

  label(cmd, ctx) {
    const view = ctx.view;
    const pay = (p) => (pays(p) ? ` (pay ${payment(p)})` : "");
    switch (cmd.type) {
      case "Pass": return "Pass for the rest of the game";
      case "ChooseLine": return `Take ${cmd.kind === "row" ? "row" : "column"} ${cmd.index} of archways to Book ${cmd.index}`;
      case "PlaceTile": return `Place the ${tileName(view, cmd.tile)} on Book ${bookNo(view, activePos(view, cmd.tile))}, ${rc(view, cmd.row, cmd.col)}`;
      case "MoveActiveTile": return `Move the ${tileName(view, cmd.tile)} to Book ${bookNo(view, cmd.to_pos)}${pay(cmd.payment)}`;
      case "SendToSheepPen": return `Send the ${tileName(view, cmd.tile)} to the Sheep Pen`;
      case "MoveAbbot": return `Move the Abbot to ${stationName(view, cmd.station)}${pay(cmd.payment)}`;
      case "BuyCard": return `Buy a Scriptorium card${pay(cmd.payment)}`;
      case "ClaimRitual": return `Claim the ${cmd.ritual} Ritual set of ${cmd.size}`;
      case "PlayMotus": return `Motus: move your ${tileName(view, cmd.tile)} to Book ${bookNo(view, cmd.to_pos)}, ${rc(view, cmd.row, cmd.col)}`;
      case "PlayMotusAbbot": return `Motus: move the Abbot to ${stationName(view, cmd.station)}`;
      case "PlayMutatio": return `Mutatio: swap your archways at row ${cmd.first[0]}, column ${cmd.first[1]} and row ${cmd.second[0]}, column ${cmd.second[1]}`;
      case "PlayExilium": return `Exilium: exile the ${tileName(view, cmd.tile)} to Book ${bookNo(view, cmd.to_pos)}`;
      case "PlayPorticus": return `Porticus: swap ${cmd.kind === "row" ? "rows" : "columns"} ${cmd.first} and ${cmd.second} of your archways`;
      case "PlayScriptum": return `Scriptum: the ${tileName(view, cmd.tile)} on the text at Book ${bookNo(view, activePos(view, cmd.tile))}, ${rc(view, cmd.row, cmd.col)}`;
      case "PlayRitus": return `Ritus: gain a ${cmd.ritual} token`;
      case "EndTurn": return "End turn";
      case "DiscardItem": return cmd.item === "coin" ? "Discard a coin" : `Discard a ${cmd.item} token`;
      case "ChooseExiliumSpace": return `Put the exiled tile on ${rc(view, cmd.row, cmd.col)} of Book ${bookNo(view, view.pending?.pos ?? 0)}`;
      case "ChooseCompletionToken": return `Take a ${cmd.ritual} token for the completed Book`;
      default: return null;
    }
  },

  groupLabel(type) {
    return {
      Pass: "Pass (irreversible)", ChooseLine: "Take a line of archways", PlaceTile: "Place an active tile",
      MoveActiveTile: "Move an active tile to another Book", MoveAbbot: "Move the Abbot", BuyCard: "Buy a card",
      ClaimRitual: "Claim a Ritual set", EndTurn: "End the turn", DiscardItem: "Discard down to 7 items",
      PlayMotus: "Play Motus", PlayMotusAbbot: "Play Motus on the Abbot", PlayMutatio: "Play Mutatio", PlayExilium: "Play Exilium",
      PlayPorticus: "Play Porticus", PlayScriptum: "Play Scriptum", PlayRitus: "Play Ritus",
      ChooseExiliumSpace: "Place the exiled tile", ChooseCompletionToken: "Completed Book: choose a token", SendToSheepPen: "Sheep Pen",
    }[type] || null;
  },

  confirm(cmd, ctx) {
    const view = ctx.view;
    if (cmd.type === "Pass") return "Pass for the rest of the game? You will take no more turns; your opponent plays on until the end.";
    const cardType = { PlayMotus: "Motus", PlayMotusAbbot: "Motus", PlayMutatio: "Mutatio", PlayExilium: "Exilium", PlayPorticus: "Porticus", PlayScriptum: "Scriptum", PlayRitus: "Ritus" }[cmd.type];
    if (cardType) return `This uses up your ${cardType} card. ${this.label(cmd, ctx)}?`;
    if (pays(cmd.payment)) return `This spends ${payment(cmd.payment)}. ${this.label(cmd, ctx)}?`;
    if (cmd.type === "EndTurn") {
      const pen = (view.books || []).filter((b) => b.closed && b.margin.length);
      if (pen.length) return "Tiles still wait on a closed Book's margin: they go to the Sheep Pen and cost points. End the turn?";
    }
    return null;
  },

  players({ view }) {
    const order = [view.turn, view.turn === "REV" ? "IRR" : "REV"];
    return (view.players || []).filter((p) => p.seat !== null && p.seat !== undefined).map((p) => ({
      seat: /** @type {number} */ (p.seat),
      score: plural((view.result ? view.result.scores?.[p.side] : view.score_preview?.[p.side]) ?? 0, "point"),
      note: `${SIDE_NAME[p.side]} · ${plural(p.coins, "coin")} · ${Object.entries(p.tokens || {}).filter(([, n]) => n).map(([r, n]) => `${n} ${r}`).join(", ") || "no tokens"}${p.passed ? " · passed" : ""}`,
      order: order.indexOf(p.side) + 1,
    }));
  },

  marks(prev, view) {
    const out = new Set();
    const cellsBefore = new Map();
    for (const b of prev.books || []) for (const c of b.cells) cellsBefore.set(`${b.pos}:${c.row}:${c.col}`, c.tile ? `${c.tile.id}:${c.tile.faceup}` : "");
    for (const b of view.books || []) {
      for (const c of b.cells) {
        const k = `${b.pos}:${c.row}:${c.col}`;
        if ((cellsBefore.get(k) ?? "") !== (c.tile ? `${c.tile.id}:${c.tile.faceup}` : "")) out.add(`cell:${k}`);
      }
      const old = new Set((prev.books?.find((x) => x.pos === b.pos)?.margin || []).map((t) => t.id));
      for (const t of b.margin) if (!old.has(t.id)) out.add(`margin:${t.id}`);
      if (b.closed && !prev.books?.find((x) => x.pos === b.pos)?.closed) out.add(`book:${b.pos}`);
    }
    if (prev.monastery?.abbot !== view.monastery?.abbot) out.add("abbot");
    (view.monastery?.ritual_spaces || []).forEach((r, i) => { if (r.owner !== prev.monastery?.ritual_spaces?.[i]?.owner) out.add(`ritual:${r.ritual}:${r.size}`); });
    (view.battle_cards || []).forEach((b, i) => { const o = prev.battle_cards?.[i]; if (!o || o.REV !== b.REV || o.IRR !== b.IRR) out.add(`battle:${b.pair}`); });
    for (const p of view.players || []) {
      const o = prev.players?.find((x) => x.side === p.side);
      if (!o) continue;
      if (o.coins !== p.coins) out.add(`coins:${p.side}`);
      if (JSON.stringify(o.tokens) !== JSON.stringify(p.tokens)) out.add(`tokens:${p.side}`);
      if (o.hand_count !== p.hand_count) out.add(`hand:${p.side}`);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
        if ((o.archways?.[r]?.[c]?.id || "") !== (p.archways?.[r]?.[c]?.id || "")) out.add(`arch:${p.side}:${r}:${c}`);
      }
    }
    return out;
  },

  breakdown(view, result, ctx) {
    const r = view?.result;
    if (!r?.breakdown) return null;
    const rows = (view.players || []).map((p) => ({
      seat: p.seat ?? null,
      name: p.seat === null || p.seat === undefined ? "Mystic Monk" : `${ctx.seatName(p.seat)}`,
      cells: r.breakdown[p.side] || [],
      total: r.scores?.[p.side] ?? (r.breakdown[p.side] || []).reduce((a, b) => a + b, 0),
    }));
    // Keep the categories anyone scored in (Monk's Books and gold leaf are solo-only).
    const keep = BREAKDOWN.map((_, i) => i).filter((i) => i < 5 || rows.some((row) => row.cells[i]));
    return { columns: keep.map((i) => BREAKDOWN[i]), rows: rows.map((row) => ({ ...row, cells: keep.map((i) => row.cells[i] ?? 0) })) };
  },

  render(ctx) {
    const view = /** @type {IllView} */ (ctx.view);
    const live = ctx.interactive ? ctx.legal : [];
    const ui = ctx.ui;
    // Active tiles the player may place: remember a selection among them.
    const placeable = [...new Set(matching(live, "PlaceTile").map((c) => c.tile).concat(matching(live, "PlayScriptum").map((c) => c.tile)))];
    if (!placeable.includes(ui.tile)) ui.tile = placeable[0] ?? null;
    // A card with many targets (Motus, Exilium, Mutatio) is armed by clicking it in the hand;
    // only then do its targets light up on the board.
    const armable = { MOTUS: "PlayMotus", EXILIUM: "PlayExilium", MUTATIO: "PlayMutatio" };
    if (ui.arm && !matching(live, armable[ui.arm] || "-").length) ui.arm = null;
    const motusTiles = new Set(matching(live, "PlayMotus").map((c) => c.tile));
    if (ui.arm !== "MOTUS" || !motusTiles.has(ui.motus)) ui.motus = null;
    const exileTiles = new Set(matching(live, "PlayExilium").map((c) => c.tile));
    if (ui.arm !== "EXILIUM" || !exileTiles.has(ui.exile)) ui.exile = null;
    const mutatio = ui.arm === "MUTATIO" ? matching(live, "PlayMutatio") : [];
    if (!mutatio.length) ui.mutatio = null;

    const players = [...view.players].sort((a, b) => (a.side === view.you ? 1 : 0) - (b.side === view.you ? 1 : 0));
    const me = view.players.find((p) => p.side === view.you);
    const end = matching(live, "EndTurn")[0];
    return html`<div class="ill-layout">
      <svg class="board-svg" viewBox="0 0 1200 760" role="group" aria-label="Illumination board" preserveAspectRatio="xMidYMid meet">
        <rect width="1200" height="760" rx="14" fill="#efe3c8"/>
        ${repeat(view.books, (b) => b.pos, (b) => bookSvg(ctx, view, b, live, placeable))}
        ${monasterySvg(ctx, view, live)}
        ${ritualsSvg(ctx, view, live)}
        ${battlesSvg(ctx, view)}
        ${repeat(players, (p) => p.side, (p, i) => matSvg(ctx, view, p, 380 + i * 410, 470, live, mutatio))}
        ${end ? hot(this.label(end, ctx), () => ctx.send(end), svg`<rect width="150" height="44" rx="22"/><text x="75" y="22" text-anchor="middle" dominant-baseline="central">End turn</text>`, { cls: "svg-button end-turn", transform: "translate(1030 414)" }) : nothing}
      </svg>
      ${handsStrip(ctx, view, players, me)}
    </div>`;
  },
};
export default illumination;

/** @param {RenderCtx} ctx @param {IllView} view @param {IllBook} book */
function bookSvg(ctx, view, book, live, placeable) {
  const ui = ctx.ui;
  const north = frameNorth(view);
  const i = north ? view.books.length - 1 - book.pos : book.pos;
  const bx = 14 + i * 396, by = 12;
  const gx = bx + 10, gy = by + 36;
  const myTurn = ctx.interactive;
  const selPos = ui.tile ? activePos(view, ui.tile) : null;
  const no = bookNo(view, book.pos);
  const changedBook = ctx.changed.has(`book:${book.pos}`);
  const cells = repeat(book.cells, (c) => `${c.row}:${c.col}`, (c) => {
    const x = gx + (north ? 4 - c.col : c.col) * (CELL + 3);
    const y = gy + (north ? 4 - c.row : c.row) * (CELL + 3);
    const changed = ctx.changed.has(`cell:${book.pos}:${c.row}:${c.col}`);
    const face = svg`${c.quill
      ? svg`<rect x=${x} y=${y} width=${CELL} height=${CELL} rx="4" fill=${QUILL[c.quill]} stroke="#5a4326" opacity="0.85"/>
          <path d=${`M${x + 11} ${y + 33} q11 -24 24 -24 q-9 13 -22 24z`} fill="#0003"/>`
      : svg`<rect x=${x} y=${y} width=${CELL} height=${CELL} rx="4" fill="#f7efd9" stroke="#cdb890"/>
          ${[1, 2, 3].map((k) => svg`<line x1=${x + 6} x2=${x + CELL - 6} y1=${y + k * 11} y2=${y + k * 11} stroke="#b8a27a" stroke-width="1.2"/>`)}`}
      ${c.drollery ? svg`<text x=${x + CELL - 8} y=${y + 10} text-anchor="middle" dominant-baseline="central" font-size="13" fill="#7a2f22">✦</text>` : nothing}
      ${c.tile ? tileSvg(x + 2, y + 2, CELL - 4, c.tile) : nothing}
      ${changed ? svg`<rect class="lm-ring" x=${x - 2} y=${y - 2} width=${CELL + 4} height=${CELL + 4} rx="6"/>` : nothing}`;
    const where = `Book ${no}, ${rc(view, c.row, c.col)}`;
    // Clicks: place the selected active tile here, or another card that targets the cell.
    const place = ui.motus
      ? matching(live, "PlayMotus", { tile: ui.motus, to_pos: book.pos, row: c.row, col: c.col })
      : ui.tile ? matching(live, "PlaceTile", { tile: ui.tile, row: c.row, col: c.col }).concat(matching(live, "PlayScriptum", { tile: ui.tile, row: c.row, col: c.col })).filter(() => selPos === book.pos) : [];
    const other = place.length ? []
      : matching(live, "ChooseExiliumSpace", { row: c.row, col: c.col }).filter(() => view.pending && view.pending.pos === book.pos);
    const cmds = place.length ? place : other;
    const cls = changed ? "last-move" : "";
    if (cmds.length) {
      return hot(cmds.length === 1 ? illumination.label(cmds[0], ctx) : `${where}: choose a move`, () => { ui.motus = null; ctx.send(cmds.length === 1 ? cmds[0] : cmds); },
        svg`<rect class="spot-legal" x=${x - 3} y=${y - 3} width=${CELL + 6} height=${CELL + 6} rx="6"/>${face}`, { cls });
    }
    if (c.tile && ui.arm === "EXILIUM" && exileTiles(live).has(c.tile.id)) {
      const picked = c.tile.id === ui.exile;
      return hot(picked ? `Keep the ${tileLabel(c.tile)} (cancel Exilium)` : `Exilium: pick the ${tileLabel(c.tile)} to exile`,
        () => { ui.exile = picked ? null : c.tile.id; ui.motus = null; ctx.rerender(); },
        svg`<rect class=${picked ? "sel-ring" : "spot-motus"} x=${x - 3} y=${y - 3} width=${CELL + 6} height=${CELL + 6} rx="6"/>${face}`, { ui: true, cls, detail: tileDetail(c.tile, ctx), ctx });
    }
    if (c.tile && ui.arm === "MOTUS" && motusTilesOf(live).has(c.tile.id)) {
      const picked = c.tile.id === ui.motus;
      return hot(picked ? `Put the ${tileLabel(c.tile)} back (cancel Motus)` : `Motus: pick up your ${tileLabel(c.tile)} to move it`,
        () => { ui.motus = picked ? null : c.tile.id; ui.exile = null; ctx.rerender(); },
        svg`<rect class=${picked ? "sel-ring" : "spot-motus"} x=${x - 3} y=${y - 3} width=${CELL + 6} height=${CELL + 6} rx="6"/>${face}`, { ui: true, cls, detail: tileDetail(c.tile, ctx), ctx });
    }
    let reason = null;
    if (ctx.seat !== null && ctx.mode === "play") {
      if (!myTurn) reason = "it is not your turn.";
      else if (book.closed) reason = `Book ${no} is closed.`;
      else if (!view.line_chosen && view.turn === view.you) reason = "first take a row or column of your archways (the green arrows beside your mat).";
      else if (c.tile) reason = c.quill ? "that Quill is already covered." : "that text space is already covered.";
      else if (!ui.tile && !ui.motus) reason = "you have no active tile to place here.";
      else if (ui.tile && selPos !== book.pos) reason = `the selected tile belongs to Book ${bookNo(view, selPos)}; to lay it here, move it first ("move tile here" on this Book, for coins).`;
      else if (!c.quill) reason = c.drollery ? "a Drollery occupies that text space." : "tiles go on Quills, not on text (only Scriptum places a tile on text).";
      else reason = "that move is not allowed now.";
    }
    return inert(ctx, reason, face, { cls, detail: tileDetail(c.tile, ctx) });
  });
  // The Book as a target: exile the picked tile here, or move the selected active tile here.
  const toBook = ui.exile
    ? matching(live, "PlayExilium", { tile: ui.exile, to_pos: book.pos })
    : ui.tile && selPos !== book.pos ? matching(live, "MoveActiveTile", { tile: ui.tile, to_pos: book.pos }) : [];
  const mx = gx + 5 * (CELL + 3) + 6;
  const margin = repeat(book.margin, (t) => t.id, (t, k) => {
    const sel = t.id === ui.tile;
    const changed = ctx.changed.has(`margin:${t.id}`);
    const pic = svg`${tileSvg(mx + 4, gy + k * 50, 44, t, sel ? "selected" : "")}${changed ? svg`<rect class="lm-ring" x=${mx + 1} y=${gy + k * 50 - 3} width="50" height="50" rx="7"/>` : nothing}`;
    if (placeable.includes(t.id)) {
      return hot(sel ? `The ${tileLabel(t)} is selected: click a highlighted Quill of Book ${no}` : `Select the ${tileLabel(t)} to place it`, () => { ui.tile = t.id; ui.motus = null; ui.exile = null; ctx.rerender(); },
        svg`<rect class=${sel ? "sel-ring" : "spot-legal"} x=${mx + 1} y=${gy + k * 50 - 3} width="50" height="50" rx="7"/>${pic}`, { ui: true, cls: changed ? "last-move" : "", detail: tileDetail(t, ctx), ctx });
    }
    const sheep = matching(live, "SendToSheepPen", { tile: t.id })[0];
    if (sheep) return hot(illumination.label(sheep, ctx), () => ctx.send(sheep), svg`<rect class="spot-legal" x=${mx + 1} y=${gy + k * 50 - 3} width="50" height="50" rx="7"/>${pic}`);
    return inert(ctx, null, pic, { cls: changed ? "last-move" : "", detail: tileDetail(t, ctx) });
  });
  return svg`<g class=${`ill-book ${changedBook ? "last-move" : ""}`} aria-label=${`Book ${no}${book.closed ? ", closed" : ""}`}>
    <rect x=${bx} y=${by} width="382" height="282" rx="10" fill="#fbf4e2" stroke="#7a5a32" stroke-width="2"/>
    <text x=${bx + 12} y=${by + 19} font-weight="700" fill="#4a3218" font-size="19" dominant-baseline="central">Book ${no}${book.completed_by ? ` · completed by ${SIDE_NAME[book.completed_by]}` : ""}</text>
    ${cells}
    ${!toBook.length && book.margin.length ? svg`<text x=${mx + 26} y=${gy - 12} text-anchor="middle" font-size="14" fill="#7a5a32">active</text>` : nothing}
    ${margin}
    ${toBook.length ? hot(toBook.length === 1 ? illumination.label(toBook[0], ctx) : `${ui.exile ? "Exile" : "Move"} the tile to Book ${no}: choose how to pay`,
      () => { ui.exile = null; ctx.send(toBook.length === 1 ? toBook[0] : toBook); },
      svg`<rect width="150" height="28" rx="14"/><text x="75" y="14" text-anchor="middle" dominant-baseline="central" font-size="15">${ui.exile ? "exile here" : "move tile here"}</text>`,
      { cls: "svg-button", transform: `translate(${bx + 222} ${by + 5})` }) : nothing}
    ${book.closed ? svg`<rect x=${bx} y=${by} width="382" height="282" rx="10" fill="#3b2a1270"/>
      <text x=${bx + 191} y=${by + 141} text-anchor="middle" dominant-baseline="central" font-size="32" fill="#fff" font-weight="700">closed</text>` : nothing}
  </g>`;
}

const exileTiles = (live) => new Set(matching(live, "PlayExilium").map((c) => c.tile));
const motusTilesOf = (live) => new Set(matching(live, "PlayMotus").map((c) => c.tile));

/** @param {RenderCtx} ctx @param {IllView} view */
function monasterySvg(ctx, view, live) {
  const m = view.monastery;
  const cx = 165, cy = 455, R = 112;
  const n = m.stations.length;
  const changed = ctx.changed.has("abbot");
  return svg`<g class="ill-monastery" aria-label=${`Monastery, the Abbot at ${stationName(view, m.abbot)}`}>
    <circle cx=${cx} cy=${cy} r=${R + 32} fill="#d8c49c" stroke="#7a5a32" stroke-width="2"/>
    <circle cx=${cx} cy=${cy} r=${R - 36} fill="#efe3c8" stroke="#7a5a32"/>
    <text x=${cx} y=${cy - 10} text-anchor="middle" dominant-baseline="central" font-weight="700" fill="#4a3218" font-size="18">Monastery</text>
    <text x=${cx} y=${cy + 12} text-anchor="middle" dominant-baseline="central" font-size="13" fill="#4a3218">tokens left</text>
    <text x=${cx} y=${cy + 28} text-anchor="middle" dominant-baseline="central" font-size="13" fill="#4a3218">${Object.values(view.supply || {}).join(" · ")}</text>
    ${m.stations.map((name, i) => {
      const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
      const x = cx + R * Math.cos(a), y = cy + R * Math.sin(a);
      const face = svg`<circle cx=${x} cy=${y} r="26" fill=${name ? RITUAL[name] : "#f4ecd8"} stroke="#5a4326" stroke-width="1.5"/>
        <text x=${x} y=${y} text-anchor="middle" dominant-baseline="central" font-size=${name ? 14 : 16} fill="#2b2118" font-weight="600">${name || stationNo(view, i)}</text>`;
      const cmds = matching(live, "MoveAbbot", { station: i }).concat(ctx.ui.arm === "MOTUS" ? matching(live, "PlayMotusAbbot", { station: i }) : []);
      if (cmds.length) {
        return hot(cmds.length === 1 ? illumination.label(cmds[0], ctx) : `Move the Abbot to ${stationName(view, i)}: choose how`,
          () => ctx.send(cmds.length === 1 ? cmds[0] : cmds), svg`<circle class="spot-legal" cx=${x} cy=${y} r="31"/>${face}`);
      }
      let reason = null;
      if (ctx.seat !== null && ctx.mode === "play") {
        if (!ctx.interactive) reason = "it is not your turn.";
        else if (i === m.abbot) reason = "the Abbot is already on that station.";
        else reason = "you cannot pay for that move: it costs 1 coin (or token) per station along the ring.";
      }
      return inert(ctx, reason, face);
    })}
    ${(() => {
      const a = -Math.PI / 2 + (2 * Math.PI * m.abbot) / n;
      const ox = cx + (R + 32) * Math.cos(a), oy = cy + (R + 32) * Math.sin(a);
      return svg`<g transform=${`translate(${ox} ${oy - 4})`} class=${`abbot ${changed ? "last-move" : ""}`}><title>The Abbot</title>
        ${changed ? svg`<circle class="lm-ring" cx="0" cy="2" r="17"/>` : nothing}
        <path d="M-10 15 L-7 -4 A7 7 0 1 1 7 -4 L10 15z" fill="#3b2a12" stroke="#fff" stroke-width="1.5"/></g>`;
    })()}
  </g>`;
}

/** @param {RenderCtx} ctx @param {IllView} view */
function ritualsSvg(ctx, view, live) {
  const m = view.monastery;
  const rituals = [...new Set(m.ritual_spaces.map((r) => r.ritual))];
  const x0 = 340, y0 = 312;
  return svg`<g class="ill-rituals" aria-label="Ritual spaces">
    <text x=${x0} y=${y0} font-weight="700" fill="#4a3218" font-size="17" dominant-baseline="central">Ritual sets</text>
    ${m.ritual_spaces.map((sp) => {
      const row = rituals.indexOf(sp.ritual);
      const col = m.ritual_spaces.filter((x) => x.ritual === sp.ritual).indexOf(sp);
      const x = x0 + col * 74, y = y0 + 14 + row * 34;
      const changed = ctx.changed.has(`ritual:${sp.ritual}:${sp.size}`);
      const face = svg`<rect x=${x} y=${y} width="68" height="30" rx="5" fill=${RITUAL[sp.ritual] || "#ddd"} stroke="#5a4326"/>
        <text x=${x + 6} y=${y + 15} dominant-baseline="central" font-size="14" fill="#2b2118">${sp.size}: ${sp.points} pts</text>
        ${sp.owner ? svg`<circle cx=${x + 59} cy=${y + 15} r="8" fill=${SIDE_FILL[sp.owner]} stroke="#2b1d10"><title>claimed by ${SIDE_NAME[sp.owner]}</title></circle>` : nothing}
        ${changed ? svg`<rect class="lm-ring" x=${x - 2} y=${y - 2} width="72" height="34" rx="6"/>` : nothing}`;
      const cmd = matching(live, "ClaimRitual", { ritual: sp.ritual, size: sp.size })[0];
      if (cmd) return hot(illumination.label(cmd, ctx), () => ctx.send(cmd), svg`<rect class="spot-legal" x=${x - 3} y=${y - 3} width="74" height="36" rx="7"/>${face}`, { cls: changed ? "last-move" : "" });
      let reason = null;
      if (ctx.seat !== null && ctx.mode === "play") {
        if (!ctx.interactive) reason = "it is not your turn.";
        else if (sp.owner) reason = `the ${sp.ritual} set of ${sp.size} is already claimed.`;
        else if (m.stations[m.abbot] !== sp.ritual) reason = `the Abbot must stand on the ${sp.ritual} station to claim it.`;
        else reason = `you need ${sp.size} ${sp.ritual} tokens for that set.`;
      }
      return inert(ctx, reason, face, { cls: changed ? "last-move" : "", detail: { title: `${sp.ritual} set of ${sp.size}`, kind: "Ritual space", text: `Worth ${sp.points} points. Claim it with ${sp.size} ${sp.ritual} tokens while the Abbot stands on the ${sp.ritual} station; your opponent then draws a card.` } });
    })}
    <text x=${x0 + 118} y=${y0} font-size="14" fill="#4a3218" dominant-baseline="central">Book spaces</text>
    ${(m.book_spaces || []).map((o, i) => svg`<rect x=${x0 + 206 + i * 28} y=${y0 - 11} width="24" height="24" rx="4" fill=${o ? SIDE_FILL[o] : "#fff8"} stroke="#5a4326"><title>${o ? `Book space ${i + 1}: ${SIDE_NAME[o]}` : `Book space ${i + 1}: free`}</title></rect>`)}
  </g>`;
}

/** @param {RenderCtx} ctx @param {IllView} view */
function battlesSvg(ctx, view) {
  const x0 = 640, y0 = 300;
  const sp = view.score_preview || {};
  return svg`<g class="ill-battles" aria-label="Battle cards">
    <text x=${x0} y=${y0 + 12} font-weight="700" fill="#4a3218" font-size="17" dominant-baseline="central">Battle cards</text>
    ${view.battle_cards.map((b, i) => {
      const x = x0 + i * 138, y = y0 + 26;
      const changed = ctx.changed.has(`battle:${b.pair}`);
      return inert(ctx, null, svg`<rect x=${x} y=${y} width="130" height="84" rx="8" fill="#fffaf0" stroke=${changed ? "#ff8c00" : "#7a5a32"} stroke-width=${changed ? 4 : 1.5}/>
        <text x=${x + 65} y=${y + 14} text-anchor="middle" dominant-baseline="central" font-size="14" font-weight="700" fill="#2b2118">${b.factions[0]} – ${b.factions[1]}</text>
        <text x=${x + 32} y=${y + 40} text-anchor="middle" dominant-baseline="central" font-size="26" fill="#3b2a12">${ICON[b.factions[0]] || b.factions[0][0]}</text>
        <text x=${x + 98} y=${y + 40} text-anchor="middle" dominant-baseline="central" font-size="26" fill=${SIDE_FILL.IRR}>${ICON[b.factions[1]] || b.factions[1][0]}</text>
        <text x=${x + 32} y=${y + 68} text-anchor="middle" dominant-baseline="central" font-size="18" font-weight="700" fill="#3b2a12">${b.REV}</text>
        <text x=${x + 65} y=${y + 68} text-anchor="middle" dominant-baseline="central" font-size="18">:</text>
        <text x=${x + 98} y=${y + 68} text-anchor="middle" dominant-baseline="central" font-size="18" font-weight="700" fill=${SIDE_FILL.IRR}>${b.IRR}</text>`,
        { cls: changed ? "last-move" : "", detail: { title: ctx.glossary?.[b.pair]?.name || `${b.factions[0]}s against ${b.factions[1]}s`, kind: "Battle card", text: `${ctx.glossary?.[b.pair]?.text ? `${ctx.glossary[b.pair].text} ` : ""}Markers so far: Reverent ${b.REV}, Irreverent ${b.IRR}.` } });
    })}
    <text x=${x0} y=${y0 + 130} font-size="15" fill="#4a3218" dominant-baseline="central">Score so far: Reverent ${sp.REV ?? 0} · Irreverent ${sp.IRR ?? 0}${view.difficulty ? ` · Mystic Monk difficulty ${view.difficulty}` : ""}</text>
  </g>`;
}

/** @param {RenderCtx} ctx @param {IllView} view @param {IllPlayer} p */
function matSvg(ctx, view, p, x, y, live, mutatio) {
  const ui = ctx.ui;
  const mine = p.side === view.you;
  const active = view.turn === p.side;
  const who = p.seat !== null && p.seat !== undefined ? ctx.seatName(p.seat) : "Mystic Monk";
  const ax = x + 40, ay = y + 50, a = 54;
  const ink = SIDE_INK[p.side];
  const arch = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const t = p.archways?.[r]?.[c];
      const px = ax + c * (a + 6), py = ay + r * (a + 6);
      const changed = ctx.changed.has(`arch:${p.side}:${r}:${c}`);
      const face = svg`<path d=${`M${px} ${py + a} V${py + 16} A${a / 2} 16 0 0 1 ${px + a} ${py + 16} V${py + a}z`} fill="#0001" stroke=${ink} stroke-opacity="0.5"/>
        ${t ? tileSvg(px + 4, py + 6, a - 8, t) : nothing}
        ${changed ? svg`<rect class="lm-ring" x=${px - 2} y=${py} width=${a + 4} height=${a + 3} rx="6"/>` : nothing}`;
      // Mutatio on the mat: pick one archway, then the other.
      const first = ui.mutatio;
      const cmds = mine && t ? (first ? mutatio.filter((m) => (m.first[0] === first[0] && m.first[1] === first[1] && m.second[0] === r + 1 && m.second[1] === c + 1) || (m.second[0] === first[0] && m.second[1] === first[1] && m.first[0] === r + 1 && m.first[1] === c + 1)) : []) : [];
      if (cmds.length) {
        arch.push(hot(illumination.label(cmds[0], ctx), () => { ui.mutatio = null; ctx.send(cmds[0]); }, svg`<rect class="spot-legal" x=${px - 3} y=${py - 1} width=${a + 6} height=${a + 5} rx="7"/>${face}`, { detail: tileDetail(t, ctx), ctx }));
      } else if (mine && t && mutatio.some((m) => (m.first[0] === r + 1 && m.first[1] === c + 1) || (m.second[0] === r + 1 && m.second[1] === c + 1))) {
        const picked = first && first[0] === r + 1 && first[1] === c + 1;
        arch.push(hot(picked ? "Cancel Mutatio" : `Mutatio: pick the ${tileLabel(t)} at row ${r + 1}, column ${c + 1} to swap`, () => { ui.mutatio = picked ? null : [r + 1, c + 1]; ctx.rerender(); },
          svg`<rect class=${picked ? "sel-ring" : "spot-motus"} x=${px - 3} y=${py - 1} width=${a + 6} height=${a + 5} rx="7"/>${face}`, { ui: true, detail: tileDetail(t, ctx), ctx }));
      } else {
        arch.push(inert(ctx, null, face, { cls: changed ? "last-move" : "", detail: tileDetail(t, ctx) }));
      }
    }
  }
  const lines = [];
  if (mine) {
    for (let k = 1; k <= 3; k++) {
      const row = matching(live, "ChooseLine", { kind: "row", index: k })[0];
      if (row) lines.push(hot(illumination.label(row, ctx), () => ctx.send(row), svg`<path d=${`M${ax - 34} ${ay + (k - 1) * (a + 6) + 14} l22 14 l-22 14z`} fill="#2a6335"/>`));
      const col = matching(live, "ChooseLine", { kind: "col", index: k })[0];
      if (col) lines.push(hot(illumination.label(col, ctx), () => ctx.send(col), svg`<path d=${`M${ax + (k - 1) * (a + 6) + 14} ${ay - 24} l28 0 l-14 19z`} fill="#2a6335"/>`));
    }
  }
  const ix = x + 228;
  const coinsChanged = ctx.changed.has(`coins:${p.side}`);
  const tokensChanged = ctx.changed.has(`tokens:${p.side}`);
  return svg`<g class="ill-mat" aria-label=${`${who}${mine ? " (you)" : ""}: ${plural(p.coins, "coin")}`}>
    <rect x=${x} y=${y} width="400" height="282" rx="12" fill=${SIDE_FILL[p.side]} stroke=${active ? "#2a6335" : "#5a4326"} stroke-width=${active ? 5 : 2}/>
    <text x=${x + 12} y=${y + 18} font-weight="700" fill=${ink} font-size="17" dominant-baseline="central">${who}${mine ? " (you)" : ""}${p.passed ? " · passed" : ""}</text>
    ${arch}${lines}
    <g class=${coinsChanged ? "last-move" : ""}><circle cx=${ix + 16} cy=${y + 56} r="16" fill="#d9a441" stroke="#6b4a12"/>
      <text x=${ix + 16} y=${y + 57} text-anchor="middle" dominant-baseline="central" font-weight="700" font-size="16">${p.coins}</text>
      <text x=${ix + 38} y=${y + 57} font-size="16" fill=${ink} dominant-baseline="central">${p.coins === 1 ? "coin" : "coins"}</text></g>
    <g class=${tokensChanged ? "last-move" : ""}>${Object.entries(p.tokens || {}).map(([rit, n], k) => {
      const tx = ix + 16 + (k % 2) * 82, ty = y + 100 + Math.floor(k / 2) * 40;
      return svg`<circle cx=${tx} cy=${ty} r="15" fill=${RITUAL[rit] || "#ccc"} stroke="#5a4326"><title>${plural(n, `${rit} token`)}</title></circle>
        <text x=${tx} y=${ty} text-anchor="middle" dominant-baseline="central" font-weight="700" font-size="15">${n}</text>
        <text x=${tx + 19} y=${ty} font-size="14" fill=${ink} dominant-baseline="central">${rit}</text>`;
    })}</g>
    <text x=${ix} y=${y + 196} font-size="14" fill=${ink} dominant-baseline="central">stacks left: ${p.stacks_remaining}</text>
    <text x=${ix} y=${y + 216} font-size="14" fill=${ink} dominant-baseline="central">hand ${p.hand_count} · deck ${p.deck_count}</text>
    <text x=${ix} y=${y + 236} font-size="14" fill=${ink} dominant-baseline="central">markers left: ${p.markers}</text>
    ${(p.sheep_pen || []).length ? svg`<text x=${ix} y=${y + 256} font-size="14" fill=${ink} dominant-baseline="central">Sheep Pen: ${p.sheep_pen.length} tiles</text>` : nothing}
    ${p.monk ? svg`<text x=${x + 12} y=${y + 264} font-size="14" fill=${ink} dominant-baseline="central">Monk track: ${Object.entries(p.monk.track).map(([k, v]) => `${k} ${v}`).join(", ")}${p.monk.last_die ? ` · last die ${p.monk.last_die}` : ""}</text>` : nothing}
  </g>`;
}

/** Hands and Crusades as cards with their names and rules text (HTML: readable at any scale). */
/** @param {RenderCtx} ctx @param {IllView} view @param {IllPlayer[]} players @param {IllPlayer|undefined} me */
function handsStrip(ctx, view, players, me) {
  const live = ctx.interactive ? ctx.legal : [];
  const plays = { MOTUS: "PlayMotus", EXILIUM: "PlayExilium", MUTATIO: "PlayMutatio", PORTICUS: "PlayPorticus", SCRIPTUM: "PlayScriptum", RITUS: "PlayRitus" };
  const shown = players.filter((p) => p.hand || p.crusade || p.hand_count || p.has_crusade);
  return html`<div class="ill-hands">${repeat(shown, (p) => p.side, (p) => {
    const who = p.seat !== null && p.seat !== undefined ? ctx.seatName(p.seat) : "Mystic Monk";
    const mine = p.side === view.you;
    const cards = p.hand
      ? hand(`${who}'s hand`, p.hand.map((id, i) => ({ id, i })), (c) => `${c.id}:${c.i}`, ({ id }) => {
        const info = cardInfo(ctx, id);
        const kind = id.split("-")[1];
        const cmds = mine ? matching(live, plays[kind] || "-") : [];
        // A card with one way to play it plays at once; Ritus asks which token; Motus,
        // Exilium and Mutatio are armed: their targets then light up on the board.
        const armed = ctx.ui.arm === kind;
        const arm = ["MOTUS", "EXILIUM", "MUTATIO"].includes(kind) && cmds.length > 1;
        const act = arm ? () => { ctx.ui.arm = armed ? null : kind; ctx.rerender(); }
          : cmds.length === 1 ? () => ctx.send(cmds[0]) : cmds.length > 1 ? () => ctx.send(cmds) : null;
        const label = arm ? (armed ? `Put ${info.name} away (cancel)` : `Use ${info.name}: then choose its target on the board`) : act ? `Play ${info.name}` : undefined;
        return card(ctx, { key: id, name: info.name, kind: armed ? "chosen: pick its target on the board" : info.kind, text: info.text, colour: SIDE_MARK[p.side], act, ui: arm, label: label && info.text ? `${label}. ${info.text}` : label, changed: mine && ctx.changed.has(`hand:${p.side}`), cls: { chosen: armed } });
      }, "fan")
      : hand(`${who}'s hand`, [...Array(p.hand_count).keys()], (k) => String(k), () => cardBack("a card in hand, face down"));
    const crusade = p.crusade
      ? card(ctx, { key: p.crusade, ...cardInfo(ctx, p.crusade), colour: "#8b1e1e", cls: "crusade" })
      : p.has_crusade ? cardBack("a Crusade card, face down") : nothing;
    return html`<section class="ill-hand" style=${`--seat:${SIDE_MARK[p.side]}`} aria-label=${`${who}: hand and Crusade`}>
      <h3>${who}${mine ? " (you)" : ""}: ${plural(p.hand ? p.hand.length : p.hand_count, "card")}${p.has_crusade ? " and a Crusade" : ""}</h3>
      <div class="ill-hand-row">${cards}${crusade}</div>
    </section>`;
  })}</div>`;
}

