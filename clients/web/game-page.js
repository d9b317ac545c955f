// @ts-check
// The live page of one game: as a seat (#/game/<id>, token from localStorage) or as a
// spectator (#/watch/<id>). A controller (GamePage) holds the state — the connection's full
// view, what the server said, what the user is doing — and `pageView` is a pure function
// from it to a lit template, rendered again after every change (lichess's ctrl + view).
import { html, render, nothing, repeat, classMap, ref, createRef } from "./lit.js";
import { toast, humanize } from "./dom.js";
import { getGame, getEvents, getView, joinSeat, addBot, seats, prefs } from "./api.js";
import { GameConnection } from "./connection.js";
import { rendererFor, safeRender } from "./games/index.js";
import { gameTypes, glossary, seatName, linkTo, shareField, resultPanel, breakdownFromResult, seatColour, settings, winnerSentence } from "./common.js";
import { playersPanel, logRows, detailPanel, dialogBody } from "./ui.js";
import { Clocks, clockView, seatControls, tick } from "./clock.js";
import { Undo, undoButton, undoHere, undoPoints, reportButton, undoneVersions } from "./table-tools.js";

/** @typedef {import("./types.js").Command} Command */
/** @typedef {import("./types.js").RenderCtx} RenderCtx */
/** @typedef {import("./types.js").Renderer} Renderer */
/** @typedef {import("./types.js").WireEvent} WireEvent */
/** @typedef {import("./types.js").GameSummary} GameSummary */

const ZOOMS = [1, 1.5, 2, 3];
// Commands that end something for good go to the end of the action list, never first.
const LAST = /^(Pass|Forfeit|Decline|Skip)/;

export async function mountGame(host, { id, mode }) {
  let summary;
  try {
    summary = await getGame(id);
  } catch (err) {
    render(html`<section class="panel"><h1>Game not found</h1><p>${err.message}</p><a href="#/">Back to the lobby</a></section>`, host);
    return () => {};
  }
  const [renderer, types, gl] = await Promise.all([
    rendererFor(summary.type),
    gameTypes().catch(() => []),
    glossary(summary.type),
  ]);
  const page = new GamePage(host, id, mode, summary, renderer, types.find((t) => t.name === summary.type), gl);
  return () => page.close();
}

export class GamePage {
  /**
   * @param {HTMLElement} host @param {string} id @param {"play"|"watch"} mode
   * @param {GameSummary} summary @param {Renderer} renderer @param {any} typeInfo
   * @param {Record<string, any>} gl
   */
  constructor(host, id, mode, summary, renderer, typeInfo, gl) {
    this.host = host;
    this.id = id;
    this.mode = mode;
    this.summary = summary;
    this.renderer = renderer;
    this.typeInfo = typeInfo;
    this.glossary = gl;
    this.record = mode === "play" ? seats.get(id) : null;
    this.st = {
      view: null,
      prev: null,
      legal: /** @type {Command[]} */ ([]),
      toAct: /** @type {number[]} */ ([]),
      status: summary.status,
      seat: /** @type {number|null} */ (null),
      version: /** @type {number|null} */ (null),
      events: /** @type {WireEvent[]} */ ([]),
      result: summary.result,
      busy: false,
      conn: "connecting",
      changed: new Set(),
      /** the version of this seat's last accepted move: "since your last turn" starts there */
      sinceVersion: /** @type {number|null} */ (null),
      detail: null,
      pinned: false,
      dialog: null,
      why: /** @type {string|null} */ (null),
      zoom: 1,
      openGroups: new Set(),
      reviewLoaded: false,
      resetMarks: false,
    };
    this.ui = {}; // the renderer's page-only state (selection, orientation)
    this.chatIds = new Set();
    this.clocks = new Clocks();
    this.stopTick = tick(this.clocks, () => this.update());
    // The socket's `undo` (this.conn is replaced on a restart: looked up at each click).
    this.undo = new Undo(id, () => this.record?.token, () => this.update(),
      (how) => this.conn.undo(how), (message) => this.why(`Cannot undo: ${message}`));
    this.dialogRef = createRef();
    this.logRef = createRef();
    this.boardRef = createRef();
    this.scheduled = false;
    this.whyTimer = 0;
    this.historyLoaded = false;
    this.connStatus = document.getElementById("conn-status");
    this.conn = new GameConnection(id, this.record?.token, this.handlers());
    this.poll = setInterval(() => {
      if (this.summary.status === "open") this.refreshSummary();
    }, 3000);
    // Test and debugging hook (no secrets beyond what this page already holds).
    window.cloister = { conn: this.conn, state: this.st, page: this, get summary() { return summary; } };
    Object.defineProperty(window.cloister, "summary", { get: () => this.summary });
    this.update();
  }

  close() {
    clearInterval(this.poll);
    this.stopTick();
    this.conn.close();
    if (this.connStatus) this.connStatus.textContent = "";
    render(nothing, this.host);
  }

  /** Render on the next microtask: several state changes in a row draw once. */
  update() {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const log = /** @type {HTMLElement|undefined} */ (this.logRef.value);
      const atBottom = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
      render(pageView(this), this.host);
      const dlg = /** @type {HTMLDialogElement|undefined} */ (this.dialogRef.value);
      if (dlg) {
        if (this.st.dialog && !dlg.open) dlg.showModal();
        else if (!this.st.dialog && dlg.open) dlg.close();
      }
      if (log && atBottom) log.scrollTop = log.scrollHeight;
    });
  }

  // -- what the renderer draws from ---------------------------------------------------------
  /** @returns {RenderCtx} */
  ctx() {
    const st = this.st;
    return {
      view: st.view,
      prev: st.prev,
      legal: st.seat === null ? [] : st.legal,
      seat: st.seat,
      toAct: st.toAct,
      status: st.status,
      interactive: st.seat !== null && !st.busy && st.status === "running",
      mode: this.mode,
      gameType: this.summary.type,
      summary: this.summary,
      seatName: (s) => seatName(this.summary, s),
      colour: (s) => this.colour(s),
      send: (cmd) => this.send(cmd),
      why: (reason) => this.why(reason),
      detail: (d, pin) => this.showDetail(d, pin),
      rerender: () => this.update(),
      changed: st.changed,
      glossary: this.glossary,
      ui: this.ui,
    };
  }

  colour(seat) {
    try {
      return this.renderer.seatColour?.(seat, this.st.view) || seatColour(seat);
    } catch {
      return seatColour(seat);
    }
  }

  label(cmd, ctx) {
    try {
      return this.renderer.label?.(cmd, ctx) || this.renderer.fallback?.label?.(cmd, ctx) || humanize(cmd.type);
    } catch {
      return this.renderer.fallback?.label?.(cmd, ctx) || humanize(cmd.type);
    }
  }

  /** The one sentence under the title: whose turn it is and what the game waits for. */
  prompt() {
    const st = this.st;
    const ctx = this.ctx();
    const name = (s) => seatName(this.summary, s);
    if (st.conn === "reconnecting") return { text: "Connection lost — reconnecting…", mine: false };
    if (st.status === "open") {
      const taken = this.summary.seats.filter((x) => x.taken).length;
      return { text: `Waiting for players: ${taken} of ${this.summary.seats.length} seats taken.`, mine: false };
    }
    if (st.status === "finished") return { text: `Game over. ${winnerSentence(this.summary, st.result)}`, mine: false };
    // The game's own sentence for this viewer when it gives one (the view's `prompt`).
    const given = st.view && typeof st.view.prompt === "string" && st.view.prompt ? st.view.prompt : "";
    let phase = given;
    if (!phase && st.view) {
      try { phase = this.renderer.status?.(ctx) || ""; } catch { phase = ""; }
    }
    phase = phase.replace(/\.$/, "");
    if (given && !(st.seat !== null && st.toAct.includes(st.seat))) return { text: `${phase}.`, mine: false };
    if (st.seat !== null && st.toAct.includes(st.seat)) {
      const others = st.toAct.filter((x) => x !== st.seat);
      return { text: `Your turn${phase ? `: ${phase}` : ""}.${others.length ? ` Also waiting for ${others.map(name).join(", ")}.` : ""}`, mine: true };
    }
    if (st.toAct.length) return { text: `Waiting for ${st.toAct.map(name).join(", ")}${phase ? `: ${phase}` : ""}.`, mine: false };
    return { text: phase ? `${phase}.` : "Waiting…", mine: false };
  }

  // -- what the user does --------------------------------------------------------------------
  /** @param {Command|Command[]} what */
  send(what) {
    const list = Array.isArray(what) ? what : [what];
    if (!list.length || this.st.seat === null || this.st.busy) return;
    if (list.length > 1) {
      const ctx = this.ctx();
      this.st.dialog = {
        kind: "choose",
        question: "This click could mean more than one move. Choose one:",
        options: list.map((cmd) => ({ label: this.label(cmd, ctx), run: () => { this.st.dialog = null; this.sendOne(cmd); } })),
      };
      this.update();
      return;
    }
    this.sendOne(list[0]);
  }

  /** @param {Command} cmd */
  sendOne(cmd) {
    const ctx = this.ctx();
    let question = null;
    try { question = this.renderer.confirm?.(cmd, ctx) || null; } catch { question = null; }
    if (question && settings.confirm) {
      this.st.dialog = {
        kind: "confirm",
        question,
        options: [{ label: `Yes: ${this.label(cmd, ctx)}`, run: () => { this.st.dialog = null; this.transmit(cmd); } }],
      };
      this.update();
      return;
    }
    this.transmit(cmd);
  }

  /** @param {Command} cmd */
  transmit(cmd) {
    if (this.st.seat === null || this.st.busy) return;
    this.st.busy = true;
    this.st.why = null;
    this.st.resetMarks = true;
    this.conn.send(cmd);
    this.update();
  }

  cancelDialog() {
    this.st.dialog = null;
    this.update();
  }

  why(reason) {
    this.st.why = reason;
    clearTimeout(this.whyTimer);
    this.whyTimer = window.setTimeout(() => { this.st.why = null; this.update(); }, 6000);
    this.update();
  }

  showDetail(d, pin = false) {
    if (!d && this.st.pinned) return;
    this.st.detail = d;
    this.st.pinned = !!(d && pin);
    this.update();
  }

  zoom(step) {
    const i = Math.max(0, Math.min(ZOOMS.length - 1, ZOOMS.indexOf(this.st.zoom) + step));
    this.st.zoom = step === 0 ? 1 : ZOOMS[i];
    this.update();
  }

  /** Leave the table or take the seat back (a bot plays for it meanwhile). @param {"leave"|"retake"} type */
  seatRequest(type) {
    if (this.st.seat === null) return;
    this.conn.seatRequest(type);
  }

  chat(ev) {
    ev.preventDefault();
    const input = /** @type {HTMLInputElement} */ (ev.currentTarget.querySelector("input"));
    const text = input.value.trim();
    if (!text || this.st.seat === null) return;
    this.chatIds.add(this.conn.chat(text));
    input.value = "";
  }

  async join(seat) {
    const input = /** @type {HTMLInputElement|null} */ (document.getElementById("join-name"));
    const name = (input?.value || "").trim() || `Player ${seat + 1}`;
    prefs.name = name;
    try {
      const res = await joinSeat(this.id, name, seat);
      this.record = { seat: res.seat, token: res.token, name };
      seats.set(this.id, this.record);
      toast(`You joined as ${this.summary.seats.find((s) => s.seat === res.seat)?.label || "a player"}.`, "info");
      await this.refreshSummary();
      this.restartConnection();
    } catch (err) {
      toast(`Could not join: ${err.message}`, "error");
      await this.refreshSummary();
    }
  }

  async bot(seat) {
    try {
      await addBot(this.id, seat);
      await this.refreshSummary();
    } catch (err) {
      toast(`Could not add a bot: ${err.message}`, "error");
    }
  }

  async refreshSummary() {
    try {
      this.summary = await getGame(this.id);
      if (this.summary.result) this.st.result = this.summary.result;
      this.update();
    } catch {
      /* keep the old one */
    }
  }

  /** After the end, everyone may see everything: draw the review view (the full reveal). */
  async loadReview() {
    if (this.st.reviewLoaded) return;
    this.st.reviewLoaded = true;
    try {
      const res = await getView(this.id, null, null);
      if (res && res.view) {
        this.st.view = res.view;
        this.update();
      }
    } catch {
      this.st.reviewLoaded = false;
    }
  }

  // -- the connection ------------------------------------------------------------------------
  handlers() {
    const st = this.st;
    return {
      onState: (state) => {
        st.conn = state;
        if (this.connStatus) {
          this.connStatus.textContent = { open: "Live", connecting: "Connecting…", reconnecting: "Reconnecting…", closed: "" }[state] ?? "";
          this.connStatus.dataset.state = state;
        }
        this.update();
      },
      onWelcome: (msg) => {
        const statusChanged = msg.status !== st.status;
        st.seat = msg.seat;
        st.status = msg.status;
        this.take(msg);
        this.clocks.take(msg, true);
        if (msg.events?.length) st.events.push(...msg.events);
        if (this.record && msg.seat === null && this.record.token) {
          toast("This browser's seat token was not accepted; you are watching.", "error");
        }
        if (statusChanged || st.status === "finished") this.refreshSummary();
        if (st.status === "finished") this.loadReview();
        if (!st.events.length && st.version) this.loadHistory();
        this.undo.refresh(st.seat === null ? null : st.version, st.status);
        this.update();
      },
      onUpdate: (msg) => {
        const statusChanged = msg.status && msg.status !== st.status;
        if (msg.status) st.status = msg.status;
        this.take(msg);
        this.clocks.take(msg);
        st.events.push(...(msg.events || []));
        if (statusChanged) this.refreshSummary();
        if (st.status === "finished") this.loadReview();
        this.undo.refresh(st.seat === null ? null : st.version, st.status);
        this.update();
      },
      onAccepted: (msg) => {
        if (this.chatIds.delete(msg.command_id)) return;
        if (this.undo.answered(msg, true)) return;
        st.busy = this.conn.commandsPending() > 0;
        if (typeof msg.version === "number") st.sinceVersion = msg.version;
        this.update();
      },
      onRejected: (msg) => {
        if (this.chatIds.delete(msg.command_id)) {
          toast(`Chat not sent: ${msg.message || humanize(msg.code)}`, "error");
          return;
        }
        if (this.undo.answered(msg, false)) return;
        st.busy = this.conn.commandsPending() > 0;
        toast(`Not allowed: ${msg.message || humanize(msg.code)}`, "error");
        this.update();
      },
      onGameOver: (msg) => {
        st.status = "finished";
        st.result = msg.result;
        this.refreshSummary();
        this.loadReview();
        this.update();
        toast(`Game over. ${winnerSentence(this.summary, msg.result)}`, "info", 10000);
      },
      onError: (msg) => {
        if (msg.code === "bad_token") {
          seats.remove(this.id);
          this.record = null;
          toast("Your seat token is no longer valid; you are watching as a spectator.", "error", 10000);
          this.restartConnection();
          return;
        }
        toast(msg.message || humanize(msg.code), "error");
      },
    };
  }

  /** Take a welcome or update: the new full view, what changed on the board since the last. */
  take(msg) {
    const st = this.st;
    const prev = st.view;
    st.prev = prev;
    st.view = msg.view;
    st.legal = msg.legal || [];
    st.toAct = msg.to_act || [];
    st.version = msg.version;
    st.busy = this.conn.commandsPending() > 0;
    if (prev && msg.view && this.renderer.marks) {
      try {
        const marks = this.renderer.marks(prev, msg.view, st.seat);
        // Everything the other seats did since my last move stays marked until I move again
        // (then my own move is what is marked); a chat line changes nothing drawn.
        if (st.resetMarks) {
          st.changed = marks;
          st.resetMarks = false;
        } else if (marks.size) {
          st.changed = new Set([...st.changed, ...marks]);
        }
      } catch (err) {
        console.warn("marks failed", err);
      }
    }
  }

  restartConnection() {
    this.conn.close();
    const st = this.st;
    st.events = [];
    st.version = null;
    st.busy = false;
    st.view = null;
    st.prev = null;
    this.historyLoaded = false;
    this.conn = new GameConnection(this.id, this.record?.token, this.handlers());
    window.cloister.conn = this.conn;
  }

  // The first welcome carries no history (no `since`): load the log so far once, over HTTP.
  async loadHistory() {
    if (this.historyLoaded) return;
    this.historyLoaded = true;
    try {
      const { events } = await getEvents(this.id, this.record?.token);
      const st = this.st;
      const known = new Set(st.events.map((e) => e.version));
      const older = (events || []).filter((e) => !known.has(e.version) && (st.version === null || e.version <= st.version));
      st.events = [...older, ...st.events].sort((a, b) => a.version - b.version);
      this.update();
    } catch {
      /* the log starts empty; live events still arrive */
    }
  }
}

// -- the view: pure functions of the controller's state ----------------------------------------

/** @param {GamePage} p */
function pageView(p) {
  const st = p.st;
  const s = p.summary;
  const ctx = p.ctx();
  const prompt = p.prompt();
  document.title = `${prompt.mine ? "● Your turn · " : ""}${s.title || s.type} · Cloister`;
  return html`<section class=${classMap({ "game-page": true, [`game-${s.type}`]: true, spectating: p.mode === "watch", finished: st.status === "finished" })}>
    <div class="game-head">
      <h1 class="game-title">${s.title || humanize(s.type)}</h1>
      <span class="role">${st.seat !== null ? `You play ${seatName(s, st.seat)}` : "Spectating (public information only)"}</span>
      ${toolsView(p)}
    </div>
    <div class=${classMap({ banner: true, mine: prompt.mine })} role="status" aria-live="polite">${prompt.text}</div>
    <div class="game-body">
      <div class="board-area">
        ${st.status === "finished" ? resultView(p, ctx) : nothing}
        ${boardView(p, ctx)}
        ${st.why ? html`<div class="why" role="status" aria-live="polite"><strong>Not possible:</strong> ${st.why}</div>` : html`<div class="why" role="status" aria-live="polite" hidden></div>`}
        ${detailPanel(st.detail, st.pinned, () => { st.pinned = false; p.showDetail(null); })}
      </div>
      <aside class="side">
        ${playersView(p, ctx)}
        ${st.status === "finished" ? nothing : actionsView(p, ctx)}
        ${st.status === "running" ? sinceView(p) : nothing}
        ${logView(p)}
      </aside>
    </div>
    <dialog class="confirm-dialog" ${ref(p.dialogRef)} aria-labelledby="dialog-h" aria-describedby="dialog-q"
        @cancel=${(e) => { e.preventDefault(); p.cancelDialog(); }}>${dialogBody(st.dialog, () => p.cancelDialog())}</dialog>
  </section>`;
}

/** @param {GamePage} p */
function toolsView(p) {
  const id = p.id;
  return html`<div class="game-tools" role="toolbar" aria-label="Page tools">
    <a href=${`#/replay/${id}`} class="button-link">Replay</a>
    ${p.mode === "play" ? html`<a href=${`#/watch/${id}`} class="button-link">Watch as spectator</a>` : html`<a href=${`#/game/${id}`} class="button-link">Player page</a>`}
    <details class="share-box">
      <summary>Share</summary>
      <div class="popover">
        ${shareField("Link for players", linkTo(`#/game/${id}`), "Opens a seat picker; each player's seat stays in their own browser.", "share-play")}
        ${shareField("Link for spectators", linkTo(`#/watch/${id}`), "Shows public information only.", "share-watch")}
      </div>
    </details>
    ${p.st.status === "running" ? reportButton(id, p.mode === "play" ? p.record?.token : null) : nothing}
    <details class="settings-box">
      <summary>Settings</summary>
      <div class="popover">
        <label class="check"><input type="checkbox" id="set-confirm" .checked=${settings.confirm}
          @change=${(e) => { settings.confirm = e.currentTarget.checked; p.update(); }}> Ask before costly or irreversible moves</label>
      </div>
    </details>
  </div>`;
}

/** @param {GamePage} p @param {RenderCtx} ctx */
function boardView(p, ctx) {
  const st = p.st;
  let inner;
  if (st.view === null || st.view === undefined) {
    inner = html`<p class="muted board-empty">${st.status === "open" ? "The board appears when every seat is taken." : "Loading…"}</p>`;
  } else {
    inner = safeRender(p.renderer, ctx);
  }
  const wheel = (/** @type {WheelEvent} */ e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    p.zoom(e.deltaY < 0 ? 1 : -1);
  };
  return html`<div class="board-tools" role="toolbar" aria-label="Board zoom">
      <button type="button" class="small secondary" aria-label="Zoom out" ?disabled=${st.zoom <= 1} @click=${() => p.zoom(-1)}>−</button>
      <button type="button" class="small secondary" aria-label="Fit the board" ?disabled=${st.zoom === 1} @click=${() => p.zoom(0)}>Fit</button>
      <button type="button" class="small secondary" aria-label="Zoom in" ?disabled=${st.zoom >= 3} @click=${() => p.zoom(1)}>+</button>
    </div>
    <div class=${classMap({ board: true, zoomed: st.zoom > 1 })} id="board" ${ref(p.boardRef)} @wheel=${wheel}
        style=${`--zoom:${st.zoom}`} @pointerdown=${(e) => pan(e, p)}>
      <div class="zoom-box">${inner}</div>
    </div>`;
}

/** Drag the zoomed board to pan it (touch screens pan it natively by scrolling). */
function pan(ev, p) {
  if (p.st.zoom <= 1 || ev.pointerType !== "mouse" || ev.button !== 0) return;
  const box = /** @type {HTMLElement} */ (p.boardRef.value);
  const x0 = ev.clientX, y0 = ev.clientY, l0 = box.scrollLeft, t0 = box.scrollTop;
  let moved = false;
  const move = (/** @type {PointerEvent} */ e) => {
    if (Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) > 6) moved = true;
    if (moved) {
      box.scrollLeft = l0 - (e.clientX - x0);
      box.scrollTop = t0 - (e.clientY - y0);
    }
  };
  const up = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    // A drag is not a click on whatever it started on.
    if (moved) window.addEventListener("click", (e) => { e.stopPropagation(); e.preventDefault(); }, { capture: true, once: true });
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

/** @param {GamePage} p @param {RenderCtx} ctx */
function playersView(p, ctx) {
  const st = p.st;
  const s = p.summary;
  let lines = [];
  if (st.view) {
    try { lines = p.renderer.players?.(ctx) || []; } catch { lines = []; }
  }
  const canJoin = s.status === "open" && p.mode === "play" && !p.record;
  const canBot = s.status === "open" && p.mode === "play" && p.typeInfo?.bots?.length;
  const extra = (seat) => {
    if (seat.taken || s.status !== "open") return nothing;
    if (!canJoin && !canBot) return html`<span class="muted"> open</span>`;
    return html`${canJoin ? html`<button type="button" class="small" aria-label=${`Join as ${seat.label}`} @click=${() => p.join(seat.seat)}>Join</button>` : nothing}
      ${canBot ? html`<button type="button" class="small secondary" aria-label=${`Put a bot in ${seat.label}`} @click=${() => p.bot(seat.seat)}>Bot</button>` : nothing}`;
  };
  return html`${canJoin ? html`<div class="field join-field"><label for="join-name">Your name</label>
      <input id="join-name" type="text" .value=${prefs.name} maxlength="40" autocomplete="nickname" placeholder="Your name"></div>` : nothing}
    ${playersPanel({ seats: s.seats, lines, me: st.seat, toAct: st.toAct, running: st.status === "running", name: ctx.seatName, colour: ctx.colour, extra, clock: (seat) => clockView(p.clocks, seat) })}
    ${s.status === "open" && p.mode === "watch" ? html`<p><a href=${`#/game/${p.id}`}>Take a seat</a></p>` : nothing}`;
}

/** @param {GamePage} p @param {RenderCtx} ctx */
function actionsView(p, ctx) {
  const st = p.st;
  let body;
  if (st.seat === null) body = html`<p class="muted">You are watching. Only public information is shown.</p>`;
  else if (st.status !== "running") body = html`<p class="muted">${st.status === "open" ? "The game starts when every seat is taken." : "The game is over."}</p>`;
  else if (p.clocks.standIn(st.seat)) body = nothing;
  else if (!st.legal.length) body = html`<p class="muted">${st.toAct.includes(st.seat) ? "Nothing to choose." : "Not your turn: nothing to do right now."}</p>`;
  else {
    /** @type {Map<string, Command[]>} */
    const groups = new Map();
    for (const cmd of st.legal) {
      if (!groups.has(cmd.type)) groups.set(cmd.type, []);
      groups.get(cmd.type).push(cmd);
    }
    const ordered = [...groups].sort(([a], [b]) => Number(LAST.test(a)) - Number(LAST.test(b)));
    body = repeat(ordered, ([type]) => type, ([type, cmds]) => {
      let title = humanize(type);
      try { title = p.renderer.groupLabel?.(type, ctx) || title; } catch { /* keep */ }
      const buttons = repeat(cmds, (c) => JSON.stringify(c), (cmd) => html`<button type="button" class="action" ?disabled=${st.busy} @click=${() => p.send(cmd)}>${p.label(cmd, ctx)}</button>`);
      const fs = html`<fieldset class="action-group"><legend>${title}</legend>${buttons}</fieldset>`;
      if (cmds.length <= 6) return fs;
      // Long lists (every spot for a section, every card × slot) fold away; the board offers
      // the same choices by clicking. The open/closed state survives re-renders.
      const key = `${p.summary.type}:${type}`;
      return html`<details class="action-more" ?open=${st.openGroups.has(key)}
          @toggle=${(e) => (e.currentTarget.open ? st.openGroups.add(key) : st.openGroups.delete(key))}>
        <summary>${title} — ${cmds.length} choices</summary>${fs}</details>`;
    });
  }
  return html`<section class="actions panel" aria-labelledby="actions-h">
    <div class="panel-head"><h2 id="actions-h">Actions</h2>
      <div class="action-toolbar" role="toolbar" aria-label="Game actions">${st.status === "running" ? undoButton(p.undo, st.seat, st.version, st.events) : nothing}</div></div>
    <div class="actions-body" tabindex="0" role="region" aria-label="Legal moves">${seatControls({ clocks: p.clocks, seat: st.seat, running: st.status === "running", leave: () => p.seatRequest("leave"), retake: () => p.seatRequest("retake") })}${body}${st.busy ? html`<p class="muted" role="status">Sending…</p>` : nothing}</div>
  </section>`;
}

/** What the other seats did since this seat's last move, in the log's sentences. */
/** @param {GamePage} p */
function sinceView(p) {
  const st = p.st;
  const news = st.events.filter((e) => e.text && e.text !== e.type && e.type !== "Hidden" && e.type !== "cloister.Chat");
  const recent = st.sinceVersion === null ? news.slice(-4) : news.filter((e) => e.version > (st.sinceVersion ?? 0)).slice(-6);
  const title = st.seat === null ? "Latest moves" : st.sinceVersion === null ? "Latest moves" : "Since your last move";
  return html`<section class="since panel" aria-labelledby="since-h">
    <h2 id="since-h">${title}</h2>
    ${recent.length ? html`<ul class="since-list" tabindex="0" aria-label="Moves since your last one">${repeat(recent, (e) => e.version, (e) => html`<li>${e.text}</li>`)}</ul>` : html`<p class="muted">Nothing new yet.</p>`}
  </section>`;
}

/** @param {GamePage} p */
function logView(p) {
  const st = p.st;
  const colourOf = (e) => (typeof e.data?.seat === "number" ? p.colour(e.data.seat) : null);
  // "Undo to here" on my own lines that the server would let me take back, and only those.
  const offer = p.undo.offer(st.version, st.events);
  const points = st.seat !== null && st.status === "running" ? undoPoints(offer.targets, st.events, st.seat) : new Map();
  return html`<section class="log-panel panel" aria-labelledby="log-h">
    <h2 id="log-h">Log</h2>
    <ol class="log" id="log" aria-label="Game log" tabindex="0" ${ref(p.logRef)}>${logRows(st.events.slice(-400), { colourOf, undone: undoneVersions(st.events), tool: (r) => undoHere(p.undo, points.get(r.version), offer.fresh) })}</ol>
    ${st.seat !== null ? html`<form class="chat-form" id="chat-form" @submit=${(e) => p.chat(e)}>
      <input type="text" id="chat-input" maxlength="500" autocomplete="off" placeholder="Say something to the table (not binding)" aria-label="Chat message">
      <button type="submit">Say</button></form>` : html`<form class="chat-form" id="chat-form" hidden></form>`}
  </section>`;
}

/** @param {GamePage} p @param {RenderCtx} ctx */
function resultView(p, ctx) {
  const st = p.st;
  // The narrator's categories when the result has them, else what the renderer can tell.
  let table = breakdownFromResult(st.result);
  if (!table) try { table = p.renderer.breakdown?.(st.view, st.result, ctx) || null; } catch (err) { console.warn(err); }
  return resultPanel(p.summary, st.result, table, ctx.colour,
    html`<p class="replay-link"><a href=${`#/replay/${p.id}`}>Step through the whole game with every card revealed</a></p>`);
}

export { pageView };
