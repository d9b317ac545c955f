// Illumination: the three Books, the Monastery ring with the Abbot and Ritual spaces, the
// Battle cards, and each player's mat (3×3 archways, coins, Ritual tokens, hand, Crusade).
// Board clicks map to the legal commands whose fields match; every legal command is also a
// labelled button in the page's action list.
import { s, text, svgRoot, clickable, humanize } from "../dom.js";
import { matching } from "./util.js";
import { cardBack } from "./card.js";

const W = 1200;
const H = 900;
const QUILL = { R: "#c0392b", Y: "#e2b33c", S: "#8aa4bd", W: "#f4efe2" };
const QUILL_NAME = { R: "red", Y: "yellow", S: "silver", W: "white" };
const RITUAL = { Candle: "#e2b33c", Bell: "#8aa4bd", Wine: "#c0392b", Bread: "#e9dcc0" };
const SIDE_FILL = { REV: "#f6ead0", IRR: "#4b3b5e" };
const SIDE_INK = { REV: "#3b2a12", IRR: "#f3e9ff" };
const SIDE_NAME = { REV: "Reverent", IRR: "Irreverent" };
const ICON = {
  Angel: "✧", Knight: "♞", Monk: "✝", Dog: "D", Demon: "ψ", Dragon: "Ѫ", Rabbit: "R", Squirrel: "S",
};

let selectedTile = null; // the active tile the player picked in a margin (local UI state)
let motusTile = null; // a placed tile picked up with a Motus card, waiting for its new Quill
let exileTile = null; // an opponent's tile picked for Exilium, waiting for its Book

function tileLabel(t) {
  if (!t) return "empty";
  if (!t.faceup) return `face-down ${SIDE_NAME[t.side] || ""} tile`;
  if (t.two_coin) return `${SIDE_NAME[t.side] || ""} two-coin tile`;
  return `${QUILL_NAME[t.colour] || t.colour} ${t.faction} (${SIDE_NAME[t.side] || t.side})`;
}

/** A tile as a small square: side colour, faction glyph, quill colour stripe, gold leaf. */
function tile(x, y, size, t, extra = "") {
  const g = s("g", { class: `ill-tile ${extra}`, transform: `translate(${x} ${y})` });
  g.append(s("title", { text: tileLabel(t) }));
  if (!t.faceup) {
    g.append(s("rect", { width: size, height: size, rx: 5, fill: "#6b4b2a", stroke: "#2b1d10" }));
    g.append(s("path", { d: `M${size / 2} 6 L${size - 6} ${size / 2} L${size / 2} ${size - 6} L6 ${size / 2}z`, fill: "#c8a064" }));
    return g;
  }
  g.append(s("rect", { width: size, height: size, rx: 5, fill: SIDE_FILL[t.side] || "#ddd", stroke: "#2b1d10", "stroke-width": 1.5 }));
  if (t.two_coin) {
    g.append(s("circle", { cx: size / 2, cy: size / 2, r: size * 0.3, fill: "#d9a441", stroke: "#6b4a12" }));
    g.append(text(size / 2, size / 2 + 1, "2", { "font-size": size * 0.36, "font-weight": 700, fill: "#2b2118" }));
  } else {
    g.append(s("rect", { x: 3, y: size - 9, width: size - 6, height: 6, rx: 2, fill: QUILL[t.colour] || "#999", stroke: "#0003" }));
    g.append(text(size / 2, size / 2 - 3, ICON[t.faction] || (t.faction || "?")[0], { "font-size": size * 0.42, fill: SIDE_INK[t.side] || "#000", "font-weight": 700 }));
  }
  (t.gold_leaf || []).forEach((_, i) => g.append(s("circle", { cx: 7 + i * 7, cy: 7, r: 3, fill: "#ffd54a", stroke: "#8a6d00" })));
  return g;
}

function seatOfSide(view, side) {
  return view.players.find((p) => p.side === side)?.seat;
}

export default {
  title: "Illumination",

  status({ view }) {
    if (!view) return "";
    const who = SIDE_NAME[view.turn] || view.turn;
    const p = view.pending;
    if (view.phase === "over") return "the game is over";
    if (p) return `${SIDE_NAME[p.side] || p.side} must ${humanize(p.kind).toLowerCase()}${p.tile ? ` (${tileLabel(p.tile)})` : ""}`;
    if (view.discarding) return `${who} must discard down to 7 items`;
    if (!view.line_chosen && view.phase === "play") return `turn ${view.turn_no}: ${who} takes a row or column of archways, or plays a card`;
    return `turn ${view.turn_no}: ${who} places active tiles`;
  },

  label(cmd, { view }) {
    const pay = (p) => (Array.isArray(p) && p.some((n) => n) ? ` (pay ${payment(p)})` : "");
    switch (cmd.type) {
      case "Pass": return "Pass for the rest of the game";
      case "ChooseLine": return `Take ${cmd.kind === "row" ? "row" : "column"} ${cmd.index} to Book ${cmd.index}`;
      case "PlaceTile": return `Place ${tileName(view, cmd.tile)} on ${rc(view, cmd.row, cmd.col)}`;
      case "MoveActiveTile": return `Move ${tileName(view, cmd.tile)} to Book ${bookNo(view, cmd.to_pos)}${pay(cmd.payment)}`;
      case "SendToSheepPen": return `Send ${tileName(view, cmd.tile)} to the Sheep Pen`;
      case "MoveAbbot": return `Move the Abbot to ${stationName(view, cmd.station)}${pay(cmd.payment)}`;
      case "BuyCard": return `Buy a Scriptorium card${pay(cmd.payment)}`;
      case "ClaimRitual": return `Claim the ${cmd.ritual} Ritual space of ${cmd.size}`;
      case "PlayMotus": return `Motus: move ${tileName(view, cmd.tile)} to Book ${bookNo(view, cmd.to_pos)}, ${rc(view, cmd.row, cmd.col)}`;
      case "PlayMotusAbbot": return `Motus: Abbot to ${stationName(view, cmd.station)}`;
      case "PlayMutatio": return `Mutatio: swap archways ${cmd.first.map((n) => n + 1).join("/")} and ${cmd.second.map((n) => n + 1).join("/")}`;
      case "PlayExilium": return `Exilium: exile ${tileName(view, cmd.tile)} to Book ${bookNo(view, cmd.to_pos)}`;
      case "PlayPorticus": return `Porticus: swap ${cmd.kind}s ${cmd.first} and ${cmd.second}`;
      case "PlayScriptum": return `Scriptum: ${tileName(view, cmd.tile)} on text at ${rc(view, cmd.row, cmd.col)}`;
      case "PlayRitus": return `Ritus: gain a ${cmd.ritual} token`;
      case "EndTurn": return "End turn";
      case "DiscardItem": return cmd.item === "coin" ? "Discard a coin" : `Discard a ${cmd.item} token`;
      case "ChooseExiliumSpace": return `Exiled tile to ${rc(view, cmd.row, cmd.col)}`;
      case "ChooseCompletionToken": return `Take a ${cmd.ritual} token for the completed Book`;
      default: return null;
    }
  },

  render(host, ctx) {
    const { view, legal } = ctx;
    const live = ctx.interactive ? legal : [];
    const svg = svgRoot(W, H, "Illumination board");
    svg.append(s("rect", { width: W, height: H, rx: 14, fill: "#efe3c8" }));

    // Active tiles the player may place: remember a selection among them.
    const placeable = [...new Set(matching(live, "PlaceTile").map((c) => c.tile))];
    if (!placeable.includes(selectedTile)) selectedTile = placeable[0] ?? null;
    const motusTiles = new Set(matching(live, "PlayMotus").map((c) => c.tile));
    if (!motusTiles.has(motusTile)) motusTile = null;
    const exileTiles = new Set(matching(live, "PlayExilium").map((c) => c.tile));
    if (!exileTiles.has(exileTile)) exileTile = null;

    // -- the three Books --------------------------------------------------------------------
    // Seen from your seat: the north player sees the Books in the other order, turned round.
    const north = view.you && view.south && view.you !== view.south;
    const cell = 40;
    view.books.forEach((book) => {
      const i = north ? view.books.length - 1 - book.pos : book.pos;
      const bx = 30 + i * 390;
      const by = 20;
      const g = s("g", { class: "ill-book", "aria-label": `Book ${bookNo(view, book.pos)}${book.closed ? ", closed" : ""}` });
      g.append(s("rect", { x: bx, y: by, width: 370, height: 290, rx: 10, fill: "#fbf4e2", stroke: "#7a5a32", "stroke-width": 2 }));
      g.append(text(bx + 12, by + 18, `Book ${bookNo(view, book.pos)} · ${book.layout}`, { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 16 }));
      if (book.completed_by) g.append(text(bx + 12, by + 278, `completed by ${SIDE_NAME[book.completed_by]}`, { "text-anchor": "start", "font-size": 12, fill: "#4a3218" }));
      const gx = bx + 12;
      const gy = by + 34;
      for (const c of book.cells) {
        const x = gx + (north ? 4 - c.col : c.col) * (cell + 4);
        const y = gy + (north ? 4 - c.row : c.row) * (cell + 4);
        const cg = s("g", {});
        if (c.quill) {
          cg.append(s("rect", { x, y, width: cell, height: cell, rx: 4, fill: QUILL[c.quill], stroke: "#5a4326", opacity: 0.85 }));
          cg.append(s("path", { d: `M${x + 10} ${y + 30} q10 -22 22 -22 q-8 12 -20 22z`, fill: "#0003" }));
        } else {
          cg.append(s("rect", { x, y, width: cell, height: cell, rx: 4, fill: "#f7efd9", stroke: "#cdb890" }));
          for (let k = 1; k < 4; k++) cg.append(s("line", { x1: x + 6, x2: x + cell - 6, y1: y + k * 10, y2: y + k * 10, stroke: "#b8a27a", "stroke-width": 1.2 }));
        }
        if (c.drollery) cg.append(text(x + cell - 7, y + 8, "✦", { "font-size": 11, fill: "#7a2f22" }));
        if (c.tile) cg.append(tile(x + 2, y + 2, cell - 4, c.tile));
        // Clicks: place the selected active tile here, or another card that targets the cell.
        const place = motusTile
          ? matching(live, "PlayMotus", { tile: motusTile, to_pos: book.pos, row: c.row, col: c.col })[0]
          : selectedTile ? matching(live, "PlaceTile", { tile: selectedTile, row: c.row, col: c.col })[0] : null;
        const other = place ? null
          : matching(live, "ChooseExiliumSpace", { row: c.row, col: c.col }).find(() => view.pending && view.pending.pos === book.pos)
            || matching(live, "PlayScriptum", { row: c.row, col: c.col }).find((cm) => activePos(view, cm.tile) === book.pos);
        const cmd = place || other;
        if (cmd) {
          cg.prepend(s("rect", { x: x - 3, y: y - 3, width: cell + 6, height: cell + 6, rx: 6, class: "spot-legal" }));
          clickable(cg, this.label(cmd, ctx), () => { motusTile = null; ctx.send(cmd); });
        } else if (c.tile && exileTiles.has(c.tile.id)) {
          // Exilium: pick an opponent's tile, then click the Book it must go to.
          const picked = c.tile.id === exileTile;
          cg.prepend(s("rect", { x: x - 3, y: y - 3, width: cell + 6, height: cell + 6, rx: 6, class: picked ? "sel-ring" : "spot-motus" }));
          clickable(cg, picked ? `Keep ${tileLabel(c.tile)} (cancel Exilium)` : `Exilium: pick ${tileLabel(c.tile)} to exile`,
            () => { exileTile = picked ? null : c.tile.id; motusTile = null; ctx.rerender?.(); }, true);
        } else if (c.tile && motusTiles.has(c.tile.id)) {
          // Motus: pick up one of your tiles (click again to put it down), then click a Quill.
          const picked = c.tile.id === motusTile;
          cg.prepend(s("rect", { x: x - 3, y: y - 3, width: cell + 6, height: cell + 6, rx: 6, class: picked ? "sel-ring" : "spot-motus" }));
          clickable(cg, picked ? `Put ${tileLabel(c.tile)} back (cancel Motus)` : `Motus: pick up ${tileLabel(c.tile)} to move it`,
            () => { motusTile = picked ? null : c.tile.id; exileTile = null; ctx.rerender?.(); }, true);
        }
        g.append(cg);
      }
      // The Book as a target: exile the picked tile here, or move the selected active tile here.
      const toBook = exileTile
        ? matching(live, "PlayExilium", { tile: exileTile, to_pos: book.pos })[0]
        : selectedTile ? matching(live, "MoveActiveTile", { tile: selectedTile, to_pos: book.pos })[0] : null;
      if (toBook) {
        const tb = s("g", { class: "svg-button", transform: `translate(${bx + 236} ${by + 4})` },
          s("rect", { width: 126, height: 24, rx: 12 }), text(63, 12, exileTile ? "exile here" : "move tile here", { "font-size": 12 }));
        clickable(tb, this.label(toBook, ctx), () => { exileTile = null; ctx.send(toBook); });
        g.append(tb);
      }
      // Margin: active tiles waiting to be placed in this Book.
      const mx = gx + 5 * (cell + 4) + 4;
      if (!toBook) g.append(text(mx + 32, gy - 6, "margin", { "font-size": 12, fill: "#7a5a32" }));
      book.margin.forEach((t, k) => {
        const tg = tile(mx + 8, gy + k * 48, 42, t, t.id === selectedTile ? "selected" : "");
        if (placeable.includes(t.id)) {
          tg.prepend(s("rect", { x: -3, y: -3, width: 48, height: 48, rx: 7, class: t.id === selectedTile ? "sel-ring" : "spot-legal" }));
          clickable(tg, `Select ${tileLabel(t)} to place`, () => { selectedTile = t.id; ctx.rerender?.(); }, true);
        }
        g.append(tg);
      });
      if (book.closed) {
        g.append(s("rect", { x: bx, y: by, width: 370, height: 290, rx: 10, fill: "#3b2a1280" }));
        g.append(text(bx + 185, by + 150, "closed", { "font-size": 30, fill: "#fff", "font-weight": 700 }));
      }
      svg.append(g);
    });

    // -- the Monastery ring -----------------------------------------------------------------
    const m = view.monastery;
    const cx = 190, cy = 500, R = 120;
    const ring = s("g", { class: "ill-monastery", "aria-label": `Monastery, the Abbot at ${stationName(view, m.abbot)}` });
    ring.append(s("circle", { cx, cy, r: R + 30, fill: "#d8c49c", stroke: "#7a5a32", "stroke-width": 2 }));
    ring.append(s("circle", { cx, cy, r: R - 34, fill: "#efe3c8", stroke: "#7a5a32" }));
    ring.append(text(cx, cy - 8, "Monastery", { "font-weight": 700, fill: "#4a3218", "font-size": 15 }));
    ring.append(text(cx, cy + 12, `supply: ${Object.values(view.supply || {}).join("/")}`, { "font-size": 11, fill: "#4a3218" }));
    const nst = m.stations.length;
    m.stations.forEach((name, i) => {
      const a = (-Math.PI / 2) + (2 * Math.PI * i) / nst;
      const x = cx + R * Math.cos(a);
      const y = cy + R * Math.sin(a);
      const sg = s("g", {});
      sg.append(s("circle", { cx: x, cy: y, r: 24, fill: name ? RITUAL[name] : "#f4ecd8", stroke: "#5a4326", "stroke-width": 1.5 }));
      sg.append(text(x, y, name ? name : `${i}`, { "font-size": name ? 10 : 12, fill: "#2b2118", "font-weight": 600 }));
      const cmd = matching(live, "MoveAbbot", { station: i })[0] || matching(live, "PlayMotusAbbot", { station: i })[0];
      if (cmd) {
        sg.prepend(s("circle", { cx: x, cy: y, r: 29, class: "spot-legal" }));
        clickable(sg, this.label(cmd, ctx), () => ctx.send(cmd));
      }
      ring.append(sg);
      if (i === m.abbot) {
        // The Abbot stands just outside his station, so its name stays readable.
        const ox = cx + (R + 30) * Math.cos(a), oy = cy + (R + 30) * Math.sin(a);
        ring.append(s("g", { transform: `translate(${ox} ${oy - 4})`, class: "abbot" },
          s("title", { text: "The Abbot" }),
          s("path", { d: "M-9 14 L-6 -4 A6 6 0 1 1 6 -4 L9 14z", fill: "#3b2a12", stroke: "#fff", "stroke-width": 1.5 })));
      }
    });
    svg.append(ring);

    // Ritual spaces (4 rituals × 3 sizes) and the Book spaces.
    const rs = s("g", { class: "ill-rituals", "aria-label": "Ritual spaces" });
    rs.append(text(380, 360, "Ritual spaces", { "text-anchor": "start", "font-weight": 700, fill: "#4a3218" }));
    const rituals = [...new Set(m.ritual_spaces.map((r) => r.ritual))];
    m.ritual_spaces.forEach((sp) => {
      const row = rituals.indexOf(sp.ritual);
      const col = m.ritual_spaces.filter((x) => x.ritual === sp.ritual).indexOf(sp);
      const x = 380 + col * 70, y = 375 + row * 44;
      const g = s("g", {});
      g.append(s("rect", { x, y, width: 62, height: 38, rx: 6, fill: RITUAL[sp.ritual] || "#ddd", stroke: "#5a4326" }));
      g.append(text(x + 31, y + 12, `${sp.ritual} ${sp.size}`, { "font-size": 10, fill: "#2b2118" }));
      g.append(text(x + 31, y + 27, `${sp.points} pts`, { "font-size": 11, "font-weight": 700, fill: "#2b2118" }));
      if (sp.owner) g.append(s("circle", { cx: x + 54, cy: y + 8, r: 7, fill: SIDE_FILL[sp.owner], stroke: "#2b1d10" }, s("title", { text: `claimed by ${SIDE_NAME[sp.owner]}` })));
      const cmd = matching(live, "ClaimRitual", { ritual: sp.ritual, size: sp.size })[0];
      if (cmd) {
        g.prepend(s("rect", { x: x - 3, y: y - 3, width: 68, height: 44, rx: 8, class: "spot-legal" }));
        clickable(g, this.label(cmd, ctx), () => ctx.send(cmd));
      }
      rs.append(g);
    });
    (m.book_spaces || []).forEach((o, i) => {
      rs.append(s("rect", { x: 380 + i * 30, y: 560, width: 24, height: 24, rx: 4, fill: o ? SIDE_FILL[o] : "#fff8", stroke: "#5a4326" }, s("title", { text: o ? `Book space ${i + 1}: ${SIDE_NAME[o]}` : `Book space ${i + 1}: free` })));
    });
    if ((m.book_spaces || []).length) rs.append(text(380, 550, "Book spaces", { "text-anchor": "start", "font-size": 12, fill: "#4a3218" }));
    svg.append(rs);

    // -- Battle cards -----------------------------------------------------------------------
    const bc = s("g", { class: "ill-battles", "aria-label": "Battle cards" });
    bc.append(text(640, 360, "Battle cards", { "text-anchor": "start", "font-weight": 700, fill: "#4a3218" }));
    view.battle_cards.forEach((b, i) => {
      const x = 640 + i * 135, y = 372;
      bc.append(s("rect", { x, y, width: 125, height: 90, rx: 8, fill: "#fffaf0", stroke: "#7a5a32" }));
      bc.append(text(x + 62, y + 16, `${b.factions[0]} vs ${b.factions[1]}`, { "font-size": 12, "font-weight": 700, fill: "#2b2118" }));
      bc.append(text(x + 30, y + 44, ICON[b.factions[0]] || b.factions[0][0], { "font-size": 26, fill: "#3b2a12" }));
      bc.append(text(x + 95, y + 44, ICON[b.factions[1]] || b.factions[1][0], { "font-size": 26, fill: SIDE_FILL.IRR }));
      bc.append(text(x + 30, y + 74, `${b.REV}`, { "font-size": 16, "font-weight": 700, fill: "#3b2a12" }));
      bc.append(text(x + 62, y + 74, ":", { "font-size": 16 }));
      bc.append(text(x + 95, y + 74, `${b.IRR}`, { "font-size": 16, "font-weight": 700, fill: SIDE_FILL.IRR }));
    });
    const sp = view.score_preview || {};
    bc.append(text(640, 490, `Score so far — Reverent ${sp.REV ?? 0} · Irreverent ${sp.IRR ?? 0}${view.difficulty ? ` · Monk difficulty ${view.difficulty}` : ""}`, { "text-anchor": "start", "font-size": 14, fill: "#4a3218" }));
    svg.append(bc);

    // -- Player mats --------------------------------------------------------------------------
    const players = [...view.players].sort((a, b) => (a.side === view.you ? 1 : 0) - (b.side === view.you ? 1 : 0));
    players.forEach((p, i) => this.mat(svg, ctx, p, 360 + i * 420, 600, live));
    host.append(svg);
  },

  mat(svg, ctx, p, x, y, live) {
    const { view } = ctx;
    const mine = p.side === view.you;
    const g = s("g", { class: "ill-mat", "aria-label": `${p.name}${mine ? " (you)" : ""}: ${p.coins} coins, ${p.hand_count} cards in hand` });
    const active = view.turn === p.side;
    g.append(s("rect", { x, y, width: 400, height: 285, rx: 12, fill: SIDE_FILL[p.side], stroke: active ? "#2f6b3a" : "#5a4326", "stroke-width": active ? 5 : 2 }));
    const who = p.seat !== null && p.seat !== undefined ? ctx.seatName(p.seat) : "Mystic Monk";
    g.append(text(x + 12, y + 18, `${p.name} — ${who}${mine ? " (you)" : ""}${p.passed ? " · passed" : ""}`, { "text-anchor": "start", "font-weight": 700, fill: SIDE_INK[p.side], "font-size": 15 }));

    // Archways 3×3 with row/column choices around them.
    const ax = x + 40, ay = y + 50, a = 48;
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        const t = p.archways?.[r]?.[c];
        const px = ax + c * (a + 6), py = ay + r * (a + 6);
        g.append(s("path", { d: `M${px} ${py + a} V${py + 14} A${a / 2} 14 0 0 1 ${px + a} ${py + 14} V${py + a}z`, fill: "#0001", stroke: SIDE_INK[p.side], "stroke-opacity": 0.5 }));
        if (t) g.append(tile(px + 3, py + 5, a - 6, t));
      }
    }
    if (mine) {
      for (let k = 1; k <= 3; k++) {
        const row = matching(live, "ChooseLine", { kind: "row", index: k })[0];
        if (row) {
          const b = s("g", {}, s("path", { d: `M${ax - 30} ${ay + (k - 1) * (a + 6) + 12} l18 12 l-18 12z`, fill: "#2f6b3a" }));
          clickable(b, this.label(row, ctx), () => ctx.send(row));
          g.append(b);
        }
        const col = matching(live, "ChooseLine", { kind: "col", index: k })[0];
        if (col) {
          const b = s("g", {}, s("path", { d: `M${ax + (k - 1) * (a + 6) + 12} ${ay - 22} l24 0 l-12 16z`, fill: "#2f6b3a" }));
          clickable(b, this.label(col, ctx), () => ctx.send(col));
          g.append(b);
        }
      }
    }

    // Coins, tokens, stacks, deck, markers.
    const ix = x + 230;
    g.append(s("circle", { cx: ix + 14, cy: y + 50, r: 14, fill: "#d9a441", stroke: "#6b4a12" }));
    g.append(text(ix + 14, y + 51, String(p.coins), { "font-weight": 700, "font-size": 13 }));
    g.append(text(ix + 36, y + 51, "coins", { "text-anchor": "start", "font-size": 12, fill: SIDE_INK[p.side] }));
    Object.entries(p.tokens || {}).forEach(([rit, n], k) => {
      const tx = ix + 14 + k * 38, ty = y + 88;
      g.append(s("rect", { x: tx - 14, y: ty - 14, width: 28, height: 28, rx: 14, fill: RITUAL[rit] || "#ccc", stroke: "#5a4326" }, s("title", { text: `${n} ${rit} tokens` })));
      g.append(text(tx, ty, String(n), { "font-weight": 700, "font-size": 13 }));
      g.append(text(tx, ty + 22, rit, { "font-size": 9, fill: SIDE_INK[p.side] }));
    });
    g.append(text(ix, y + 232, `stacks ${p.stacks_remaining} · deck ${p.deck_count} · markers ${p.markers}`, { "text-anchor": "start", "font-size": 11, fill: SIDE_INK[p.side] }));
    if ((p.sheep_pen || []).length) g.append(text(ix, y + 247, `sheep pen: ${p.sheep_pen.length}`, { "text-anchor": "start", "font-size": 11, fill: SIDE_INK[p.side] }));
    if (p.monk) {
      g.append(text(ix, y + 262, `Monk track ${Object.entries(p.monk.track).map(([k, v]) => `${k[0]}${v}`).join(" ")}${p.monk.last_die ? ` · die ${p.monk.last_die}` : ""}`, { "text-anchor": "start", "font-size": 11, fill: SIDE_INK[p.side] }));
    }

    // Hand and Crusade.
    const hy = y + 130;
    g.append(text(ix, hy - 8, p.hand ? "hand" : `hand: ${p.hand_count} cards`, { "text-anchor": "start", "font-size": 11, fill: SIDE_INK[p.side] }));
    if (p.hand) {
      p.hand.slice(0, 6).forEach((card, k) => g.append(cardFace(ix + (k % 3) * 40, hy + Math.floor(k / 3) * 12, card, "#3b2a12", 0.8)));
    } else {
      for (let k = 0; k < Math.min(p.hand_count, 6); k++) g.append(cardBack(ix + k * 14, hy, 42, 60));
    }
    if (p.has_crusade) {
      const crx = x + 350;
      if (p.crusade) g.append(cardFace(crx, hy, p.crusade, "#8b1e1e", 0.8));
      else g.append(cardBack(crx, hy, 42, 60));
      g.append(text(crx + 21, hy + 70, "Crusade", { "font-size": 10, fill: SIDE_INK[p.side] }));
    }
    svg.append(g);
  },
};

function cardFace(x, y, id, ink = "#3b2a12", scale = 1) {
  const name = String(id).replace(/^(R|I|CR)-(REV-|IRR-)?/, "").replace(/-\d+$/, "");
  return s("g", { class: "card face", transform: `translate(${x} ${y}) scale(${scale})` },
    s("title", { text: id }),
    s("rect", { width: 52, height: 74, rx: 6, class: "card-face" }),
    text(26, 30, humanize(name.toLowerCase()), { "font-size": 10, "font-weight": 700, fill: ink }),
    text(26, 62, id, { "font-size": 6.5, fill: "#6f6254" }),
  );
}

function payment(p) {
  const names = ["coin", "Candle", "Bell", "Wine", "Bread"];
  return p.map((n, i) => (n ? `${n} ${names[i] || `#${i}`}` : null)).filter(Boolean).join(", ");
}

function bookNo(view, pos) {
  const b = view.books?.find((x) => x.pos === pos);
  const you = view.you || view.south;
  return b?.number?.[you] ?? pos + 1;
}

function stationName(view, i) {
  const n = view.monastery?.stations?.[i];
  return n ? `the ${n} station (${i})` : `station ${i}`;
}

function activePos(view, tileId) {
  for (const b of view.books || []) if (b.margin.some((t) => t.id === tileId)) return b.pos;
  return null;
}

function tileName(view, id) {
  for (const b of view.books || []) {
    for (const t of b.margin) if (t.id === id) return tileLabel(t);
    for (const c of b.cells) if (c.tile && c.tile.id === id) return tileLabel(c.tile);
  }
  for (const p of view.players || []) for (const row of p.archways || []) for (const t of row) if (t && t.id === id) return tileLabel(t);
  return id;
}

/** A Book square in words, from the viewer's seat (squares are given in the south frame). */
function rc(view, row, col) {
  const north = view?.you && view?.south && view.you !== view.south;
  return north ? `row ${5 - row}, column ${5 - col}` : `row ${row + 1}, column ${col + 1}`;
}
