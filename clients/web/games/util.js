// Helpers for renderers.

/** Legal commands of the given type whose fields match every key in `fields`. */
export function matching(legal, type, fields = {}) {
  return (legal || []).filter(
    (c) => c.type === type && Object.entries(fields).every(([k, v]) => JSON.stringify(c[k]) === JSON.stringify(v)),
  );
}
