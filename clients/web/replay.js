// @ts-check
// Replay: step through a game event by event (#/replay/<id>). Views come from
// GET /api/games/<id>/view?version=N as the chosen audience; after the game everyone gets the
// review audience, i.e. the full reveal. A controller holds the state; `replayView` draws it.
import { html, render, nothing, ref, createRef } from "./lit.js";
import { humanize } from "./dom.js";
import { getGame, getEvents, getView, verifyGame, seats } from "./api.js";
import { rendererFor, safeRender } from "./games/index.js";
import { glossary, gameTypes, seatName, resultPanel, breakdownFromResult, seatColour } from "./common.js";
import { playersPanel, logRows, detailPanel } from "./ui.js";
import { forkForm, forkState, undoneVersions } from "./table-tools.js";

/** @typedef {import("./types.js").RenderCtx} RenderCtx */

const SPEEDS = [
  ["0.5", "½ step per second"],
  ["1", "1 step per second"],
  ["2", "2 steps per second"],
  ["4", "4 steps per second"],
  ["10", "10 steps per second"],
];

export async function mountReplay(host, { id }) {
  let summary;
  try {
    summary = await getGame(id);
  } catch (err) {
    render(html`<section class="panel"><h1>Game not found</h1><p>${err.message}</p><a href="#/">Back to the lobby</a></section>`, host);
    return () => {};
  }
  const [renderer, gl, types] = await Promise.all([rendererFor(summary.type), glossary(summary.type), gameTypes().catch(() => [])]);
  const r = new ReplayPage(host, id, summary, renderer, gl);
  // The bot levels a fork may seat (the lobby's list for this type).
  r.levels = types.find((t) => t.name === summary.type)?.bots || ["random"];
  r.fork = forkState(summary.seats.length, r.levels);
  await r.reload();
  return () => r.close();
}

class ReplayPage {
  constructor(host, id, summary, renderer, gl) {
    this.host = host;
    this.id = id;
    this.summary = summary;
    this.renderer = renderer;
    this.glossary = gl;
    this.record = seats.get(id);
    this.useSeat = !!this.record && summary.status !== "finished";
    this.events = [];
    this.max = summary.version || 0;
    this.pos = this.max;
    this.audience = "";
    this.playing = 0;
    this.speed = Number(sessionStorage.getItem("cloister:speed") || "2");
    /** @type {Map<string, Promise<any>>} */
    this.cache = new Map();
    this.res = null; // the view answer for `pos`
    this.prevView = null;
    this.changed = new Set();
    this.error = "";
    this.wanted = null;
    this.ui = {};
    this.detail = null;
    this.pinned = false;
    this.logRef = createRef();
    /** @type {string[]} */
    this.levels = ["random"];
    /** who takes each seat of a fork (table-tools.js) */
    this.fork = forkState(summary.seats.length, this.levels);
    /** @type {{verified: boolean, code?: string|null, message: string}|null} */
    this.verdict = null; // the server's re-deciding of a finished game (GET …/verify)
    this.onKey = (e) => {
      if (e.target.closest("input, select, textarea")) return;
      if (e.key === "ArrowRight") { this.go(this.pos + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { this.go(this.pos - 1); e.preventDefault(); }
      else if (e.key === "Home") { this.go(0); e.preventDefault(); }
      else if (e.key === "End") { this.go(this.max); e.preventDefault(); }
    };
    document.addEventListener("keydown", this.onKey);
    // A running game grows: look for new events now and then.
    this.poll = setInterval(() => this.grow(), 4000);
    const self = this;
    window.cloister = { replay: { go: (v) => self.go(v), get pos() { return self.pos; }, get max() { return self.max; } } };
  }

  close() {
    this.stop();
    clearInterval(this.poll);
    document.removeEventListener("keydown", this.onKey);
    render(nothing, this.host);
  }

  token() {
    return this.useSeat && this.record ? this.record.token : null;
  }

  async reload() {
    this.cache.clear();
    try {
      const res = await getEvents(this.id, this.token());
      this.events = res.events || [];
      this.max = res.version ?? this.max;
      this.audience = res.audience || "";
    } catch (err) {
      this.error = `Cannot load the events: ${err.message}`;
    }
    if (this.pos > this.max) this.pos = this.max;
    await this.go(this.pos, true);
    this.verify();
  }

  /** Ask the server to re-decide the finished game from its revealed seed (once). */
  async verify() {
    if (this.summary.status !== "finished" || this.verdict) return;
    this.verdict = { verified: false, code: "checking", message: "Checking the game against its rules and its revealed seed…" };
    this.update();
    try {
      this.verdict = await verifyGame(this.id);
    } catch (err) {
      this.verdict = { verified: false, code: err.code, message: `The check could not be made: ${err.message}` };
    }
    this.update();
  }

  async grow() {
    if (this.summary.status === "finished") return;
    try {
      this.summary = await getGame(this.id);
      if ((this.summary.version || 0) > this.max) {
        const atEnd = this.pos >= this.max;
        const res = await getEvents(this.id, this.token());
        this.events = res.events || this.events;
        this.max = res.version ?? this.max;
        if (atEnd && !this.playing) await this.go(this.max, true);
        else this.update();
        this.verify();
      }
    } catch { /* try later */ }
  }

  fetchView(v) {
    const key = `${this.token() ? "seat" : "pub"}:${v}`;
    if (!this.cache.has(key)) this.cache.set(key, getView(this.id, v, this.token()).catch((err) => { this.cache.delete(key); throw err; }));
    return /** @type {Promise<any>} */ (this.cache.get(key));
  }

  async go(v, force = false) {
    v = Math.max(0, Math.min(this.max, v));
    if (v === this.pos && !force && this.wanted === null && this.res) return;
    const from = this.pos;
    this.pos = v;
    this.wanted = v;
    this.update();
    let res;
    try {
      res = await this.fetchView(v);
    } catch (err) {
      if (this.wanted !== v) return;
      this.res = null;
      this.error = v === 0 ? "" : `Cannot load step ${v}: ${err.message}`;
      this.wanted = null;
      this.update();
      return;
    }
    if (this.wanted !== v) return; // a later step was asked for meanwhile
    this.wanted = null;
    this.error = "";
    if (res.audience) this.audience = res.audience;
    // Highlight what this step changed (stepping forward by one, as in live play).
    const before = this.res?.view;
    this.changed = new Set();
    if (before && res.view && v === from + 1 && this.renderer.marks) {
      try { this.changed = this.renderer.marks(before, res.view, null); } catch { /* none */ }
    }
    this.prevView = before || null;
    this.res = res;
    this.update();
    if (v < this.max) this.fetchView(v + 1).catch(() => {});
  }

  start() {
    if (this.pos >= this.max) this.go(0);
    this.playing = window.setInterval(() => {
      if (this.pos >= this.max) return this.stop();
      this.go(this.pos + 1);
      if (this.pos >= this.max) this.stop();
    }, 1000 / this.speed);
    this.update();
  }

  stop() {
    clearInterval(this.playing);
    this.playing = 0;
    this.update();
  }

  setSpeed(v) {
    this.speed = Number(v);
    sessionStorage.setItem("cloister:speed", String(this.speed));
    if (this.playing) { this.stop(); this.start(); }
  }

  /** @returns {RenderCtx|null} */
  ctx() {
    if (!this.res || this.res.view === null || this.res.view === undefined) return null;
    const view = this.res.view;
    return {
      view,
      prev: this.prevView,
      legal: [],
      seat: this.useSeat && this.record ? this.record.seat : null,
      toAct: this.res.to_act || [],
      status: this.pos >= this.max ? this.summary.status : "running",
      interactive: false,
      mode: "replay",
      gameType: this.summary.type,
      summary: this.summary,
      seatName: (s) => seatName(this.summary, s),
      colour: (s) => this.renderer.seatColour?.(s, view) || seatColour(s),
      send: () => {},
      why: () => {},
      detail: (d, pin) => { if (!d && this.pinned) return; this.detail = d; this.pinned = !!(d && pin); this.update(); },
      rerender: () => this.update(),
      changed: this.changed,
      glossary: this.glossary,
      ui: this.ui,
    };
  }

  update() {
    render(replayView(this), this.host);
    const cur = /** @type {HTMLElement|undefined} */ (this.logRef.value)?.querySelector(".current");
    cur?.scrollIntoView({ block: "nearest" });
  }
}

/** @param {ReplayPage} r */
function replayView(r) {
  const ctx = r.ctx();
  const s = r.summary;
  const v = r.pos;
  const ev = r.events.find((e) => e.version === v);
  let phase = "";
  if (ctx) {
    if (typeof ctx.view.prompt === "string") phase = ctx.view.prompt;
    else try { phase = r.renderer.status?.(ctx) || ""; } catch { phase = ""; }
  }
  const said = ev ? (ev.text && ev.text !== ev.type ? ev.text : ev.type === "Hidden" ? "something happened out of sight" : "") : v === 0 ? "Start" : "";
  const toAct = r.res?.to_act || [];
  const waiting = toAct.length && v < r.max ? ` Waiting for ${toAct.map((x) => seatName(s, x)).join(", ")}.` : "";
  const banner = r.error || `Step ${v}${said ? `: ${said}` : ""}.${phase && v < r.max ? ` ${phase.replace(/\.$/, "")}.` : ""}${waiting}`.replace(/\.\./g, ".");
  const atEnd = v >= r.max && s.status === "finished";
  let table = null;
  if (atEnd && ctx) {
    table = breakdownFromResult(s.result);
    if (!table) try { table = r.renderer.breakdown?.(ctx.view, s.result, ctx) || null; } catch { table = null; }
  }
  let lines = [];
  if (ctx) { try { lines = r.renderer.players?.(ctx) || []; } catch { lines = []; } }
  const audienceWords = r.audience === "review" ? "Full reveal: every hand and hidden piece is shown (game over)" : r.audience === "spectator" ? "As a spectator: public information only" : r.audience ? `As ${seatName(s, r.record?.seat ?? 0)}` : "";
  const board = ctx ? safeRender(r.renderer, ctx)
    : html`<p class="muted board-empty">${v === 0 ? "Before set-up: nothing on the table yet." : r.error || "Loading…"}</p>`;
  return html`<section class="game-page replay-page game-${s.type}">
    <div class="game-head">
      <h1 class="game-title">Replay: ${s.title || humanize(s.type)}</h1>
      <div class="audience">
        ${r.record && s.status !== "finished" ? html`<fieldset class="aud"><legend>See it as</legend>
          <input type="radio" name="aud" id="aud-seat" .checked=${r.useSeat} @change=${() => { r.useSeat = true; r.reload(); }}><label for="aud-seat">${seatName(s, r.record.seat)}</label>
          <input type="radio" name="aud" id="aud-spec" .checked=${!r.useSeat} @change=${() => { r.useSeat = false; r.reload(); }}><label for="aud-spec">a spectator</label></fieldset>` : nothing}
        <span class="role">${audienceWords}</span>
      </div>
      <div class="game-tools">
        ${s.status !== "finished" ? html`<a class="button-link" href=${`#/watch/${r.id}`}>Watch live</a>` : nothing}
        ${r.record && s.status !== "finished" ? html`<a class="button-link" href=${`#/game/${r.id}`}>Back to my seat</a>` : nothing}
        ${forkForm(r)}
      </div>
    </div>
    <div class="banner" role="status" aria-live="polite">${banner}</div>
    <div class="timeline" role="group" aria-label="Replay timeline">
      <button type="button" aria-label="First step" title="First" ?disabled=${v <= 0} @click=${() => r.go(0)}>${icon("first")}</button>
      <button type="button" aria-label="Previous step" title="Previous" ?disabled=${v <= 0} @click=${() => r.go(r.pos - 1)}>${icon("prev")}</button>
      <button type="button" class="play" aria-label=${r.playing ? "Pause" : "Play"} @click=${() => (r.playing ? r.stop() : r.start())}>${icon(r.playing ? "pause" : "play")}${r.playing ? "Pause" : "Play"}</button>
      <button type="button" aria-label="Next step" title="Next" ?disabled=${v >= r.max} @click=${() => r.go(r.pos + 1)}>${icon("next")}</button>
      <button type="button" aria-label="Last step" title="Last" ?disabled=${v >= r.max} @click=${() => r.go(r.max)}>${icon("last")}</button>
      <input type="range" id="replay-slider" min="0" max=${r.max} .value=${String(v)} step="1" aria-label="Step (game version)"
        @input=${(e) => r.go(Number(e.currentTarget.value))}>
      <output class="where" for="replay-slider">Step ${v} of ${r.max}</output>
      <label for="replay-speed" class="visually-hidden">Speed</label>
      <select id="replay-speed" aria-label="Playback speed" @change=${(e) => r.setSpeed(e.currentTarget.value)}>
        ${SPEEDS.map(([val, l]) => html`<option value=${val} ?selected=${Number(val) === r.speed}>${l}</option>`)}
      </select>
    </div>
    <div class="game-body">
      <div class="board-area">
        ${atEnd ? resultPanel(s, s.result, table, (x) => (ctx ? ctx.colour(x) : seatColour(x))) : nothing}
        <div class="board" id="board"><div class="zoom-box">${board}</div></div>
        ${detailPanel(r.detail, r.pinned, () => { r.pinned = false; r.detail = null; r.update(); })}
      </div>
      <aside class="side">
        ${playersPanel({ seats: s.seats, lines, me: null, toAct: v < r.max ? toAct : [], running: v < r.max || s.status !== "finished", name: (x) => seatName(s, x), colour: (x) => (ctx ? ctx.colour(x) : seatColour(x)) })}
        ${r.verdict ? verifyPanel(r.verdict) : nothing}
        <section class="log-panel panel" aria-labelledby="events-h"><h2 id="events-h">Events</h2>
          <ol class="log" id="log" aria-label="Events up to this step" tabindex="0" ${ref(r.logRef)}>${logRows(r.events.filter((e) => e.version <= v), { current: v, undone: undoneVersions(r.events) })}</ol>
        </section>
      </aside>
    </div>
  </section>`;
}

/** Provably fair: the result of the server's re-deciding, in words.
 * @param {{verified: boolean, code?: string|null, message: string}} v */
function verifyPanel(v) {
  const title = v.verified ? "Fair play verified"
    : v.code === "checking" ? "Checking fair play…"
    : v.code === "unverifiable_log" ? "Cannot be verified"
    : v.code === "log_mismatch" ? "Not verified: the log differs from the rules"
    : "Fair play not checked";
  const cls = v.verified ? "ok" : v.code === "log_mismatch" ? "bad" : "muted";
  const words = v.verified
    ? "Every shuffle, draw and roll was re-run from the seed revealed at the end, which matches the promise made when the game was created; every move gave exactly the events in this log."
    : v.message;
  return html`<section class="panel verify verify-${cls}" aria-labelledby="verify-h" role="status">
    <h2 id="verify-h">${title}</h2><p>${words}</p></section>`;
}

// Timeline icons as SVG (emoji or media glyphs are missing from many fonts).
const ICONS = {
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  prev: "M12 2v12L4 8z",
  play: "M4 2v12l10-6z",
  pause: "M3 2h4v12H3zM9 2h4v12H9z",
  next: "M4 2v12l8-6z",
  last: "M11 2h2v12h-2zM2 2v12l8-6z",
};
function icon(name) {
  return html`<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false"><path d=${ICONS[name]} fill="currentColor"/></svg>`;
}

