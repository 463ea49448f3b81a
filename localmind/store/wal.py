"""Telling a damaged write-ahead log from one cut short by a crash.

SQLite replays the WAL only up to its first frame whose checksum fails: that is how a crash in
the middle of a write is survived. It is also how a flipped byte would be *hidden*: every change
after the damaged frame is silently dropped, and the store opens as it was before them. A crash
can only ever leave its damage at the end of the log (the frame being written, then nothing of
that generation after it), so a failing frame followed by a *committed* frame of the same
generation is damage, never a crash. That is what :func:`damage` looks for, before SQLite
gets to replay (and later checkpoint away) the evidence.

Not detectable this way: damage inside the log's last transaction at its very end (its commit
frame), which looks exactly like a crash during that write; SQLite then opens the store as it
was before that one change. Pages themselves are authenticated by the cipher, so a damaged page
is reported when it is read, wherever it lies.

Format: https://www.sqlite.org/fileformat2.html#walformat (header and frame fields big-endian;
the checksum reads 32-bit words in the byte order the magic number says).
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path

import numpy as np

_MAGIC_LITTLE = 0x377F0682
_MAGIC_BIG = 0x377F0683
_VERSION = 3007000
_HEADER = 32
_FRAME_HEADER = 24
_MASK = np.uint64(0xFFFFFFFF)


def wal_path(db: Path) -> Path:
    return db.with_name(db.name + "-wal")


def damage(db: Path) -> str | None:
    """What is wrong with ``db``'s WAL, or None when it is whole (or absent, or only cut short
    by a crash). A log that changes while it is read (another process writing) is never
    reported: the scan runs twice and must find the same damaged frame both times."""
    first = _scan(wal_path(db))
    if first is None:
        return None
    return first if _scan(wal_path(db)) == first else None


def _scan(path: Path) -> str | None:
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; absent is the common case
    except FileNotFoundError:
        return None
    with handle:
        header = handle.read(_HEADER)
        if len(header) < _HEADER:
            return None
        magic, version, page_size, _seq, salt1, salt2, sum1, sum2 = struct.unpack(">8I", header)
        frame_size = _FRAME_HEADER + page_size
        handle.seek(0, 2)
        frames = (handle.tell() - _HEADER) // frame_size if page_size else 0
        if frames <= 0:
            return None  # a header alone: nothing for SQLite to replay, nothing lost
        if (
            magic not in (_MAGIC_LITTLE, _MAGIC_BIG)
            or version != _VERSION
            or not _valid_page_size(page_size)
        ):
            return "its write-ahead log header is damaged"
        byteorder = ">" if magic == _MAGIC_BIG else "<"
        if _checksum(header[:24], (0, 0), byteorder) != (sum1, sum2):
            return "its write-ahead log header is damaged"
        salts = (salt1, salt2)
        state = (sum1, sum2)
        handle.seek(_HEADER)
        bad_frame = None
        for index in range(frames):
            frame = handle.read(frame_size)
            if len(frame) < frame_size:
                return None  # the log shrank while read: another process checkpointed it
            fields = struct.unpack(">6I", frame[:_FRAME_HEADER])
            if fields[2:4] != salts:
                break  # a frame of an earlier generation: the log ends here, as SQLite reads it
            expected = _checksum(frame[:8] + frame[_FRAME_HEADER:], state, byteorder)
            if expected != fields[4:6]:
                bad_frame = index
                break
            state = expected
        if bad_frame is None:
            return None
        for index in range(bad_frame + 1, frames):
            handle.seek(_HEADER + index * frame_size)
            head = handle.read(16)
            if len(head) < 16:
                return None
            _page, commit, *frame_salts = struct.unpack(">4I", head)
            if tuple(frame_salts) == salts and commit:
                return (
                    f"its write-ahead log has a damaged frame ({bad_frame + 1} of {frames}) "
                    "with later changes after it"
                )
        return None


def _valid_page_size(size: int) -> bool:
    return 512 <= size <= 65536 and size & (size - 1) == 0


def _checksum(data: bytes, start: tuple[int, int], byteorder: str) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` continued from ``start``: for each pair of 32-bit
    words, s0 += x0 + s1; s1 += x1 + s0 (mod 2**32). The recurrence is linear, so a whole page
    is one weighted sum (weights precomputed per length) instead of 2,048 Python steps."""
    words = np.frombuffer(data, dtype=np.dtype(f"{byteorder}u4")).astype(np.uint64)
    pairs = words.reshape(-1, 2)
    weights, power = _weights(len(pairs))
    s0, s1 = np.uint64(start[0]), np.uint64(start[1])
    # uint64 arithmetic wraps modulo 2**64, which 2**32 divides: exact modulo 2**32.
    with np.errstate(over="ignore"):
        out0 = power[0, 0] * s0 + power[0, 1] * s1 + (weights[:, 0, :] * pairs).sum(dtype=np.uint64)
        out1 = power[1, 0] * s0 + power[1, 1] * s1 + (weights[:, 1, :] * pairs).sum(dtype=np.uint64)
    return int(out0 & _MASK), int(out1 & _MASK)


@functools.lru_cache(maxsize=4)
def _weights(pairs: int) -> tuple[np.ndarray, np.ndarray]:
    """One step maps (s0, s1) to M·(s0, s1) + N·(x0, x1), with M = [[1, 1], [1, 2]] and
    N = [[1, 0], [1, 1]]. After n pairs the state is M^n·start + Σ M^(n-k)·N·pair_k: returns
    the weights M^(n-k)·N for every k (mod 2**32) and M^n."""
    mask = 0xFFFFFFFF
    rows: list[tuple[int, int, int, int]] = []
    a, b, c, d = 1, 0, 1, 1  # M^0·N, row-major
    for _ in range(pairs):
        rows.append((a, b, c, d))
        a, b, c, d = (a + c) & mask, (b + d) & mask, (a + 2 * c) & mask, (b + 2 * d) & mask
    weights = np.array(rows[::-1], dtype=np.uint64).reshape(pairs, 2, 2)
    p, q, r, s = 1, 0, 0, 1  # M^n
    for _ in range(pairs):
        p, q, r, s = (p + r) & mask, (q + s) & mask, (p + 2 * r) & mask, (q + 2 * s) & mask
    return weights, np.array([[p, q], [r, s]], dtype=np.uint64)
