// @ts-check
// Small helpers outside the rendering library: words for values, and toasts (messages that
// fade away). Text from the server always goes in as text, never as markup.

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
  if (!host) return null;
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.id = `toast-${++toastSeq}`;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  const text = document.createElement("span");
  text.className = "toast-text";
  text.textContent = message;
  const close = document.createElement("button");
  close.className = "toast-close";
  close.setAttribute("aria-label", "Dismiss message");
  close.textContent = "×";
  close.addEventListener("click", () => el.remove());
  el.append(text, close);
  host.append(el);
  setTimeout(() => el.remove(), ms);
  return el;
}
