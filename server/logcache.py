"""A copy of a game log's prefix kept with its snapshot: a cache derived from the log.

A load behind a snapshot still needs the whole log (resumes, replays, undo, exports and the
command-id index read it), and reading it from the stream was most of a load: Redis builds
an XRANGE reply of a dozen values per event, hiredis makes a Python object of each, and the
columns are then taken apart again (``server.store.redis._page_columns``). So a node that
writes a snapshot also writes the log's events, column by column, in chunks of
``LOG_CHUNK`` versions: fields ``l0``, ``l1``... of the snapshot's hash, chunk ``k`` holding
versions ``k * LOG_CHUNK + 1`` on (the last one may be short, and is written again whole
once it fills). A load takes the chunks that follow each other from version 1, reads the
stream from the last version they hold on, and uses them only if the stream's event there
is the very one they end with (``fits``); otherwise it reads the whole stream, as with no
cache. Event ids are unique and a stream is never edited in place, only cut back (a
failover's lost writes) and appended to again, so the same id at version ``m`` means the
same events 1..m, if the chunks hold one history: each carries the running hash of the
event ids up to its end (``UuidChain``), and a chunk whose hash does not follow from the
chunks before it (written by a node that held another history: a late write from before
a failover) ends the run there. A snapshot's own checks (``server.snapshots``) then run on
these columns as on the stream's.

A chunk is one bytes value: a JSON header ``[format, first version, types, schemas, event
ids, command-id runs, payload lengths, id hash to its end]`` (the runs ``[id, count, id,
count...]``: an append's events share its id), a newline, and the payloads as the stream
holds them, one after another. Decoding is one ``orjson.loads`` and a slice per payload
(splitting at separators scanned every byte, a twentieth of a load): no object per field,
and a chunk whose pieces do not add up is refused.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from itertools import accumulate, chain, repeat
from typing import Any

import orjson

from .snapshots import UuidChain
from .store.base import RawColumns

__all__ = ["LOG_CHUNK", "decode_chunks", "encode_chunk", "fits", "log_chunks"]

LOG_CHUNK = 200
"""Versions per chunk; a snapshot is written every ``SNAPSHOT_EVERY`` (also 200) events,
so a chunk is written once whole, and at most once short (at a game's end)."""
_FORMAT = "c3"
_FIELD = "l"


def encode_chunk(
    first: int,
    types: Sequence[str],
    schemas: Sequence[int],
    uuids: Sequence[str],
    runs: Sequence[str | int],
    payloads: Sequence[bytes],
    digest: str,
) -> bytes:
    """The chunk of the events from version ``first`` (``digest``: that of the
    ``UuidChain`` of versions 1 to its last)."""
    lengths = list(map(len, payloads))
    head = orjson.dumps(
        [_FORMAT, first, list(types), list(schemas), list(uuids), list(runs), lengths, digest]
    )
    return head + b"\n" + b"".join(payloads)


def _decode(blob: Any, first: int, hashed: UuidChain) -> tuple[RawColumns, UuidChain] | None:
    """The chunk's columns and ``hashed`` with its ids added, if it follows ``hashed``."""
    if not isinstance(blob, bytes):
        return None
    try:
        cut = blob.index(b"\n")
        tag, at, types, schemas, uuids, runs, lengths, digest = orjson.loads(memoryview(blob)[:cut])
    except (orjson.JSONDecodeError, ValueError, TypeError):
        return None
    if tag != _FORMAT or at != first or not isinstance(lengths, list):
        return None
    n = len(lengths)
    if not 0 < n <= LOG_CHUNK:
        return None
    if not (isinstance(types, list) and isinstance(uuids, list) and isinstance(schemas, list)):
        return None
    if not (isinstance(runs, list) and len(types) == len(uuids) == len(schemas) == n):
        return None
    ids, counts = runs[::2], runs[1::2]
    # Every value of the type its column must have, each column in one C loop: ``join``
    # takes only str, an ``array`` of C longs only int.
    try:
        "".join(chain(types, uuids, ids))
        array("q", chain(schemas, counts, lengths))
    except (TypeError, OverflowError):
        return None
    if len(ids) != len(counts) or sum(counts) != n or min(counts) < 1 or min(lengths) < 0:
        return None
    # The payloads by their lengths: slices, no scan of the bytes for a separator.
    ends = list(accumulate(lengths, initial=cut + 1))
    if ends[-1] != len(blob):
        return None
    hashed = hashed.copy()
    hashed.extend(uuids)
    if hashed.digest() != digest:
        return None
    payloads = list(map(blob.__getitem__, map(slice, ends, ends[1:])))
    commands = list(chain.from_iterable(map(repeat, ids, counts)))
    return RawColumns(
        list(range(first, first + n)), types, schemas, uuids, commands, payloads
    ), hashed


def decode_chunks(fields: Mapping[Any, Any]) -> tuple[RawColumns, UuidChain] | None:
    """The events of versions 1..m held by the chunks among a snapshot's ``fields`` (keys
    bytes from Redis, str from the in-memory store), the chunks that follow each other
    from version 1, with the ``UuidChain`` of their ids; None if there is none."""
    blobs = {(k.decode() if isinstance(k, bytes) else k): v for k, v in fields.items()}
    out: RawColumns | None = None
    hashed = UuidChain()
    k = 0
    while True:
        found = _decode(blobs.get(f"{_FIELD}{k}"), k * LOG_CHUNK + 1, hashed)
        if found is None:
            break
        cols, hashed = found
        if out is None:
            out = cols
        else:
            out.extend(cols)
        if len(cols.versions) < LOG_CHUNK:  # a short chunk is the last that can follow
            break
        k += 1
    return (out, hashed) if out is not None else None


def fits(cached: RawColumns, stream: RawColumns) -> bool:
    """Whether ``stream``, read from the last version ``cached`` holds, begins with the
    event ``cached`` ends with (see the module docstring)."""
    m = len(cached.versions)
    return bool(stream.versions) and stream.versions[0] == m and stream.uuids[0] == cached.uuids[-1]


def log_chunks(
    log: Sequence[Any],
    uuids: Sequence[str],
    commands: Mapping[str, int],
    start: int,
    end: int,
) -> dict[str, bytes]:
    """The chunk fields holding versions ``start + 1``..``end`` (``start`` a multiple of
    ``LOG_CHUNK``, the last chunk maybe short) of a record's ``log`` (entries with
    ``version``, ``type``, ``schema`` and ``payload()``), its event ``uuids`` and its
    command-id index (``commands``: id -> the last version of its append).

    The command id of each event is not kept per event; it follows from the index: every
    append has an id of its own (the store refuses a used one), so the ids, ordered by
    the version each ends at, cut the log into the runs of their appends. Stops at the
    first chunk that cannot be written (an index that does not cover its versions)."""
    ends = sorted((v, cid) for cid, v in commands.items() if v > start)
    out: dict[str, bytes] = {}
    if len({v for v, _ in ends}) != len(ends):  # two appends cannot end at one version
        return out
    hashed = UuidChain(uuids[:start])
    i = 0
    for lo in range(start, end, LOG_CHUNK):
        hi = min(lo + LOG_CHUNK, end)
        runs: list[str | int] = []
        at = lo
        while at < hi and i < len(ends):
            v, cid = ends[i]
            upto = min(v, hi)
            if upto > at:
                runs += [cid, upto - at]
                at = upto
            if v <= hi:
                i += 1
        if at != hi:
            return out
        entries, ids = log[lo:hi], uuids[lo:hi]
        hashed.extend(ids)
        blob = encode_chunk(
            lo + 1,
            [e.type for e in entries],
            [e.schema for e in entries],
            ids,
            runs,
            [e.payload() for e in entries],
            hashed.digest(),
        )
        if any(e.version != lo + j for j, e in enumerate(entries, 1)):
            return out
        out[f"{_FIELD}{lo // LOG_CHUNK}"] = blob
    return out
