// Pieces shared by the live game page and the replay page.
import { h, humanize, clear } from "./dom.js";
import { getGameTypes } from "./api.js";

let typesPromise = null;
/** Game types, fetched once per page load. */
export function gameTypes() {
  if (!typesPromise) typesPromise = getGameTypes().catch((e) => { typesPromise = null; throw e; });
  return typesPromise;
}

export function seatName(summary, seat) {
  const s = summary?.seats?.find((x) => x.seat === seat);
  if (!s) return `Player ${seat + 1}`;
  const who = s.name || (s.bot ? `bot (${s.bot})` : null);
  return who ? `${s.label} (${who})` : s.label;
}

export function shortSeatName(summary, seat) {
  const s = summary?.seats?.find((x) => x.seat === seat);
  if (!s) return `Player ${seat + 1}`;
  return s.name || (s.bot ? `${s.label} (bot)` : s.label);
}

export function linkTo(hash) {
  return `${location.origin}${location.pathname}${hash}`;
}

/** A read-only field with a copy button, for shareable links. */
export function shareField(label, url, note) {
  const id = `share-${Math.random().toString(36).slice(2, 8)}`;
  const input = h("input", { id, type: "text", readonly: true, value: url, class: "share-url" });
  const btn = h("button", {
    type: "button",
    class: "small",
    "aria-label": `Copy ${label.toLowerCase()}`,
    onclick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(url);
        btn.textContent = "Copied";
      } catch {
        document.execCommand?.("copy");
        btn.textContent = "Copied";
      }
      setTimeout(() => (btn.textContent = "Copy"), 1500);
    },
  }, "Copy");
  return h("div", { class: "share" },
    h("label", { for: id }, label),
    h("div", { class: "share-row" }, input, btn),
    note ? h("small", { class: "muted" }, note) : null,
  );
}

/** Fill an <ol> with events in words; `current` marks one version (replay). */
export function renderLog(ol, events, current) {
  clear(ol);
  // Runs of events the viewer may not see fold into one line.
  const rows = [];
  for (const e of events) {
    const last = rows[rows.length - 1];
    if (e.type === "Hidden" && last && last.type === "Hidden" && !last.text) {
      last.count = (last.count || 1) + 1;
      last.versions.push(e.version);
      last.version = e.version;
    } else {
      rows.push({ ...e, versions: [e.version] });
    }
  }
  for (const e of rows) {
    const isCurrent = current !== undefined && e.versions.includes(current);
    let t = e.text || (e.type === "Hidden" ? "Something happened out of sight" : humanize(e.type));
    if (e.count > 1) t = `${e.count} things happened out of sight`;
    const label = e.count > 1 ? `${e.versions[0]}–${e.version}` : `${e.version}`;
    const li = h("li", { class: ["log-entry", e.type === "Hidden" && "hidden-event", e.type === "cloister.Chat" && "chat-line", isCurrent && "current"], "data-version": e.version },
      h("span", { class: "log-v", "aria-hidden": "true" }, label),
      h("span", { class: "log-text" }, t),
    );
    if (isCurrent) li.setAttribute("aria-current", "step");
    ol.append(li);
  }
}

/** The final result in words and a small table. */
export function resultBlock(summary, result) {
  if (!result) return null;
  const rows = (result.scores || []).map((score, seat) =>
    h("tr", { class: (result.winners || []).includes(seat) ? "winner" : "" },
      h("th", { scope: "row" }, seatName(summary, seat)),
      h("td", {}, String(score)),
      h("td", {}, (result.winners || []).includes(seat) ? "winner" : ""),
    ),
  );
  return h("section", { class: "result", "aria-label": "Result" },
    h("h2", {}, "Result"),
    result.summary ? h("p", {}, result.summary) : null,
    rows.length ? h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Score"), h("th", {}, ""))), h("tbody", {}, rows)) : null,
  );
}

/** Re-render `host` with `build`, keeping keyboard focus on the "same" control. */
export function keepFocus(host, build) {
  const active = document.activeElement;
  let key = null;
  if (active && host.contains(active)) key = active.getAttribute("data-key") || active.getAttribute("aria-label") || active.textContent;
  build();
  if (key) {
    const candidates = host.querySelectorAll("[tabindex], button, input, select");
    for (const el of candidates) {
      if ((el.getAttribute("data-key") || el.getAttribute("aria-label") || el.textContent) === key) {
        el.focus({ preventScroll: true });
        break;
      }
    }
  }
}

const COLOURS = ["#b5443b", "#2f6f9f", "#4f8a3c", "#c08a1e", "#7a4f9a", "#3c8a86"];
/** A stable colour per seat, shared by every renderer. */
export function seatColour(seat) {
  return COLOURS[((seat % COLOURS.length) + COLOURS.length) % COLOURS.length];
}
