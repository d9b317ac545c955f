// @ts-check
// The fallback renderer: the view as readable JSON. Legal actions are always offered as
// buttons by the page itself, so a game without its own renderer is still playable.
import { html } from "../lit.js";
import { humanize, words } from "../dom.js";

/** @type {import("../types.js").Renderer} */
const generic = {
  title: null,
  render(ctx) {
    return html`<div class="generic-view">
      <p class="muted">This game has no picture renderer yet; its view as data:</p>
      <pre class="json" tabindex="0" aria-label="Game view as data">${JSON.stringify(ctx.view, null, 2)}</pre>
    </div>`;
  },
  label(cmd) {
    const fields = Object.entries(cmd).filter(([k]) => k !== "type");
    if (!fields.length) return humanize(cmd.type);
    return `${humanize(cmd.type)}: ${fields.map(([k, v]) => `${humanize(k).toLowerCase()} ${words(v)}`).join("; ")}`;
  },
  status() {
    return "";
  },
};
export default generic;
