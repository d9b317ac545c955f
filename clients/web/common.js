// @ts-check
// Pieces shared by the live game page, the replay page and the lobby.
import { html, nothing } from "./lit.js";
import { getGameTypes, getGlossary } from "./api.js";

/** @typedef {import("./types.js").GameSummary} GameSummary */
/** @typedef {import("./types.js").GameResult} GameResult */
/** @typedef {import("./types.js").Breakdown} Breakdown */

/** @type {Promise<any[]>|null} */
let typesPromise = null;
/** Game types, fetched once per page load. */
export function gameTypes() {
  if (!typesPromise) typesPromise = getGameTypes().catch((e) => { typesPromise = null; throw e; });
  return typesPromise;
}

/** @type {Map<string, Promise<Record<string, any>>>} */
const glossaries = new Map();
/** A game type's printed names and rules text by id; empty when the server has none. */
export function glossary(type) {
  if (!glossaries.has(type)) glossaries.set(type, getGlossary(type).catch(() => ({})));
  return /** @type {Promise<Record<string, any>>} */ (glossaries.get(type));
}

/** "France (Ann)", "Reverent (Brother Anselm)", "Monk 2": the seat label, then who sits there. */
export function seatName(summary, seat) {
  const s = summary?.seats?.find((x) => x.seat === seat);
  if (!s) return `Player ${seat + 1}`;
  // Bots are named by the server ("Brother Anselm (bot)"): "Reverent (Brother Anselm, bot)".
  let who = s.name || (s.bot ? "a bot" : null);
  if (who && s.bot && / \(bot\)$/.test(who)) who = `${who.replace(/ \(bot\)$/, "")}, bot`;
  return who && who !== s.label ? `${s.label} (${who})` : s.label;
}

/** The seat label alone ("France"), as the board and the log name it. */
export function seatLabel(summary, seat) {
  const s = summary?.seats?.find((x) => x.seat === seat);
  return s ? s.label : `Player ${seat + 1}`;
}

export function linkTo(hash) {
  return `${location.origin}${location.pathname}${hash}`;
}

/** A read-only field with a copy button, for shareable links. */
export function shareField(label, url, note, id) {
  const copy = async (/** @type {Event} */ ev) => {
    const btn = /** @type {HTMLButtonElement} */ (ev.currentTarget);
    const input = /** @type {HTMLInputElement|null} */ (document.getElementById(id));
    input?.select();
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      document.execCommand?.("copy");
    }
    btn.textContent = "Copied";
    setTimeout(() => (btn.textContent = "Copy"), 1500);
  };
  return html`<div class="share">
    <label for=${id}>${label}</label>
    <div class="share-row"><input id=${id} type="text" readonly .value=${url} class="share-url">
      <button type="button" class="small" aria-label=${`Copy ${label.toLowerCase()}`} @click=${copy}>Copy</button></div>
    ${note ? html`<small class="muted">${note}</small>` : nothing}
  </div>`;
}

/** The winner in one sentence, the same words in the lobby, on the page and in the replay. */
export function winnerSentence(summary, result) {
  if (!result) return "";
  if (result.summary) return result.summary;
  const w = result.winners || [];
  if (!w.length) return "Nobody wins.";
  return `${w.map((s) => seatName(summary, s)).join(" and ")} ${w.length > 1 ? "share the win" : "wins"}.`;
}

/**
 * The end of the game: the winner sentence and the score, category by category.
 * @param {GameSummary|null} summary
 * @param {GameResult|null} result
 * @param {Breakdown|null} table
 * @param {(seat: number) => string} colour
 * @param {any} [extra]   more to show beside the winner (a link)
 */
export function resultPanel(summary, result, table, colour, extra = nothing) {
  if (!result) return nothing;
  const winners = new Set(result.winners || []);
  const rows = table ? table.rows : (result.scores || []).map((sc, seat) => ({ seat, name: undefined, cells: [], total: sc }));
  const cols = table ? table.columns : [];
  return html`<section class="result" aria-labelledby="result-h">
    <h2 id="result-h">Final score</h2>
    <p class="winner-line">${winnerSentence(summary, result)}</p>${extra}
    <div class="result-scroll" tabindex="0" role="region" aria-label="Score by category"><table class="breakdown">
      <thead><tr><th scope="col">Player</th>${cols.map((c) => html`<th scope="col">${c}</th>`)}<th scope="col">Total</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr class=${r.seat !== null && winners.has(r.seat) ? "winner" : ""} style=${r.seat !== null ? `--seat:${colour(r.seat)}` : ""}>
        <th scope="row"><span class="seat-dot" aria-hidden="true"></span>${r.name || (r.seat !== null ? seatName(summary, r.seat) : "")}${r.seat !== null && winners.has(r.seat) ? html` <span class="badge">winner</span>` : nothing}</th>
        ${r.cells.map((c) => html`<td>${c}</td>`)}<td class="total">${r.total}</td></tr>`)}</tbody>
    </table></div>
  </section>`;
}

/** A breakdown from the result's own data (docs/protocol.md): `result.breakdown` is one
 *  standing per scorer, `[{name, seat, total, lines: [{label, points, detail}]}]`; the
 *  columns are every category any scorer has, in the order they first appear.
 * @returns {Breakdown|null} */
export function breakdownFromResult(result) {
  const b = result?.breakdown;
  const linesOf = (r) => (Array.isArray(r?.lines) ? r.lines : Array.isArray(r?.categories) ? r.categories : null);
  if (!Array.isArray(b) || !b.length || !b.every((r) => r && typeof r === "object" && linesOf(r))) return null;
  /** @type {string[]} */
  const columns = [];
  for (const r of b) for (const l of linesOf(r)) if (!columns.includes(l.label)) columns.push(l.label);
  return {
    columns,
    rows: b.map((r) => {
      const by = new Map(linesOf(r).map((l) => [l.label, l]));
      return {
        seat: typeof r.seat === "number" ? r.seat : null,
        name: typeof r.seat === "number" ? undefined : r.name,
        cells: columns.map((c) => (by.has(c) ? by.get(c).points : "—")),
        total: r.total ?? linesOf(r).reduce((a, l) => a + (Number(l.points) || 0), 0),
      };
    }),
  };
}

const COLOURS = ["#b5443b", "#2f6f9f", "#4f8a3c", "#c08a1e", "#7a4f9a", "#3c8a86", "#8a5a2b"];
/** A stable colour per seat, for games whose board has no colours of its own. */
export function seatColour(seat) {
  return COLOURS[((seat % COLOURS.length) + COLOURS.length) % COLOURS.length];
}

/** Settings this browser keeps: ask before costly moves (on unless turned off). */
export const settings = {
  get confirm() {
    return localStorage.getItem("cloister:confirm") !== "off";
  },
  set confirm(v) {
    localStorage.setItem("cloister:confirm", v ? "on" : "off");
  },
};
