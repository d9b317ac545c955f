// @ts-check
// Undo, "Report a problem" and "Fork here" (docs/api.md: Undo, Report a problem, Fork here).
// The game page shows Undo in its actions toolbar (enabled when the server says this seat may
// take a move back, its tooltip saying why not otherwise), "Undo to here" on its own log lines
// that may be taken back, and "Report a problem" among its tools; the replay page offers
// "Fork here" at the step it shows, once the game is over. Undone moves stay in the log,
// struck out (`undoneVersions`), for every viewer.
import { html, nothing } from "./lit.js";
import { api, seats, prefs } from "./api.js";
import { toast } from "./dom.js";
import { shareField, linkTo } from "./common.js";
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

/** @typedef {{version: number, allowed: boolean, targets: number[], reason: string, steps?: number}} UndoStatus */

/**
 * Whether the server's answer to `GET …/undo` (asked at `status.version`) still holds at
 * `version`: nothing but chat happened since (a chat line is never a horizon). Anything else
 * — another seat's move, my own, an undo — may move the horizon, so what it offered is not
 * offered again until the server is asked anew: the page never offers an undo it would refuse.
 * @param {UndoStatus|null} status @param {number|null} version @param {WireEvent[]} events
 */
export function undoFresh(status, version, events) {
  if (!status || version === null) return false;
  if (status.version === version) return true;
  return status.version < version && events.every((e) => e.version <= status.version || e.version > version || e.type === "cloister.Chat");
}

/**
 * Where the log offers "Undo to here": for each of the server's targets (newest first; the
 * k-th takes back k + 1 commands), the first line that the command after it produced. A
 * target `t` is the version before the command's `cloister.CommandAccepted` record (t + 1);
 * its events follow the record, up to the next newer command's record. Pure: the page draws
 * the buttons from it.
 * @param {number[]} targets @param {WireEvent[]} events @param {number} seat
 * @returns {Map<number, {to: number, count: number}>} log line's version → the undo
 */
export function undoPoints(targets, events, seat) {
  /** @type {Map<number, {to: number, count: number}>} */
  const out = new Map();
  const byVersion = new Map(events.map((e) => [e.version, e]));
  // A stretch taken back earlier may lie between a command and the next: never its lines.
  const undone = undoneVersions(events);
  targets.forEach((t, k) => {
    const record = byVersion.get(t + 1);
    // Only a line of my own command (the record says whose it is); a log without the
    // record here (not loaded yet) offers nothing rather than a guess.
    if (!record || record.type !== "cloister.CommandAccepted" || record.data?.seat !== seat) return;
    const hi = k === 0 ? Infinity : targets[k - 1] + 1;
    const line = events.find((e) => e.version > t + 1 && e.version < hi && !undone.has(e.version) && e.text && e.text !== e.type
      && e.type !== "Hidden" && !e.type.startsWith("cloister."));
    if (line) out.set(line.version, { to: t, count: k + 1 });
  });
  return out;
}

/**
 * Undo (the actions toolbar's button and the log's "Undo to here"), sent as the socket's
 * `undo` message. How far this seat may go is asked of the server (`GET …/undo`) after every
 * update; the answer is used only while it still holds (`undoFresh`).
 */
export class Undo {
  /**
   * @param {string} gameId @param {() => string|null|undefined} token @param {() => void} rerender
   * @param {(how: {to_version?: number}) => string} send  the socket's undo (returns its command_id)
   * @param {(message: string) => void} refused  shows the server's refusal, in its words
   */
  constructor(gameId, token, rerender, send, refused) {
    this.gameId = gameId;
    this.token = token;
    this.rerender = rerender;
    this.send = send;
    this.refused = refused;
    /** @type {UndoStatus|null} */
    this.status = null;
    this.asked = /** @type {number|null} */ (null);
    /** the command_id of the undo sent and not answered yet */
    this.pending = /** @type {string|null} */ (null);
    this.timer = 0;
  }

  get busy() {
    return this.pending !== null;
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

  /** The versions the server's last answer offered (newest first), and whether it still
   * holds (`undoFresh`). While it is being asked again, the page keeps drawing them, disabled,
   * so that nothing jumps after every move; only a fresh answer is ever clickable.
   * @param {number|null} version @param {WireEvent[]} events @returns {{targets: number[], fresh: boolean}} */
  offer(version, events) {
    const targets = this.status?.allowed ? this.status.targets : [];
    return { targets, fresh: undoFresh(this.status, version, events) };
  }

  /** Take back my commands after `to` (one of `targets`), or my last one. @param {number} [to] */
  run(to) {
    if (this.busy) return;
    this.pending = this.send(to === undefined ? {} : { to_version: to });
    this.rerender();
  }

  /** The socket's answer to a request: true if it was this undo's (then it is handled).
   * @param {{command_id?: string, message?: string, code?: string}} msg @param {boolean} ok */
  answered(msg, ok) {
    if (!this.pending || msg.command_id !== this.pending) return false;
    this.pending = null;
    this.asked = null; // ask again at the update that restores the position
    if (!ok) this.refused(msg.message || String(msg.code || "refused"));
    this.rerender();
    return true;
  }
}

/**
 * The Undo button of the actions toolbar: takes back my last move.
 * @param {Undo} u @param {number|null} seat @param {number|null} version @param {WireEvent[]} events
 */
export function undoButton(u, seat, version, events) {
  if (seat === null || !u.token()) return nothing;
  const { targets, fresh } = u.offer(version, events);
  const steps = targets.length;
  const far = steps > 1 ? `; you may take back ${steps} moves: ↶ on a line of the log ("Undo to here") takes back several at once` : "";
  const why = u.busy ? "Taking back…"
    : steps && !fresh ? "Checking what may be taken back…"
    : steps ? `Take back your last move (nobody has seen anything new since)${far}`
    : u.status?.reason ? `Nothing to undo: ${u.status.reason}` : "Nothing to undo";
  return html`<button type="button" class="small secondary undo-button" id="undo-button" ?disabled=${!steps || !fresh || u.busy}
      title=${why} aria-label=${steps && fresh ? `Undo your last move${far}` : why} @click=${() => u.run(targets[0])}>↶ Undo${steps > 1 ? html` <span class="undo-steps">(${steps})</span>` : nothing}</button>`;
}

/**
 * "Undo to here" on a log line of my own (`undoPoints`): one click takes back that move and
 * every later one of mine. A small ↶ (the log column is narrow; its tooltip and label say it
 * in words), and pointing at it strikes out, in advance, what it would take back. Disabled
 * while the server is asked again (`fresh` false).
 * @param {Undo} u @param {{to: number, count: number}|undefined} point @param {boolean} fresh
 */
export function undoHere(u, point, fresh) {
  if (!point) return nothing;
  const what = point.count === 1 ? "this move" : `this move and your ${point.count - 1} later one${point.count > 2 ? "s" : ""}`;
  return html`<button type="button" class="undo-here" data-to=${point.to} ?disabled=${u.busy || !fresh}
      title=${`Undo to here: take back ${what}`} aria-label=${`Undo to here: take back ${what}`}
      @click=${() => u.run(point.to)}>↶</button>`;
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
 * Who takes each seat of a fork, as the server's fork allows (`POST …/fork`: `join` for me,
 * `bots` by seat and level, every other seat left open for a person with the game's link):
 * "me" (one seat at most), "person", or "bot:<level>".
 * @typedef {{choice: string[], made: {id: string, open: string[], mine: boolean}|null}} ForkState
 */

/** The strongest level a type offers ("greedy" before "random"). @param {string[]} levels */
function strongestBot(levels) {
  return levels.find((b) => b !== "random") || levels[0] || "random";
}

/** Me in the first seat, the strongest bot in the others. @param {number} n @param {string[]} levels @returns {ForkState} */
export function forkState(n, levels) {
  return { choice: Array.from({ length: n }, (_, i) => (i === 0 ? "me" : `bot:${strongestBot(levels)}`)), made: null };
}

/** Seat `i` is now `value`; "me" moves: the seat that was mine becomes a person's.
 * @param {ForkState} f @param {number} i @param {string} value */
export function chooseForkSeat(f, i, value) {
  if (value === "me") f.choice = f.choice.map((c, j) => (c === "me" && j !== i ? "person" : c));
  f.choice[i] = value;
}

/** The fork request from the choices. @param {ForkState} f @param {GameSummary} s @param {number} version @param {string} name */
export function forkRequest(f, s, version, name) {
  const me = f.choice.indexOf("me");
  /** @type {{version: number, bots: {seat: number, level: string}[], join?: {name: string, seat: number}}} */
  const body = {
    version,
    bots: s.seats.flatMap((x, i) => (f.choice[i]?.startsWith("bot:") ? [{ seat: x.seat, level: f.choice[i].slice(4) }] : [])),
  };
  if (me >= 0) body.join = { name, seat: s.seats[me].seat };
  return body;
}

/**
 * "Fork here" on the replay of a finished game: a new game from the step shown, with fresh
 * randomness after it; each seat goes to me, a person (open: they join with the link shown
 * after the fork) or a bot of one of the game's levels.
 * @param {{id: string, summary: GameSummary, pos: number, max: number, levels: string[], fork: ForkState, update: () => void}} r
 */
export function forkForm(r) {
  const s = r.summary;
  if (s.status !== "finished") return nothing;
  const f = r.fork;
  const at = r.pos;
  const ok = at > 0 && at < r.max;
  const submit = async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.currentTarget);
    const name = String(new FormData(form).get("name") || "").trim() || "Player";
    if (f.choice.includes("me")) prefs.name = name;
    try {
      const made = await api("POST", `/api/games/${enc(r.id)}/fork`, forkRequest(f, s, at, name));
      if (made.you) seats.set(made.id, { seat: made.you.seat, token: made.you.token, name });
      const open = s.seats.filter((_, i) => f.choice[i] === "person").map((x) => x.label);
      toast(`Forked at step ${at}: a new game from this position.`, "info");
      if (!open.length) {
        location.hash = made.you ? `#/game/${made.id}` : `#/watch/${made.id}`;
        return;
      }
      f.made = { id: made.id, open, mine: !!made.you };
      r.update();
    } catch (err) {
      toast(`Cannot fork here: ${err.message}`, "error", 8000);
    }
  };
  const seatRow = (/** @type {{seat: number, label: string, name?: string|null}} */ x, /** @type {number} */ i) => html`<label>
      <span>${x.label}${x.name ? html` <span class="muted">(was ${x.name})</span>` : nothing}</span>
      <select name=${`seat-${x.seat}`} .value=${f.choice[i]} @change=${(/** @type {Event} */ e) => { chooseForkSeat(f, i, /** @type {HTMLSelectElement} */ (e.currentTarget).value); r.update(); }}>
        <option value="me" ?selected=${f.choice[i] === "me"}>Me</option>
        <option value="person" ?selected=${f.choice[i] === "person"}>A person (I send them the link)</option>
        ${r.levels.map((l) => html`<option value=${`bot:${l}`} ?selected=${f.choice[i] === `bot:${l}`}>A bot (${l})</option>`)}
      </select></label>`;
  const made = f.made;
  const body = made
    ? html`<div class="popover fork-form fork-made" id="fork-made">
        <p><strong>The new game is ready.</strong> ${made.open.join(", ")} ${made.open.length > 1 ? "wait" : "waits"} for a person: send them this link (it opens a seat picker).</p>
        ${shareField("Invitation link", linkTo(`#/game/${made.id}`), "Whoever opens it first takes an open seat.", "fork-invite")}
        <p><a class="button-link" href=${made.mine ? `#/game/${made.id}` : `#/watch/${made.id}`}>${made.mine ? "Go to my seat" : "Watch the new game"}</a>
          <button type="button" class="secondary small" @click=${() => { f.made = null; r.update(); }}>Fork again</button></p>
      </div>`
    : html`<form class="popover fork-form" id="fork-form" @submit=${submit}>
        <p>A new game from step ${at}: the same position, fresh dice and shuffles after it. Who takes each seat?</p>
        <fieldset class="fork-seats"><legend>Seats</legend>${s.seats.map(seatRow)}</fieldset>
        ${f.choice.includes("me") ? html`<label>Your name <input type="text" name="name" maxlength="40" .value=${prefs.name || ""} autocomplete="nickname"></label>` : nothing}
        <button type="submit" class="primary" ?disabled=${!ok}>${ok ? `Fork at step ${at}` : "Pick a step inside the game"}</button>
      </form>`;
  return html`<details class="fork-box">
    <summary title="Start a new game from this position, for analysis or teaching">Fork here</summary>${body}</details>`;
}
