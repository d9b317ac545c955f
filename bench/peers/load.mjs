// The benchmark's load generator: the same closed-loop load against Cloister, boardgame.io
// and Colyseus, each through its own client (Cloister: a WebSocket with connection.js's
// delta.js; boardgame.io: its Client with the SocketIO transport; Colyseus: @colyseus/sdk).
//
//   node load.mjs play TARGET URL MATCHES PER_LANE DURATION WARMUP [GAME]
//   node load.mjs spectate TARGET URL SPECTATORS MOVES [GAME]
//
// play: MATCHES lanes, each with PER_LANE matches created and connected before timing; in
// each match every player moves (a random legal move) as soon as the update of the previous
// move shows it is its turn. A move's latency is send -> the mover's own update. The window
// opens WARMUP s after the start and lasts DURATION s (or until a lane runs out of matches).
// spectate: one match with SPECTATORS watchers; the players move one at a time, each move
// only once the last spectator has its update; reports move -> last spectator's update.
//
// Bytes per update: every TCP socket this process opens is tracked (node:diagnostics_channel
// "net.client.socket"); bytes read in the window / updates received in the window, i.e. what
// each update costs on the wire with its protocol's framing. Prints one JSON line.
import { createRequire } from "node:module";
import diagnostics from "node:diagnostics_channel";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { applyDelta, expandLegal } from "./delta.js";

const require = createRequire(import.meta.url);
const now = () => performance.now();
const sockets = [];
diagnostics.channel("net.client.socket").subscribe(({ socket }) => sockets.push(socket));
const bytesRead = () => sockets.reduce((n, s) => n + (s.bytesRead || 0), 0);

function pct(values, q) {
  if (!values.length) return null;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function rand(n) {
  return Math.floor(Math.random() * n);
}

// -- one match, whatever the server ---------------------------------------------------------
// A seat object: canMove(), sendMove() -> a token, isOwn(update, token), at(update) -> the
// move count or version; it calls this.changed(update) on each update it receives.
class Match {
  constructor(players, watchers, close) {
    this.players = players;
    this.watchers = watchers;
    this.close = close;
    this.onAny = null;
    for (const p of players) {
      p.changed = (update) => {
        p.updates += 1;
        if (p.pending && p.isOwn(update, p.pending.token)) {
          const { t0, record } = p.pending;
          p.pending = null;
          record(t0, now(), p.at(update));
        }
        this.onAny?.();
      };
    }
    for (const w of watchers) w.changed = (update) => { w.updates += 1; w.seenAt = p_at(w, update); this.onWatch?.(w); };
  }

  // Every seat that is to act and not waiting for its own update sends a move.
  step(record) {
    for (const p of this.players) {
      if (p.pending || !p.canMove()) continue;
      p.pending = { t0: now(), record, token: null };
      p.pending.token = p.sendMove();
    }
  }

  finished() {
    return this.players.every((p) => p.finished);
  }

  updates() {
    return [...this.players, ...this.watchers].reduce((n, p) => n + p.updates, 0);
  }

  sizes() {
    return [...this.players, ...this.watchers].flatMap((p) => p.sizes || []);
  }
}

function p_at(w, update) {
  return w.at(update);
}

// -- Cloister -------------------------------------------------------------------------------
class CloisterSeat {
  constructor(base, gameId, token) {
    this.url = `${base.replace("http", "ws")}/api/games/${gameId}/ws`;
    this.token = token;
    this.version = 0;
    this.view = null;
    this.legal = [];
    this.toAct = [];
    this.seat = null;
    this.finished = false;
    this.updates = 0;
    this.sizes = [];
    this.pending = null;
    this.changed = () => {};
  }

  open() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url, { perMessageDeflate: false });
      this.ws = ws;
      ws.on("open", () => ws.send(JSON.stringify({ type: "hello", v: 2, token: this.token, since: null })));
      ws.on("error", reject);
      ws.on("message", (data) => {
        const msg = JSON.parse(data);
        if (msg.type === "welcome") {
          this.seat = msg.seat;
          this.version = msg.version;
          this.view = msg.view;
          this.legal = expandLegal(msg.legal);
          this.toAct = msg.to_act;
          this.finished = msg.status === "finished";
          resolve(this);
        } else if (msg.type === "update") {
          this.sizes.push(data.length);
          // What a real client does: keep the full view and the expanded legal list.
          this.view = msg.delta ? applyDelta(this.view, msg.delta) : msg.view;
          if ("legal" in msg) this.legal = expandLegal(msg.legal);
          this.version = msg.version;
          this.toAct = msg.to_act;
          if (msg.status === "finished") this.finished = true;
          this.changed(msg);
        } else if (msg.type === "rejected" || msg.type === "error") {
          console.error(JSON.stringify(msg));
        }
      });
    });
  }

  canMove() {
    return !this.finished && this.toAct.includes(this.seat) && this.legal.length > 0;
  }

  sendMove() {
    const command = this.legal[rand(this.legal.length)];
    const id = `m${Math.random().toString(36).slice(2)}`;
    this.ws.send(JSON.stringify({ type: "command", command_id: id, command }));
    return id;
  }

  isOwn(msg, id) {
    return msg.command_id === id;
  }

  at(msg) {
    return msg.version;
  }
}

async function cloisterMatch(base, game, spectators = 0, lazy = false) {
  const post = async (path, body) => {
    const r = await fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  // A match the window leaves unfinished is dropped with its sockets; with the default
  // `absent` (300 s) bots would take its seats later in the run and play it out, CPU that
  // a later window would count (the peers keep abandoned matches idle). An hour outlasts a run.
  const options = game === "illumination" ? { mode: "duel", absent: 3600 } : { absent: 3600 };
  const created = await post("/api/games", { type: game, options });
  const tokens = [];
  for (const seat of [0, 1]) tokens.push((await post(`/api/games/${created.id}/seats`, { name: `p${seat}`, seat })).token);
  const connect = async () => {
    const players = await Promise.all(tokens.map((t) => new CloisterSeat(base, created.id, t).open()));
    const watchers = [];
    for (let i = 0; i < spectators; i++) watchers.push(await new CloisterSeat(base, created.id, null).open());
    const match = new Match(players, watchers, () => [...players, ...watchers].forEach((p) => p.ws.close()));
    // What opening cost on the wire (the upgrade and the welcome): not an update's bytes.
    match.openedBytes = [...players, ...watchers].reduce((n, p) => n + (p.ws._socket?.bytesRead || 0), 0);
    return match;
  };
  if (!lazy) return connect();
  // Created now, connected when its lane comes to it (see ``play``).
  return { open: connect, updates: () => 0, sizes: () => [], close: () => {} };
}

// -- boardgame.io ---------------------------------------------------------------------------
async function bgioMatch(base, spectators = 0) {
  const { Client } = require("boardgame.io/client");
  const { SocketIO } = require("boardgame.io/multiplayer");
  const { SwapGame, HAND } = require("./bgio-game.cjs");
  const post = async (path, body) => {
    const r = await fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json();
  };
  const { matchID } = await post("/games/swap/create", { numPlayers: 2 });
  const make = async (playerID, credentials) => {
    const client = Client({
      game: SwapGame,
      numPlayers: 2,
      matchID,
      playerID,
      credentials,
      debug: false,
      multiplayer: SocketIO({ server: base, socketOpts: { transports: ["websocket"] } }),
    });
    const seat = {
      client, id: playerID, moves: -1, turn: "0", updates: 0, finished: false, pending: null,
      changed: () => {},
      canMove() { return !this.finished && this.turn === this.id; },
      sendMove() { const before = this.moves; client.moves.swap(rand(HAND)); return before; },
      isOwn(state, before) { return state.G.moves > before; },
      at(state) { return state.G.moves; },
    };
    await new Promise((resolve) => {
      client.subscribe((state) => {
        if (!state || !state.G) return;
        if (seat.moves === -1) {
          seat.moves = state.G.moves;
          seat.turn = state.ctx.currentPlayer;
          resolve();
          return;
        }
        if (state.G.moves === seat.moves && !state.ctx.gameover) return;
        seat.moves = state.G.moves;
        seat.turn = state.ctx.currentPlayer;
        seat.finished = Boolean(state.ctx.gameover);
        seat.changed(state);
      });
      client.start();
    });
    return seat;
  };
  const players = [];
  for (const playerID of ["0", "1"]) {
    const { playerCredentials } = await post(`/games/swap/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    players.push(await make(playerID, playerCredentials));
  }
  const watchers = [];
  for (let i = 0; i < spectators; i++) watchers.push(await make(undefined, undefined));
  return new Match(players, watchers, () => [...players, ...watchers].forEach((p) => p.client.stop()));
}

// -- Colyseus -------------------------------------------------------------------------------
async function colyseusMatch(base, spectators = 0) {
  const { Client } = await import("@colyseus/sdk");
  const client = new Client(base.replace("http", "ws"));
  const wrap = (room, id) => {
    const seat = {
      room, id, moves: 0, turn: 0, updates: 0, finished: false, pending: null,
      changed: () => {},
      canMove() { return !this.finished && this.turn === this.id; },
      sendMove() { const before = this.moves; room.send("swap", rand(5)); return before; },
      isOwn(state, before) { return state.moves > before; },
      at(state) { return state.moves; },
    };
    room.onStateChange((state) => {
      if (state.moves === seat.moves) return;
      seat.moves = state.moves;
      seat.turn = state.turn;
      seat.finished = state.moves >= 200;
      seat.changed(state);
    });
    return seat;
  };
  const first = await client.create("swap", {});
  const second = await client.joinById(first.roomId, {});
  const players = [wrap(first, 0), wrap(second, 1)];
  const watchers = [];
  for (let i = 0; i < spectators; i++) watchers.push(wrap(await client.joinById(first.roomId, { spectator: true }), null));
  await new Promise((r) => setTimeout(r, 50)); // the first full state
  return new Match(players, watchers, () => [...players, ...watchers].forEach((p) => p.room.leave()));
}

function newMatch(target, url, game, spectators, lazy = false) {
  if (target === "cloister") return cloisterMatch(url, game, spectators, lazy);
  if (target === "bgio") return bgioMatch(url, spectators);
  if (target === "colyseus") return colyseusMatch(url, spectators);
  throw new Error(`unknown target ${target}`);
}

async function inBatches(n, size, fn) {
  const out = [];
  for (let i = 0; i < n; i += size) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => fn(i + j)))));
  }
  return out;
}

// -- scenarios ------------------------------------------------------------------------------
async function play(target, url, lanes, perLane, duration, warmup, game) {
  // Illumination duels end after a few dozen random moves, so a lane goes through several
  // in a window: they are created beforehand but connected only when the lane comes to
  // them, and left when they end, as players do. Held open from the start, the matches
  // waiting their turn (700 of 800) cost both sides memory and CPU that 100 concurrent
  // matches do not have. The swap game's matches outlast the window: all connected first.
  const lazy = game === "illumination";
  const pool = await inBatches(lanes * perLane, 16, () => newMatch(target, url, game, 0, lazy));
  const latencies = [];
  let moves = 0;
  let openedInWindow = 0; // bytes of the matches connected in the window (not updates)
  const start = now();
  const window = [start + warmup * 1000, start + (warmup + duration) * 1000];
  const inWindow = (t) => t >= window[0] && t <= window[1];
  const record = (t0, t1) => {
    if (inWindow(t0) && inWindow(t1)) {
      latencies.push(t1 - t0);
      moves += 1;
    }
  };
  const sumUpdates = () => pool.reduce((n, m) => n + m.updates(), 0);
  const allSizes = () => pool.flatMap((m) => m.sizes());
  // The harness samples the servers' CPU when these lines appear.
  let closed = false;
  const signalClose = () => {
    if (!closed) {
      cpu1 = process.cpuUsage();
      console.log(JSON.stringify({ event: "close" }));
    }
    closed = true;
  };
  let base = null;
  let cpu0 = null;
  let cpu1 = null;
  const opener = setTimeout(() => {
    cpu0 = process.cpuUsage();
    base = { bytes: bytesRead(), updates: sumUpdates(), sizes: allSizes().length };
    console.log(JSON.stringify({ event: "open" }));
  }, warmup * 1000);
  const closer = setTimeout(signalClose, (warmup + duration) * 1000);
  let closing = null;
  await Promise.all(
    Array.from({ length: lanes }, (_, lane) =>
      (async () => {
        for (let k = 0; k < perLane && now() < window[1]; k++) {
          let match = pool[lane * perLane + k];
          if (match.open) {
            match = pool[lane * perLane + k] = await match.open();
            if (inWindow(now())) openedInWindow += match.openedBytes;
          }
          await new Promise((resolve) => {
            const guard = setInterval(() => kick(), 200); // a stalled match still ends
            const kick = () => {
              if (match.finished() || now() >= window[1]) {
                clearInterval(guard);
                match.onAny = null;
                return resolve();
              }
              match.step(record);
            };
            // The next player's turn starts with the update of the previous move.
            match.onAny = kick;
            kick();
          });
          if (lazy && match.finished()) match.close(); // its players leave
        }
        // A lane that ran dry shortens the window: past here, fewer matches are in play.
        if (now() < window[1]) {
          window[1] = Math.max(now(), window[0]);
          closing ??= { bytes: bytesRead(), updates: sumUpdates(), sizes: allSizes().length };
          signalClose();
        }
      })(),
    ),
  );
  clearTimeout(opener);
  clearTimeout(closer);
  signalClose();
  const stop = closing ?? { bytes: bytesRead(), updates: sumUpdates(), sizes: allSizes().length };
  const elapsed = (window[1] - window[0]) / 1000;
  const b0 = base ?? { bytes: 0, updates: 0, sizes: 0 };
  const updates = stop.updates - b0.updates;
  const sizes = allSizes().slice(b0.sizes, stop.sizes);
  for (const m of pool) m.close();
  return {
    moves,
    elapsed,
    per_s: elapsed > 0 ? moves / elapsed : 0,
    p50_ms: pct(latencies, 0.5),
    p99_ms: pct(latencies, 0.99),
    bytes_per_update: updates > 0 ? (stop.bytes - b0.bytes - openedInWindow) / updates : null,
    median_update_bytes: sizes.length ? pct(sizes, 0.5) : null,
    updates,
    ran_dry: closing !== null,
    // This process's own CPU in the window: it shares the machine with the servers.
    load_cpu_s: cpu0 && cpu1 ? (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1e6 : null,
  };
}

async function spectate(target, url, spectators, maxMoves, game) {
  const match = await newMatch(target, url, game, spectators);
  const latencies = [];
  let waiting = null;
  match.onWatch = (w) => {
    if (waiting && !w.seen && w.seenAt >= waiting.at) {
      w.seen = true;
      waiting.left -= 1;
      if (waiting.left === 0) waiting.done(now());
    }
  };
  console.log(JSON.stringify({ event: "open" }));
  for (let i = 0; i < maxMoves && !match.finished(); i++) {
    // One move, then wait for the last spectator to have it before the next.
    const moved = await new Promise((resolve) => {
      const t0 = now();
      let sent = false;
      match.onAny = null;
      match.step((_t0, _t1, at) => resolve({ t0, at }));
      for (const p of match.players) if (p.pending) sent = true;
      if (!sent) setTimeout(() => resolve(null), 1);
    });
    if (moved === null) continue;
    const last = await new Promise((resolve) => {
      waiting = { at: moved.at, left: 0, done: resolve };
      for (const w of match.watchers) {
        w.seen = w.seenAt !== undefined && w.seenAt >= moved.at;
        if (!w.seen) waiting.left += 1;
      }
      if (waiting.left === 0) resolve(now());
    });
    waiting = null;
    latencies.push(last - moved.t0);
  }
  console.log(JSON.stringify({ event: "close" }));
  match.close();
  return { moves: latencies.length, spectators, p50_ms: pct(latencies, 0.5), p99_ms: pct(latencies, 0.99) };
}

const [scenario, target, url, ...rest] = process.argv.slice(2);
let result;
if (scenario === "play") {
  const [lanes, perLane, duration, warmup, game] = rest;
  result = await play(target, url, Number(lanes), Number(perLane), Number(duration), Number(warmup), game || "bench-swap");
} else {
  const [spectators, moves, game] = rest;
  result = await spectate(target, url, Number(spectators), Number(moves), game || "bench-swap");
}
console.log(JSON.stringify(result));
process.exit(0);
