// @ts-check
// Turn clocks and absent players on the game page: the clock in each seat's row of the
// players panel, counting down on this browser's clock from the server's `table` (welcome,
// update; see docs/protocol.md, Clocks and absent players), and the seat controls — "Leave
// the table", and "Take my seat back" while a bot plays for me.
import { html, nothing } from "./lit.js";

/**
 * @typedef {{seat: number, bot: string|null, remaining?: number, running?: boolean,
 *   deadline?: number|null}} SeatClock
 * @typedef {{now: number, clock: string, seats: SeatClock[]}} Table
 */

const LOW_MS = 10000;

/** The last `table` the server sent and when it arrived (this browser's monotonic clock). */
export class Clocks {
  constructor() {
    /** @type {Table|null} */
    this.table = null;
    this.at = 0;
  }

  /** Take a welcome (`table` absent = nothing to show) or an update (absent = unchanged). */
  take(msg, welcome = false) {
    if ("table" in msg) {
      this.table = msg.table ?? null;
      this.at = performance.now();
    } else if (welcome) {
      this.table = null;
    }
  }

  get on() {
    return !!this.table && this.table.clock !== "none";
  }

  /** @param {number} seat */
  seat(seat) {
    return this.table?.seats?.[seat] ?? null;
  }

  /** Milliseconds left on the seat's clock now, or null without a clock. @param {number} seat */
  remaining(seat) {
    const s = this.seat(seat);
    if (!this.on || !s || typeof s.remaining !== "number") return null;
    const left = s.running ? s.remaining - (performance.now() - this.at) : s.remaining;
    return Math.max(0, left);
  }

  /** The level of the bot playing for the seat, or null. @param {number|null} seat */
  standIn(seat) {
    return seat === null ? null : this.seat(seat)?.bot ?? null;
  }

  get running() {
    return this.on && (this.table?.seats || []).some((s) => s.running);
  }
}

/** "4:07", "0:09", "1:02:03". @param {number} ms */
export function formatClock(ms) {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** What goes in a seat's clock slot: its clock and, when a bot plays for it, who. */
export function clockView(/** @type {Clocks} */ clocks, /** @type {number} */ seat) {
  const left = clocks.remaining(seat);
  const s = clocks.seat(seat);
  const bot = s?.bot;
  const running = !!s?.running;
  const clock = left === null ? nothing : html`<span class="clock ${running ? "running" : ""} ${running && left < LOW_MS ? "low" : ""}"
      role="timer" aria-label=${`${formatClock(left)} left${running ? ", running" : ""}`}
      title=${running ? "This seat's clock is running" : "This seat's clock"}>${formatClock(left)}</span>`;
  const stand = bot ? html`<span class="stand-in" title="A bot plays for this seat until its player takes it back">bot plays</span>` : nothing;
  return html`${clock}${stand}`;
}

/**
 * The seat controls above the actions: leave the table, or take the seat back.
 * @param {{clocks: Clocks, seat: number|null, running: boolean, leave: () => void, retake: () => void}} p
 */
export function seatControls(p) {
  if (p.seat === null || !p.running) return nothing;
  const bot = p.clocks.standIn(p.seat);
  if (bot) {
    return html`<div class="stand-in-banner" role="status">
      <p>A bot (${bot}) is playing for you while you are away.</p>
      <button type="button" class="primary" @click=${p.retake}>Take my seat back</button></div>`;
  }
  return html`<div class="seat-controls"><button type="button" class="small secondary" title="A bot plays on for you until you take the seat back"
      @click=${() => { if (confirm("Leave the table? A bot plays on for you until you take your seat back.")) p.leave(); }}>Leave the table</button></div>`;
}

/** Re-render every half second while a clock runs; returns a function that stops it. */
export function tick(/** @type {Clocks} */ clocks, /** @type {() => void} */ rerender) {
  const timer = setInterval(() => { if (clocks.running) rerender(); }, 500);
  return () => clearInterval(timer);
}
