// @ts-check
// The lobby: "Play now" against bots or "Play with a friend" for each game type in one click,
// a form for every option, and the list of games — mine first, marked when it is my turn.
// A controller (Lobby) holds the state; `lobbyView` draws it with lit.
import { html, render, nothing, repeat, classMap } from "./lit.js";
import { toast, humanize } from "./dom.js";
import { listGames, createGame, joinSeat, addBot, getGame, seats, prefs } from "./api.js";
import { gameTypes, linkTo, shareField, winnerSentence } from "./common.js";

/** @typedef {import("./types.js").GameSummary} GameSummary */

const FILTERS = [["all", "All"], ["mine", "My games"], ["open", "Open seats"], ["running", "Running"], ["finished", "Finished"]];

export async function mountLobby(host) {
  const lobby = new Lobby(host);
  await lobby.start();
  return () => lobby.close();
}

class Lobby {
  constructor(host) {
    this.host = host;
    this.types = [];
    this.typeError = "";
    this.games = /** @type {GameSummary[]|null} */ (null);
    this.listError = "";
    this.filter = sessionStorage.getItem("cloister:filter") || "all";
    this.current = null; // the game type shown in the form
    this.busy = false;
    /** @type {{id: string, type: string, title: string}|null} */
    this.friend = null; // the game just made for a friend: its link to send
    this.alive = true;
    this.timer = 0;
  }

  async start() {
    try {
      this.types = await gameTypes();
      const real = this.types.filter((t) => !t.demo);
      this.current = real[0] || this.types[0] || null;
    } catch (err) {
      this.typeError = `Cannot load game types: ${err.message}`;
    }
    await this.refresh();
    this.timer = window.setInterval(() => {
      if (document.visibilityState === "visible") this.refresh();
    }, 5000);
  }

  close() {
    this.alive = false;
    clearInterval(this.timer);
    render(nothing, this.host);
  }

  async refresh() {
    try {
      const f = this.filter;
      let games = await listGames(f === "all" || f === "mine" ? undefined : f);
      const mine = seats.all();
      if (f === "mine") games = games.filter((g) => mine[g.id]);
      // My games first, the ones waiting for me at the very top.
      const rank = (g) => (mine[g.id] ? (g.status === "running" && (g.to_act || []).includes(mine[g.id].seat) ? 0 : 1) : 2);
      games = games.map((g, i) => ({ g, i })).sort((a, b) => rank(a.g) - rank(b.g) || a.i - b.i).map((x) => x.g);
      this.games = games;
      this.listError = "";
    } catch (err) {
      this.listError = err.message;
    }
    if (this.alive) this.update();
  }

  update() {
    render(lobbyView(this), this.host);
  }

  setFilter(key) {
    this.filter = key;
    sessionStorage.setItem("cloister:filter", key);
    this.refresh();
  }

  myName() {
    const el = /** @type {HTMLInputElement|null} */ (document.getElementById("new-name"));
    const name = (el?.value || prefs.name || "").trim();
    if (name) prefs.name = name;
    return name || "Player 1";
  }

  /**
   * Create a game, take the first seat, and fill the other seats with bots (all of them, or
   * all but one kept free for a friend).
   * @param {any} type @param {Record<string, any>} options
   * @param {{bots: boolean, friend?: boolean, level?: string}} how
   */
  async create(type, options, how) {
    if (this.busy) return;
    this.busy = true;
    this.update();
    try {
      const name = this.myName();
      let game = await createGame(type.name, options);
      const res = await joinSeat(game.id, name);
      seats.set(game.id, { seat: res.seat, token: res.token, name });
      if (how.bots || how.friend) {
        game = await getGame(game.id);
        const free = game.seats.filter((x) => !x.taken);
        const keep = how.friend ? free.slice(0, 1) : [];
        for (const s of free.filter((x) => !keep.includes(x))) await addBot(game.id, s.seat, how.level || bestBot(type));
      }
      if (how.friend) {
        this.friend = { id: game.id, type: type.name, title: type.title };
        await this.refresh();
      } else {
        location.hash = `#/game/${game.id}`;
      }
    } catch (err) {
      toast(`Could not create the game: ${err.message}`, "error");
    } finally {
      this.busy = false;
      this.update();
    }
  }

  submitForm(ev) {
    ev.preventDefault();
    const form = /** @type {HTMLFormElement} */ (ev.currentTarget);
    /** @type {Record<string, any>} */
    const options = {};
    for (const sel of form.querySelectorAll("select[data-option]")) {
      const el = /** @type {HTMLSelectElement} */ (sel);
      options[el.dataset.option || ""] = JSON.parse(el.value);
    }
    // Leave out an option that does not apply (Illumination's solo settings in a duel): the
    // server refuses one set to anything but its default (applies_when, docs/api.md).
    for (const o of this.current.options || []) {
      const when = o.applies_when || {};
      if (Object.entries(when).some(([k, v]) => options[k] !== v)) delete options[o.name];
    }
    const fill = /** @type {HTMLInputElement} */ (form.querySelector("#new-bots")).checked;
    const level = /** @type {HTMLSelectElement} */ (form.querySelector("#new-level")).value;
    this.create(this.current, options, { bots: fill, level });
  }
}

/** The strongest bot a type offers ("greedy" before "random"). */
function bestBot(type) {
  const bots = type.bots || [];
  return bots.find((b) => b !== "random") || bots[0] || "random";
}

/** Sensible defaults for one click: each option's default. */
function defaults(type) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const o of type.options || []) out[o.name] = o.default;
  return out;
}

function describeDefaults(type) {
  // Options marked for another mode ("Difficulty (solo)") say nothing about the default game.
  // The platform's clock and absence options are the same for every game: not repeated here.
  return (type.options || []).filter((o) => !/\((solo|duel)\)/i.test(o.label || "") && o.name !== "clock" && o.name !== "absent").map((o) => `${o.label || humanize(o.name)}: ${o.default}`).join(" · ");
}

/** @param {Lobby} l */
function lobbyView(l) {
  const real = l.types.filter((t) => !t.demo).concat(l.types.filter((t) => t.demo));
  return html`<div class="lobby"><h1 class="visually-hidden">Lobby</h1>
    <div class="lobby-left">
      <section class="panel play-now-panel" aria-labelledby="play-h">
        <h2 id="play-h">Play now</h2>
        <div class="field"><label for="new-name">Your name</label>
          <input id="new-name" type="text" .value=${prefs.name} maxlength="40" autocomplete="nickname" placeholder="Your name"></div>
        ${l.typeError ? html`<p class="error">${l.typeError}</p>` : nothing}
        ${l.friend ? friendBox(l) : nothing}
        <div class="play-now">${repeat(real, (t) => t.name, (t) => html`<div class="play-now-row">
          <strong>${t.title}</strong>
          <button type="button" class="primary" ?disabled=${l.busy} aria-label=${`Play ${t.title} now against bots`}
            @click=${() => l.create(t, defaults(t), { bots: true })}>Play now</button>
          <button type="button" ?disabled=${l.busy} aria-label=${`Play ${t.title} with a friend`}
            @click=${() => l.create(t, defaults(t), { bots: false, friend: true })}>Play with a friend</button>
          <small>${describeDefaults(t)}</small>
        </div>`)}</div>
      </section>
      ${l.current ? formView(l, real) : nothing}
    </div>
    ${listView(l)}
  </div>`;
}

/** @param {Lobby} l */
function friendBox(l) {
  const f = /** @type {{id: string, type: string, title: string}} */ (l.friend);
  return html`<div class="friend-link" role="status">
    <p><strong>${f.title}: a seat is kept for your friend.</strong> Send them this link; the game starts when they join.</p>
    ${shareField("Link to send", linkTo(`#/game/${f.id}`), "It opens the free seat for them; your own seat stays in this browser.", "friend-url")}
    <p><a class="button-link primary" href=${`#/game/${f.id}`}>Go to the table</a></p>
  </div>`;
}

/** @param {Lobby} l */
function formView(l, visible) {
  const t = l.current;
  const levels = t.bots && t.bots.length ? t.bots : ["random"];
  return html`<section class="panel new-game" aria-labelledby="new-h">
    <details>
      <summary><h2 id="new-h" style="display:inline">New game with other options</h2></summary>
      <form class="new-game-form" novalidate @submit=${(e) => l.submitForm(e)}>
        <div class="field"><label for="new-type">Game</label>
          <select id="new-type" name="type" @change=${(e) => { l.current = l.types.find((x) => x.name === e.currentTarget.value); l.update(); }}>
            ${visible.map((x) => html`<option value=${x.name} ?selected=${x.name === t.name}>${x.title}${x.demo ? " — demo" : ""}</option>`)}
          </select></div>
        <div class="options">${repeat(t.options || [], (o) => `${t.name}:${o.name}`, (o) => html`<div class="field">
          <label for=${`opt-${o.name}`}>${o.label || humanize(o.name)}</label>
          <select id=${`opt-${o.name}`} name=${o.name} data-option=${o.name}>
            ${(o.choices || []).map((c) => html`<option value=${JSON.stringify(c)} ?selected=${c === o.default}>${String(c)}</option>`)}
          </select>
          ${o.description ? html`<small class="muted">${o.description}</small>` : nothing}
        </div>`)}</div>
        <div class="check"><input id="new-bots" type="checkbox" checked><label for="new-bots">Fill the other seats with bots</label>
          <label for="new-level" class="visually-hidden">Bot level</label>
          <select id="new-level">${levels.map((x) => html`<option value=${x} ?selected=${x === bestBot(t)}>${humanize(x)}</option>`)}</select></div>
        <button type="submit" class="primary" ?disabled=${l.busy}>Create game</button>
      </form>
    </details>
  </section>`;
}

/** @param {Lobby} l */
function listView(l) {
  const mine = seats.all();
  return html`<section class="panel games" aria-labelledby="games-h">
    <h2 id="games-h">Games</h2>
    <div class="filters" role="group" aria-label="Show games">
      ${FILTERS.map(([key, label]) => html`<button type="button" class=${classMap({ small: true, filter: true, active: l.filter === key })}
        aria-pressed=${String(l.filter === key)} @click=${() => l.setFilter(key)}>${label}</button>`)}
      <button type="button" class="small secondary" @click=${() => l.refresh()}>Refresh</button>
    </div>
    ${l.listError ? html`<p class="error">Cannot load games: ${l.listError}</p>`
      : l.games === null ? html`<p class="muted">Loading…</p>`
      : !l.games.length ? html`<p class="muted">No games here yet.</p>`
      : html`<ul class="game-list">${repeat(l.games, (g) => g.id, (g) => gameRow(g, mine[g.id]))}</ul>`}
  </section>`;
}

/** @param {GameSummary} g @param {{seat: number}|undefined} mine */
function gameRow(g, mine) {
  const taken = g.seats.filter((s) => s.taken).length;
  const who = g.seats.map((s) => (s.taken ? `${s.label}: ${s.name || "a bot"}` : `${s.label}: open`)).join(" · ");
  const myLabel = mine ? g.seats.find((s) => s.seat === mine.seat)?.label || "your seat" : "";
  const myTurn = !!mine && g.status === "running" && (g.to_act || []).includes(mine.seat);
  const turnWords = mine && g.status === "running" ? (myTurn ? "Your turn" : "Waiting for others") : "";
  /** @type {any} */
  let main = nothing;
  if (mine && g.status !== "finished") main = html`<a class="button-link primary" href=${`#/game/${g.id}`}>${myTurn ? "Play your turn" : "Open"} (${myLabel})</a>`;
  else if (mine) main = html`<a class="button-link" href=${`#/game/${g.id}`}>Result (you were ${myLabel})</a>`;
  else if (g.status === "open") main = html`<a class="button-link primary" href=${`#/game/${g.id}`}>Join</a>`;
  const opts = Object.entries(g.options || {}).map(([k, v]) => `${humanize(k)}: ${v}`).join(" · ");
  return html`<li class=${classMap({ "game-row": true, [`status-${g.status}`]: true, "my-turn": myTurn })}>
    <div class="game-info">
      <strong>${g.title || humanize(g.type)}</strong>
      <span class=${`status ${g.status}`}>${g.status === "open" ? `open · ${taken}/${g.seats.length} seated` : g.status}</span>
      ${turnWords ? html`<span class=${classMap({ badge: true, turn: myTurn })}>${turnWords}</span>` : nothing}
      <div class="muted small-text">${opts}${opts ? " · " : ""}${who}${g.result ? ` · ${winnerSentence(g, g.result)}` : ""}</div>
    </div>
    <div class="row-actions">
      ${main}
      ${g.status !== "finished" ? html`<a class="button-link" href=${`#/watch/${g.id}`}>Watch</a>` : nothing}
      <a class="button-link" href=${`#/replay/${g.id}`}>${g.status === "finished" ? "Replay" : "Replay so far"}</a>
    </div>
  </li>`;
}
