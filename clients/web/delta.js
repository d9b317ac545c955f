// @ts-check
// The two compact forms of the wire protocol (docs/protocol.md), undone on the client side:
// an update's view delta, and the legal commands' groups. Pure functions, no DOM: the page
// code never sees either form, only the full view and the expanded command list that
// connection.js keeps.

export class DeltaError extends Error {}

function copy(node) {
  if (Array.isArray(node)) return node.slice();
  if (node !== null && typeof node === "object") return { ...node };
  throw new DeltaError(`a path goes through ${JSON.stringify(node)}`);
}

/**
 * `view` with `delta` applied, without mutating `view`: the containers along each path are
 * copied, unchanged parts are shared. Each operation is [path, value] (set; an array index
 * equal to the length appends) or [path] (remove a key; cut an array to `index` elements).
 * Throws DeltaError when the delta does not fit (the caller resyncs).
 */
export function applyDelta(view, delta) {
  const root = [view];
  const copied = new Set();
  for (const op of delta) {
    if (!Array.isArray(op) || op.length < 1 || op.length > 2 || !Array.isArray(op[0])) {
      throw new DeltaError(`not a delta operation: ${JSON.stringify(op)}`);
    }
    let parent = root;
    let key = 0;
    for (const step of op[0]) {
      let child = childOf(parent, key);
      if (!copied.has(child)) {
        child = copy(child);
        copied.add(child);
        parent[key] = child;
      }
      parent = child;
      key = step;
    }
    if (op.length === 2) setAt(parent, key, op[1]);
    else if (parent === root) throw new DeltaError("the whole view cannot be removed");
    else removeAt(parent, key);
  }
  return root[0];
}

function childOf(parent, key) {
  if (Array.isArray(parent)) {
    if (!Number.isInteger(key) || key < 0 || key >= parent.length) throw new DeltaError(`no index ${key}`);
    return parent[key];
  }
  if (typeof key !== "string" || !Object.prototype.hasOwnProperty.call(parent, key)) {
    throw new DeltaError(`no ${JSON.stringify(key)} in the view`);
  }
  return parent[key];
}

function setAt(parent, key, value) {
  if (Array.isArray(parent)) {
    if (!Number.isInteger(key) || key < 0 || key > parent.length) throw new DeltaError(`index ${key} of ${parent.length}`);
    parent[key] = value;
  } else if (parent !== null && typeof parent === "object") {
    if (typeof key !== "string") throw new DeltaError(`object key ${JSON.stringify(key)}`);
    parent[key] = value;
  } else {
    throw new DeltaError(`cannot set ${key} in ${JSON.stringify(parent)}`);
  }
}

function removeAt(parent, key) {
  if (Array.isArray(parent)) {
    if (!Number.isInteger(key) || key < 0 || key > parent.length) throw new DeltaError(`index ${key} of ${parent.length}`);
    parent.length = key;
  } else if (parent !== null && typeof parent === "object") {
    if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new DeltaError(`no ${JSON.stringify(key)} to remove`);
    delete parent[key];
  } else {
    throw new DeltaError(`cannot remove ${key} from ${JSON.stringify(parent)}`);
  }
}

/**
 * The legal commands the compact groups stand for, in order. A group is {type} (one command
 * without fields) or {type, keys, tree}: with one key, tree lists its values; with more,
 * tree is a list of [values, subtree] nodes, each value combined with every command of the
 * subtree over the remaining keys.
 */
export function expandLegal(groups) {
  const out = [];
  for (const group of groups || []) {
    const keys = group.keys || [];
    if (!keys.length) {
      out.push({ type: group.type });
      continue;
    }
    for (const values of walk(group.tree, keys.length)) {
      const command = { type: group.type };
      keys.forEach((k, i) => { command[k] = values[i]; });
      out.push(command);
    }
  }
  return out;
}

function walk(tree, n) {
  if (n === 1) return tree.map((v) => [v]);
  const rows = [];
  for (const [values, sub] of tree) {
    const rest = walk(sub, n - 1);
    for (const v of values) for (const tail of rest) rows.push([v, ...tail]);
  }
  return rows;
}
