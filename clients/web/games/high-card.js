// High Card (the demo game): deck, discard pile, each seat's hand, scores and secret choices.
import { s, text, svgRoot, clickable } from "../dom.js";
import { seatColour } from "../common.js";
import { matching } from "./util.js";
import { cardBack, cardFace, counter } from "./card.js";

const W = 1000;
const H = 620;
const CW = 64;
const CH = 92;
const value = (card) => Number(String(card).slice(3));

export default {
  title: "High Card",

  status({ view, seatName }) {
    if (!view) return "";
    if (view.phase === "draw") return `draw phase, round ${view.round} of 3: ${seatName ? seatName(view.turn) : `Player ${view.turn + 1}`} draws or passes`;
    if (view.phase === "play") return `play phase, round ${view.round} of 3: every player secretly picks a card`;
    if (view.phase === "over") return "the game is over";
    return view.phase || "";
  },

  label(cmd, { view }) {
    switch (cmd.type) {
      case "Draw": return `Draw a card (${view?.deck_count ?? "?"} left)`;
      case "Pass": return "Pass (take no card)";
      case "PlayCard": return `Play ${cmd.card} (value ${value(cmd.card)})`;
      default: return null;
    }
  },

  render(host, ctx) {
    const { view, legal, seat, interactive } = ctx;
    const n = view.hand_counts?.length || view.scores?.length || 2;
    const me = seat ?? 0;
    const svg = svgRoot(W, H, `High Card table, round ${view.round}, ${view.phase} phase`);
    svg.append(s("rect", { x: 0, y: 0, width: W, height: H, rx: 18, class: "felt" }));

    // Seats: the viewer's seat at the bottom, the others along the top.
    const order = [...Array(n).keys()].sort((a, b) => ((a - me + n) % n) - ((b - me + n) % n));
    const spots = [{ x: W / 2, y: 500 }];
    const others = order.length - 1;
    for (let i = 0; i < others; i++) spots.push({ x: (W * (i + 1)) / (others + 1), y: 110 });
    const committed = new Set(view.choices?.committed || []);
    const mine = view.choices?.mine || null;

    order.forEach((st, i) => {
      const { x, y } = spots[i];
      const hand = view.hands?.[st];
      const count = view.hand_counts?.[st] ?? (hand ? hand.length : 0);
      const g = s("g", { class: ["seat-area", st === seat && "mine", (ctx.toAct || []).includes(st) && "to-act"].filter(Boolean).join(" "), "aria-label": `${ctx.seatName(st)}: ${count} cards, score ${view.scores?.[st] ?? 0}` });
      g.append(s("rect", { x: x - 170, y: y - 75, width: 340, height: 150, rx: 14, class: "seat-box", stroke: seatColour(st) }));
      g.append(text(x - 160, y - 60, ctx.seatName(st) + (st === seat ? " (you)" : ""), { "text-anchor": "start", class: "seat-label", fill: seatColour(st) }));
      g.append(counter(x + 145, y - 52, 18, view.scores?.[st] ?? 0, { label: `score ${view.scores?.[st] ?? 0}` }));
      const cardsW = count * (CW + 10) - 10;
      const x0 = x - cardsW / 2;
      for (let k = 0; k < count; k++) {
        const cx = x0 + k * (CW + 10);
        const cy = y - 40;
        if (hand && hand[k] !== undefined) {
          const card = hand[k];
          const chosen = mine && st === seat && mine.includes(card);
          const face = cardFace(cx, cy, { big: String(value(card)), small: card, colour: seatColour(st), cls: chosen ? "chosen" : "" });
          const cmd = st === seat && interactive ? matching(legal, "PlayCard", { card })[0] : null;
          if (cmd) clickable(face, `Play ${card} (value ${value(card)})`, () => ctx.send(cmd));
          g.append(face);
        } else {
          g.append(cardBack(cx, cy, CW, CH));
        }
      }
      if (count === 0) g.append(text(x, y, "no cards", { class: "muted-svg" }));
      if (view.phase === "play" && committed.has(st)) {
        g.append(text(x, y + 62, st === seat && mine ? `you chose ${mine.join(", ")}` : "has chosen a card", { class: "note-svg" }));
      } else if (view.phase === "play" && (view.choices?.waiting_on || []).includes(st)) {
        g.append(text(x, y + 62, "choosing…", { class: "note-svg" }));
      }
      svg.append(g);
    });

    // Deck and discard pile in the middle.
    const deck = s("g", { class: "deck" });
    const dx = 330, dy = 250;
    const shown = Math.min(view.deck_count || 0, 4);
    for (let k = 0; k < shown; k++) deck.append(cardBack(dx + k * 3, dy - k * 3, CW, CH));
    if (!view.deck_count) deck.append(s("rect", { x: dx, y: dy, width: CW, height: CH, rx: 7, class: "empty-slot" }));
    deck.append(text(dx + CW / 2, dy + CH + 18, `deck: ${view.deck_count ?? 0}`, { class: "label-svg" }));
    const draw = interactive ? matching(legal, "Draw")[0] : null;
    if (draw) {
      deck.prepend(s("rect", { x: dx - 8, y: dy - 20, width: CW + 26, height: CH + 28, rx: 10, class: "spot-legal" }));
      clickable(deck, `Draw a card (${view.deck_count} left)`, () => ctx.send(draw));
    }
    svg.append(deck);

    const pass = interactive ? matching(legal, "Pass")[0] : null;
    if (pass) {
      const b = s("g", { class: "svg-button", transform: `translate(${dx - 130} ${dy + 30})` },
        s("rect", { width: 100, height: 36, rx: 18 }), text(50, 18, "Pass"));
      clickable(b, "Pass (take no card)", () => ctx.send(pass));
      svg.append(b);
    }

    const discard = view.discard || [];
    svg.append(text(560, dy - 16, "discard", { class: "label-svg", "text-anchor": "start" }));
    discard.slice(-6).forEach((card, k) => {
      svg.append(cardFace(560 + k * 40, dy, { big: String(value(card)), small: card, cls: "discarded" }));
    });
    svg.append(text(W - 20, 26, `Round ${Math.min(view.round, 3)} of 3 · ${view.phase}`, { "text-anchor": "end", class: "label-svg" }));
    if (view.deck && view.deck.length) {
      svg.append(text(20, 26, `deck order: ${view.deck.join(" ")}`, { "text-anchor": "start", class: "label-svg small" }));
    }
    host.append(svg);
  },
};
