// @ts-check
// Components shared by every page and game: clickable board spots, cards, counters, the
// players panel, the log, the clock slot, the detail panel, the confirm/choose dialog.
// Each is a pure function from data to a lit template; state lives in the page controllers.
import { html, svg, nothing, repeat, classMap } from "./lit.js";

/** @typedef {import("./types.js").RenderCtx} RenderCtx */
/** @typedef {import("./types.js").Detail} Detail */
/** @typedef {import("./types.js").WireEvent} WireEvent */

/** Enter and Space act like a click on anything with role="button". */
export function onKeys(fn) {
  return (/** @type {KeyboardEvent} */ ev) => {
    if (ev.key === "Enter" || ev.key === " " || ev.key === "Spacebar") {
      ev.preventDefault();
      ev.stopPropagation();
      fn(ev);
    }
  };
}

function onClick(fn) {
  return (/** @type {Event} */ ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    fn(ev);
  };
}

/**
 * A board spot that does something: focusable, labelled, answers to click, Enter and Space.
 * `ui` marks a control that changes only this page (select, rotate), not the game.
 * @param {string} label
 * @param {(ev: Event) => void} fn
 * @param {any} content   SVG children
 * @param {{ui?: boolean, cls?: string, detail?: Detail|null, ctx?: RenderCtx, transform?: string}} [o]
 */
export function hot(label, fn, content, o = {}) {
  const d = o.detail && o.ctx ? detailHandlers(o.ctx, o.detail) : null;
  return svg`<g class=${`hot ${o.cls || ""}`} role="button" tabindex="0" aria-label=${label}
      data-ui=${o.ui ? "1" : nothing} transform=${o.transform || nothing}
      @click=${onClick(fn)} @keydown=${onKeys(fn)}
      @mouseenter=${d ? d.show : nothing} @mouseleave=${d ? d.hide : nothing}
      @focus=${d ? d.show : nothing} @blur=${d ? d.hide : nothing}><title>${label}</title>${content}</g>`;
}

/**
 * A board spot that is not legal now: a click says why, in words (it is not a control, so
 * it is not in the tab order; the reason is also its tooltip).
 * @param {RenderCtx} ctx
 * @param {string|null} reason
 * @param {any} content
 * @param {{cls?: string, detail?: Detail|null, transform?: string}} [o]
 */
export function inert(ctx, reason, content, o = {}) {
  const d = o.detail ? detailHandlers(ctx, o.detail) : null;
  const say = reason && ctx.mode === "play" ? () => ctx.why(reason) : null;
  return svg`<g class=${`inert ${o.cls || ""}`} transform=${o.transform || nothing}
      @click=${say || (d ? () => d.pin() : nothing)}
      @mouseenter=${d ? d.show : nothing} @mouseleave=${d ? d.hide : nothing}>${content}</g>`;
}

/** @param {RenderCtx} ctx @param {Detail} detail */
export function detailHandlers(ctx, detail) {
  return {
    show: () => ctx.detail(detail),
    hide: () => ctx.detail(null),
    pin: () => ctx.detail(detail, true),
  };
}

/**
 * A card as HTML (readable type at any board scale): colour bar, printed name, rules text.
 * With `act` it is a button; otherwise it can still be focused (or tapped) for its details.
 * @param {RenderCtx} ctx
 * @param {{key?: string, name: string, kind?: string, text?: string, colour?: string,
 *   cls?: Record<string, boolean>|string, label?: string, act?: (() => void)|null, ui?: boolean,
 *   detail?: Detail|null, corner?: any, body?: any, changed?: boolean}} c
 */
export function card(ctx, c) {
  const detail = c.detail === undefined ? { title: c.name, kind: c.kind, text: c.text } : c.detail;
  const d = detail ? detailHandlers(ctx, detail) : null;
  const cls = { card: true, hcard: true, hot: !!c.act, "last-move": !!c.changed, ...(typeof c.cls === "string" ? { [c.cls]: true } : c.cls || {}) };
  const label = c.label || `${c.name}${c.kind ? `, ${c.kind}` : ""}${c.text ? `: ${c.text}` : ""}`;
  const act = c.act;
  return html`<div class=${classMap(cls)} role=${act ? "button" : "img"} tabindex="0" aria-label=${label}
      data-ui=${c.ui ? "1" : nothing} data-key=${c.key || nothing}
      @click=${act ? onClick(act) : d ? () => d.pin() : nothing} @keydown=${act ? onKeys(act) : nothing}
      @mouseenter=${d ? d.show : nothing} @mouseleave=${d ? d.hide : nothing}
      @focus=${d ? d.show : nothing} @blur=${d ? d.hide : nothing}>
    <div class="card-bar" style=${c.colour ? `background:${c.colour}` : ""}>${c.corner !== undefined && c.corner !== "" ? html`<span class="card-corner">${c.corner}</span>` : nothing}</div>
    <div class="card-name">${c.name}</div>
    ${c.kind ? html`<div class="card-kind">${c.kind}</div>` : nothing}
    ${c.body ?? nothing}
    ${c.text ? html`<div class="card-text">${shortText(c.text)}</div>` : nothing}
  </div>`;
}

/** The first sentence of a rules text: what the card does, in short (the detail panel has it all). */
export function shortText(text, max = 110) {
  if (!text) return "";
  const m = /^(.+?[.;!?])(\s|$)/.exec(text);
  let first = m ? m[1] : text;
  if (first.length > max) first = `${first.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
  return first;
}

/** A face-down card: nothing on it identifies it. */
export function cardBack(label = "a face-down card") {
  return html`<div class="card hcard back" role="img" aria-label=${label}><div class="back-mark" aria-hidden="true"></div></div>`;
}

/**
 * A row of cards that never overlap (wraps or scrolls sideways), keyed so focus stays put.
 * @template T
 * @param {string} label
 * @param {T[]} items
 * @param {(item: T, i: number) => string} key
 * @param {(item: T, i: number) => any} draw
 */
export function hand(label, items, key, draw, cls = "") {
  return html`<div class=${`hand ${cls}`} role="group" aria-label=${label}>${repeat(items, key, draw)}</div>`;
}

/** A small counter: a value with its name. */
export function counter(value, label, colour = "") {
  return html`<span class="counter" title=${label}><span class="counter-v" style=${colour ? `background:${colour}` : ""}>${value}</span><span class="counter-l">${label}</span></span>`;
}

/** A seat's clock and stand-in (``clock.js`` fills it): a slot per seat in the players panel. */
export function clockSlot(seat, content = nothing) {
  return html`<span class="clock-slot" data-seat=${seat}>${content}</span>`;
}

/**
 * The players panel: every seat with its colour, name, score, place in the turn order and
 * whether the game waits for it.
 * @param {{seats: import("./types.js").SeatSummary[], lines: import("./types.js").PlayerLine[],
 *   me: number|null, toAct: number[], running: boolean, name: (s: number) => string,
 *   colour: (s: number) => string, extra?: (seat: import("./types.js").SeatSummary) => any,
 *   clock?: (seat: number) => any}} p
 */
export function playersPanel(p) {
  const bySeat = new Map(p.lines.map((l) => [l.seat, l]));
  const ordered = [...p.seats].sort((a, b) => (bySeat.get(a.seat)?.order ?? 99) - (bySeat.get(b.seat)?.order ?? 99) || a.seat - b.seat);
  return html`<section class="panel players" aria-labelledby="seats-h" tabindex="0">
    <h2 id="seats-h">Players</h2>
    <ol class="seat-list">${repeat(ordered, (s) => s.seat, (s) => {
      const line = bySeat.get(s.seat);
      const acting = p.running && p.toAct.includes(s.seat);
      return html`<li class=${classMap({ seat: true, "to-act": acting, me: p.me === s.seat })} data-seat=${s.seat}
          style=${`--seat:${p.colour(s.seat)}`}>
        <span class="seat-dot" aria-hidden="true"></span>
        <span class="seat-name" title=${p.name(s.seat)}>${line?.order ? html`<span class="seat-order" title="place in the turn order">${line.order}.</span> ` : nothing}${p.name(s.seat)}${p.me === s.seat ? html` <span class="you">(you)</span>` : nothing}</span>
        ${acting ? html`<span class="badge">${p.me === s.seat ? "your turn" : "to act"}</span>` : nothing}
        ${clockSlot(s.seat, p.clock ? p.clock(s.seat) : nothing)}
        ${line?.score !== undefined ? html`<span class="seat-score">${line.score}</span>` : nothing}
        ${line?.note ? html`<span class="seat-note">${line.note}</span>` : nothing}
        ${p.extra ? p.extra(s) : nothing}
      </li>`;
    })}</ol>
  </section>`;
}

/**
 * Log rows: runs of hidden events fold into one line; `current` marks one version (replay);
 * versions in `undone` (taken back by an undo) are struck out; `tool` adds a control at the
 * end of a row (the game page's "Undo to here").
 * @param {WireEvent[]} events
 * @param {{current?: number, colourOf?: (e: WireEvent) => string|null, undone?: Set<number>, tool?: (r: WireEvent) => unknown}} [o]
 */
export function logRows(events, o = {}) {
  /** @type {Array<WireEvent & {versions: number[], count?: number}>} */
  const rows = [];
  for (const e of events) {
    const last = rows[rows.length - 1];
    if (e.type === "Hidden" && !e.text) {
      if (last && last.type === "Hidden" && !last.text) {
        last.count = (last.count || 1) + 1;
        last.versions.push(e.version);
        last.version = e.version;
      } else {
        rows.push({ ...e, versions: [e.version] });
      }
    } else if (!e.text || e.text === e.type) {
      // Bookkeeping without a sentence (or only its event name): no log line. The narrator
      // decides what is news; the page never makes up its own words for an event.
      continue;
    } else {
      rows.push({ ...e, versions: [e.version] });
    }
  }
  return repeat(rows, (r) => r.versions[0], (r) => {
    const isCurrent = o.current !== undefined && r.versions.includes(o.current);
    let t = r.text || "Something happened out of sight";
    if (r.count && r.count > 1) t = `${r.count} things happened out of sight`;
    const colour = o.colourOf?.(r) || null;
    return html`<li class=${classMap({ "log-entry": true, "hidden-event": r.type === "Hidden", "chat-line": r.type === "cloister.Chat", undone: !!o.undone?.has(r.version), current: isCurrent })}
        data-version=${r.version} aria-current=${isCurrent ? "step" : nothing} style=${colour ? `--seat:${colour}` : ""}>
      <span class="log-mark" aria-hidden="true"></span><span class="log-text">${t}</span>${o.tool ? o.tool(r) : nothing}</li>`;
  });
}

/** The detail panel: the full rules text of what the pointer or focus is on. */
export function detailPanel(d, pinned, close) {
  if (!d) return html`<div class="detail" aria-live="polite"></div>`;
  return html`<div class=${pinned ? "detail shown pinned" : "detail shown"} aria-live="polite" role="note">
    <div class="detail-title">${d.title}${d.kind ? html` <span class="detail-kind">${d.kind}</span>` : nothing}</div>
    ${d.text ? html`<p class="detail-text">${d.text}</p>` : nothing}
    ${(d.lines || []).map((l) => html`<p class="detail-line">${l}</p>`)}
    ${pinned ? html`<button type="button" class="small secondary detail-close" @click=${close}>Close</button>` : nothing}
  </div>`;
}

/**
 * The modal dialog that asks before a costly move, or which of several moves a click meant.
 * @param {{kind: "confirm"|"choose", question: string, options: Array<{label: string, run: () => void}>}|null} d
 * @param {() => void} cancel
 */
export function dialogBody(d, cancel) {
  if (!d) return nothing;
  return html`<form method="dialog" class="dialog-body" @submit=${(/** @type {Event} */ e) => e.preventDefault()}>
    <h2 id="dialog-h">${d.kind === "confirm" ? "Are you sure?" : "Which move?"}</h2>
    <p id="dialog-q">${d.question}</p>
    <div class="dialog-options">
      ${d.options.map((o, i) => html`<button type="button" class=${i === 0 ? "primary" : ""} @click=${o.run}>${o.label}</button>`)}
      <button type="button" class="secondary" @click=${cancel}>Cancel</button>
    </div>
  </form>`;
}

/** An SVG label with a readable minimum size. */
export function label(x, y, str, attrs = {}) {
  const a = { anchor: "start", size: 16, weight: 400, fill: "#4a3218", ...attrs };
  return svg`<text x=${x} y=${y} text-anchor=${a.anchor} font-size=${a.size} font-weight=${a.weight} fill=${a.fill} dominant-baseline="central">${str}</text>`;
}
