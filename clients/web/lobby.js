// The lobby: game types and their options, creating a game (with bots), open games to join,
// running games to watch, finished games to replay.
import { h, clear, toast, humanize } from "./dom.js";
import { api, listGames, createGame, joinSeat, addBot, getGame, seats, prefs } from "./api.js";
import { gameTypes } from "./common.js";

export async function mountLobby(main) {
  const quickBox = h("section", { class: "panel play-now", "aria-labelledby": "quick-h" }, h("h2", { id: "quick-h" }, "Play now"));
  const formBox = h("section", { class: "panel new-game", "aria-labelledby": "new-h" }, h("h2", { id: "new-h" }, "New game"));
  const listBox = h("section", { class: "panel games", "aria-labelledby": "games-h" });
  main.append(h("div", { class: "lobby" }, h("h1", { class: "visually-hidden" }, "Lobby"), h("div", { class: "lobby-side" }, quickBox, formBox), listBox));

  let types = [];
  try {
    types = await gameTypes();
  } catch (err) {
    formBox.append(h("p", { class: "error" }, `Cannot load game types: ${err.message}`));
  }
  if (types.length) {
    buildQuick(quickBox, types);
    buildForm(formBox, types);
    formBox.append(typeList(types));
  }

  let filter = sessionStorage.getItem("cloister:filter") || "all";
  let alive = true;
  async function refresh() {
    let games = [];
    try {
      games = await listGames(filter === "all" || filter === "mine" ? undefined : filter);
    } catch (err) {
      renderList(listBox, null, err.message);
      return;
    }
    if (filter === "mine") {
      const mine = seats.all();
      games = games.filter((g) => mine[g.id]);
    }
    if (alive) renderList(listBox, games);
  }

  function renderList(box, games, error) {
    const focusedKey = document.activeElement && box.contains(document.activeElement) ? document.activeElement.getAttribute("data-key") : null;
    clear(box);
    box.append(h("h2", { id: "games-h" }, "Games"));
    const tabs = h("div", { class: "filters", role: "group", "aria-label": "Show games" });
    for (const [key, label] of [["all", "All"], ["open", "Open seats"], ["running", "Running"], ["finished", "Finished"], ["mine", "My seats"]]) {
      tabs.append(h("button", {
        type: "button", class: ["small", "filter", filter === key && "active"], "aria-pressed": String(filter === key), "data-key": `filter:${key}`,
        onclick: () => { filter = key; sessionStorage.setItem("cloister:filter", key); refresh(); },
      }, label));
    }
    tabs.append(h("button", { type: "button", class: "small secondary", "data-key": "refresh", onclick: refresh }, "Refresh"));
    box.append(tabs);
    if (error) box.append(h("p", { class: "error" }, `Cannot load games: ${error}`));
    else if (!games.length) box.append(h("p", { class: "muted" }, "No games here yet."));
    else {
      const ul = h("ul", { class: "game-list" });
      const mine = seats.all();
      for (const g of games) ul.append(gameRow(g, mine[g.id]));
      box.append(ul);
    }
    if (focusedKey) box.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`)?.focus();
  }

  function gameRow(g, mine) {
    const taken = g.seats.filter((s) => s.taken).length;
    const who = g.seats.map((s) => (s.taken ? (s.name || (s.bot ? `bot` : "?")) : "open")).join(", ");
    const links = h("div", { class: "row-actions" });
    const myLabel = mine ? g.seats.find((s) => s.seat === mine.seat)?.label || `seat ${mine.seat + 1}` : "";
    if (mine && g.status !== "finished") links.append(h("a", { class: "button-link primary", href: `#/game/${g.id}`, "data-key": `play:${g.id}` }, `Play (${myLabel})`));
    else if (mine) links.append(h("a", { class: "button-link", href: `#/game/${g.id}`, "data-key": `result:${g.id}` }, `Result (you were ${myLabel})`));
    else if (g.status === "open") links.append(h("a", { class: "button-link primary", href: `#/game/${g.id}`, "data-key": `join:${g.id}` }, "Join"));
    if (g.status !== "finished") links.append(h("a", { class: "button-link", href: `#/watch/${g.id}`, "data-key": `watch:${g.id}` }, "Watch"));
    links.append(h("a", { class: "button-link", href: `#/replay/${g.id}`, "data-key": `replay:${g.id}` }, g.status === "finished" ? "Replay" : "Replay so far"));
    return h("li", { class: ["game-row", `status-${g.status}`] },
      h("div", { class: "game-info" },
        h("strong", {}, g.title || humanize(g.type)),
        " ",
        h("span", { class: ["status", g.status] }, g.status === "open" ? `open · ${taken}/${g.seats.length} seated` : g.status),
        h("div", { class: "muted small-text" },
          Object.entries(g.options || {}).map(([k, v]) => `${humanize(k)}: ${v}`).join(" · "),
          Object.keys(g.options || {}).length ? " · " : "",
          who,
          g.result?.summary ? ` · ${g.result.summary}` : "",
        ),
      ),
      links,
    );
  }

  await refresh();
  const timer = setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, 5000);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}

/** One click to a ready game (POST /api/play, docs/api.md): against bots with the game's
 *  defaults, or with the second seat kept for a friend and the link to send them. */
function buildQuick(box, types) {
  const visible = types.filter((t) => !t.demo).concat(types.filter((t) => t.demo));
  const invite = h("div", { class: "invite", "aria-live": "polite" });
  async function start(t, friend) {
    const name = prefs.name || "Player";
    try {
      const res = await api("POST", "/api/play", { type: t.name, friend, name });
      seats.set(res.game.id, { seat: res.seat, token: res.token, name });
      if (!friend) {
        location.hash = `#/game/${res.game.id}`;
        return;
      }
      clear(invite);
      const link = h("input", { type: "text", readonly: true, value: res.invite_url, "aria-label": "Link for your friend", class: "invite-link" });
      invite.append(
        h("p", {}, `${t.title}: send this link to your friend. The game starts when they sit down.`),
        link,
        h("div", { class: "row-actions" },
          h("button", { type: "button", class: "small", onclick: async () => {
            try { await navigator.clipboard.writeText(res.invite_url); toast("Link copied.", "info"); }
            catch { link.select(); toast("Select the link and copy it.", "info"); }
          } }, "Copy link"),
          h("a", { class: "button-link primary", href: `#/game/${res.game.id}` }, "Go to the game")),
      );
    } catch (err) {
      toast(`Could not start the game: ${err.message}`, "error");
    }
  }
  const list = h("ul", { class: "quick-list" });
  for (const t of visible) {
    list.append(h("li", {},
      h("strong", {}, t.title),
      h("div", { class: "row-actions" },
        h("button", { type: "button", class: "primary small", "data-key": `play-now:${t.name}`, onclick: () => start(t, false) }, "Play now"),
        h("button", { type: "button", class: "small", "data-key": `play-friend:${t.name}`, onclick: () => start(t, true) }, "Play with a friend"))));
  }
  box.append(h("p", { class: "muted small-text" }, "A game with the usual options, against bots, or with a seat kept for a friend."), list, invite);
}

function buildForm(box, types) {
  const visible = types.filter((t) => !t.demo).concat(types.filter((t) => t.demo));
  let current = visible[0];
  const typeSel = h("select", { id: "new-type", name: "type" },
    visible.map((t) => h("option", { value: t.name }, t.title + (t.demo ? " — demo" : ""))));
  const optsBox = h("div", { class: "options" });
  const nameIn = h("input", { id: "new-name", type: "text", value: prefs.name, maxlength: 40, autocomplete: "nickname", placeholder: "Your name" });
  const sitIn = h("input", { id: "new-sit", type: "checkbox", checked: true });
  const botsIn = h("input", { id: "new-bots", type: "checkbox" });
  const levelSel = h("select", { id: "new-level", "aria-label": "Bot level" });
  const submit = h("button", { type: "submit", class: "primary" }, "Create game");

  function showType(t) {
    current = t;
    clear(optsBox);
    for (const o of t.options || []) {
      const id = `opt-${o.name}`;
      const sel = h("select", { id, name: o.name, "data-option": o.name },
        (o.choices || []).map((c) => h("option", { value: JSON.stringify(c), selected: c === o.default }, String(c))));
      optsBox.append(h("div", { class: "field" }, h("label", { for: id }, o.label || humanize(o.name)), sel,
        o.description ? h("small", { class: "muted" }, o.description) : null));
    }
    clear(levelSel);
    const levels = t.bots && t.bots.length ? t.bots : ["random"];
    for (const l of levels) levelSel.append(h("option", { value: l }, humanize(l)));
  }
  typeSel.addEventListener("change", () => showType(types.find((t) => t.name === typeSel.value)));
  showType(current);

  const form = h("form", { class: "new-game-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "new-type" }, "Game"), typeSel),
    optsBox,
    h("div", { class: "field" }, h("label", { for: "new-name" }, "Your name"), nameIn),
    h("div", { class: "check" }, sitIn, h("label", { for: "new-sit" }, "Take the first seat myself")),
    h("div", { class: "check" }, botsIn, h("label", { for: "new-bots" }, "Fill the other seats with bots"), levelSel),
    submit,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    const options = {};
    for (const sel of optsBox.querySelectorAll("select[data-option]")) options[sel.dataset.option] = JSON.parse(sel.value);
    // An option that does not apply (Illumination's solo settings in a duel) is left out:
    // the server refuses one set to anything but its default (docs/api.md, GameType).
    for (const o of current.options || []) {
      const when = o.applies_when || {};
      if (Object.entries(when).some(([k, v]) => options[k] !== v)) delete options[o.name];
    }
    const name = nameIn.value.trim();
    if (name) prefs.name = name;
    try {
      let game = await createGame(current.name, options);
      if (sitIn.checked) {
        const res = await joinSeat(game.id, name || "Player 1");
        seats.set(game.id, { seat: res.seat, token: res.token, name: name || "Player 1" });
      }
      if (botsIn.checked) {
        game = await getGame(game.id);
        for (const s of game.seats.filter((x) => !x.taken)) await addBot(game.id, s.seat, levelSel.value);
      }
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      toast(`Could not create the game: ${err.message}`, "error");
    } finally {
      submit.disabled = false;
    }
  });
  box.append(form);
}

/** Every game type with its options and bot levels, as a compact list. */
function typeList(types) {
  return h("details", { class: "type-list" },
    h("summary", {}, `Game types (${types.length})`),
    h("dl", {}, types.flatMap((t) => [
      h("dt", {}, t.title, t.demo ? h("span", { class: "muted" }, " (demo)") : null),
      h("dd", {},
        (t.options || []).map((o) => h("div", { class: "small-text" },
          h("strong", {}, `${o.label || humanize(o.name)}: `),
          (o.choices || []).map((c) => (c === o.default ? `${c} (default)` : String(c))).join(", "))),
        t.bots?.length ? h("div", { class: "small-text muted" }, `Bots: ${t.bots.join(", ")}`) : null,
      ),
    ])),
  );
}
