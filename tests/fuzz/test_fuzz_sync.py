"""The sync folder, hostile: random bytes, truncated and flipped segments, files in the wrong
place, headers with wrong, missing or huge fields, and, sealed with the real key (a device that
holds the passphrase but sends garbage), events of any shape.

Nothing in the folder raises out of an import: a file that cannot be used is skipped, listed in
the report, and changes nothing; a header that cannot be used is a clear SyncError, and one that
asks Argon2id for absurd cost is refused before any key is derived.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st
from ulid import ULID

from localmind import InvalidInput, Memory, NewMemory
from localmind.keys import MAX_KDF_MEMORY_KIB
from localmind.records import MemoryRecord, MemoryType
from localmind.replica import Event
from sync import codec, folder_transport
from sync import folder as sync
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.fuzz.support import (
    budget,
    deeply_nested,
    edited,
    fingerprint,
    hostile_text,
    json_values,
    still_usable,
)


@pytest.fixture(scope="module")
def joined(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Memory, Path]]:
    """A store that has joined a sync folder, with a memory of its own."""
    base = tmp_path_factory.mktemp("fuzz-sync")
    with Memory.open(base / "memory.db", PASSPHRASE, kdf=FAST_KDF) as memory:
        memory.remember("I water the plants on Sundays", "semantic")
        root = sync.init_folder(memory, base / "folder", PASSPHRASE, FAST_KDF)
        sync.export_pending(memory, root)
        yield memory, root


# --- events -------------------------------------------------------------------------------------


def add_event(device: str, counter: int, content: str) -> dict[str, Any]:
    """A well-formed ``add`` event of another device, as it travels."""
    record = MemoryRecord(
        id=str(ULID()),
        content=content,
        type=MemoryType.SEMANTIC,
        created_at=1_780_000_000.0,
        updated_at=1_780_000_000.0,
    )
    return {
        "seq": counter + 1,
        "hlc": f"{1_780_000_000_000 + counter:013d}.{0:06d}.{device}",
        "device_id": device,
        "namespace": "me",
        "memory_id": record.id,
        "op": "add",
        "payload": record.to_dict(),
        "reason": None,
        "at": 1_780_000_000.0,
    }


EVENT_FIELDS = ["seq", "hlc", "device_id", "namespace", "memory_id", "op", "payload", "reason"]
PAYLOAD_FIELDS = [
    "content",
    "type",
    "metadata",
    "importance",
    "confidence",
    "created_at",
    "updated_at",
    "expires_at",
    "status",
    "pinned",
    "version",
    "redacted",
]


#: Stands for the sending device's id in generated lines; each example gets a fresh device.
DEVICE = "0" * 26


@st.composite
def hostile_event_line(draw: st.DrawFn, counter: int) -> str:
    """A line of a segment: a well-formed event with fields broken, or anything at all."""
    kind = draw(st.sampled_from(["event", "payload", "op", "anything", "special"]))
    document = add_event(DEVICE, counter, "I ride my bike to the lake")
    if kind == "event":
        for name in draw(st.lists(st.sampled_from(EVENT_FIELDS), min_size=1, max_size=2)):
            document[name] = draw(json_values)
    elif kind == "payload":
        for name in draw(st.lists(st.sampled_from(PAYLOAD_FIELDS), min_size=1, max_size=3)):
            document["payload"][name] = draw(json_values)
    elif kind == "op":
        document["op"] = draw(st.sampled_from(["update", "forget", "profile", "merge"]))
        if draw(st.booleans()):
            document["payload"] = draw(
                st.dictionaries(st.sampled_from(PAYLOAD_FIELDS), json_values)
            )
    elif kind == "anything":
        return json.dumps(draw(json_values), ensure_ascii=False)
    else:
        return draw(st.sampled_from([deeply_nested(), "{", "\x00", "9" * 5_000]))
    return json.dumps(document, ensure_ascii=False)


segment_lines = st.integers(1, 3).flatmap(
    lambda count: st.tuples(*(hostile_event_line(counter) for counter in range(count)))
)


def new_device(root: Path) -> tuple[str, Path]:
    device = str(ULID())
    directory = root / device
    directory.mkdir()
    return device, directory


def import_and_check(memory: Memory, root: Path, directory: Path) -> sync.ImportReport:
    """Import; a file that was not applied changed nothing. The device is removed afterwards
    (a rejected file would otherwise be retried by every later import)."""
    before = fingerprint(memory)
    try:
        report = sync.import_new(memory, root)
    finally:
        after = fingerprint(memory)
        shutil.rmtree(directory)
    event(f"{report.segments} applied, {len(report.skipped)} skipped")
    if report.segments == 0:
        assert after == before, report.skipped
        assert any(str(directory) in path for path, _ in report.skipped)
    return report


# --- segments -----------------------------------------------------------------------------------


@budget(80)
@given(
    damage=st.sampled_from(["random", "truncate", "flip", "misplaced", "renumbered", "prefix"]),
    data=st.data(),
)
def test_a_damaged_or_misplaced_segment_is_skipped_and_changes_nothing(
    joined: tuple[Memory, Path], damage: str, data: st.DataObject
):
    memory, root = joined
    key = sync.sync_key(memory)
    device, directory = new_device(root)
    sealed_for = str(ULID()) if damage == "misplaced" else device  # another device's segment
    event_ = Event.from_dict(add_event(sealed_for, 0, "I swim on Fridays"))
    blob = codec.seal(key, sealed_for, 1, [event_])
    number = 1
    if damage == "random":
        blob = data.draw(st.binary(max_size=300))
    elif damage == "truncate":
        # (positions are drawn independently of the length, which varies with the ids)
        blob = blob[: data.draw(st.integers(0, 10**6)) % len(blob)]
    elif damage == "flip":
        at = data.draw(st.integers(0, 10**6)) % len(blob)
        blob = blob[:at] + bytes([blob[at] ^ data.draw(st.integers(1, 255))]) + blob[at + 1 :]
    elif damage == "renumbered":
        number = data.draw(st.integers(2, 99_999_999))
    elif damage == "prefix":  # a valid segment with bytes before it
        blob = data.draw(st.binary(min_size=1, max_size=20)) + blob
    (directory / codec.segment_name(number)).write_bytes(blob)

    report = import_and_check(memory, root, directory)

    assert report.segments == 0


@budget(100)
@given(lines=segment_lines)
@example(lines=(deeply_nested(),))  # was a RecursionError out of import_new
@example(lines=(json.dumps(add_event(DEVICE, 0, "")),))  # an empty memory was applied
@example(lines=(json.dumps({**add_event(DEVICE, 0, "x"), "hlc": "9" * 30 + "." + DEVICE}),))
def test_a_sealed_segment_of_hostile_events_is_applied_whole_or_not_at_all(
    joined: tuple[Memory, Path], lines: tuple[str, ...]
):
    """The key is right (a device with the passphrase), the content is not."""
    memory, root = joined
    device, directory = new_device(root)
    plain = "".join(line.replace(DEVICE, device) + "\n" for line in lines)
    sealed = codec.seal_plain(
        sync.sync_key(memory), codec.segment_aad(device, 1), plain.encode("utf-8", "surrogatepass")
    )
    (directory / "00000001.seg").write_bytes(sealed)

    import_and_check(memory, root, directory)

    still_usable(memory)


@budget(60)
@given(
    contents=st.lists(
        st.one_of(hostile_text, st.sampled_from(["tea\u2028time", "a\x85b", "x\x1cy", "\r"])),
        min_size=1,
        max_size=3,
    )
)
@example(contents=["first line\u2028second line"])  # str.splitlines split the event: rejected
def test_any_valid_memory_survives_the_trip_through_a_segment(
    joined: tuple[Memory, Path], contents: list[str]
):
    """What one device may store, another receives: any text that passes validation."""
    memory, _ = joined
    key = sync.sync_key(memory)
    device = str(ULID())
    valid = [text.strip() for text in contents if _storable(memory, text)]
    events = [Event.from_dict(add_event(device, n, text)) for n, text in enumerate(valid)]

    assert codec.unseal(key, device, 7, codec.seal(key, device, 7, events)) == events


def _storable(memory: Memory, text: str) -> bool:
    try:
        memory.validate(NewMemory(text))
    except InvalidInput:
        return False
    return True


@budget(300)
@given(document=json_values)
def test_event_parsing_answers_an_event_or_a_value_error(document: Any):
    for candidate in (document, {**add_event(str(ULID()), 0, "x"), "payload": document}):
        try:
            Event.from_dict(candidate)
        except ValueError as error:
            assert str(error)


@budget(30)
@given(names=st.lists(hostile_text, min_size=1, max_size=3))
def test_foreign_files_in_the_folder_are_skipped(joined: tuple[Memory, Path], names: list[str]):
    memory, root = joined
    _, directory = new_device(root)
    strays = []
    for name in names:
        safe = "".join(c for c in name if c not in "/\x00" and not 0xD800 <= ord(c) <= 0xDFFF)
        if not safe or safe in (".", "..") or len(safe.encode()) > 200:
            continue
        for target in (directory / safe, root / f"stray {safe}"):
            if not target.exists():
                target.write_bytes(b"not a segment")
                strays.append(target)
    before = fingerprint(memory)
    try:
        report = sync.import_new(memory, root)
    finally:
        shutil.rmtree(directory)
        for stray in strays:
            stray.unlink(missing_ok=True)

    assert report.segments == 0
    assert fingerprint(memory) == before


# --- the header ---------------------------------------------------------------------------------

HEADER_KDF = ["memory_cost_kib", "iterations", "lanes", "name"]
HEADER_KEY = ["format", "version", "salt", "cipher", "nonce", "wrapped_key", "kdf"]
CHEAP = {"memory_cost_kib": 8, "iterations": 1, "lanes": 1}


@pytest.fixture(scope="module")
def header_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Memory, Path]]:
    """A store (not the one above: a successful join changes its sync key) and a folder."""
    base = tmp_path_factory.mktemp("fuzz-header")
    with Memory.open(base / "memory.db", PASSPHRASE, kdf=FAST_KDF) as memory:
        root = sync.init_folder(memory, base / "folder", PASSPHRASE, FAST_KDF)
        yield memory, root


def costly(document: Any) -> bool:
    """Whether joining would derive a key at a real cost (the fuzzer only asks for cheap
    derivations, or for ones the header check must refuse before deriving anything)."""
    try:
        kdf = document["key"]["kdf"]
        memory_kib, iterations = int(kdf["memory_cost_kib"]), int(kdf["iterations"])
    except Exception:
        return False
    return memory_kib * iterations > 4_096 and memory_kib <= MAX_KDF_MEMORY_KIB


HEADER_PATHS = [
    ("format",),
    ("version",),
    ("key",),
    *(("key", name) for name in HEADER_KEY),
    *(("key", "kdf", name) for name in HEADER_KDF),
]
edits = st.lists(
    st.tuples(st.sampled_from(HEADER_PATHS), st.one_of(json_values, st.integers(-10, 2**64))),
    max_size=3,
)
TIB_OF_MEMORY = [(("key", "kdf", "memory_cost_kib"), 2**30)]  # in KiB


@budget(80)
@given(changes=edits, replacement=st.none() | json_values | hostile_text)
@example(changes=TIB_OF_MEMORY, replacement=None)  # 1 TiB of Argon2 memory: refused, not tried
@example(changes=[(("key", "kdf", "lanes"), 0)], replacement=None)  # was cryptography's ValueError
@example(changes=[], replacement=deeply_nested())  # was a RecursionError
def test_a_hostile_header_is_a_clear_sync_error(
    header_folder: tuple[Memory, Path],
    changes: list[tuple[tuple[str, ...], Any]],
    replacement: Any,
):
    memory, root = header_folder
    path = folder_transport.header_path(root)
    original = path.read_bytes()
    document = edited(json.loads(original), changes)
    if costly(document):
        document["key"]["kdf"].update(CHEAP)
    if replacement is None:
        text = json.dumps(document, ensure_ascii=False)
    else:
        text = replacement if isinstance(replacement, str) else json.dumps(replacement)
    before = fingerprint(memory)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        sync.join_folder(memory, root, PASSPHRASE)
    except sync.SyncError as error:
        event("refused")
        assert str(error) and "\n" not in str(error)
        assert fingerprint(memory) == before
    else:
        event("joined")
        assert changes != TIB_OF_MEMORY, "a header asking for 1 TiB of memory was accepted"
    finally:
        path.write_bytes(original)
