// @ts-check
// Undo, "Report a problem" and "Fork here" (docs/api.md: Undo, Report a problem, Fork here).
// The game page shows Undo in its actions toolbar (enabled when the server says this seat may
// take a move back, its tooltip saying why not otherwise) and "Report a problem" among its
// tools; the replay page offers "Fork here" at the step it shows, once the game is over.
// Undone moves stay in the log, struck out (`undoneVersions`).
import { html, nothing } from "./lit.js";
import { api, seats, prefs } from "./api.js";
import { toast } from "./dom.js";
/** @typedef {import("./types.js").WireEvent} WireEvent */
/** @typedef {import("./types.js").GameSummary} GameSummary */

const enc = encodeURIComponent;

/**
 * The versions undone by the log's `cloister.Undone` events (to_version+1 … the undo's - 1).
 * @param {WireEvent[]} events @returns {Set<number>}
 */
export function undoneVersions(events) {
  const out = new Set();
  for (const e of events) {
    if (e.type !== "cloister.Undone" || typeof e.data?.to_version !== "number") continue;
    for (let v = e.data.to_version + 1; v < e.version; v++) out.add(v);
  }
  return out;
}

/** Whether this seat may undo now (asked of the server after every update), and the undo. */
export class Undo {
  /** @param {string} gameId @param {() => string|null|undefined} token @param {() => void} rerender */
  constructor(gameId, token, rerender) {
    this.gameId = gameId;
    this.token = token;
    this.rerender = rerender;
    /** @type {{version: number, allowed: boolean, targets: number[], reason: string, steps?: number}|null} */
    this.status = null;
    this.asked = /** @type {number|null} */ (null);
    this.busy = false;
    this.timer = 0;
  }

  /** Ask again once the game moved to `version` (debounced: a burst of updates asks once). */
  refresh(/** @type {number|null} */ version, /** @type {string} */ status) {
    const token = this.token();
    if (!token || status !== "running" || version === null) {
      if (this.status) { this.status = null; this.rerender(); }
      return;
    }
    if (version === this.asked) return;
    this.asked = version;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(async () => {
      try {
        this.status = await api("GET", `/api/games/${enc(this.gameId)}/undo`, undefined, token);
      } catch {
        this.status = null;
      }
      this.rerender();
    }, 150);
  }

  get allowed() {
    return !!this.status?.allowed && !this.busy;
  }

  async run() {
    if (!this.allowed) return;
    this.busy = true;
    this.rerender();
    try {
      await api("POST", `/api/games/${enc(this.gameId)}/undo`, {}, this.token());
    } catch (err) {
      toast(`Cannot undo: ${err.message}`, "error", 8000);
    } finally {
      this.busy = false;
      this.asked = null; // the update that follows asks again
      this.rerender();
    }
  }
}

/** The Undo button of the actions toolbar. @param {Undo} u @param {number|null} seat */
export function undoButton(u, seat) {
  if (seat === null || !u.token()) return nothing;
  // How far back this seat may go now (GET …/undo's `steps`); each click takes back one.
  const steps = u.status?.allowed ? (u.status.steps ?? u.status.targets.length) : 0;
  const far = steps > 1 ? `; you may take back ${steps} moves, one click each` : "";
  const why = u.status?.allowed
    ? `Take back your last move (nobody has seen anything new since)${far}`
    : u.status?.reason ? `Nothing to undo: ${u.status.reason}` : "Nothing to undo";
  return html`<button type="button" class="small secondary undo-button" id="undo-button" ?disabled=${!u.allowed}
      title=${why} aria-label=${u.status?.allowed ? `Undo your last move${far}` : why} @click=${() => u.run()}>↶ Undo${steps > 1 ? html` <span class="undo-steps">(${steps})</span>` : nothing}</button>`;
}

/**
 * "Report a problem": asks what went wrong, then saves the server's report (what this page may
 * see, and nothing more) as a file to attach to an issue.
 * @param {string} gameId @param {string|null|undefined} token
 */
export async function reportProblem(gameId, token) {
  const text = window.prompt("What went wrong? The report holds your words and what you can see of this game — nothing hidden from you.");
  if (text === null) return;
  try {
    const report = await api("POST", `/api/games/${enc(gameId)}/report`, { text: text.slice(0, 2000) }, token);
    const blob = new Blob([JSON.stringify(report, null, 2)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `cloister-report-${gameId}-v${report.version}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    toast("Report saved as a file: attach it to your issue.", "info", 8000);
  } catch (err) {
    toast(`Could not make the report: ${err.message}`, "error");
  }
}

/** @param {string} gameId @param {string|null|undefined} token */
export function reportButton(gameId, token) {
  return html`<button type="button" class="button-link report-button" id="report-button"
      title="Save what you can see of this game, with your description, to attach to an issue"
      @click=${() => reportProblem(gameId, token)}>Report a problem</button>`;
}

/**
 * "Fork here" on the replay of a finished game: a new game from the step shown, with fresh
 * randomness after it; the caller takes a seat, bots or newcomers the others.
 * @param {{id: string, summary: GameSummary, pos: number, max: number}} r
 */
export function forkForm(r) {
  const s = r.summary;
  if (s.status !== "finished") return nothing;
  const at = r.pos;
  const ok = at > 0 && at < r.max;
  const submit = async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.currentTarget);
    const data = new FormData(form);
    const name = String(data.get("name") || "").trim() || "Player";
    const seat = Number(data.get("seat"));
    const bots = data.get("bots") === "on";
    prefs.name = name;
    const body = {
      version: at,
      join: { name, seat },
      bots: bots ? s.seats.filter((x) => x.seat !== seat).map((x) => ({ seat: x.seat })) : [],
    };
    try {
      const made = await api("POST", `/api/games/${enc(r.id)}/fork`, body);
      seats.set(made.id, { seat: made.you.seat, token: made.you.token, name });
      toast(`Forked at step ${at}: a new game from this position.`, "info");
      location.hash = `#/game/${made.id}`;
    } catch (err) {
      toast(`Cannot fork here: ${err.message}`, "error", 8000);
    }
  };
  return html`<details class="fork-box">
    <summary title="Start a new game from this position, for analysis or teaching">Fork here</summary>
    <form class="popover fork-form" id="fork-form" @submit=${submit}>
      <p>A new game from step ${at}: the same position, fresh dice and shuffles after it.</p>
      <label>Your name <input type="text" name="name" maxlength="40" .value=${prefs.name || ""} autocomplete="nickname"></label>
      <label>Your seat <select name="seat">${s.seats.map((x) => html`<option value=${x.seat}>${x.label}</option>`)}</select></label>
      <label class="check"><input type="checkbox" name="bots" checked> Bots take the other seats (else they are offered in the lobby)</label>
      <button type="submit" class="primary" ?disabled=${!ok}>${ok ? `Fork at step ${at}` : "Pick a step inside the game"}</button>
    </form></details>`;
}
