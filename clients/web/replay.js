// Replay: step through a game event by event (#/replay/<id>). Views come from
// GET /api/games/<id>/view?version=N as the chosen audience; after the game everyone gets the
// review audience, i.e. the full reveal.
import { h, s, clear, humanize } from "./dom.js";
import { getGame, getEvents, getView, seats } from "./api.js";
import { rendererFor, safeRender } from "./games/index.js";
import { seatName, shortSeatName, renderLog, resultBlock } from "./common.js";

const SPEEDS = [
  ["0.5", "½ step per second"],
  ["1", "1 step per second"],
  ["2", "2 steps per second"],
  ["4", "4 steps per second"],
  ["10", "10 steps per second"],
];

export async function mountReplay(main, { id }) {
  let summary;
  try {
    summary = await getGame(id);
  } catch (err) {
    main.append(h("section", { class: "panel" }, h("h1", {}, "Game not found"), h("p", {}, err.message), h("a", { href: "#/" }, "Back to the lobby")));
    return () => {};
  }
  const renderer = await rendererFor(summary.type);
  const record = seats.get(id);
  let useSeat = !!record && summary.status !== "finished";
  let events = [];
  let maxVersion = summary.version || 0;
  let minVersion = 0;
  let pos = maxVersion;
  let audience = "";
  let playing = null;
  let speed = Number(sessionStorage.getItem("cloister:speed") || "2");
  const cache = new Map();
  let wanted = null;

  const banner = h("div", { class: "banner", role: "status", "aria-live": "polite" });
  const board = h("div", { class: "board", id: "board" });
  const logList = h("ol", { class: "log", id: "log", "aria-label": "Events up to this step" });
  const audienceBox = h("div", { class: "audience" });
  const first = h("button", { type: "button", "aria-label": "First step", title: "First", onclick: () => go(minVersion) }, icon("first"));
  const prev = h("button", { type: "button", "aria-label": "Previous step", title: "Previous", onclick: () => go(pos - 1) }, icon("prev"));
  const play = h("button", { type: "button", "aria-label": "Play", class: "play", onclick: togglePlay }, icon("play"), "Play");
  const next = h("button", { type: "button", "aria-label": "Next step", title: "Next", onclick: () => go(pos + 1) }, icon("next"));
  const last = h("button", { type: "button", "aria-label": "Last step", title: "Last", onclick: () => go(maxVersion) }, icon("last"));
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: maxVersion, value: pos, step: 1, "aria-label": "Step (game version)" });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const speedSel = h("select", { id: "replay-speed", "aria-label": "Playback speed" },
    SPEEDS.map(([v, l]) => h("option", { value: v, selected: Number(v) === speed }, l)));
  speedSel.addEventListener("change", () => {
    speed = Number(speedSel.value);
    sessionStorage.setItem("cloister:speed", String(speed));
    if (playing) { stop(); start(); }
  });
  const where = h("output", { class: "where", for: "replay-slider", "aria-live": "off" });
  const resultBox = h("div", { class: "result-box" });

  main.append(h("section", { class: ["game-page", "replay-page", `game-${summary.type}`] },
    h("div", { class: "game-head" },
      h("h1", { class: "game-title" }, `Replay: ${summary.title || humanize(summary.type)}`),
      audienceBox,
      h("div", { class: "game-tools" },
        summary.status !== "finished" ? h("a", { class: "button-link", href: `#/watch/${id}` }, "Watch live") : null,
        record && summary.status !== "finished" ? h("a", { class: "button-link", href: `#/game/${id}` }, "Back to my seat") : null,
      ),
    ),
    banner,
    h("div", { class: "timeline", role: "group", "aria-label": "Replay timeline" },
      first, prev, play, next, last, slider, where,
      h("label", { for: "replay-speed", class: "visually-hidden" }, "Speed"), speedSel,
    ),
    h("div", { class: "game-body" },
      h("div", { class: "board-wrap" }, board, resultBox),
      h("aside", { class: "side" }, h("section", { class: "log-panel panel" }, h("h2", {}, "Events"), logList)),
    ),
  ));

  function renderAudience() {
    clear(audienceBox);
    if (record && summary.status !== "finished") {
      const id1 = "aud-seat", id2 = "aud-spec";
      const r1 = h("input", { type: "radio", name: "aud", id: id1, checked: useSeat });
      const r2 = h("input", { type: "radio", name: "aud", id: id2, checked: !useSeat });
      r1.addEventListener("change", () => { useSeat = true; reload(); });
      r2.addEventListener("change", () => { useSeat = false; reload(); });
      audienceBox.append(h("fieldset", { class: "aud" }, h("legend", {}, "See it as"),
        r1, h("label", { for: id1 }, seatName(summary, record.seat)), r2, h("label", { for: id2 }, "a spectator")));
    }
    audienceBox.append(h("span", { class: "role" }, audience === "review" ? "Full reveal (game over)" : audience ? `Audience: ${audience}` : ""));
  }

  const token = () => (useSeat && record ? record.token : null);

  async function reload() {
    cache.clear();
    try {
      const res = await getEvents(id, token());
      events = res.events || [];
      maxVersion = res.version ?? maxVersion;
      audience = res.audience || "";
    } catch (err) {
      banner.textContent = `Cannot load the events: ${err.message}`;
    }
    minVersion = 0;
    slider.max = String(maxVersion);
    slider.min = String(minVersion);
    renderAudience();
    if (pos > maxVersion) pos = maxVersion;
    await go(pos, true);
  }

  async function fetchView(v) {
    const key = `${token() ? "seat" : "pub"}:${v}`;
    if (!cache.has(key)) cache.set(key, getView(id, v, token()).catch((err) => { cache.delete(key); throw err; }));
    return cache.get(key);
  }

  async function go(v, force = false) {
    v = Math.max(minVersion, Math.min(maxVersion, v));
    if (v === pos && !force && wanted === null && board.firstChild) return;
    pos = v;
    wanted = v;
    slider.value = String(v);
    where.textContent = `Step ${v} of ${maxVersion}`;
    first.disabled = prev.disabled = v <= minVersion;
    next.disabled = last.disabled = v >= maxVersion;
    const ev = events.find((e) => e.version === v);
    renderLog(logList, events.filter((e) => e.version <= v), v);
    logList.querySelector(".current")?.scrollIntoView({ block: "nearest" });
    let res;
    try {
      res = await fetchView(v);
    } catch (err) {
      if (wanted !== v) return;
      clear(board);
      board.append(h("p", { class: "muted board-empty" }, v === 0 ? "Before set-up: nothing on the table yet." : `Cannot load step ${v}: ${err.message}`));
      banner.textContent = `Step ${v}`;
      return;
    }
    if (wanted !== v) return; // a later step was asked for meanwhile
    wanted = null;
    if (res.audience) audience = res.audience;
    const ctx = {
      view: res.view,
      legal: [],
      seat: useSeat && record ? record.seat : null,
      toAct: res.to_act || [],
      status: v >= maxVersion ? summary.status : "running",
      interactive: false,
      mode: "replay",
      gameType: summary.type,
      summary,
      seatName: (s) => shortSeatName(summary, s),
      send: () => {},
    };
    clear(board);
    if (res.view !== null && res.view !== undefined) safeRender(renderer, board, ctx);
    else board.append(h("p", { class: "muted board-empty" }, "Nothing on the table yet: the game has not started at this step."));
    let phase = "";
    try { phase = renderer.status?.(ctx) || ""; } catch { phase = ""; }
    const said = ev ? (ev.text || humanize(ev.type)) : v === 0 ? "Start" : "";
    const waiting = (res.to_act || []).length ? ` Waiting for ${(res.to_act || []).map(ctx.seatName).join(", ")}.` : "";
    banner.textContent = `Step ${v}: ${said}.${phase ? ` ${phase}.` : ""}${waiting}`.replace(/\.\./g, ".");
    clear(resultBox);
    if (v >= maxVersion && summary.status === "finished") {
      const block = resultBlock(summary, summary.result);
      if (block) resultBox.append(block);
    }
    // Warm the cache for the next step so playback is smooth.
    if (v < maxVersion) fetchView(v + 1).catch(() => {});
  }

  function start() {
    play.replaceChildren(icon("pause"), "Pause");
    play.setAttribute("aria-label", "Pause");
    if (pos >= maxVersion) go(minVersion);
    playing = setInterval(() => {
      if (pos >= maxVersion) return stop();
      go(pos + 1);
      if (pos >= maxVersion) stop();
    }, 1000 / speed);
  }
  function stop() {
    clearInterval(playing);
    playing = null;
    play.replaceChildren(icon("play"), "Play");
    play.setAttribute("aria-label", "Play");
  }
  function togglePlay() {
    if (playing) stop();
    else start();
  }

  const onKey = (e) => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") { go(pos + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(pos - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(minVersion); e.preventDefault(); }
    else if (e.key === "End") { go(maxVersion); e.preventDefault(); }
  };
  document.addEventListener("keydown", onKey);

  // A running game grows: look for new events now and then.
  const poll = setInterval(async () => {
    if (summary.status === "finished") return;
    try {
      summary = await getGame(id);
      if ((summary.version || 0) > maxVersion) {
        const atEnd = pos >= maxVersion;
        const res = await getEvents(id, token());
        events = res.events || events;
        maxVersion = res.version ?? maxVersion;
        slider.max = String(maxVersion);
        if (atEnd && !playing) go(maxVersion, true);
        else where.textContent = `Step ${pos} of ${maxVersion}`;
        next.disabled = last.disabled = pos >= maxVersion;
      }
    } catch { /* try later */ }
  }, 4000);

  window.cloister = { replay: { go: (v) => go(v), get pos() { return pos; }, get max() { return maxVersion; } } };
  await reload();

  return () => {
    stop();
    clearInterval(poll);
    document.removeEventListener("keydown", onKey);
  };
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
  return s("svg", { viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    s("path", { d: ICONS[name], fill: "currentColor" }));
}
