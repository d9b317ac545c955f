// Shared SVG pieces for card-like things: cards face up or down, tokens, labels.
import { s, text } from "../dom.js";

/** A face-down card: a back pattern and nothing that identifies it. */
export function cardBack(x, y, w = 64, h = 92, attrs = {}) {
  return s("g", { class: "card back", transform: `translate(${x} ${y})`, ...attrs },
    s("rect", { width: w, height: h, rx: 7, class: "card-back" }),
    s("rect", { x: 6, y: 6, width: w - 12, height: h - 12, rx: 4, class: "card-back-inner" }),
    s("path", { d: `M${w / 2} ${h / 2 - 14} l10 14 l-10 14 l-10 -14z`, class: "card-back-mark" }),
  );
}

/** A face-up card with a big value and its id in the corner. */
export function cardFace(x, y, { big, small, colour = "#6b3e1f", w = 64, h = 92, cls = "" } = {}) {
  return s("g", { class: `card face ${cls}`, transform: `translate(${x} ${y})` },
    s("rect", { width: w, height: h, rx: 7, class: "card-face" }),
    small ? text(8, 12, small, { "text-anchor": "start", class: "card-small" }) : null,
    text(w / 2, h / 2 + 4, big, { class: "card-big", fill: colour }),
  );
}

/** A round counter with a number, e.g. coins or points. */
export function counter(x, y, r, value, { fill = "#d9a441", label = "" } = {}) {
  return s("g", { class: "counter", transform: `translate(${x} ${y})` },
    label ? s("title", { text: label }) : null,
    s("circle", { r, fill, class: "counter-disc" }),
    text(0, 1, String(value), { class: "counter-text" }),
  );
}
