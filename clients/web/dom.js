// Small DOM and SVG helpers. Text from the server always goes in via textContent, never
// innerHTML, so nothing the server or another player sends can inject markup.

export const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "class") el.setAttribute("class", Array.isArray(v) ? v.filter(Boolean).join(" ") : v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(el, children) {
  for (const c of [children].flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** An HTML element: h("button", {class: "x", onclick: f}, "Label"). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element: s("rect", {x: 0, y: 0, width: 10, height: 10}). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** An <svg> root that scales to its box. */
export function svgRoot(width, height, label) {
  return s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "board-svg",
    role: "group",
    "aria-label": label,
    preserveAspectRatio: "xMidYMid meet",
  });
}

/** SVG text, centred by default. */
export function text(x, y, str, attrs = {}) {
  return s("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs, text: str });
}

/** Make an SVG (or HTML) element act as a button: focusable, labelled, Enter/Space.
 *  `uiOnly` marks a control that changes only this page (select, rotate), not the game. */
export function clickable(el, label, onActivate, uiOnly = false) {
  if (uiOnly) el.setAttribute("data-ui", "1");
  el.setAttribute("role", "button");
  el.setAttribute("tabindex", "0");
  el.setAttribute("aria-label", label);
  const cls = el.getAttribute("class");
  el.setAttribute("class", cls ? `${cls} hot` : "hot");
  if (!el.querySelector?.(":scope > title")) {
    const t = document.createElementNS(SVG_NS, "title");
    t.textContent = label;
    if (el.namespaceURI === SVG_NS) el.prepend(t);
  }
  // A control inside another (a card in a slot) acts alone: stop the event here.
  el.addEventListener("click", (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    onActivate(ev);
  });
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " " || ev.key === "Spacebar") {
      ev.preventDefault();
      ev.stopPropagation();
      onActivate(ev);
    }
  });
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** "PlaceSection" -> "Place section"; "take_coin" -> "Take coin". */
export function humanize(name) {
  const spaced = String(name)
    .replace(/[_-]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** Compact words for a value inside a label. */
export function words(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(words).join(", ");
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${humanize(k).toLowerCase()} ${words(v)}`).join(", ");
  }
  return String(value);
}

let toastSeq = 0;
/** A message that fades away; kind "error" is announced assertively. */
export function toast(message, kind = "info", ms = 6000) {
  const host = document.getElementById("toasts");
  if (!host) return;
  const id = `toast-${++toastSeq}`;
  const el = h(
    "div",
    { class: ["toast", kind], id, role: kind === "error" ? "alert" : "status" },
    h("span", { class: "toast-text" }, message),
    h("button", { class: "toast-close", "aria-label": "Dismiss message", onclick: () => el.remove() }, "×"),
  );
  host.append(el);
  setTimeout(() => el.remove(), ms);
  return el;
}
