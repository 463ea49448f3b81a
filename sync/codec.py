"""The sealed files of a sync folder and their names: bytes in, events out, no I/O.

A segment is ``MAGIC + nonce (12 bytes) + AES-256-GCM(sync key, zlib(JSON lines of events))``
with associated data ``localmind-sync v1|<device id>|<number>``: a segment moved to another
device's directory or renumbered fails its tag like a tampered one. A snapshot is sealed the
same way with ``...|<device id>|snapshot|<through>``, a cursors file (zlib'd JSON) with
``...|<device id>|cursors``. Every transport (``sync.transport``) carries these bytes as they
are, under these names, so the format is the same whatever carries it.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import zlib
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from localmind.replica import Event

HEADER_NAME = "localmind-sync.json"
MAGIC = b"LMSYNC1\n"
NONCE_BYTES = 12
SEGMENT_RE = re.compile(r"^(\d{8})\.seg$")
SNAPSHOT_RE = re.compile(r"^snapshot-(\d{8})\.seg$")
CURSORS_NAME = "cursors.seg"
DEVICE_RE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")  # a ULID, as localmind makes device ids
MAX_NAME_CHARS = 64

# What this laptop trusts to read. A legitimate sealed file is never near these bounds (the
# exporter splits a segment, and compaction refuses a snapshot, that would pass them), so a
# file past them is a stranger's: it is skipped before it costs memory or time.
MAX_PLAIN_BYTES = 256 * 1024 * 1024  # a sealed file's decompressed content
MAX_FILE_BYTES = MAX_PLAIN_BYTES + 1024 * 1024  # the file: compressed content, nonce, tag
MAX_HEADER_BYTES = 64 * 1024


# --- names ------------------------------------------------------------------------------------


def segment_name(number: int) -> str:
    return f"{number:08d}.seg"


def snapshot_name(through: int) -> str:
    return f"snapshot-{through:08d}.seg"


def numbered(names: list[str], pattern: re.Pattern[str]) -> list[int]:
    """The numbers of the ``names`` that ``pattern`` (:data:`SEGMENT_RE`, :data:`SNAPSHOT_RE`)
    matches, in order."""
    return sorted(int(m.group(1)) for name in names if (m := pattern.match(name)))


def key_id(key: bytes) -> str:
    """A name for a sync key that reveals nothing of it: two headers with different ids wrap
    different keys (two laptops ran `sync init` on the same folder at once)."""
    return hashlib.sha256(b"localmind-sync key id|" + key).hexdigest()[:32]


# --- sealing ----------------------------------------------------------------------------------


def segment_aad(device_id: str, number: int) -> bytes:
    return f"localmind-sync v1|{device_id}|{number}".encode()


def snapshot_aad(device_id: str, through: int) -> bytes:
    return f"localmind-sync v1|{device_id}|snapshot|{through}".encode()


def cursors_aad(device_id: str) -> bytes:
    return f"localmind-sync v1|{device_id}|cursors".encode()


def seal_plain(key: bytes, aad: bytes, plain: bytes) -> bytes:
    nonce = secrets.token_bytes(NONCE_BYTES)
    return MAGIC + nonce + AESGCM(key).encrypt(nonce, zlib.compress(plain, 6), aad)


def unseal_plain(key: bytes, aad: bytes, blob: bytes) -> bytes:
    """The plain content of a sealed file; ``ValueError`` when it is not whole and untampered,
    or was sealed for another place (``aad``) or with another key."""
    if not blob.startswith(MAGIC) or len(blob) < len(MAGIC) + NONCE_BYTES + 16:
        raise ValueError("not a localmind sync file (or cut short)")
    nonce = blob[len(MAGIC) : len(MAGIC) + NONCE_BYTES]
    try:
        packed = AESGCM(key).decrypt(nonce, blob[len(MAGIC) + NONCE_BYTES :], aad)
    except InvalidTag:
        raise ValueError(
            # the likely cause first: a laptop that has not joined again since the folder's
            # key was rotated writes with the old key (review15b DV7: read as "tampered")
            "authentication failed: sealed with another key (a laptop that has not run "
            "`localmind sync join` since `sync rekey --rotate`), or damaged, misplaced or "
            "tampered with"
        ) from None
    inflater = zlib.decompressobj()
    try:
        plain = inflater.decompress(packed, MAX_PLAIN_BYTES)
    except zlib.error as error:
        raise ValueError(f"undecodable content ({error})") from None
    if inflater.unconsumed_tail:
        raise ValueError(f"content larger than {MAX_PLAIN_BYTES:,} bytes")
    if not inflater.eof:
        raise ValueError("undecodable content (cut short)")
    return plain


def lines(events: list[Event]) -> bytes:
    """Events as the JSON lines a segment or snapshot seals."""
    text = "".join(json.dumps(e.to_dict(), ensure_ascii=False) + "\n" for e in events)
    return text.encode("utf-8")


def events_of(plain: bytes) -> list[Event]:
    try:
        text = plain.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"undecodable content ({error})") from None
    events = []
    # Split on "\n" only: JSON escapes it inside strings, but not U+2028, U+0085 and the other
    # breaks str.splitlines knows, which a memory's text may hold.
    for line_no, line in enumerate(text.split("\n"), start=1):
        if not line:
            continue
        try:
            event = Event.from_dict(json.loads(line))
        except ValueError as error:
            raise ValueError(f"line {line_no}: {error}") from None
        except RecursionError:
            raise ValueError(f"line {line_no}: nested too deeply") from None
        # A file may carry other devices' events: a fresh stream relays the whole history
        # the store holds (see folder._ensure_stream). Where the file itself came from is bound
        # by its associated data; every event is still known by its own stamp.
        events.append(event)
    return events


def seal(key: bytes, device_id: str, number: int, events: list[Event]) -> bytes:
    return seal_plain(key, segment_aad(device_id, number), lines(events))


def unseal(key: bytes, device_id: str, number: int, blob: bytes) -> list[Event]:
    """The events of a segment; ``ValueError`` when it is not a whole, untampered segment of
    ``device_id`` numbered ``number`` under ``key``."""
    return events_of(unseal_plain(key, segment_aad(device_id, number), blob))


def seal_snapshot(key: bytes, device_id: str, through: int, events: list[Event]) -> bytes:
    return seal_plain(key, snapshot_aad(device_id, through), lines(events))


def unseal_snapshot(key: bytes, device_id: str, through: int, blob: bytes) -> list[Event]:
    """The events of ``device_id``'s snapshot of its segments 1..``through``."""
    return events_of(unseal_plain(key, snapshot_aad(device_id, through), blob))


# --- cursors files ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Published:
    """What a device says of itself in its cursors file: how far it applied each other
    device, its name for people, and whether it left the folder (`sync leave`, after
    exporting through its segment ``through``)."""

    applied: dict[str, int]
    name: str | None = None
    left: bool = False
    through: int = 0


def seal_cursors(
    key: bytes, device_id: str, applied: dict[str, int], published: Published | None = None
) -> bytes:
    document: dict[str, Any] = {"device_id": device_id, "applied": dict(sorted(applied.items()))}
    if published is not None:
        if published.name is not None:
            document["name"] = published.name
        if published.left:
            document["left"] = {"through": published.through}
    return seal_plain(key, cursors_aad(device_id), json.dumps(document).encode("utf-8"))


def unseal_cursors(key: bytes, device_id: str, blob: bytes) -> dict[str, int]:
    """How far ``device_id`` says it has applied each other device (segment numbers)."""
    return unseal_published(key, device_id, blob).applied


def unseal_published(key: bytes, device_id: str, blob: bytes) -> Published:
    """Everything ``device_id``'s cursors file says; ``ValueError`` when it cannot be trusted."""
    try:
        document = json.loads(unseal_plain(key, cursors_aad(device_id), blob))
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, nested too deeply
        raise ValueError(f"undecodable content ({error})") from None
    applied = document.get("applied") if isinstance(document, dict) else None
    if not isinstance(applied, dict) or document.get("device_id") != device_id:
        raise ValueError("not a cursors document of this device")
    for device, cursor in applied.items():
        if not DEVICE_RE.match(device) or not _count(cursor):
            raise ValueError(f"bad cursor {device!r}: {cursor!r}")
    name = document.get("name")
    if name is not None and (
        not isinstance(name, str) or not 0 < len(name) <= MAX_NAME_CHARS or not name.isprintable()
    ):
        raise ValueError("bad device name")
    left = document.get("left")
    through = left.get("through") if isinstance(left, dict) else None
    if left is not None and not _count(through):
        raise ValueError("bad departure record")
    return Published(applied, name, left is not None, through or 0)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**62
