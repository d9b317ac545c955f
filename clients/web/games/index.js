// @ts-check
// Finds the renderer for a game type: ./<type>.js if there is one, else the generic renderer,
// so a new game type (or a view that changed shape) never breaks the page.
import generic from "./generic.js";

/** @typedef {import("../types.js").Renderer} Renderer */
/** @typedef {import("../types.js").RenderCtx} RenderCtx */

/** @type {Record<string, string>} */
const KNOWN = {
  "high-card": "./high-card.js",
  illumination: "./illumination.js",
  "campus-galli": "./campus-galli.js",
  road: "./road.js",
  "road-to-enlightenment": "./road.js",
};

/** @type {Map<string, Renderer>} */
const cache = new Map();

/** @returns {Promise<Renderer>} */
export async function rendererFor(gameType) {
  const known = cache.get(gameType);
  if (known) return known;
  /** @type {Renderer} */
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

/** Draw with the game's renderer; if it throws on an unexpected view, fall back to generic.
 * @param {Renderer} renderer @param {RenderCtx} ctx */
export function safeRender(renderer, ctx) {
  try {
    return renderer.render(ctx);
  } catch (err) {
    console.error("renderer failed, showing the generic view", err);
    return generic.render(ctx);
  }
}

export { matching } from "./util.js";
