// Campus Galli: the monastery plan with buildings and the sections laid on it, monks, the
// section in hand (rotate / mirror it, then click a highlighted spot), the hut and the bag,
// the task board, action cards, tiles, library and guests.
import { s, text, svgRoot, clickable, humanize } from "../dom.js";
import { seatColour } from "../common.js";
import { matching } from "./util.js";
import { cardBack } from "./card.js";

const W = 1200;
const H = 860;
const C = 34; // plan cell size
const PX = 16, PY = 34; // plan origin
const COLOUR = { R: "#c4493c", Y: "#e3b53d", G: "#5d9a4a", B: "#3f74b5", W: "#f1ece0" };
const COLOUR_NAME = { R: "red", Y: "yellow", G: "green", B: "blue", W: "white" };
const KIND = { blue: "#3f74b5", red: "#c4493c", yellow: "#e3b53d", green: "#5d9a4a", angel: "#f1e4b3" };
// Section shapes (public content: the cells of each footprint before turning).
const SHAPES = {
  D2: [[0, 0], [1, 0]],
  I3: [[0, 0], [1, 0], [2, 0]],
  L3: [[0, 0], [1, 0], [0, 1]],
  O4: [[0, 0], [1, 0], [0, 1], [1, 1]],
  T4: [[0, 0], [1, 0], [2, 0], [1, 1]],
};

/** The distinct footprints of a shape, in the server's order (mirror false/true × 4 turns). */
function orientations(shape) {
  const base = SHAPES[shape];
  if (!base) return [];
  const seen = [];
  for (const mirror of [false, true]) {
    for (let rot = 0; rot < 4; rot++) {
      let p = base.map(([x, y]) => (mirror ? [-x, y] : [x, y]));
      for (let k = 0; k < rot; k++) p = p.map(([x, y]) => [-y, x]);
      const mx = Math.min(...p.map((q) => q[0]));
      const my = Math.min(...p.map((q) => q[1]));
      p = p.map(([x, y]) => [x - mx, y - my]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const key = JSON.stringify(p);
      if (!seen.some((o) => JSON.stringify(o) === key)) seen.push(p);
    }
  }
  return seen;
}

function turnFoot(foot, { rotate = 0, mirror = false }) {
  let p = foot.map(([x, y]) => (mirror ? [-x, y] : [x, y]));
  for (let k = 0; k < rotate; k++) p = p.map(([x, y]) => [-y, x]);
  const mx = Math.min(...p.map((q) => q[0]));
  const my = Math.min(...p.map((q) => q[1]));
  return JSON.stringify(p.map(([x, y]) => [x - mx, y - my]).sort((a, b) => a[0] - b[0] || a[1] - b[1]));
}

const shapeOf = (id) => (String(id).match(/(D2|I3|L3|O4|T4)/) || [])[1];
const colourOf = (id) => (String(id).match(/-(R|Y|G|B|W)-/) || [])[1];

let ui = { holding: null, orient: 0 };

function cardName(view, id) {
  const c = view.cards?.[id];
  if (!c) return id;
  if (c.name) return c.name;
  if (c.kind === "angel") return "Angel";
  return `${humanize(c.kind)} card ${c.number ?? ""}`.trim();
}

export default {
  title: "Campus Galli",

  status({ view, seatName }) {
    if (!view) return "";
    const t = view.turn;
    const yr = `year ${view.year}, round ${view.round}`;
    if (view.phase === "over") return "the game is over";
    if (view.event) return `${yr}: event ${humanize(view.event.kind)}`;
    if (t) return `${yr}: ${seatName(t.seat)} — ${humanize(t.stage).toLowerCase()}${t.holding ? ` a ${COLOUR_NAME[colourOf(t.holding)] || ""} ${shapeOf(t.holding) || ""} section` : ""}`;
    if (view.phase === "select" || (view.selection && view.selection.waiting_on && view.selection.waiting_on.length)) return `${yr}: everyone secretly selects an action card`;
    return `${yr}: ${humanize(view.phase)}`;
  },

  label(cmd, { view }) {
    const pay = (p) => (p && p.length ? ` (pay ${p.map((c) => COLOUR_NAME[c] || c).join(", ")})` : "");
    switch (cmd.type) {
      case "SelectActionCard": return `Select ${cardName(view, cmd.card)}`;
      case "ChooseSource": return cmd.source === "hut" ? "Act later, from the hut (large number)" : "Act now, from the bag (small number)";
      case "DeclareBeg": return "Beg instead of paying";
      case "Beg": return `Beg for ${cmd.tiles.map((c) => COLOUR_NAME[c] || c).join(" and ")} tiles`;
      case "ExchangeTiles": return `Exchange ${cmd.give.map((c) => COLOUR_NAME[c] || c).join(", ")} for ${COLOUR_NAME[cmd.take] || cmd.take}`;
      case "TakeFromHut": return `Take the ${COLOUR_NAME[colourOf(cmd.section)] || ""} ${shapeOf(cmd.section) || cmd.section} section from the hut${pay(cmd.pay)}`;
      case "DrawFromBag": return `Draw a ${cmd.shape} section from the bag${pay(cmd.pay)}`;
      case "PlaceSection": return `Place the section at column ${cmd.x + 1}, row ${cmd.y + 1}, orientation ${cmd.orientation + 1}${cmd.master_builder === false ? ", without a master builder" : ""}`;
      case "ForfeitBuild": return "No spot fits: give up building";
      case "FlipBuilding": return cmd.building ? `Flip building ${cmd.building}${cmd.master_builder === false ? " without a master builder" : ""}` : "Flip no building";
      case "ProduceBook": return `Produce a book with a ${COLOUR_NAME[cmd.tile] || cmd.tile} tile${pay(cmd.pay)}`;
      case "BringGuest": return `Bring a guest with ${cmd.tile ? `a ${COLOUR_NAME[cmd.tile] || cmd.tile} tile` : "no tile"}${pay(cmd.pay)}${cmd.monks === false ? ", placing no guest monk" : ""}`;
      case "Rescore": return `Score ${cardName(view, cmd.card)} again (${COLOUR_NAME[cmd.tile] || cmd.tile} tile)`;
      case "EndTurn": return view.turn?.stage === "rescore" ? "Stop scoring earlier cards" : "End turn (judge the end-of-turn tasks)";
      case "RespondFeastDay":
      case "RespondStudyDay": {
        const cards = cmd.guests || cmd.books || [];
        if (!cards.length) return cmd.type === "RespondFeastDay" ? "Score no guest" : "Score no book";
        return `Score ${cards.map((c, i) => `${cardName(view, c)}${cmd.rewards[i] ? ` (${COLOUR_NAME[cmd.rewards[i]] || cmd.rewards[i]} tile)` : ""}`).join(" and ")}`;
      }
      case "ChooseLazyMonk": {
        const [kind, where] = String(cmd.monk).split(":");
        const what = kind === "section" ? `the master builder on section ${where}` : kind === "grass" ? `the master builder next to building ${where}` : `the guest monk at building ${where}`;
        return `Out of monks: ${what} lies down lazy`;
      }
      case "PassSpecial": return "Pass (no special action)";
      case "ChooseTiles": return `Take ${cmd.tiles.map((c) => COLOUR_NAME[c] || c).join(" and ")} tiles`;
      case "SpecialFulfillTask": return `Fulfil task ${cardName(view, cmd.task)}${pay(cmd.pay)}`;
      case "SpecialExpand": return `Expand building ${cmd.building}${cmd.master_builder === false ? " without a master builder" : ""}`;
      case "SpecialBuyFromHut": return `Buy the ${COLOUR_NAME[colourOf(cmd.section)] || ""} ${shapeOf(cmd.section) || cmd.section} section from the hut${pay(cmd.pay)}`;
      case "SpecialBuyFromBag": return `Buy a ${cmd.shape} section from the bag${pay(cmd.pay)}`;
      case "SpecialRemoveHalt": return `Remove the construction halt${pay(cmd.pay)}`;
      case "SpecialReconstruct": return `Reconstruct for ${cardName(view, cmd.task)}${pay(cmd.pay)}`;
      case "PayEvent": return `Pay for the event${pay(cmd.pay)}${cmd.building ? ` (monk to ${cmd.building})` : ""}`;
      case "DeclineEvent": return cmd.lose ? `Decline and lose ${cmd.lose}` : "Decline";
      case "TakeUnfinished": return `Take the unfinished task${cmd.pile !== undefined ? ` from pile ${cmd.pile}` : ""}`;
      default: return null;
    }
  },

  groupLabel(type) {
    return { PlaceSection: "Place section (or click a highlighted spot on the plan)" }[type] || null;
  },

  render(host, ctx) {
    const { view } = ctx;
    const live = ctx.interactive ? ctx.legal : [];
    const svg = svgRoot(W, H, "Campus Galli: monastery plan, task board and cards");
    svg.append(s("rect", { width: W, height: H, rx: 14, fill: "#e9e2cc" }));

    // -- plan ---------------------------------------------------------------------------------
    const width = view.plan?.width || 21, height = view.plan?.height || 14;
    const plan = s("g", { class: "cg-plan", "aria-label": "Monastery plan" });
    plan.append(s("rect", { x: PX - 4, y: PY - 4, width: width * C + 8, height: height * C + 8, rx: 8, fill: "#b9cf98", stroke: "#6f7f4e" }));
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      plan.append(s("rect", { x: PX + x * C, y: PY + y * C, width: C, height: C, fill: "none", stroke: "#a5bb84", "stroke-width": 0.6 }));
      if (view.plan?.terrain?.[y]?.[x] === "T") {
        plan.append(s("g", {}, s("title", { text: "tree" }),
          s("rect", { x: PX + x * C + C / 2 - 2, y: PY + y * C + C / 2, width: 4, height: C / 2 - 4, fill: "#6b4a2a" }),
          s("circle", { cx: PX + x * C + C / 2, cy: PY + y * C + C / 2 - 2, r: C / 3, fill: "#3f7a3a" })));
      }
    }
    for (const b of view.buildings || []) {
      const fill = b.side === "construction" ? "#d9cfb9" : "#f4e9c9";
      for (const [x, y] of b.cells) plan.append(s("rect", { x: PX + x * C + 1, y: PY + y * C + 1, width: C - 2, height: C - 2, fill, stroke: b.complete ? "#c49a1b" : "#a89a7a", "stroke-width": b.complete ? 2.5 : 1 }));
      const [lx, ly] = b.cells[0];
      plan.append(s("g", {}, s("title", { text: `${b.letter}: ${b.name} (${b.side}${b.complete ? ", complete" : ""})` }),
        text(PX + lx * C + 10, PY + ly * C + 11, b.letter, { "font-size": 13, "font-weight": 700, fill: "#5a4326" })));
    }
    const symbols = view.plan?.symbols || [];
    symbols.forEach((row, y) => {
      const cells = typeof row === "string" ? row.split("") : row || [];
      cells.forEach((sym, x) => {
        const col = typeof sym === "string" ? sym.toUpperCase() : null;
        if (col && COLOUR[col] && col !== "W") {
          plan.append(s("rect", { x: PX + x * C + C / 2 - 5, y: PY + y * C + C / 2 - 5, width: 10, height: 10, rx: 2, transform: `rotate(45 ${PX + x * C + C / 2} ${PY + y * C + C / 2})`, fill: COLOUR[col], opacity: 0.8 }, s("title", { text: `${COLOUR_NAME[col]} tile symbol` })));
        }
      });
    });
    for (const sec of view.sections_placed || []) {
      const cells = new Set(sec.cells.map(([x, y]) => `${x},${y}`));
      const g = s("g", {}, s("title", { text: `${COLOUR_NAME[sec.colour] || sec.colour} ${sec.shape} section` }));
      for (const [x, y] of sec.cells) {
        g.append(s("rect", { x: PX + x * C + 2, y: PY + y * C + 2, width: C - 4, height: C - 4, rx: 3, fill: COLOUR[sec.colour] || "#999" }));
        // Join cells of one section so its shape reads as one piece.
        if (cells.has(`${x + 1},${y}`)) g.append(s("rect", { x: PX + x * C + C - 3, y: PY + y * C + 6, width: 6, height: C - 12, fill: COLOUR[sec.colour] }));
        if (cells.has(`${x},${y + 1}`)) g.append(s("rect", { x: PX + x * C + 6, y: PY + y * C + C - 3, width: C - 12, height: 6, fill: COLOUR[sec.colour] }));
      }
      plan.append(g);
    }
    for (const m of view.monks || []) {
      for (const [x, y] of m.cells || []) {
        plan.append(s("g", {}, s("title", { text: `${m.kind} monk of ${ctx.seatName(m.owner)}` }),
          s("circle", { cx: PX + x * C + C / 2, cy: PY + y * C + C / 2, r: 8, fill: seatColour(m.owner), stroke: "#fff", "stroke-width": 2 })));
      }
    }
    svg.append(plan);
    svg.append(text(PX, 18, `Year ${view.year} · round ${view.round} · ${humanize(view.phase)}${view.mode === "cooperative" ? " · cooperative" : ""} · level ${view.level}`, { "text-anchor": "start", "font-size": 15, "font-weight": 700, fill: "#4a3218" }));

    // -- the section in hand: rotate, mirror, place ----------------------------------------------
    const holding = view.turn?.holding || null;
    // Clicking a spot on the plan lays the section with the default (a master builder where
    // one may go); declining the master builder is offered in the action list.
    const places = matching(live, "PlaceSection").filter((c) => c.master_builder !== false);
    const shape = shapeOf(holding);
    const feet = orientations(shape);
    if (holding !== ui.holding) {
      ui = { holding, orient: places.length ? places[0].orientation : 0 };
    }
    const panelX = 760, panelY = 34;
    const panel = s("g", { class: "cg-hand", "aria-label": "Section in hand" });
    panel.append(s("rect", { x: panelX, y: panelY, width: 420, height: 150, rx: 10, fill: "#fffaf0", stroke: "#a89a7a" }));
    if (holding && feet.length) {
      const foot = feet[ui.orient] || feet[0];
      panel.append(text(panelX + 12, panelY + 18, `In hand: ${COLOUR_NAME[colourOf(holding)] || ""} ${shape} section`, { "text-anchor": "start", "font-weight": 700, fill: "#4a3218" }));
      for (const [x, y] of foot) panel.append(s("rect", { x: panelX + 24 + x * 28, y: panelY + 36 + y * 28, width: 26, height: 26, rx: 3, fill: COLOUR[colourOf(holding)] || "#999" }));
      if (places.length) {
        const here = places.filter((c) => c.orientation === ui.orient);
        const turn = (how) => {
          const want = turnFoot(feet[ui.orient], how);
          const idx = feet.findIndex((f) => JSON.stringify(f) === want);
          if (idx >= 0) { ui.orient = idx; ctx.rerender?.(); }
        };
        const btn = (x, label, glyph, fn) => {
          const b = s("g", { class: "svg-button", transform: `translate(${x} ${panelY + 40})` }, s("rect", { width: 110, height: 34, rx: 17 }), text(55, 17, glyph));
          clickable(b, label, fn, true);
          panel.append(b);
        };
        btn(panelX + 150, "Rotate the section a quarter turn", "⟳ Rotate", () => turn({ rotate: 1 }));
        btn(panelX + 275, "Mirror the section", "⇋ Mirror", () => turn({ mirror: true }));
        panel.append(text(panelX + 150, panelY + 100, here.length ? `${here.length} spots fit this way: click one on the plan` : "No spot fits this way: rotate or mirror", { "text-anchor": "start", "font-size": 13, fill: "#4a3218" }));
        // Legal spots for the current orientation, highlighted on the plan.
        for (const cmd of here) {
          const first = foot[0];
          const g = s("g", { class: "cg-spot" });
          for (const [fx, fy] of foot) g.append(s("rect", { x: PX + (cmd.x + fx) * C + 3, y: PY + (cmd.y + fy) * C + 3, width: C - 6, height: C - 6, rx: 3, class: "ghost", fill: COLOUR[colourOf(holding)] || "#999" }));
          const ax = PX + (cmd.x + first[0]) * C, ay = PY + (cmd.y + first[1]) * C;
          const hit = s("g", {}, s("rect", { x: ax + 2, y: ay + 2, width: C - 4, height: C - 4, rx: 4, class: "spot-legal" }), s("circle", { cx: ax + C / 2, cy: ay + C / 2, r: 4, fill: "#6b3e1f" }));
          clickable(hit, this.label(cmd, ctx), () => ctx.send(cmd));
          g.append(hit);
          svg.append(g);
        }
      }
    } else if (view.event) {
      // An event card in progress: what it is, who still answers, the dice thrown.
      const ev = view.event;
      panel.append(text(panelX + 12, panelY + 18, `Event: ${humanize(ev.kind)}${ev.target ? ` (${ev.target})` : ""}`, { "text-anchor": "start", "font-weight": 700, fill: "#7a1f18" }));
      if ((ev.waiting_on || []).length) panel.append(text(panelX + 12, panelY + 40, `waiting for ${ev.waiting_on.map(ctx.seatName).join(", ")}`, { "text-anchor": "start", "font-size": 12 }));
      (ev.dice || []).forEach(([seat, faces], k) => {
        const y = panelY + 58 + k * 26;
        panel.append(text(panelX + 12, y + 10, ctx.seatName(seat), { "text-anchor": "start", "font-size": 11 }));
        (faces || []).forEach((f, i) => {
          const fill = COLOUR[f] || (f === "BLACK" ? "#222" : "#fff");
          panel.append(s("rect", { x: panelX + 120 + i * 26, y, width: 22, height: 22, rx: 4, fill, stroke: "#2b2118" }, s("title", { text: f === "WHITE" ? "white: nothing" : f === "BLACK" ? "black: any 1 tile" : `${COLOUR_NAME[f] || f} tile` })));
        });
      });
    } else {
      panel.append(text(panelX + 12, panelY + 18, "No section in hand", { "text-anchor": "start", "font-weight": 700, fill: "#4a3218" }));
      const t = view.turn;
      if (t?.card) panel.append(text(panelX + 12, panelY + 44, `${ctx.seatName(t.seat)} plays ${cardName(view, t.card)}`, { "text-anchor": "start", "font-size": 13 }));
      if ((view.last_dice || []).length) panel.append(text(panelX + 12, panelY + 66, `last dice: ${view.last_dice.flat(2).join(" ")}`, { "text-anchor": "start", "font-size": 11 }));
      // Stage "exchange" (or "rescore"): the turn waits for EndTurn; exchanges are in the list.
      const end = matching(live, "EndTurn")[0];
      if (end) {
        const label = this.label(end, ctx);
        const b = s("g", { class: "svg-button", transform: `translate(${panelX + 12} ${panelY + 96})` }, s("rect", { width: 180, height: 34, rx: 17 }), text(90, 17, view.turn?.stage === "rescore" ? "Stop scoring" : "End turn"));
        clickable(b, label, () => ctx.send(end));
        panel.append(b);
      }
    }
    svg.append(panel);

    // -- hut and bag --------------------------------------------------------------------------
    const hx = 760, hy = 200;
    svg.append(s("rect", { x: hx, y: hy, width: 420, height: 190, rx: 10, fill: "#f6efdc", stroke: "#a89a7a" }));
    svg.append(text(hx + 12, hy + 16, "Hut", { "text-anchor": "start", "font-weight": 700, fill: "#4a3218" }));
    (view.hut || []).forEach((id, k) => {
      const x = hx + 12 + (k % 10) * 40, y = hy + 26 + Math.floor(k / 10) * 38;
      const g = s("g", {}, s("title", { text: `${COLOUR_NAME[colourOf(id)] || ""} ${shapeOf(id) || id} section` }));
      for (const [fx, fy] of SHAPES[shapeOf(id)] || [[0, 0]]) g.append(s("rect", { x: x + fx * 11, y: y + fy * 11, width: 10, height: 10, rx: 2, fill: COLOUR[colourOf(id)] || "#999" }));
      const cmd = matching(live, "TakeFromHut", { section: id })[0];
      if (cmd) {
        g.prepend(s("rect", { x: x - 3, y: y - 3, width: 39, height: 29, rx: 5, class: "spot-legal" }));
        clickable(g, this.label(cmd, ctx), () => ctx.send(cmd));
      }
      svg.append(g);
    });
    const by = hy + 158;
    svg.append(text(hx + 12, by - 8, `Bag: ${view.bag?.count ?? 0} sections`, { "text-anchor": "start", "font-weight": 700, fill: "#4a3218", "font-size": 13 }));
    Object.keys(SHAPES).forEach((shp, k) => {
      const x = hx + 12 + k * 80;
      const n = Object.values(view.bag?.by_shape?.[shp] || {}).reduce((a, b) => a + b, 0);
      const g = s("g", {}, s("title", { text: `${n} ${shp} sections in the bag` }));
      for (const [fx, fy] of SHAPES[shp]) g.append(s("rect", { x: x + fx * 11, y: by + fy * 11, width: 10, height: 10, rx: 2, fill: "#8a7a5a" }));
      g.append(text(x + 50, by + 10, `×${n}`, { "font-size": 12 }));
      const cmd = matching(live, "DrawFromBag", { shape: shp })[0];
      if (cmd) {
        g.prepend(s("rect", { x: x - 4, y: by - 4, width: 72, height: 30, rx: 5, class: "spot-legal" }));
        clickable(g, this.label(cmd, ctx), () => ctx.send(cmd));
      }
      svg.append(g);
    });

    // -- task board -----------------------------------------------------------------------------
    const tx = 760, ty = 405;
    svg.append(text(tx, ty, `Task board (deck ${view.task_deck_count ?? 0})`, { "text-anchor": "start", "font-weight": 700, fill: "#4a3218" }));
    (view.task_board || []).forEach((slot, k) => {
      const c = view.cards?.[slot.card] || {};
      const x = tx + k * 105, y = ty + 10;
      const g = s("g", {}, s("title", { text: `${c.name || slot.card}: ${slot.status}` }));
      g.append(s("rect", { x, y, width: 98, height: 110, rx: 8, fill: slot.status === "open" ? "#fffdf6" : "#ddd", stroke: "#8b7a5e" }));
      g.append(text(x + 49, y + 14, (c.name || humanize(c.kind || "task")).slice(0, 16), { "font-size": 10, "font-weight": 700 }));
      (c.cost || []).forEach((col, i) => g.append(s("rect", { x: x + 8 + i * 14, y: y + 28, width: 12, height: 12, rx: 2, fill: COLOUR[col] || "#999" })));
      g.append(text(x + 49, y + 62, c.seals !== undefined ? `${c.seals}${c.half_seals ? "½" : ""} seals` : "", { "font-size": 12 }));
      g.append(text(x + 49, y + 82, [c.building, ...(c.buildings || [])].filter(Boolean).join(" ") || c.area || "", { "font-size": 11, fill: "#5a4326" }));
      g.append(text(x + 49, y + 100, slot.status, { "font-size": 10, fill: "#6f6254" }));
      svg.append(g);
    });

    // -- players: action cards, tiles, library, guests --------------------------------------------
    const rows = [...view.players].sort((a, b) => (a.seat === ctx.seat ? -1 : 0) - (b.seat === ctx.seat ? -1 : 0));
    rows.forEach((p, i) => {
      const x = 16, y = 540 + i * (300 / Math.max(rows.length, 1));
      const hgt = 300 / Math.max(rows.length, 1) - 8;
      const g = s("g", { "aria-label": `${ctx.seatName(p.seat)}: score ${p.score}` });
      g.append(s("rect", { x, y, width: 1164, height: hgt, rx: 10, fill: "#fffaf0", stroke: seatColour(p.seat), "stroke-width": (view.to_act || []).includes(p.seat) ? 4 : 2 }));
      g.append(text(x + 12, y + 16, `${ctx.seatName(p.seat)}${p.seat === ctx.seat ? " (you)" : ""} · score ${p.score} · monks ${p.monks_in_supply}`, { "text-anchor": "start", "font-weight": 700, fill: seatColour(p.seat) }));
      // tiles
      Object.entries(p.tiles || {}).forEach(([col, n], k) => {
        g.append(s("rect", { x: x + 12 + k * 44, y: y + 28, width: 36, height: 24, rx: 4, fill: COLOUR[col] || "#999", stroke: "#0004" }, s("title", { text: `${n} ${COLOUR_NAME[col] || col} tiles` })));
        g.append(text(x + 30 + k * 44, y + 40, String(n), { "font-weight": 700, fill: col === "Y" || col === "W" ? "#2b2118" : "#fff" }));
      });
      g.append(text(x + 12, y + 68, `library ${p.library.length} · guests ${p.guests.length} · tasks ${p.fulfilled.length}`, { "text-anchor": "start", "font-size": 12 }));
      // action cards: the hand (own) or backs, the selected card, used cards
      const cx0 = x + 330;
      const small = hgt < 120;
      const cw = small ? 44 : 58, ch = small ? 58 : 80;
      let k = 0;
      if (p.hand) {
        for (const id of p.hand) {
          const cg = actionCard(cx0 + k * (cw + 6), y + 24, cw, ch, id, view.cards?.[id]);
          const cmd = matching(live, "SelectActionCard", { card: id })[0];
          if (cmd) clickable(cg, this.label(cmd, ctx), () => ctx.send(cmd));
          g.append(cg);
          k++;
        }
      } else {
        for (let n = 0; n < Math.min(p.hand_count, 8); n++) g.append(cardBack(cx0 + n * 16, y + 24, cw, ch));
        k = Math.min(p.hand_count, 8) ? 3 : 0;
      }
      const mineSel = p.seat === ctx.seat ? view.selection?.mine?.[0] : null;
      const sel = p.selected || mineSel;
      if (sel) {
        g.append(text(cx0 + k * (cw + 6) + 30 + cw / 2, y + 20, "selected", { "font-size": 10 }));
        g.append(actionCard(cx0 + k * (cw + 6) + 30, y + 24, cw, ch, sel, view.cards?.[sel], "chosen"));
      } else if ((view.selection?.committed || []).includes(p.seat)) {
        g.append(cardBack(cx0 + k * (cw + 6) + 30, y + 24, cw, ch));
        g.append(text(cx0 + k * (cw + 6) + 30 + cw / 2, y + 20, "has selected", { "font-size": 10 }));
      }
      const lx = 880;
      [...p.library.map((c) => ["book", c]), ...p.guests.map((c) => ["guest", c])].slice(0, 10).forEach(([kind, id], n) => {
        g.append(s("g", {}, s("title", { text: `${kind}: ${cardName(view, id)}` }),
          s("rect", { x: lx + n * 28, y: y + 26, width: 24, height: 34, rx: 3, fill: kind === "book" ? "#7a2f22" : "#2f5d46", stroke: "#0006" }),
          text(lx + n * 28 + 12, y + 43, kind === "book" ? "B" : "G", { "font-size": 11, fill: "#fff" })));
      });
      svg.append(g);
    });
    host.append(svg);
  },
};

function actionCard(x, y, w, h, id, info, cls = "") {
  const c = info || {};
  const g = s("g", { class: `card face ${cls}`, transform: `translate(${x} ${y})` }, s("title", { text: `${id}${c.name ? `: ${c.name}` : ""}` }));
  g.append(s("rect", { width: w, height: h, rx: 6, class: "card-face" }));
  g.append(s("rect", { x: 3, y: 3, width: w - 6, height: 12, rx: 3, fill: KIND[c.kind] || "#bbb" }));
  g.append(text(w / 2, h / 2, c.number ?? "?", { "font-size": w * 0.36, "font-weight": 700, fill: "#2b2118" }));
  (c.shapes || []).slice(0, 3).forEach((sh, i) => g.append(text(8 + i * 14, h - 8, sh, { "font-size": 7, fill: "#5a4326" })));
  (c.cost || []).forEach((col, i) => g.append(s("rect", { x: w - 10 - i * 9, y: h - 12, width: 7, height: 7, fill: COLOUR[col] || "#999" })));
  return g;
}
