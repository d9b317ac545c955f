// @ts-check
// Helpers for renderers.

/** Legal commands of the given type whose fields match every key in `fields`.
 * @param {Array<{type: string} & Record<string, any>>} legal @param {string} type
 * @param {Record<string, any>} [fields] */
export function matching(legal, type, fields = {}) {
  return (legal || []).filter(
    (c) => c.type === type && Object.entries(fields).every(([k, v]) => JSON.stringify(c[k]) === JSON.stringify(v)),
  );
}

/** Keys of a list that are new in `now` compared with `before`. */
export function added(before, now, key = (x) => String(x)) {
  const old = new Set((before || []).map(key));
  return (now || []).filter((x) => !old.has(key(x)));
}

/** "1 coin", "3 coins": a count in words, as the rulebooks write it.
 * @param {number} n @param {string} word @param {string} [many] */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

/** "a, b and c". */
export function listWords(items) {
  const xs = items.filter(Boolean);
  if (xs.length <= 1) return xs.join("");
  return `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}
