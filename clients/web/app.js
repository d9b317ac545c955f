// @ts-check
// Cloister web client: a hash router over the lobby, the live game page and the replay page.
//   #/             lobby
//   #/game/<id>    play (seat token from localStorage; with none, pick a seat or watch)
//   #/watch/<id>   spectate: public information only, no token is ever sent
//   #/replay/<id>  step through the game
import { html, render } from "./lit.js";
import { mountLobby } from "./lobby.js";
import { mountGame } from "./game-page.js";
import { mountReplay } from "./replay.js";

/** @type {(() => void)|null} */
let unmount = null;
let seq = 0;

async function route() {
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const my = ++seq;
  if (unmount) {
    try { unmount(); } catch (err) { console.error(err); }
    unmount = null;
  }
  window.cloister = undefined;
  main.replaceChildren();
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, rawId] = hash.split("/");
  const id = rawId ? decodeURIComponent(rawId) : null;
  let un;
  const host = document.createElement("div");
  host.className = "page";
  main.append(host);
  try {
    if (page === "game" && id) un = await mountGame(host, { id, mode: "play" });
    else if (page === "watch" && id) un = await mountGame(host, { id, mode: "watch" });
    else if (page === "replay" && id) un = await mountReplay(host, { id });
    else {
      document.title = "Cloister";
      un = await mountLobby(host);
    }
  } catch (err) {
    console.error(err);
    render(html`<section class="panel"><h1>Something went wrong</h1><p>${String(err.message || err)}</p><a href="#/">Back to the lobby</a></section>`, host);
  }
  if (my !== seq) {
    // Navigated away while mounting.
    if (un) un();
    host.remove();
    return;
  }
  unmount = un || null;
  document.body.dataset.page = page || "lobby";
  document.body.dataset.ready = "1";
}

window.addEventListener("hashchange", route);
route();
