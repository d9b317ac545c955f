// Finds the renderer for a game type: ./<type>.js if there is one, else the generic renderer,
// so a new game type (or a view that changed shape) never breaks the page.
import generic from "./generic.js";

const KNOWN = {
  "high-card": "./high-card.js",
  illumination: "./illumination.js",
  "campus-galli": "./campus-galli.js",
  road: "./road.js",
  "road-to-enlightenment": "./road.js",
};

const cache = new Map();

export async function rendererFor(gameType) {
  if (cache.has(gameType)) return cache.get(gameType);
  let r = generic;
  const path = KNOWN[gameType];
  if (path) {
    try {
      const mod = await import(path);
      r = { ...generic, ...mod.default, fallback: generic };
    } catch (err) {
      console.warn(`no renderer for ${gameType}, using the generic one`, err);
    }
  }
  cache.set(gameType, r);
  return r;
}

/** Draw with the game's renderer; if it throws on an unexpected view, fall back to generic. */
export function safeRender(renderer, host, ctx) {
  try {
    renderer.render(host, ctx);
  } catch (err) {
    console.error("renderer failed, showing the generic view", err);
    while (host.firstChild) host.firstChild.remove();
    generic.render(host, ctx);
  }
}

export { matching } from "./util.js";
