// @ts-check
// Campus Galli: the monastery plan with buildings and the sections laid on it, monks, the
// section in hand (rotate / mirror it, then click a highlighted spot), the hut and the bag in
// SVG; the task board and your action cards as readable cards under it. Each player's
// tiles, books, guests and selected card are in the players panel beside the board.
import { html, svg, nothing, repeat } from "../lit.js";
import { hot, inert, card, hand } from "../ui.js";
import { seatColour } from "../common.js";
import { humanize } from "../dom.js";
import { matching, listWords, plural } from "./util.js";

/**
 * @typedef {Object} CgCard   what is printed on an action or task card (view.cards[id])
 * @property {string} kind    action: red, blue, double, angel, book, guest, unfinished; task: progress, colour_combo, …
 * @property {number} [number]
 * @property {number|null} [large]
 * @property {string[]} [colours]
 * @property {string[]} [shapes]
 * @property {string[]} [cost]
 * @property {string} [name]
 * @property {string|null} [book_tile]
 * @property {string|null} [guest_building]
 * @property {number} [seals]
 * @property {number} [half_seals]
 * @property {string} [border]
 * @property {string|null} [building]
 * @property {string[]} [buildings]
 * @property {string[]} [a]
 * @property {string[]} [b]
 * @property {string|null} [shape]
 * @property {string|null} [area]
 * @property {string[]} [areas]
 */
/**
 * @typedef {Object} CgPlayer
 * @property {number} seat
 * @property {string[]|null} hand
 * @property {number} hand_count
 * @property {string|null} selected
 * @property {string[]} used
 * @property {string[]} library
 * @property {string[]} guests
 * @property {string[]} fulfilled
 * @property {number} good_coop
 * @property {Record<string, number>} tiles
 * @property {number} monks_in_supply
 * @property {boolean} passed_special
 * @property {number} score
 */
/**
 * @typedef {Object} CgView
 * @property {number} level
 * @property {"competitive"|"cooperative"} mode
 * @property {number} players_count
 * @property {"select"|"event"|"turns"|"special"|"over"|string} phase
 * @property {number} round
 * @property {number} year
 * @property {number[]} to_act
 * @property {{width: number, height: number, terrain: string[], symbols: Array<Array<string|null>|string>}} plan
 * @property {Array<{letter: string, name: string, area: string, cells: number[][], side: string, complete: boolean}>} buildings
 * @property {Array<{id: string, colour: string, shape: string, origin: string, cells: number[][]}>} sections_placed
 * @property {Array<{owner: number, kind: string, section: string|null, building: string|null, cells: number[][]}>} monks
 * @property {string[]} hut
 * @property {{count: number, by_shape: Record<string, Record<string, number>>}} bag
 * @property {number} task_deck_count
 * @property {Array<{card: string, status: string}>} task_board
 * @property {Record<string, number>} tile_supply
 * @property {{committed: number[], waiting_on: number[], mine: any}} selection
 * @property {{seat: number, card: string, stage: string, holding: string|null, source: string|null}|null} turn
 * @property {{card: string, kind: string, waiting_on: number[], dice: Array<[number, string[]]>, target: string|null}|null} event
 * @property {any[]} last_dice
 * @property {CgPlayer[]} players
 * @property {any} result
 * @property {Record<string, CgCard>} cards
 * @property {string} [prompt]
 */

/** @typedef {import("../types.js").RenderCtx} RenderCtx */

const C = 30; // plan cell size
const PX = 10, PY = 34; // plan origin
const COLOUR = { R: "#c4493c", Y: "#e3b53d", G: "#5d9a4a", B: "#3f74b5", W: "#f1ece0" };
const COLOUR_NAME = { R: "red", Y: "yellow", G: "green", B: "blue", W: "white", "?": "any" };
const KIND = { blue: "#3f74b5", red: "#c4493c", yellow: "#e3b53d", green: "#5d9a4a", angel: "#d8c27a", double: "#8a6d3b", book: "#7a2f22", guest: "#2f5d46", unfinished: "#777" };
const SHAPE_NAME = { D2: "2-square", I3: "straight 3-square", L3: "corner 3-square", O4: "square 4-square", T4: "T-shaped 4-square" };
// Section shapes (public content: the cells of each footprint before turning).
const SHAPES = {
  D2: [[0, 0], [1, 0]],
  I3: [[0, 0], [1, 0], [2, 0]],
  L3: [[0, 0], [1, 0], [0, 1]],
  O4: [[0, 0], [1, 0], [0, 1], [1, 1]],
  T4: [[0, 0], [1, 0], [2, 0], [1, 1]],
};
const TASK_NAME = {
  progress: "Building progress", colour_combo: "Colour combination", shape_combo: "Shape combination", direction: "Direction",
  letter_shape: "Letter shape", dues: "Dues", feast: "Feast day", study: "Study day", long_hours: "Long hours of prayer",
  alms: "Alms", complete: "Completion", new_book: "New book", new_person: "New person", all_together: "All together",
  tile_task: "Tile task", fire: "Fire", epidemic: "Epidemic", collapse: "Collapse", storm: "Storm", halt: "Construction halt",
  new_arrivals: "New arrivals", expansion: "Expansion", connection: "Connection", reconstruction: "Reconstruction",
};
const AREA = { N: "north", S: "south", E: "east", W: "west" };

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
const tiles = (list) => listWords((list || []).map((c) => COLOUR_NAME[c] || c));
/** "a red tile", "red and blue tiles". */
const tileWords = (list) => ((list || []).length === 1 ? `a ${tiles(list)} tile` : `${tiles(list)} tiles`);
const sectionWords = (id) => `${COLOUR_NAME[colourOf(id)] || ""} ${SHAPE_NAME[shapeOf(id)] || "section"} section`.trim();

function buildingName(view, letter) {
  const b = view.buildings?.find((x) => x.letter === letter);
  return b ? `the ${b.name}` : `building ${letter}`;
}

/** The printed name of an action or task card (never its id). */
function cardName(ctx, id) {
  const g = ctx.glossary?.[id];
  if (g?.name) return g.name;
  const c = ctx.view.cards?.[id];
  if (!c) return "a card";
  if (c.name) return c.name;
  if (TASK_NAME[c.kind]) return TASK_NAME[c.kind];
  if (c.kind === "angel") return `Angel ${c.number}`;
  if (c.kind === "double") return `Double card ${c.number}/${c.large}`;
  return `${humanize(c.kind)} card ${c.number ?? ""}`.trim();
}

/** What the card does or asks for, from the glossary, else from what is printed on it. */
function cardText(ctx, id) {
  const g = ctx.glossary?.[id];
  if (g?.text) return g.text;
  const view = ctx.view;
  const c = view.cards?.[id];
  if (!c) return "";
  const seals = c.seals !== undefined ? `${c.seals || ""}${c.half_seals ? "½" : ""}`.trim() : "";
  const worth = seals ? ` Worth ${seals} seal${seals === "1" ? "" : "s"}.` : "";
  const bn = (l) => buildingName(view, l);
  switch (c.kind) {
    case "red": case "blue": case "yellow": case "green": case "angel":
      return `Build a section (${(c.shapes || []).map((s) => SHAPE_NAME[s] || s).join(", ")})${c.cost?.length ? `, pay ${tiles(c.cost)}` : ""}.${c.colours?.length ? ` Tiles: ${tiles(c.colours)}.` : ""}`;
    case "double": return `A ${SHAPE_NAME[c.shapes?.[0]] || "section"} from the bag now (${c.number}), or from the hut at ${c.large}.`;
    case "book": return `Produce a book: pay ${tiles(c.cost)}, gain a ${COLOUR_NAME[c.book_tile] || "chosen"} tile.`;
    case "guest": return `Bring a guest: pay ${tiles(c.cost)}${c.guest_building ? `; monk to ${bn(c.guest_building)}` : ""}.`;
    case "unfinished": return "Take an unfinished task.";
    case "progress": return `Lay a section on ${bn(c.building)}.${worth}`;
    case "colour_combo": return `Lay ${tiles(c.a)} next to ${tiles(c.b)}.${worth}`;
    case "shape_combo": return `Lay a ${SHAPE_NAME[c.a?.[0]] || ""} next to a ${SHAPE_NAME[c.b?.[0]] || ""}.${worth}`;
    case "direction": return `Lay ${tiles(c.colours)} in the ${AREA[c.area] || c.area} (${(c.buildings || []).map(bn).join(", ")}).${worth}`;
    case "letter_shape": return `Lay a ${SHAPE_NAME[c.shape] || ""} on ${bn(c.building)}.${worth}`;
    case "long_hours": return `End your turn with no ${tiles(c.colours)} tile: gain one.${worth}`;
    case "all_together": return `Hold ${tiles(c.colours)} at the end of your turn.${worth}`;
    case "new_person": return `A guest in the ${AREA[c.area] || c.area}.${worth}`;
    case "tile_task": case "halt": case "new_arrivals": return `Pay ${tiles(c.cost)}.${worth}`;
    case "expansion": return `Expand ${bn(c.building)}.${worth}`;
    case "connection": return `Connect ${(c.buildings || []).map(bn).join(" and ")}.${worth}`;
    case "reconstruction": return `Rebuild a ${SHAPE_NAME[c.shape] || ""} section, pay ${tiles(c.cost)}.${worth}`;
    default: return worth.trim();
  }
}

/** @type {import("../types.js").Renderer} */
const campusGalli = {
  title: "Campus Galli",

  seatColour(seat) {
    return seatColour(seat);
  },

  status(ctx) {
    const view = /** @type {CgView} */ (ctx.view);
    if (!view) return "";
    const mine = ctx.seat !== null && ctx.toAct.includes(ctx.seat);
    const yr = `Year ${view.year}, round ${view.round}`;
    if (view.phase === "over") return "the game is over";
    if (view.event) return `${yr}: the event ${cardName(ctx, view.event.card)}${mine ? " — answer it" : ""}`;
    const t = view.turn;
    if (t) {
      const who = ctx.seatName(t.seat);
      const card = t.card ? cardName(ctx, t.card) : "";
      const stage = {
        source: mine ? `choose: act now from the bag, or later from the hut (${card})` : `${who} chooses when to act (${card})`,
        act: mine ? `perform ${card}: take a section from the hut or draw one from the bag` : `${who} performs ${card}`,
        place: mine ? `lay your ${sectionWords(t.holding)} on a highlighted spot of the plan (rotate or mirror it first)` : `${who} lays a ${sectionWords(t.holding)}`,
        flip: mine ? "a building is complete: choose the building to flip" : `${who} flips a completed building`,
        lazy_monk: mine ? "out of monks: choose which of your monks lies down lazy" : `${who} chooses a lazy monk`,
        rescore: mine ? "score an earlier card again, or stop" : `${who} may score earlier cards again`,
        exchange: mine ? "exchange 3 tiles for 1 if you like, then End turn" : `${who} may exchange tiles before ending the turn`,
        alms: mine ? "Alms: choose 2 tiles" : `${who} takes 2 tiles for Alms`,
        beg: mine ? "you beg: choose 2 tiles" : `${who} begs`,
      }[t.stage] || (mine ? "make your move" : `${who} is on turn`);
      return `${yr}: ${stage}`;
    }
    if (view.phase === "select") return mine ? `${yr}: secretly select one of your action cards` : `${yr}: everyone secretly selects an action card`;
    if (view.phase === "special") return mine ? `${yr}: take a special action, or pass` : `${yr}: special actions`;
    return `${yr}`;
  },

  label(cmd, ctx) {
    const view = ctx.view;
    const pay = (p) => (p && p.length ? ` (pay ${tiles(p)})` : "");
    const cn = (id) => cardName(ctx, id);
    switch (cmd.type) {
      case "SelectActionCard": return `Select ${cn(cmd.card)}`;
      case "ChooseSource": return cmd.source === "hut" ? "Act later, from the hut (large number)" : "Act now, from the bag (small number)";
      case "DeclareBeg": return "Beg instead of paying";
      case "Beg": return `Beg for ${tileWords(cmd.tiles)}`;
      case "ExchangeTiles": return `Exchange ${tiles(cmd.give)} for ${COLOUR_NAME[cmd.take] || cmd.take}`;
      case "TakeFromHut": return `Take the ${sectionWords(cmd.section)} from the hut${pay(cmd.pay)}`;
      case "DrawFromBag": return `Draw a ${SHAPE_NAME[cmd.shape] || cmd.shape} section from the bag${pay(cmd.pay)}`;
      case "PlaceSection": {
        const foot = orientations(shapeOf(view.turn?.holding))[cmd.orientation] || [[0, 0]];
        return `Lay the section on column ${cmd.x + foot[0][0] + 1}, row ${cmd.y + foot[0][1] + 1} (way ${cmd.orientation + 1})${cmd.master_builder === false ? ", without a master builder" : ""}`;
      }
      case "ForfeitBuild": return "No spot fits: give up building";
      case "FlipBuilding": return cmd.building ? `Flip ${buildingName(view, cmd.building)}${cmd.master_builder === false ? " without a master builder" : ""}` : "Flip no building";
      case "ProduceBook": return `Produce a book with a ${COLOUR_NAME[cmd.tile] || cmd.tile} tile${pay(cmd.pay)}`;
      case "BringGuest": return `Bring a guest with ${cmd.tile ? `a ${COLOUR_NAME[cmd.tile] || cmd.tile} tile` : "no tile"}${pay(cmd.pay)}${cmd.monks === false ? ", placing no guest monk" : ""}`;
      case "Rescore": return `Score ${cn(cmd.card)} again (${COLOUR_NAME[cmd.tile] || cmd.tile} tile)`;
      case "EndTurn": return view.turn?.stage === "rescore" ? "Stop scoring earlier cards" : "End turn (judge the end-of-turn tasks)";
      case "RespondFeastDay":
      case "RespondStudyDay": {
        const cards = cmd.guests || cmd.books || [];
        if (!cards.length) return cmd.type === "RespondFeastDay" ? "Score no guest" : "Score no book";
        return `Score ${listWords(cards.map((c, i) => `${cn(c)}${cmd.rewards[i] ? ` (${COLOUR_NAME[cmd.rewards[i]] || cmd.rewards[i]} tile)` : ""}`))}`;
      }
      case "ChooseLazyMonk": {
        const [kind, where] = String(cmd.monk).split(":");
        const what = kind === "section" ? "the master builder on a section" : kind === "grass" ? `the master builder next to ${buildingName(view, where)}` : `the guest monk at ${buildingName(view, where)}`;
        return `Out of monks: ${what} lies down lazy`;
      }
      case "PassSpecial": return "Pass (no special action)";
      case "ChooseTiles": return `Take ${tileWords(cmd.tiles)}`;
      case "SpecialFulfillTask": return `Fulfil the task ${cn(cmd.task)}${pay(cmd.pay)}`;
      case "SpecialExpand": return `Expand ${buildingName(view, cmd.building)}${cmd.master_builder === false ? " without a master builder" : ""}`;
      case "SpecialBuyFromHut": return `Buy the ${sectionWords(cmd.section)} from the hut${pay(cmd.pay)}`;
      case "SpecialBuyFromBag": return `Buy a ${SHAPE_NAME[cmd.shape] || cmd.shape} section from the bag${pay(cmd.pay)}`;
      case "SpecialRemoveHalt": return `Remove the construction halt${pay(cmd.pay)}`;
      case "SpecialReconstruct": return `Reconstruct for ${cn(cmd.task)}${pay(cmd.pay)}`;
      case "PayEvent": return `Pay for the event${pay(cmd.pay)}${cmd.building ? ` (monk to ${buildingName(view, cmd.building)})` : ""}`;
      case "DeclineEvent": return cmd.lose ? `Decline and lose ${cmd.lose.length > 1 ? cn(cmd.lose) : buildingName(view, cmd.lose)}` : "Decline";
      case "TakeUnfinished": return `Take the unfinished task${cmd.pile ? ` from the ${COLOUR_NAME[cmd.pile] || cmd.pile} pile` : ""}${pay(cmd.pay)}`;
      default: return null;
    }
  },

  groupLabel(type) {
    return {
      PlaceSection: "Lay the section (or click a highlighted spot on the plan)", SelectActionCard: "Select an action card",
      ExchangeTiles: "Exchange 3 tiles for 1", TakeFromHut: "Take a section from the hut", DrawFromBag: "Draw a section from the bag",
      EndTurn: "End the turn", ChooseSource: "When to act", FlipBuilding: "Flip a completed building",
    }[type] || null;
  },

  confirm(cmd, ctx) {
    if (cmd.type === "ForfeitBuild") return "Give up building this turn? Your action card is spent for nothing.";
    if (cmd.type === "DeclineEvent" && cmd.lose) return `Decline the event? ${this.label(cmd, ctx)}.`;
    if (cmd.type === "PassSpecial") return "Pass for the special actions of this round? You cannot take one later this round.";
    const pay = cmd.pay || cmd.give;
    if (Array.isArray(pay) && pay.length) return `This spends ${tiles(pay)} tile${pay.length > 1 ? "s" : ""}. ${this.label(cmd, ctx)}?`;
    return null;
  },

  players(ctx) {
    const view = /** @type {CgView} */ (ctx.view);
    return (view.players || []).map((p) => {
      const t = Object.entries(p.tiles || {}).map(([c, n]) => `${n} ${COLOUR_NAME[c]}`).join(", ");
      const sel = p.selected ? `selected ${cardName(ctx, p.selected)}` : (view.selection?.committed || []).includes(p.seat) ? "has selected" : "";
      return {
        seat: p.seat,
        score: plural(p.score, "point"),
        note: [`tiles: ${t}`, plural(p.monks_in_supply, "monk"), p.library.length ? plural(p.library.length, "book") : "", p.guests.length ? plural(p.guests.length, "guest") : "", p.fulfilled.length ? plural(p.fulfilled.length, "task") : "", sel].filter(Boolean).join(" · "),
      };
    });
  },

  marks(prev, view) {
    const out = new Set();
    const had = new Set((prev.sections_placed || []).map((s) => `${s.id}:${JSON.stringify(s.cells)}`));
    for (const s of view.sections_placed || []) if (!had.has(`${s.id}:${JSON.stringify(s.cells)}`)) out.add(`sec:${s.id}`);
    const monks = new Set((prev.monks || []).map((m) => `${m.owner}:${m.kind}:${JSON.stringify(m.cells)}`));
    for (const m of view.monks || []) if (!monks.has(`${m.owner}:${m.kind}:${JSON.stringify(m.cells)}`)) out.add(`monk:${m.owner}:${JSON.stringify(m.cells)}`);
    for (const b of view.buildings || []) {
      const o = prev.buildings?.find((x) => x.letter === b.letter);
      if (o && (o.side !== b.side || o.complete !== b.complete)) out.add(`bld:${b.letter}`);
    }
    if (JSON.stringify(prev.hut) !== JSON.stringify(view.hut)) out.add("hut");
    if (prev.bag?.count !== view.bag?.count) out.add("bag");
    (view.task_board || []).forEach((t, i) => { const o = prev.task_board?.[i]; if (!o || o.card !== t.card || o.status !== t.status) out.add(`task:${t.card}`); });
    for (const p of view.players || []) {
      const o = prev.players?.find((x) => x.seat === p.seat);
      if (o && o.selected !== p.selected && p.selected) out.add(`sel:${p.seat}`);
    }
    return out;
  },

  breakdown(view, result, ctx) {
    if (!view?.players) return null;
    // Without the narrator's categories: the public facts each score came from.
    return {
      columns: ["Tasks", "Books", "Guests", "Good cooperation"],
      rows: view.players.map((p) => ({ seat: p.seat, cells: [p.fulfilled.length, p.library.length, p.guests.length, p.good_coop], total: result?.scores?.[p.seat] ?? p.score })),
    };
  },

  render(ctx) {
    const view = /** @type {CgView} */ (ctx.view);
    const live = ctx.interactive ? ctx.legal : [];
    const me = view.players.find((p) => p.seat === ctx.seat);
    return html`<div class="cg-layout">
      <svg class="board-svg" viewBox="0 0 1000 470" role="group" aria-label="Campus Galli: the monastery plan, the hut and the bag" preserveAspectRatio="xMidYMid meet">
        <rect width="1000" height="470" rx="12" fill="#e9e2cc"/>
        ${planSvg(ctx, view, live)}
        ${handPanelSvg(ctx, view, live)}
        ${hutSvg(ctx, view, live)}
      </svg>
      <div class="cg-cards">
        <section class="cg-tasks" aria-label="Task board">
          <h3>Task board <span class="muted">(${view.task_deck_count ?? 0} in the deck)</span></h3>
          ${hand("Task board", view.task_board || [], (t) => t.card, (t) => card(ctx, {
            key: t.card, name: cardName(ctx, t.card), kind: taskKind(view, t), text: cardText(ctx, t.card),
            colour: t.status === "open" ? "#8b7a5e" : t.status === "brown" ? "#7a4a22" : "#a3322b", changed: ctx.changed.has(`task:${t.card}`),
            cls: { done: t.status !== "open" }, act: specialFor(ctx, live, t.card),
          }))}
        </section>
        ${me ? myCards(ctx, view, me, live) : nothing}
      </div>
    </div>`;
  },
};
export default campusGalli;

function taskKind(view, t) {
  const c = view.cards?.[t.card];
  const status = { open: "", brown: "resolved", event: "event", halt: "construction halt", taken: "taken" }[t.status] ?? t.status;
  return [c?.border === "event" ? "Event" : "Task", status].filter(Boolean).join(" · ");
}

/** A task card on the board is a button when a special action fulfils it. */
function specialFor(ctx, live, id) {
  const cmds = matching(live, "SpecialFulfillTask", { task: id }).concat(matching(live, "SpecialReconstruct", { task: id }));
  return cmds.length ? () => ctx.send(cmds.length === 1 ? cmds[0] : cmds) : null;
}

/** @param {RenderCtx} ctx @param {CgView} view @param {CgPlayer} me */
function myCards(ctx, view, me, live) {
  const sel = me.selected || view.selection?.mine?.[0] || null;
  const cards = (me.hand || []).map((id) => ({ id, sel: id === sel }));
  if (sel && !cards.some((c) => c.id === sel)) cards.push({ id: sel, sel: true });
  return html`<section class="cg-mine" aria-label="Your action cards" style=${`--seat:${ctx.colour(me.seat)}`}>
    <h3>Your action cards <span class="muted">(${me.hand_count} in hand${me.used.length ? `, ${me.used.length} used` : ""})</span></h3>
    ${cards.length ? hand("Your action cards", cards, (c) => c.id, ({ id, sel: chosen }) => {
      const c = view.cards?.[id];
      const cmd = matching(live, "SelectActionCard", { card: id })[0];
      return card(ctx, {
        key: id, name: cardName(ctx, id), kind: chosen ? "selected" : c?.kind === "double" ? "Double card" : "Action card", text: cardText(ctx, id),
        colour: KIND[c?.kind] || "#bbb", corner: c?.number ?? "", act: cmd ? () => ctx.send(cmd) : null, cls: { chosen },
        changed: ctx.changed.has(`sel:${me.seat}`) && chosen,
      });
    }) : html`<p class="muted">No action cards in hand.</p>`}
  </section>`;
}

/** @param {RenderCtx} ctx @param {CgView} view */
function planSvg(ctx, view, live) {
  const width = view.plan?.width || 21, height = view.plan?.height || 14;
  const grid = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (view.plan?.terrain?.[y]?.[x] === "T") {
        grid.push(svg`<g><title>tree</title><rect x=${PX + x * C + C / 2 - 2} y=${PY + y * C + C / 2} width="4" height=${C / 2 - 4} fill="#6b4a2a"/>
          <circle cx=${PX + x * C + C / 2} cy=${PY + y * C + C / 2 - 2} r=${C / 3} fill="#3f7a3a"/></g>`);
      }
    }
  }
  const holding = view.turn?.holding || null;
  const why = !ctx.interactive || ctx.mode !== "play" ? (ctx.seat !== null && ctx.mode === "play" ? "it is not your turn." : null)
    : holding ? "your section does not fit there this way: rotate or mirror it, or click one of the highlighted spots."
    : "you hold no section to lay now.";
  const symbols = view.plan?.symbols || [];
  return svg`<g class="cg-plan" aria-label="Monastery plan">
    <text x=${PX} y="18" font-size="17" font-weight="700" fill="#4a3218" dominant-baseline="central">Year ${view.year} · round ${view.round}${view.mode === "cooperative" ? " · cooperative" : ""} · level ${view.level}</text>
    ${inert(ctx, why, svg`<rect x=${PX - 4} y=${PY - 4} width=${width * C + 8} height=${height * C + 8} rx="8" fill="#b9cf98" stroke="#6f7f4e"/>
      <path d=${Array.from({ length: width + 1 }, (_, x) => `M${PX + x * C} ${PY}v${height * C}`).join("") + Array.from({ length: height + 1 }, (_, y) => `M${PX} ${PY + y * C}h${width * C}`).join("")} stroke="#a5bb84" stroke-width="0.6" fill="none"/>`)}
    ${grid}
    ${repeat(view.buildings || [], (b) => b.letter, (b) => {
      const fill = b.side === "construction" ? "#d9cfb9" : "#f4e9c9";
      const changed = ctx.changed.has(`bld:${b.letter}`);
      const [lx, ly] = b.cells[0];
      return inert(ctx, why, svg`${b.cells.map(([x, y]) => svg`<rect x=${PX + x * C + 1} y=${PY + y * C + 1} width=${C - 2} height=${C - 2} fill=${fill} stroke=${b.complete ? "#c49a1b" : "#a89a7a"} stroke-width=${b.complete ? 2.5 : 1}/>`)}
        <text x=${PX + lx * C + 9} y=${PY + ly * C + 11} font-size="14" font-weight="700" fill="#5a4326" dominant-baseline="central" text-anchor="middle">${b.letter}</text>`,
        { cls: changed ? "last-move" : "", detail: { title: `${b.letter}: ${b.name}`, kind: "Building", text: `${b.side === "construction" ? "Construction side" : "Parchment side"}${b.complete ? ", complete" : ""}.` } });
    })}
    ${symbols.map((row, y) => (typeof row === "string" ? row.split("") : row || []).map((sym, x) => {
      const col = typeof sym === "string" ? sym.toUpperCase() : null;
      if (!col || !COLOUR[col] || col === "W") return nothing;
      const cx = PX + x * C + C / 2, cy = PY + y * C + C / 2;
      return svg`<rect x=${cx - 5} y=${cy - 5} width="10" height="10" rx="2" transform=${`rotate(45 ${cx} ${cy})`} fill=${COLOUR[col]} opacity="0.8" pointer-events="none"/>`;
    }))}
    ${repeat(view.sections_placed || [], (s) => s.id, (sec) => {
      const cells = new Set(sec.cells.map(([x, y]) => `${x},${y}`));
      const changed = ctx.changed.has(`sec:${sec.id}`);
      const col = COLOUR[sec.colour] || "#999";
      return inert(ctx, why, svg`<title>${sectionWords(sec.id)}</title>${sec.cells.map(([x, y]) => svg`<rect x=${PX + x * C + 2} y=${PY + y * C + 2} width=${C - 4} height=${C - 4} rx="3" fill=${col}/>
          ${cells.has(`${x + 1},${y}`) ? svg`<rect x=${PX + x * C + C - 3} y=${PY + y * C + 6} width="6" height=${C - 12} fill=${col}/>` : nothing}
          ${cells.has(`${x},${y + 1}`) ? svg`<rect x=${PX + x * C + 6} y=${PY + y * C + C - 3} width=${C - 12} height="6" fill=${col}/>` : nothing}
          ${changed ? svg`<rect class="lm-ring" x=${PX + x * C} y=${PY + y * C} width=${C} height=${C} rx="4"/>` : nothing}`)}`,
        { cls: changed ? "last-move" : "" });
    })}
    ${(view.monks || []).map((m) => (m.cells || []).map(([x, y]) => {
      const changed = ctx.changed.has(`monk:${m.owner}:${JSON.stringify(m.cells)}`);
      return svg`<g class=${changed ? "last-move" : ""} pointer-events="none"><title>${m.kind === "lazy" ? "lazy monk" : m.kind === "guest" ? "guest monk" : "master builder"} of ${ctx.seatName(m.owner)}</title>
        <circle cx=${PX + x * C + C / 2} cy=${PY + y * C + C / 2} r=${m.kind === "lazy" ? 6 : 8} fill=${ctx.colour(m.owner)} stroke="#fff" stroke-width="2"/>
        ${m.kind === "lazy" ? svg`<line x1=${PX + x * C + 8} x2=${PX + x * C + C - 8} y1=${PY + y * C + C / 2} y2=${PY + y * C + C / 2} stroke="#fff" stroke-width="2"/>` : nothing}</g>`;
    }))}
    ${placementSpots(ctx, view, live)}
  </g>`;
}

function placementSpots(ctx, view, live) {
  const holding = view.turn?.holding || null;
  const places = matching(live, "PlaceSection").filter((c) => c.master_builder !== false);
  const feet = orientations(shapeOf(holding));
  const ui = ctx.ui;
  if (!holding || !feet.length || !places.length) return nothing;
  if (holding !== ui.holding) { ui.holding = holding; ui.orient = places[0].orientation; }
  const foot = feet[ui.orient] || feet[0];
  const here = places.filter((c) => c.orientation === ui.orient);
  const fill = COLOUR[colourOf(holding)] || "#999";
  return repeat(here, (c) => `${c.x},${c.y},${c.orientation}`, (cmd) => {
    const first = foot[0];
    const ax = PX + (cmd.x + first[0]) * C, ay = PY + (cmd.y + first[1]) * C;
    return svg`<g class="cg-spot">${foot.map(([fx, fy]) => svg`<rect class="ghost" x=${PX + (cmd.x + fx) * C + 3} y=${PY + (cmd.y + fy) * C + 3} width=${C - 6} height=${C - 6} rx="3" fill=${fill}/>`)}
      ${hot(campusGalli.label(cmd, ctx), () => ctx.send(cmd), svg`<rect class="spot-legal" x=${ax + 2} y=${ay + 2} width=${C - 4} height=${C - 4} rx="4"/><circle cx=${ax + C / 2} cy=${ay + C / 2} r="4" fill="#6b3e1f"/>`)}</g>`;
  });
}

/** @param {RenderCtx} ctx @param {CgView} view */
function handPanelSvg(ctx, view, live) {
  const x0 = 660, y0 = 34;
  const holding = view.turn?.holding || null;
  const ui = ctx.ui;
  const places = matching(live, "PlaceSection").filter((c) => c.master_builder !== false);
  const feet = orientations(shapeOf(holding));
  let body;
  if (holding && feet.length) {
    const foot = feet[ui.orient] || feet[0];
    const fill = COLOUR[colourOf(holding)] || "#999";
    const turn = (how) => {
      const want = turnFoot(feet[ui.orient] || feet[0], how);
      const idx = feet.findIndex((f) => JSON.stringify(f) === want);
      if (idx >= 0) { ui.orient = idx; ctx.rerender(); }
    };
    const here = places.filter((c) => c.orientation === ui.orient);
    body = svg`<text x=${x0 + 12} y=${y0 + 20} font-weight="700" fill="#4a3218" font-size="16" dominant-baseline="central">In hand: ${sectionWords(holding)}</text>
      ${foot.map(([x, y]) => svg`<rect x=${x0 + 20 + x * 26} y=${y0 + 40 + y * 26} width="24" height="24" rx="3" fill=${fill}/>`)}
      ${places.length ? svg`
        ${hot("Rotate the section a quarter turn", () => turn({ rotate: 1 }), svg`<rect width="100" height="32" rx="16"/><text x="50" y="16" text-anchor="middle" dominant-baseline="central">⟳ Rotate</text>`, { ui: true, cls: "svg-button", transform: `translate(${x0 + 110} ${y0 + 40})` })}
        ${hot("Mirror the section", () => turn({ mirror: true }), svg`<rect width="100" height="32" rx="16"/><text x="50" y="16" text-anchor="middle" dominant-baseline="central">⇋ Mirror</text>`, { ui: true, cls: "svg-button", transform: `translate(${x0 + 218} ${y0 + 40})` })}
        <text x=${x0 + 110} y=${y0 + 94} font-size="14" fill="#4a3218" dominant-baseline="central">${here.length ? `${here.length === 1 ? "1 spot fits" : `${here.length} spots fit`} this way: click one` : "No spot fits this way: rotate or mirror"}</text>` : nothing}`;
  } else if (view.event) {
    const ev = view.event;
    body = svg`<text x=${x0 + 12} y=${y0 + 20} font-weight="700" fill="#7a1f18" font-size="16" dominant-baseline="central">Event: ${cardName(ctx, ev.card)}</text>
      ${(ev.waiting_on || []).length ? svg`<text x=${x0 + 12} y=${y0 + 44} font-size="14" dominant-baseline="central">waiting for ${ev.waiting_on.map(ctx.seatName).join(", ")}</text>` : nothing}
      ${(ev.dice || []).map(([seat, faces], k) => svg`<text x=${x0 + 12} y=${y0 + 70 + k * 24} font-size="14" dominant-baseline="central">${ctx.seatName(seat)}</text>
        ${(faces || []).map((f, i) => svg`<rect x=${x0 + 180 + i * 24} y=${y0 + 60 + k * 24} width="20" height="20" rx="4" fill=${COLOUR[f] || (f === "BLACK" ? "#222" : "#fff")} stroke="#2b2118"><title>${f === "WHITE" ? "white: nothing" : f === "BLACK" ? "black: any 1 tile" : `${COLOUR_NAME[f] || f} tile`}</title></rect>`)}`)}`;
  } else {
    const t = view.turn;
    const end = matching(live, "EndTurn")[0];
    body = svg`<text x=${x0 + 12} y=${y0 + 20} font-weight="700" fill="#4a3218" font-size="16" dominant-baseline="central">No section in hand</text>
      ${t?.card ? svg`<text x=${x0 + 12} y=${y0 + 46} font-size="14" dominant-baseline="central">${ctx.seatName(t.seat)} plays ${cardName(ctx, t.card)}</text>` : nothing}
      ${end ? hot(campusGalli.label(end, ctx), () => ctx.send(end), svg`<rect width="180" height="34" rx="17"/><text x="90" y="17" text-anchor="middle" dominant-baseline="central">${view.turn?.stage === "rescore" ? "Stop scoring" : "End turn"}</text>`, { cls: "svg-button", transform: `translate(${x0 + 12} ${y0 + 66})` }) : nothing}`;
  }
  return svg`<g class="cg-hand" aria-label="Section in hand">
    <rect x=${x0} y=${y0} width="330" height="128" rx="10" fill="#fffaf0" stroke="#a89a7a"/>${body}</g>`;
}

/** @param {RenderCtx} ctx @param {CgView} view */
function hutSvg(ctx, view, live) {
  const hx = 660, hy = 172;
  const changedHut = ctx.changed.has("hut"), changedBag = ctx.changed.has("bag");
  const why = ctx.seat !== null && ctx.mode === "play" ? (ctx.interactive ? "you cannot take that section now (wrong card, or you cannot pay)." : "it is not your turn.") : null;
  const by = hy + 200;
  return svg`<g class="cg-hut">
    <rect x=${hx} y=${hy} width="330" height="290" rx="10" fill="#f6efdc" stroke=${changedHut ? "#ff8c00" : "#a89a7a"} stroke-width=${changedHut ? 3 : 1}/>
    <text x=${hx + 12} y=${hy + 16} font-weight="700" fill="#4a3218" font-size="16" dominant-baseline="central">Hut</text>
    ${repeat(view.hut || [], (id, k) => `${id}:${k}`, (id, k) => {
      const x = hx + 12 + (k % 8) * 39, y = hy + 34 + Math.floor(k / 8) * 36;
      const pic = svg`${(SHAPES[shapeOf(id)] || [[0, 0]]).map(([fx, fy]) => svg`<rect x=${x + fx * 11} y=${y + fy * 11} width="10" height="10" rx="2" fill=${COLOUR[colourOf(id)] || "#999"}/>`)}`;
      const cmds = matching(live, "TakeFromHut", { section: id }).concat(matching(live, "SpecialBuyFromHut", { section: id }));
      if (cmds.length) return hot(cmds.length === 1 ? campusGalli.label(cmds[0], ctx) : `Take the ${sectionWords(id)}: choose how to pay`, () => ctx.send(cmds.length === 1 ? cmds[0] : cmds), svg`<rect class="spot-legal" x=${x - 3} y=${y - 3} width="39" height="29" rx="5"/>${pic}`);
      return inert(ctx, why, svg`<title>${sectionWords(id)}</title>${pic}`);
    })}
    <text x=${hx + 12} y=${by - 14} font-weight="700" fill="#4a3218" font-size="15" dominant-baseline="central">Bag: ${plural(view.bag?.count ?? 0, "section")}</text>
    <g class=${changedBag ? "last-move" : ""}>${Object.keys(SHAPES).map((shp, k) => {
      const x = hx + 12 + (k % 3) * 106, y = by + Math.floor(k / 3) * 40;
      const n = Object.values(view.bag?.by_shape?.[shp] || {}).reduce((a, b) => a + b, 0);
      const pic = svg`${SHAPES[shp].map(([fx, fy]) => svg`<rect x=${x + fx * 11} y=${y + fy * 11} width="10" height="10" rx="2" fill="#8a7a5a"/>`)}
        <text x=${x + 40} y=${y + 10} font-size="15" dominant-baseline="central">×${n}</text>`;
      const cmds = matching(live, "DrawFromBag", { shape: shp }).concat(matching(live, "SpecialBuyFromBag", { shape: shp }));
      if (cmds.length) return hot(cmds.length === 1 ? campusGalli.label(cmds[0], ctx) : `Draw a ${SHAPE_NAME[shp]} section: choose how to pay`, () => ctx.send(cmds.length === 1 ? cmds[0] : cmds), svg`<rect class="spot-legal" x=${x - 4} y=${y - 4} width="86" height="30" rx="5"/>${pic}`);
      return inert(ctx, why, svg`<title>${plural(n, `${SHAPE_NAME[shp]} section`)} in the bag</title>${pic}`);
    })}</g>
  </g>`;
}

