// @ts-check
// High Card (the demo game): deck, discard pile, each seat's hand, scores and secret choices.
import { html, svg, nothing, repeat } from "../lit.js";
import { hot, inert, card, cardBack, hand } from "../ui.js";
import { matching, plural } from "./util.js";

/**
 * @typedef {Object} HighCardView
 * @property {"draw"|"play"|"over"} phase
 * @property {number} round
 * @property {number} turn              the seat that draws now
 * @property {number} deck_count
 * @property {string[]} [deck]          the deck order, only in the review view
 * @property {string[]} discard
 * @property {Array<string[]|null>} hands   a seat's cards, or null where hidden
 * @property {number[]} hand_counts
 * @property {number[]} scores
 * @property {{committed: number[], waiting_on: number[], mine: string[]|null}} [choices]
 */

/** @typedef {import("../types.js").RenderCtx} RenderCtx */

const value = (c) => Number(String(c).slice(3));

/** @type {import("../types.js").Renderer} */
const highCard = {
  title: "High Card",

  status({ view, seatName }) {
    if (!view) return "";
    if (view.phase === "draw") return `draw phase, round ${view.round} of 3: ${seatName(view.turn)} draws or passes`;
    if (view.phase === "play") return `play phase, round ${view.round} of 3: every player secretly picks a card`;
    if (view.phase === "over") return "the game is over";
    return "";
  },

  label(cmd, { view }) {
    switch (cmd.type) {
      case "Draw": return `Draw a card (${view?.deck_count ?? "?"} left)`;
      case "Pass": return "Pass (take no card)";
      case "PlayCard": return `Play the ${value(cmd.card)}`;
      default: return null;
    }
  },

  players({ view }) {
    return (view.scores || []).map((score, seat) => ({ seat, score: plural(score, "point"), note: plural(view.hand_counts?.[seat] ?? 0, "card") }));
  },

  marks(prev, view) {
    const out = new Set();
    if (prev.deck_count !== view.deck_count) out.add("deck");
    if ((prev.discard || []).length !== (view.discard || []).length) out.add("discard");
    (view.hand_counts || []).forEach((n, s) => { if (n !== prev.hand_counts?.[s]) out.add(`hand:${s}`); });
    (view.scores || []).forEach((n, s) => { if (n !== prev.scores?.[s]) out.add(`score:${s}`); });
    return out;
  },

  render(ctx) {
    const view = /** @type {HighCardView} */ (ctx.view);
    const live = ctx.interactive ? ctx.legal : [];
    const n = view.hand_counts?.length || view.scores?.length || 2;
    const me = ctx.seat ?? 0;
    const order = [...Array(n).keys()].sort((a, b) => ((a - me + n) % n) - ((b - me + n) % n));
    const draw = matching(live, "Draw")[0];
    const pass = matching(live, "Pass")[0];
    const deckPic = svg`<rect x="0" y="0" width="80" height="112" rx="8" class="card-back"/><path d="M40 40 l12 16 l-12 16 l-12 -16z" class="card-back-mark"/>`;
    const deck = draw
      ? hot(this.label(draw, ctx), () => ctx.send(draw), svg`<rect x="-8" y="-8" width="96" height="128" rx="10" class="spot-legal"/>${deckPic}`, { transform: "translate(60 20)" })
      : inert(ctx, ctx.seat === null ? null : "It is not your turn to draw.", deckPic, { transform: "translate(60 20)", cls: ctx.changed.has("deck") ? "last-move" : "" });
    return html`<div class="hc-table">
      <svg class="board-svg hc-svg" viewBox="0 0 400 160" role="group" aria-label=${`High Card table, round ${view.round}, ${view.phase} phase`}>
        <rect width="400" height="160" rx="14" class="felt"/>
        ${deck}
        <text x="100" y="150" text-anchor="middle" class="label-svg">deck: ${view.deck_count ?? 0}</text>
        ${pass ? hot("Pass (take no card)", () => ctx.send(pass), svg`<rect width="110" height="40" rx="20"/><text x="55" y="20" dominant-baseline="central" text-anchor="middle">Pass</text>`, { cls: "svg-button", transform: "translate(250 60)" }) : nothing}
      </svg>
      <div class="hc-seats">${repeat(order, (s) => s, (s) => {
        const cards = view.hands?.[s];
        const count = view.hand_counts?.[s] ?? (cards ? cards.length : 0);
        const committed = (view.choices?.committed || []).includes(s);
        const mine = s === ctx.seat ? view.choices?.mine || null : null;
        return html`<section class="hc-seat" style=${`--seat:${ctx.colour(s)}`} aria-label=${`${ctx.seatName(s)}: ${plural(count, "card")}, score ${view.scores?.[s] ?? 0}`}>
          <h3>${ctx.seatName(s)}${s === ctx.seat ? " (you)" : ""} · ${plural(view.scores?.[s] ?? 0, "point")}</h3>
          ${cards ? hand(`${ctx.seatName(s)}'s hand`, cards, (c) => c, (c) => {
            const cmd = s === ctx.seat ? matching(live, "PlayCard", { card: c })[0] : null;
            return card(ctx, { key: c, name: String(value(c)), kind: "card", text: `worth ${value(c)}`, act: cmd ? () => ctx.send(cmd) : null, label: cmd ? `Play ${c} (value ${value(c)})` : `card ${value(c)}`, cls: { chosen: !!mine?.includes(c) } });
          }) : hand(`${ctx.seatName(s)}'s hand`, [...Array(count).keys()], (k) => String(k), () => cardBack())}
          ${view.phase === "play" && committed ? html`<p class="note">${mine ? `You chose ${mine.map(value).join(", ")}` : "has chosen a card"}</p>` : nothing}
        </section>`;
      })}</div>
      ${view.discard?.length ? html`<div class="hc-discard"><h3>Discard</h3>${hand("Discard pile", view.discard.slice(-8), (c) => c, (c) => card(ctx, { name: String(value(c)), kind: "card", cls: "small" }))}</div>` : nothing}
    </div>`;
  },
};
export default highCard;
