// @ts-check
// HTTP calls to the documented API (docs/api.md) and the seat tokens this browser holds.

export class ApiError extends Error {
  /** @param {number} status @param {string|undefined} code @param {string|undefined} message */
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || `http_${status}`;
  }
}

/** Call the API; resolves to parsed JSON, rejects with ApiError carrying the server's message.
 * @param {string} method @param {string} path @param {any} [body] @param {string|null} [token]
 * @returns {Promise<any>} */
export async function api(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, "network", "Cannot reach the server. Check your connection.");
  }
  let data = null;
  const textBody = await res.text();
  if (textBody) {
    try {
      data = JSON.parse(textBody);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code, e.message || `${res.status} ${res.statusText}`);
  }
  return data;
}

export const getGameTypes = () => api("GET", "/api/game-types").then((d) => d.game_types || []);
export const listGames = (status) =>
  api("GET", `/api/games${status ? `?status=${encodeURIComponent(status)}` : ""}`).then((d) => d.games || []);
export const getGame = (id) => api("GET", `/api/games/${encodeURIComponent(id)}`);
export const createGame = (type, options) => api("POST", "/api/games", { type, options });
export const joinSeat = (id, name, seat) =>
  api("POST", `/api/games/${encodeURIComponent(id)}/seats`, seat === undefined || seat === null ? { name } : { seat, name });
export const addBot = (id, seat, level) => {
  /** @type {Record<string, any>} */
  const body = {};
  if (seat !== undefined && seat !== null) body.seat = seat;
  if (level) body.level = level;
  return api("POST", `/api/games/${encodeURIComponent(id)}/bots`, body);
};
export const getEvents = (id, token, since) =>
  api("GET", `/api/games/${encodeURIComponent(id)}/events${since != null ? `?since=${since}` : ""}`, undefined, token);
/** Printed names and rules text of a game type's cards, tiles and tasks (the narrator's data). */
export const getGlossary = (type) => api("GET", `/api/types/${encodeURIComponent(type)}/glossary`);
/** A finished game re-decided by the server from its revealed seed (docs/api.md). */
export const verifyGame = (id) => api("GET", `/api/games/${encodeURIComponent(id)}/verify`);
export const getView = (id, version, token) =>
  api("GET", `/api/games/${encodeURIComponent(id)}/view${version != null ? `?version=${version}` : ""}`, undefined, token);

// -- seat tokens -----------------------------------------------------------------------------
// A seat token is a secret: it lives in localStorage under the game id and is sent only in
// the WebSocket hello and the Authorization header, never in a URL.
const KEY = "cloister:seat:";

export const seats = {
  get(gameId) {
    try {
      const raw = localStorage.getItem(KEY + gameId);
      return raw ? JSON.parse(raw) : null;
    } catch {
      return null;
    }
  },
  set(gameId, record) {
    localStorage.setItem(KEY + gameId, JSON.stringify(record));
  },
  remove(gameId) {
    localStorage.removeItem(KEY + gameId);
  },
  all() {
    const out = {};
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(KEY)) {
        const rec = seats.get(k.slice(KEY.length));
        if (rec) out[k.slice(KEY.length)] = rec;
      }
    }
    return out;
  },
};

export const prefs = {
  get name() {
    return localStorage.getItem("cloister:name") || "";
  },
  set name(v) {
    localStorage.setItem("cloister:name", v);
  },
};
