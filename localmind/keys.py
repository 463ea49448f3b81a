"""Passphrase → key-encryption key → the store's data key.

The database is encrypted with a random 256-bit data key. That key is kept in a small key file
next to the database, wrapped (AES-256-GCM) by a key derived from the passphrase with Argon2id.
Changing the passphrase re-wraps 32 bytes instead of re-encrypting the database, and a wrong
passphrase is detected by the authentication tag before the database is touched.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from localmind.errors import InvalidInput, NotAStore, WeakKeyDerivation, WrongPassphrase
from localmind.files import write_atomically
from localmind.store.connection import CHACHA20_LEGACY, CIPHERS, Cipher

KEY_FILE_FORMAT = "localmind-key"
KEY_FILE_VERSION = 1
_WRAP_AAD = b"localmind data key v1"


@dataclass(frozen=True, slots=True)
class KdfParams:
    """Argon2id cost. The defaults (64 MiB, 3 passes) take about 0.2 s on a 2-core laptop."""

    memory_cost_kib: int = 65_536
    iterations: int = 3
    lanes: int = 4

    def at_least(self, other: KdfParams) -> KdfParams:
        """Each cost the higher of the two."""
        return KdfParams(
            max(self.memory_cost_kib, other.memory_cost_kib),
            max(self.iterations, other.iterations),
            max(self.lanes, other.lanes),
        )

    def below(self, floor: KdfParams) -> bool:
        return self.memory_cost_kib < floor.memory_cost_kib or self.iterations < floor.iterations

    def describe(self) -> str:
        kib = self.memory_cost_kib
        memory = f"{kib // 1024} MiB" if kib >= 1024 else f"{kib} KiB"
        passes = f"{self.iterations} pass" + ("es" if self.iterations != 1 else "")
        return f"Argon2id with {memory}, {passes}"


#: This build's Argon2id cost: every wrap (a new store, ``passwd``, ``sync rekey``) uses at
#: least this, whatever cost the file it replaces asked for.
DEFAULT_KDF = KdfParams()
#: The test suite opens thousands of stores; with this variable set to 1 the floor below drops
#: to Argon2id's cheapest. Whoever can set this process's environment can read the passphrase
#: from it too (LOCALMIND_PASSPHRASE), so it opens no door a file could open.
UNSAFE_TEST_KDF_ENV = "LOCALMIND_UNSAFE_TEST_KDF"
_CHEAPEST_KDF = KdfParams(memory_cost_kib=8, iterations=1, lanes=1)


def kdf_floor() -> KdfParams:
    """The least Argon2id cost a key file or a sync header may ask for before it is refused:
    this build's defaults. A key derivation cheaper than that was not made by this build, so
    someone lowered it (the sync folder's header can be written by anyone who can write the
    folder) to make guessing the passphrase cheap."""
    if os.environ.get(UNSAFE_TEST_KDF_ENV) == "1":
        return _CHEAPEST_KDF
    return DEFAULT_KDF


def key_file_for(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".key")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"), validate=True)


def _derive(passphrase: str, salt: bytes, params: KdfParams) -> bytes:
    return Argon2id(
        salt=salt,
        length=32,
        iterations=params.iterations,
        lanes=params.lanes,
        memory_cost=params.memory_cost_kib,
    ).derive(passphrase.encode("utf-8"))


# What a key file (or a sync folder's header, which anyone with write access to the folder can
# replace) may ask of Argon2id. A tampered file must get an error, not make the opening
# allocate a terabyte or run for hours; the bounds sit far above any sensible setting.
MAX_KDF_MEMORY_KIB = 4 * 1024 * 1024  # 4 GiB
MAX_KDF_ITERATIONS = 64
MAX_KDF_LANES = 64


def _kdf_params(kdf: dict[str, Any]) -> KdfParams:
    values = {}
    for name, low, high in (
        ("memory_cost_kib", 8, MAX_KDF_MEMORY_KIB),
        ("iterations", 1, MAX_KDF_ITERATIONS),
        ("lanes", 1, MAX_KDF_LANES),
    ):
        value = kdf[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"kdf {name} must be a whole number from {low} to {high}")
        values[name] = value
    if values["memory_cost_kib"] < 8 * values["lanes"]:
        raise ValueError("kdf memory_cost_kib must be at least 8 per lane")
    return KdfParams(**values)


def _sized(document: dict[str, Any], name: str, shortest: int, longest: int) -> bytes:
    data = _unb64(document[name])
    if not shortest <= len(data) <= longest:
        raise ValueError(f"{name} has {len(data)} bytes")
    return data


def _seen(document: Any) -> Seen | None:
    if document is None:
        return None
    events = document["events"]
    if isinstance(events, bool) or not isinstance(events, int) or not 0 <= events < 2**63:
        raise ValueError("seen events must be a whole number")
    return Seen(events, _sized(document, "mac", 32, 32))


def check_passphrase(passphrase: str) -> None:
    if not passphrase or not passphrase.strip():
        raise InvalidInput("The passphrase must not be empty.")


#: The fewest characters a passphrase chosen now may have (a new store, ``passwd``). Only the
#: KDF stands between a stolen key file and the memories: "a" falls at once, whatever it
#: costs. Stores made before keep opening with theirs.
MIN_NEW_PASSPHRASE = 8


def check_new_passphrase(passphrase: str) -> None:
    """Refuse a passphrase being chosen (for a new store or by ``passwd``) that is empty or
    shorter than :data:`MIN_NEW_PASSPHRASE` characters; nothing is created or changed."""
    check_passphrase(passphrase)
    if len(passphrase.strip()) < MIN_NEW_PASSPHRASE:
        raise InvalidInput(
            f"The passphrase is too short: choose one of at least {MIN_NEW_PASSPHRASE} "
            "characters (a few words are easy to remember and hard to guess). Nothing was "
            "created or changed."
        )


def check_kdf(kdf: KdfParams, source: object) -> None:
    """Refuse a key derivation below :func:`kdf_floor`, before any passphrase goes into it."""
    floor = kdf_floor()
    if kdf.below(floor):
        raise WeakKeyDerivation(
            f"{source} asks for a weaker key derivation ({kdf.describe()}) than this version "
            f"of localmind accepts ({floor.describe()}): it was not made by localmind as it "
            "is, and may have been lowered on purpose to make your passphrase cheap to guess. "
            "It was not used and nothing was changed."
        )


_SEEN_INFO = b"localmind seen-changes counter v1"


def seen_mac_key(data_key: bytes) -> bytes:
    """The key that authenticates a key file's record of the newest change seen (derived from
    the data key, so only someone who can open the store can write a valid record)."""
    return HKDF(hashes.SHA256(), 32, salt=None, info=_SEEN_INFO).derive(data_key)


def _seen_mac(mac_key: bytes, events: int) -> bytes:
    signer = hmac.HMAC(mac_key, hashes.SHA256())
    signer.update(b"%d" % events)
    return signer.finalize()


@dataclass(frozen=True, slots=True)
class Seen:
    """The highest change number (the events log's ``seq``) this laptop has seen the store at,
    with its HMAC under :func:`seen_mac_key`: a store older than this is an old copy."""

    events: int
    mac: bytes

    @classmethod
    def make(cls, mac_key: bytes, events: int) -> Seen:
        return cls(events, _seen_mac(mac_key, events))

    def verified(self, mac_key: bytes, source: object) -> int:
        try:
            hmac_check = hmac.HMAC(mac_key, hashes.SHA256())
            hmac_check.update(b"%d" % self.events)
            hmac_check.verify(self.mac)
        except InvalidSignature:
            raise NotAStore(
                f"{source} has been edited: its record of the newest change does not match "
                "its key. Nothing was changed."
            ) from None
        return self.events


@dataclass(frozen=True, slots=True)
class KeyFile:
    salt: bytes
    kdf: KdfParams
    nonce: bytes
    wrapped_key: bytes
    # How the database's pages are encrypted (a name in CIPHERS); None for a key
    # that wraps something else (the sync key) and for stores older than the field (chacha20).
    database_cipher: str | None = None
    seen: Seen | None = None  # the newest change this laptop saw (None: none recorded yet)

    @property
    def cipher(self) -> Cipher:
        """The cipher the database was made with (key files without one: ChaCha20)."""
        return CIPHERS[self.database_cipher or CHACHA20_LEGACY.name]

    @classmethod
    def create(
        cls, passphrase: str, kdf: KdfParams | None = None, database_cipher: str | None = None
    ) -> tuple[KeyFile, bytes]:
        """A new random data key, wrapped by ``passphrase``. Returns (key file, data key)."""
        check_passphrase(passphrase)
        data_key = secrets.token_bytes(32)
        key_file = cls.wrap(data_key, passphrase, kdf or DEFAULT_KDF, database_cipher)
        return key_file, data_key

    @classmethod
    def wrap(
        cls,
        data_key: bytes,
        passphrase: str,
        kdf: KdfParams,
        database_cipher: str | None = None,
    ) -> KeyFile:
        check_kdf(kdf, "The key derivation asked for")  # never write what would be refused
        salt = secrets.token_bytes(16)
        nonce = secrets.token_bytes(12)
        kek = _derive(passphrase, salt, kdf)
        wrapped = AESGCM(kek).encrypt(nonce, data_key, _WRAP_AAD)
        return cls(salt, kdf, nonce, wrapped, database_cipher)

    def unwrap(self, passphrase: str, source: object = "This key file") -> bytes:
        check_kdf(self.kdf, source)
        kek = _derive(passphrase, self.salt, self.kdf)
        try:
            return AESGCM(kek).decrypt(self.nonce, self.wrapped_key, _WRAP_AAD)
        except InvalidTag:
            raise WrongPassphrase("Wrong passphrase: it does not unlock this store.") from None

    def rewrap(self, old_passphrase: str, new_passphrase: str) -> KeyFile:
        """The same data key under ``new_passphrase``, with this build's key derivation (or the
        file's, if stronger): a cost read from a file is never carried over below the defaults."""
        check_passphrase(new_passphrase)
        data_key = self.unwrap(old_passphrase)
        rewrapped = KeyFile.wrap(
            data_key, new_passphrase, self.kdf.at_least(DEFAULT_KDF), self.database_cipher
        )
        return replace(rewrapped, seen=self.seen)

    def with_seen(self, mac_key: bytes, events: int) -> KeyFile:
        return replace(self, seen=Seen.make(mac_key, events))

    def seen_events(self, mac_key: bytes, source: object) -> int:
        """The newest change recorded as seen (0 when none is), checked against its HMAC."""
        return self.seen.verified(mac_key, source) if self.seen else 0

    def to_json(self) -> str:
        document: dict[str, Any] = {
            "format": KEY_FILE_FORMAT,
            "version": KEY_FILE_VERSION,
            "kdf": {"name": "argon2id", **asdict(self.kdf)},
            "salt": _b64(self.salt),
            "cipher": "aes-256-gcm",
            "nonce": _b64(self.nonce),
            "wrapped_key": _b64(self.wrapped_key),
        }
        if self.database_cipher is not None:
            document["database_cipher"] = self.database_cipher
        if self.seen is not None:
            document["seen"] = {"events": self.seen.events, "mac": _b64(self.seen.mac)}
        return json.dumps(document, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str, source: Path) -> KeyFile:
        try:
            document = json.loads(text)
            if document.get("format") != KEY_FILE_FORMAT:
                raise ValueError("not a localmind key file")
            if document.get("version") != KEY_FILE_VERSION:
                raise ValueError(f"unsupported key file version {document.get('version')!r}")
            kdf = document["kdf"]
            if kdf.get("name") != "argon2id":
                raise ValueError(f"unsupported key derivation {kdf.get('name')!r}")
            database_cipher = document.get("database_cipher")
            if database_cipher is not None and database_cipher not in CIPHERS:
                raise ValueError(f"unsupported database cipher {database_cipher!r}")
            return cls(
                salt=_sized(document, "salt", 8, 64),
                kdf=_kdf_params(kdf),
                nonce=_sized(document, "nonce", 12, 12),
                wrapped_key=_sized(document, "wrapped_key", 48, 48),  # 32-byte key + 16-byte tag
                database_cipher=database_cipher,
                seen=_seen(document.get("seen")),
            )
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
            why = str(error)[:200] or type(error).__name__
            raise NotAStore(f"{source} is not a valid localmind key file ({why}).") from None

    @classmethod
    def load(cls, path: Path) -> KeyFile:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise NotAStore(f"{path} is not a valid localmind key file.") from None
        return cls.from_json(text, path)

    def save(self, path: Path) -> None:
        """Write atomically: a crash leaves either the old key file or the new one, never half."""
        write_atomically(path, self.to_json().encode("utf-8"))
