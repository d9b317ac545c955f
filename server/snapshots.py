"""Snapshots of folded game state: a cache derived from the log, never a second truth.

Loading a long game means reading, decoding and folding every event. A snapshot lets a node
skip the fold of a prefix: it holds the state after version ``v``, written by a node that
folded the log up to ``v`` itself. It is used only when all of this holds, and otherwise
ignored and replaced:

* ``prefix`` — a hash of the ids of the log's events 1..v equals the hash of the events the
  node has just read: the stream still holds exactly the history the snapshot was folded
  from (a rewritten history, e.g. writes lost in a failover, gives other event ids);
* ``fold`` — a fingerprint of the code that folds (the game's package, sources and data,
  the domain kernel and the codec) equals this node's: a new rule or a fixed ``evolve``
  makes every older snapshot stale at once, with no version number to forget to bump.

The node still needs every event (for resumes, replays and exports): the log's prefix comes
from a copy kept with the snapshot where it fits the stream (``server.logcache``), else from
the stream; those before the snapshot are decoded into domain objects only when something
asks for them (``LogEntry.event``), since nothing needs them to fold.

The state travels as a pickle (fast, and exact for frozen attrs values). Reading one is
restricted to the domain's own classes and a few builtins, so a tampered value cannot name
any other callable.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import attrs

__all__ = [
    "SNAPSHOT_EVERY",
    "Snapshot",
    "UuidChain",
    "dumps_state",
    "fingerprint",
    "loads_state",
]

SNAPSHOT_EVERY = 200
"""A node writes a new snapshot of a game it holds after this many events (and at the end)."""

_SAFE_BUILTINS = frozenset(
    {
        ("builtins", "frozenset"),
        ("builtins", "set"),
        ("builtins", "tuple"),
        ("builtins", "list"),
        ("builtins", "dict"),
        ("builtins", "object"),
        ("copyreg", "__newobj__"),
        ("copyreg", "_reconstructor"),
        ("collections", "OrderedDict"),
    }
)


class _DomainUnpickler(pickle.Unpickler):
    def __init__(self, stream: io.BytesIO, packages: tuple[str, ...]) -> None:
        super().__init__(stream)
        self.packages = packages

    def find_class(self, module: str, name: str) -> Any:
        if module.split(".")[0] in self.packages or (module, name) in _SAFE_BUILTINS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a snapshot may not name {module}.{name}")


def dumps_state(state: Any) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def loads_state(blob: bytes, package: str = "domain") -> Any:
    """The state in ``blob``; raises ``pickle.UnpicklingError`` (or another error) if it
    is not a snapshot this code can read. Only classes of ``domain`` and of the game's own
    top-level ``package`` (a game installed as a plugin) may be named in it."""
    stream = io.BytesIO(blob)
    state = _DomainUnpickler(stream, ("domain", package.split(".")[0])).load()
    if stream.tell() != len(blob):
        raise pickle.UnpicklingError("bytes after the snapshot's state")
    return state


@cache
def fingerprint(game_module: str) -> str:
    """A hash of everything that decides what a fold produces for games of the package
    holding ``game_module`` (e.g. ``type(game).__module__``)."""
    domain_dir = Path(sys.modules["domain"].__file__ or "").parent
    module_file = Path(sys.modules[game_module].__file__ or "")
    package_dir = module_file.parent
    files = sorted(package_dir.rglob("*.py")) + sorted(package_dir.rglob("*.json"))
    files += sorted(domain_dir.glob("*.py"))
    files.append(Path(__file__).parents[1] / "protocol" / "codec.py")
    files.append(Path(__file__).parent / "undo.py")  # folds skip undone events
    digest = hashlib.sha256(f"py{sys.version_info[0]}.{sys.version_info[1]}".encode())
    for path in dict.fromkeys(files):  # the kernel may hold the game module itself
        # A game may be a plugin installed outside this tree: name its files from its root.
        root = domain_dir.parent if path.is_relative_to(domain_dir.parent) else package_dir.parent
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


class UuidChain:
    """A running hash of a log's event ids, one per version, in order: the sha256 of
    ``"".join(uuid + "\n" for each event)``."""

    __slots__ = ("_hash", "_pending", "version")

    def __init__(self, uuids: Sequence[str] | None = None) -> None:
        self._hash = hashlib.sha256()
        self._pending: list[str] = []
        """Ids added since the last ``digest``, hashed then in one update: the digest is
        asked for once per snapshot, an id added at every event (a hash update each cost
        more than keeping it)."""
        self.version = 0
        if uuids:
            self.extend(uuids)

    def extend(self, uuids: Sequence[str]) -> None:
        if uuids:
            self._hash.update(("\n".join(uuids) + "\n").encode())
            self.version += len(uuids)

    def copy(self) -> UuidChain:
        other = UuidChain()
        other._hash, other.version = self._hash.copy(), self.version
        return other

    def add(self, uuid: str) -> None:
        self._pending.append(uuid)
        self.version += 1

    def digest(self) -> str:
        pending = self._pending
        if pending:
            self._hash.update(("\n".join(pending) + "\n").encode())
            pending.clear()
        return self._hash.hexdigest()[:32]


@attrs.frozen
class Snapshot:
    """The state after ``version``; see the module docstring for when it may be used."""

    version: int
    prefix: str
    fold: str
    state: bytes

    def to_fields(self) -> dict[str, str | bytes]:
        return {"v": str(self.version), "p": self.prefix, "f": self.fold, "s": self.state}

    @classmethod
    def from_fields(cls, fields: dict[bytes, bytes] | dict[str, Any]) -> Snapshot | None:
        try:
            get = {(k.decode() if isinstance(k, bytes) else k): v for k, v in fields.items()}
            text = {
                k: (v.decode() if isinstance(v, bytes) else v) for k, v in get.items() if k != "s"
            }
            state = get["s"]
            return cls(int(text["v"]), text["p"], text["f"], bytes(state))
        except (KeyError, ValueError, TypeError, AttributeError):
            return None
