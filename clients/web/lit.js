// @ts-check
// The one place the client imports its rendering library from: lit-html 3.3.1, vendored
// unchanged from npm under vendor/lit-html/ (see its README). Nothing is fetched at run time.
export { html, svg, render, nothing, noChange } from "./vendor/lit-html/lit-html.js";
export { repeat } from "./vendor/lit-html/directives/repeat.js";
export { classMap } from "./vendor/lit-html/directives/class-map.js";
export { styleMap } from "./vendor/lit-html/directives/style-map.js";
export { live } from "./vendor/lit-html/directives/live.js";
export { ref, createRef } from "./vendor/lit-html/directives/ref.js";
export { keyed } from "./vendor/lit-html/directives/keyed.js";
export { ifDefined } from "./vendor/lit-html/directives/if-defined.js";
