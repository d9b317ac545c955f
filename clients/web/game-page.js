// The live page of one game: as a seat (#/game/<id>, token from localStorage) or as a
// spectator (#/watch/<id>). Everything drawn comes from the view the server pushes.
import { h, clear, toast, humanize } from "./dom.js";
import { getGame, getEvents, joinSeat, addBot, seats, prefs } from "./api.js";
import { GameConnection } from "./connection.js";
import { rendererFor, safeRender } from "./games/index.js";
import { gameTypes, seatName, shortSeatName, linkTo, shareField, renderLog, resultBlock, keepFocus, seatColour } from "./common.js";

export async function mountGame(main, { id, mode }) {
  let summary;
  try {
    summary = await getGame(id);
  } catch (err) {
    main.append(h("section", { class: "panel" }, h("h1", {}, "Game not found"), h("p", {}, err.message), h("a", { href: "#/" }, "Back to the lobby")));
    return () => {};
  }
  const renderer = await rendererFor(summary.type);
  const typeInfo = (await gameTypes().catch(() => [])).find((t) => t.name === summary.type);

  let record = mode === "play" ? seats.get(id) : null;
  const st = {
    view: null,
    legal: [],
    toAct: [],
    status: summary.status,
    seat: null,
    version: null,
    events: [],
    result: summary.result,
    busy: false,
    conn: "connecting",
  };

  // -- layout ------------------------------------------------------------------------------
  const title = h("h1", { class: "game-title" }, summary.title || humanize(summary.type));
  const role = h("span", { class: "role" });
  const banner = h("div", { class: "banner", role: "status", "aria-live": "polite" });
  const board = h("div", { class: "board", id: "board", "aria-label": "Board" });
  const actions = h("section", { class: "actions panel", "aria-labelledby": "actions-h" });
  const seatsBox = h("section", { class: "seats panel", "aria-labelledby": "seats-h" });
  const logList = h("ol", { class: "log", id: "log", "aria-label": "Game log" });
  // Table talk (outside the rules, never binding): seated players only; lines show in the log.
  const chatInput = h("input", { type: "text", id: "chat-input", maxlength: 500, autocomplete: "off", placeholder: "Say something to the table (not binding)", "aria-label": "Chat message" });
  const chatForm = h("form", { class: "chat-form", id: "chat-form", hidden: true },
    chatInput, h("button", { type: "submit" }, "Say"));
  const chatIds = new Set();
  chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = chatInput.value.trim();
    if (!text || st.seat === null) return;
    chatIds.add(conn.chat(text));
    chatInput.value = "";
  });
  const logBox = h("section", { class: "log-panel panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h" }, "Log"), logList, chatForm);
  const resultBox = h("div", { class: "result-box" });
  const share = h("details", { class: "share-box" },
    h("summary", {}, "Share links"),
    shareField("Link for players", linkTo(`#/game/${id}`), "Opens a seat picker; each player's seat stays in their own browser."),
    shareField("Link for spectators", linkTo(`#/watch/${id}`), "Shows public information only."),
  );
  const tools = h("div", { class: "game-tools" },
    h("a", { href: `#/replay/${id}`, class: "button-link" }, "Replay"),
    mode === "play" ? h("a", { href: `#/watch/${id}`, class: "button-link" }, "Watch as spectator") : h("a", { href: `#/game/${id}`, class: "button-link" }, "Player page"),
  );
  const page = h("section", { class: ["game-page", `game-${summary.type}`, mode === "watch" && "spectating"] },
    h("div", { class: "game-head" }, title, role, tools, share),
    banner,
    h("div", { class: "game-body" },
      h("div", { class: "board-wrap" }, board, resultBox),
      h("aside", { class: "side" }, actions, seatsBox, logBox),
    ),
  );
  main.append(page);

  const openGroups = new Set();

  // -- rendering ---------------------------------------------------------------------------
  const ctxFor = () => ({
    view: st.view,
    legal: st.seat === null ? [] : st.legal,
    seat: st.seat,
    toAct: st.toAct,
    status: st.status,
    interactive: st.seat !== null && !st.busy && st.status === "running",
    mode,
    gameType: summary.type,
    summary,
    seatName: (s) => shortSeatName(summary, s),
    send,
    rerender: () => renderBoard(),
  });

  function renderBanner() {
    const ctx = ctxFor();
    let msg;
    let mine = false;
    const phase = st.view ? renderer.status?.(ctx) : "";
    if (st.conn === "reconnecting") {
      msg = "Connection lost — reconnecting…";
    } else if (st.status === "open") {
      const taken = summary.seats.filter((x) => x.taken).length;
      msg = `Waiting for players: ${taken} of ${summary.seats.length} seats taken.`;
    } else if (st.status === "finished") {
      msg = `Game over. ${st.result?.summary || ""}`;
    } else if (st.seat !== null && st.toAct.includes(st.seat)) {
      mine = true;
      const others = st.toAct.filter((x) => x !== st.seat);
      msg = `Your turn${phase ? ` — ${phase}` : ""}.${others.length ? ` Also waiting for ${others.map(ctx.seatName).join(", ")}.` : ""}`;
    } else if (st.toAct.length) {
      msg = `Waiting for ${st.toAct.map(ctx.seatName).join(", ")}${phase ? ` — ${phase}` : ""}.`;
    } else {
      msg = phase || "Waiting…";
    }
    banner.textContent = msg;
    banner.classList.toggle("mine", mine);
    document.title = `${mine ? "● Your turn · " : ""}${summary.title || summary.type} · Cloister`;
    role.textContent = st.seat !== null ? `You play ${seatName(summary, st.seat)}` : "Spectating (public information only)";
  }

  function renderBoard() {
    keepFocus(board, () => {
      clear(board);
      if (st.view === null || st.view === undefined) {
        board.append(h("p", { class: "muted board-empty" }, st.status === "open" ? "The board appears when every seat is taken." : "Loading…"));
        return;
      }
      safeRender(renderer, board, ctxFor());
    });
  }

  function renderActions() {
    keepFocus(actions, () => {
      clear(actions);
      actions.append(h("h2", { id: "actions-h" }, "Actions"));
      if (st.seat === null) {
        actions.append(h("p", { class: "muted" }, "You are watching. Only public information is shown."));
        return;
      }
      if (st.status !== "running") {
        actions.append(h("p", { class: "muted" }, st.status === "open" ? "The game starts when every seat is taken." : "The game is over."));
        return;
      }
      if (!st.legal.length) {
        actions.append(h("p", { class: "muted" }, st.toAct.includes(st.seat) ? "Nothing to choose." : "Not your turn: nothing to do right now."));
        return;
      }
      const ctx = ctxFor();
      const groups = new Map();
      for (const cmd of st.legal) {
        if (!groups.has(cmd.type)) groups.set(cmd.type, []);
        groups.get(cmd.type).push(cmd);
      }
      for (const [type, cmds] of groups) {
        const title = renderer.groupLabel?.(type, ctx) || humanize(type);
        const fs = h("fieldset", { class: "action-group" }, h("legend", {}, title));
        for (const cmd of cmds) {
          const label = safeLabel(cmd, ctx);
          fs.append(h("button", { type: "button", class: "action", "data-key": `act:${JSON.stringify(cmd)}`, disabled: st.busy, onclick: () => send(cmd) }, label));
        }
        if (cmds.length > 8) {
          // Long lists (every spot for a section, every card × slot) fold away; the board
          // offers the same choices by clicking. The open/closed state survives re-renders.
          const key = `${summary.type}:${type}`;
          const det = h("details", { class: "action-more", open: openGroups.has(key) },
            h("summary", {}, `${title} — ${cmds.length} choices`), fs);
          det.addEventListener("toggle", () => (det.open ? openGroups.add(key) : openGroups.delete(key)));
          actions.append(det);
        } else {
          actions.append(fs);
        }
      }
      if (st.busy) actions.append(h("p", { class: "muted", role: "status" }, "Sending…"));
    });
  }

  function safeLabel(cmd, ctx) {
    try {
      return renderer.label(cmd, ctx) || renderer.fallback?.label(cmd, ctx) || humanize(cmd.type);
    } catch {
      return renderer.fallback ? renderer.fallback.label(cmd, ctx) : humanize(cmd.type);
    }
  }

  function renderSeats() {
    clear(seatsBox);
    seatsBox.append(h("h2", { id: "seats-h" }, "Players"));
    const ul = h("ul", { class: "seat-list" });
    const canJoin = summary.status === "open" && mode === "play" && !record;
    let nameInput = null;
    if (canJoin) {
      nameInput = h("input", { id: "join-name", type: "text", value: prefs.name, maxlength: 40, autocomplete: "nickname", placeholder: "Your name" });
      seatsBox.append(h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), nameInput));
    }
    for (const s of summary.seats) {
      const li = h("li", { class: ["seat", st.toAct.includes(s.seat) && "to-act", st.seat === s.seat && "me"] },
        h("span", { class: "seat-dot", "aria-hidden": "true", style: { background: seatColour(s.seat) } }),
        h("span", { class: "seat-name" }, seatName(summary, s.seat), st.seat === s.seat ? " — you" : ""),
        st.toAct.includes(s.seat) && st.status === "running" ? h("span", { class: "badge" }, "to act") : null,
      );
      const canBot = summary.status === "open" && mode === "play" && typeInfo?.bots?.length;
      if (!s.taken && (canJoin || canBot)) {
        if (canJoin) {
          li.append(
            h("button", { type: "button", class: "small", "aria-label": `Join as ${s.label}`, onclick: () => join(s.seat, nameInput.value) }, "Join"),
          );
        }
        if (canBot) {
          li.append(h("button", { type: "button", class: "small secondary", "aria-label": `Put a bot in ${s.label}`, onclick: () => bot(s.seat) }, "Bot"));
        }
      } else if (!s.taken) {
        li.append(h("span", { class: "muted" }, " open"));
      }
      ul.append(li);
    }
    seatsBox.append(ul);
    if (summary.status === "open" && mode === "watch") {
      seatsBox.append(h("p", {}, h("a", { href: `#/game/${id}` }, "Take a seat")));
    }
  }

  function renderChat() {
    chatForm.hidden = st.seat === null;
  }

  function renderLogBox() {
    const atBottom = logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 8;
    renderLog(logList, st.events.slice(-400));
    if (atBottom) logList.scrollTop = logList.scrollHeight;
  }

  function renderResult() {
    clear(resultBox);
    if (st.status === "finished") {
      const block = resultBlock(summary, st.result);
      if (block) resultBox.append(block);
      resultBox.append(h("p", {}, h("a", { href: `#/replay/${id}` }, "Step through the whole game with every card revealed")));
    }
  }

  function renderAll() {
    renderBanner();
    renderBoard();
    renderActions();
    renderSeats();
    renderLogBox();
    renderChat();
    renderResult();
  }

  // -- actions -----------------------------------------------------------------------------
  function send(cmd) {
    if (st.seat === null || st.busy) return;
    st.busy = true;
    conn.send(cmd);
    renderActions();
    renderBoard();
  }

  async function join(seat, name) {
    name = (name || "").trim() || `Player ${seat + 1}`;
    prefs.name = name;
    try {
      const res = await joinSeat(id, name, seat);
      record = { seat: res.seat, token: res.token, name };
      seats.set(id, record);
      toast(`You joined as ${seatName(summary, res.seat).replace(/ \(.*\)$/, "")}.`, "info");
      await refreshSummary();
      restartConnection();
    } catch (err) {
      toast(`Could not join: ${err.message}`, "error");
      await refreshSummary();
    }
  }

  async function bot(seat) {
    try {
      await addBot(id, seat);
      await refreshSummary();
    } catch (err) {
      toast(`Could not add a bot: ${err.message}`, "error");
    }
  }

  async function refreshSummary() {
    try {
      summary = await getGame(id);
      if (summary.result) st.result = summary.result;
      renderSeats();
      renderBanner();
    } catch {
      /* keep the old one */
    }
  }

  // -- connection --------------------------------------------------------------------------
  const connStatus = document.getElementById("conn-status");
  const handlers = {
    onState(state) {
      st.conn = state;
      if (connStatus) {
        connStatus.textContent = { open: "Live", connecting: "Connecting…", reconnecting: "Reconnecting…", closed: "" }[state] ?? "";
        connStatus.dataset.state = state;
      }
      if (state === "reconnecting" || state === "open") renderBanner();
    },
    onWelcome(msg) {
      const statusChanged = msg.status !== st.status;
      st.seat = msg.seat;
      st.status = msg.status;
      st.view = msg.view;
      st.legal = msg.legal || [];
      st.toAct = msg.to_act || [];
      st.version = msg.version;
      st.busy = conn.commandsPending() > 0;
      if (msg.events?.length) st.events.push(...msg.events);
      if (record && msg.seat === null && record.token) {
        toast("This browser's seat token was not accepted; you are watching.", "error");
      }
      if (statusChanged || st.status === "finished") refreshSummary();
      if (!st.events.length && st.version) loadHistory();
      renderAll();
    },
    onUpdate(msg) {
      const statusChanged = msg.status && msg.status !== st.status;
      st.view = msg.view;
      st.legal = msg.legal || [];
      st.toAct = msg.to_act || [];
      st.version = msg.version;
      if (msg.status) st.status = msg.status;
      st.busy = conn.commandsPending() > 0;
      st.events.push(...(msg.events || []));
      if (statusChanged) refreshSummary();
      renderAll();
    },
    onAccepted(msg) {
      if (chatIds.delete(msg.command_id)) return;
      st.busy = conn.commandsPending() > 0;
      renderActions();
      renderBoard();
    },
    onRejected(msg) {
      if (chatIds.delete(msg.command_id)) {
        toast(`Chat not sent: ${msg.message || humanize(msg.code)}`, "error");
        return;
      }
      st.busy = conn.commandsPending() > 0;
      toast(`Not allowed: ${msg.message || humanize(msg.code)}`, "error");
      renderActions();
      renderBoard();
    },
    onGameOver(msg) {
      st.status = "finished";
      st.result = msg.result;
      refreshSummary();
      renderAll();
      toast(`Game over. ${msg.result?.summary || ""}`, "info", 10000);
    },
    onError(msg) {
      if (msg.code === "bad_token") {
        seats.remove(id);
        record = null;
        toast("Your seat token is no longer valid; you are watching as a spectator.", "error", 10000);
        restartConnection();
        return;
      }
      toast(msg.message || humanize(msg.code), "error");
    },
  };

  let conn = new GameConnection(id, record?.token, handlers);
  function restartConnection() {
    conn.close();
    st.events = [];
    st.version = null;
    st.busy = false;
    historyLoaded = false;
    conn = new GameConnection(id, record?.token, handlers);
    window.cloister.conn = conn;
  }

  // The first welcome carries no history (no `since`): load the log so far once, over HTTP.
  let historyLoaded = false;
  async function loadHistory() {
    if (historyLoaded) return;
    historyLoaded = true;
    try {
      const { events } = await getEvents(id, record?.token);
      const known = new Set(st.events.map((e) => e.version));
      const older = (events || []).filter((e) => !known.has(e.version) && (st.version === null || e.version <= st.version));
      st.events = [...older, ...st.events].sort((a, b) => a.version - b.version);
      renderLogBox();
    } catch {
      /* the log starts empty; live events still arrive */
    }
  }

  // While seats are open nothing is pushed until the game starts: poll the summary.
  const poll = setInterval(() => {
    if (summary.status === "open") refreshSummary();
  }, 3000);

  // Test and debugging hook (no secrets beyond what this page already holds).
  window.cloister = { conn, state: st, get summary() { return summary; } };
  renderAll();

  return () => {
    clearInterval(poll);
    conn.close();
    if (connStatus) connStatus.textContent = "";
  };
}
