// @ts-check
// A live connection to one game over the WebSocket API. Reconnects by itself after a drop
// and resumes from the last version it saw (hello.since), so no event is lost or repeated.
// Updates carry a delta of the view (and the legal commands only when they change, in a
// compact form): this layer applies them and hands the page the full current view and the
// expanded legal list, exactly as if every update carried them whole. A delta that does
// not fit the view held here (a base version that is not ours) is answered with a resync.

import { applyDelta, expandLegal } from "./delta.js";

let commandSeq = 0;
function newCommandId() {
  const rnd = (globalThis.crypto && crypto.randomUUID) ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
  return `web-${++commandSeq}-${rnd}`;
}

export class GameConnection {
  /**
   * @param {string} gameId
   * @param {string|null} token  seat token, or null to watch as a spectator
   * @param {object} handlers    onWelcome, onUpdate, onAccepted, onRejected, onGameOver,
   *                             onError, onState(state) with state in
   *                             "connecting" | "open" | "reconnecting" | "closed"
   */
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token || null;
    this.h = handlers;
    this.version = null; // last version applied
    this.view = null; // the full current view (deltas are applied to it)
    this.legal = []; // the expanded legal commands of this seat
    this.resyncing = false;
    this.ws = null;
    this.closed = false;
    this.finished = false;
    this.attempt = 0;
    this.pending = new Map(); // command_id -> the command or chat message, not yet answered
    this.timer = null;
    this.pingTimer = null;
    this.state = "connecting";
    // Back online, or the tab shown again: do not wait out the backoff.
    this.wake = () => {
      if (!this.closed && !this.ws && this.state === "reconnecting") {
        clearTimeout(this.timer);
        this.holdUntil = 0;
        this.connect();
      }
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`;
  }

  setState(state) {
    this.state = state;
    this.h.onState?.(state, this.attempt);
  }

  connect() {
    if (this.closed) return;
    this.setState(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", v: 2, token: this.token, since: this.version }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      // 4400 bad hello, 4403 bad token, 4404 no such game: trying again cannot help (the
      // error message before the close says why). A finished game has nothing more to say.
      // Anything else (a network drop, 4429 "fell behind", 4408) reconnects and resumes.
      if ([4400, 4403, 4404].includes(ev.code)) this.closed = true;
      if (!this.closed && !this.finished) this.scheduleReconnect();
      else this.setState("closed");
    };
    ws.onerror = () => {
      /* onclose follows and reconnects */
    };
  }

  scheduleReconnect() {
    if (this.closed) return;
    this.attempt += 1;
    this.setState("reconnecting");
    let delay = Math.min(8000, 300 * 2 ** Math.min(this.attempt - 1, 5)) + Math.random() * 200;
    if (this.holdUntil && this.holdUntil > Date.now()) delay = Math.max(delay, this.holdUntil - Date.now());
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome": {
        this.attempt = 0;
        this.setState("open");
        const events = (msg.events || []).filter((e) => this.version === null || e.version > this.version);
        this.version = msg.version;
        this.view = msg.view;
        this.legal = expandLegal(msg.legal);
        this.resyncing = false;
        this.finished = msg.status === "finished";
        this.h.onWelcome?.({ ...msg, events, view: this.view, legal: this.legal });
        // Commands and chat sent but never answered (the socket dropped): send again with the
        // same command_id; the server applies each at most once.
        for (const message of this.pending.values()) this.raw(message);
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.raw({ type: "ping", nonce: Date.now() % 1e9 }), 25000);
        break;
      }
      case "update": {
        // The sender's own update carries its command_id: that is the command's acceptance
        // (no separate "accepted" follows). Settle it even if the update itself is skipped.
        const ownCommand = msg.command_id && this.pending.has(msg.command_id);
        if (msg.command_id) this.pending.delete(msg.command_id);
        if (ownCommand) queueMicrotask(() => this.h.onAccepted?.({ command_id: msg.command_id, version: msg.version, duplicate: false }));
        const events = msg.events || [];
        if (this.version !== null && events.length && events[0].version > this.version + 1) {
          // A gap: ask for everything after what we have; the answer is a full update.
          this.resync();
          return;
        }
        if (this.version !== null && msg.version < this.version) return; // stale
        let view = msg.view;
        if (msg.delta) {
          if (msg.base !== this.version) {
            this.resync(); // a delta from a view we do not hold
            return;
          }
          try {
            view = applyDelta(this.view, msg.delta);
          } catch (err) {
            this.resync();
            return;
          }
        } else {
          this.resyncing = false; // a full view: nothing is missing any more
        }
        const fresh = events.filter((e) => this.version === null || e.version > this.version);
        this.version = msg.version;
        this.view = view;
        if ("legal" in msg) this.legal = expandLegal(msg.legal);
        if (msg.status === "finished") this.finished = true;
        this.h.onUpdate?.({ ...msg, events: fresh, view: this.view, legal: this.legal });
        break;
      }
      case "accepted":
        this.pending.delete(msg.command_id);
        this.h.onAccepted?.(msg);
        break;
      case "rejected":
        this.pending.delete(msg.command_id);
        this.h.onRejected?.(msg);
        break;
      case "game_over":
        this.finished = true;
        this.h.onGameOver?.(msg);
        break;
      case "error":
        this.h.onError?.(msg);
        break;
      case "pong":
      default:
        break;
    }
  }

  /** Ask for everything after our version (once until a full view answers). */
  resync() {
    if (this.resyncing) return;
    this.resyncing = this.raw({ type: "resync", since: this.version });
  }

  raw(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  /** Send a game command; returns its command_id. Kept until answered, resent on reconnect. */
  send(command) {
    return this.request({ type: "command", command_id: newCommandId(), command });
  }

  /** Say something at the table (outside the rules); answered like a command. */
  chat(text) {
    return this.request({ type: "chat", command_id: newCommandId(), text });
  }

  /** Leave the table (a bot plays on for this seat) or take the seat back: answered like a
   *  command. @param {"leave"|"retake"} type */
  seatRequest(type) {
    return this.request({ type, command_id: newCommandId() });
  }

  /** Take back this seat's own last commands over the socket (docs/protocol.md, `undo`):
   *  `to_version` (one of `GET …/undo`'s targets) takes back all of them after it at once,
   *  `steps` the last few, nothing the last one. Answered like a command; a refusal's
   *  `message` says which horizon stops it. @param {{to_version?: number, steps?: number}} how */
  undo(how = {}) {
    return this.request({ type: "undo", command_id: newCommandId(), ...how });
  }

  /** How many game commands (not chat lines) still wait for their answer. */
  commandsPending() {
    let n = 0;
    for (const m of this.pending.values()) if (m.type === "command") n += 1;
    return n;
  }

  request(message) {
    this.pending.set(message.command_id, message);
    this.raw(message);
    return message.command_id;
  }

  /** Drop the socket as a network failure would (used by the browser tests). With
   *  `offlineMs`, stay away that long before reconnecting, as after a longer outage. */
  drop(offlineMs = 0) {
    if (offlineMs > 0) {
      this.holdUntil = Date.now() + offlineMs;
    }
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
    this.setState("closed");
  }
}
