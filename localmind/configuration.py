"""The configuration: ``localmind.toml`` in the user config directory, environment variables and
command-line flags, layered here and nowhere else.

Precedence, lowest first: the defaults < ``localmind.toml`` < environment variables < flags.
The numbers of :mod:`localmind.config` (``[governance]``, ``[fusion]``, ``[lifecycle]``, …) sit
on the defaults calibrated for the store's embedder, and a store's own settings
(``localmind config capacity N``, kept in the store: :mod:`localmind.preferences`) sit on the
file's, since they were set for that store.

Every environment variable localmind reads is named in this module (``ENVIRONMENT``,
``PASSPHRASE_ENV``, ``NEW_PASSPHRASE_ENV``, ``CONFIG_ENV``, ``OLLAMA_HOST``), except the test
suite's ``LOCALMIND_UNSAFE_TEST_KDF`` (:mod:`localmind.keys`), which is deliberately not a setting,
and the variables of the libraries the embedders drive (fastembed's cache and offline switch,
OpenMP's threads), which are theirs.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any

import platformdirs

from localmind.config import Settings
from localmind.errors import InvalidInput
from localmind.files import write_atomically
from localmind.llm.registry import BACKENDS, LLMConfig, check_backend
from localmind.paths import APP_NAME, default_db_path

FILE_NAME = "localmind.toml"
CONFIG_ENV = "LOCALMIND_CONFIG"  # another file than the user config directory's
PASSPHRASE_ENV = "LOCALMIND_PASSPHRASE"
NEW_PASSPHRASE_ENV = "LOCALMIND_NEW_PASSPHRASE"  # `localmind passwd` in scripts
# Ollama's own variable, as its command line reads it: the Ollama backend's address when nothing
# of ours names one.
OLLAMA_HOST = "OLLAMA_HOST"
_TRUE = ("1", "true", "t", "yes", "y", "on")
_FALSE = ("0", "false", "f", "no", "n", "off")
_NONE = ("none", "unlimited", "never")  # what an optional number is called when it is not one


@dataclass(frozen=True, slots=True)
class Key:
    """One setting: its dotted name (a TOML table and key: ``llm.model``), how a value is read
    (from TOML, or from text: an environment variable, a flag, ``config set``) and what it is."""

    name: str
    read: Callable[[Any], Any]
    help: str
    secret: bool = False  # never shown by `config show`


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a non-empty text")
    return value.strip()


def _backend(value: Any) -> str:
    return check_backend(_text(value))


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError("true or false (also 1/0, yes/no, on/off)")


def _number(kind: str) -> Callable[[Any], Any]:
    """A reader of the numbers of :class:`Settings`' fields, by their annotation."""
    optional = kind.endswith("| None")
    whole = kind.startswith("int")

    def read(value: Any) -> Any:
        if optional and isinstance(value, str) and value.strip().lower() in _NONE:
            return None
        try:
            if isinstance(value, bool):
                raise ValueError
            number = (
                (int(value) if isinstance(value, int) else int(str(value).strip()))
                if (whole)
                else float(value)
            )
        except (TypeError, ValueError):
            number = None
        if number is None or not math.isfinite(number) or (whole and number < 1):
            wanted = "a whole number of at least 1" if whole else "a number"
            raise ValueError(wanted + (" or 'none'" if optional else "")) from None
        return number

    return read


def _positive(value: Any) -> float:
    number = _number("float")(value)
    if number <= 0:
        raise ValueError("a number of seconds above 0")
    return float(number)


_PLAIN = (
    Key("store", _text, "the store file (default: the user data directory's memory.db)"),
    Key("user", _text, "whose memories: a namespace in the store (default me)"),
    Key("embedder", _text, "use, e5-small, fastembed:<model or directory> (default: the store's)"),
    Key("llm.enabled", _flag, "ask a language model at all (default true)"),
    Key("llm.backend", _backend, f"the model's server: {', '.join(BACKENDS)} (default ollama)"),
    Key("llm.model", _text, "the model (default: qwen2.5:3b on Ollama, else the one served)"),
    Key("llm.base_url", _text, "the server's address (default: the backend's usual one)"),
    Key("llm.api_key", _text, "a key, for servers that want one", secret=True),
    Key("llm.timeout_s", _positive, "seconds to wait for an answer (default 60)"),
    Key("llm.max_reply_tokens", _number("int"), "most tokens in a chat reply (default 1024)"),
    Key("llm.max_verdict_tokens", _number("int"), "most tokens in a verdict (default 512)"),
)
#: The sections of Settings a file may tune, each a dataclass of numbers.
TUNABLE = ("governance", "lifecycle", "fusion", "ranking", "decay", "profile", "limits")


def _tunable_keys() -> Iterator[Key]:
    for section in TUNABLE:
        defaults = getattr(Settings(), section)
        assert is_dataclass(defaults)
        for item in fields(defaults):
            shown = getattr(defaults, item.name)
            yield Key(
                f"{section}.{item.name}",
                _number(str(item.type)),
                f"default {'none' if shown is None else shown} (docs/design.md)",
            )


KEYS: dict[str, Key] = {key.name: key for key in (*_PLAIN, *_tunable_keys())}

#: environment variable -> the key it sets (LOCALMIND_NO_LLM sets llm.enabled to its opposite)
ENVIRONMENT = {
    "LOCALMIND_DB": "store",
    "LOCALMIND_USER": "user",
    "LOCALMIND_EMBEDDER": "embedder",
    "LOCALMIND_LLM": "llm.backend",
    "LOCALMIND_MODEL": "llm.model",
    "LOCALMIND_LLM_URL": "llm.base_url",
    "LOCALMIND_LLM_API_KEY": "llm.api_key",
    "LOCALMIND_NO_LLM": "llm.enabled",
}
_NEGATED = {"LOCALMIND_NO_LLM"}


@dataclass(frozen=True, slots=True)
class Configuration:
    """What the front ends open and ask, once every layer is applied."""

    store: Path = field(default_factory=default_db_path)
    user: str = "me"
    embedder: str | None = None
    llm_enabled: bool = True
    llm: LLMConfig = field(default_factory=LLMConfig)
    # section -> {field: value}: the numbers of Settings the file changes
    tuning: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    values: Mapping[str, Any] = field(default_factory=dict)  # key -> value, of every layer
    sources: Mapping[str, str] = field(default_factory=dict)  # key -> where its value came from
    file: Path | None = None

    def settings(self, defaults: Settings) -> Settings:
        """``defaults`` (calibrated for the store's embedder) with the file's numbers."""
        changed = {
            section: replace(getattr(defaults, section), **numbers)
            for section, numbers in self.tuning.items()
        }
        return replace(defaults, **changed) if changed else defaults


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where ``localmind.toml`` is: ``LOCALMIND_CONFIG``, else the user config directory
    (``~/.config/localmind/localmind.toml`` on Linux)."""
    environ = os.environ if environ is None else environ
    chosen = environ.get(CONFIG_ENV, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / FILE_NAME


def passphrase(environ: Mapping[str, str] | None = None, *, new: bool = False) -> str | None:
    """The passphrase a script gave (``LOCALMIND_PASSPHRASE``; the new one for ``passwd``)."""
    environ = os.environ if environ is None else environ
    return environ.get(NEW_PASSPHRASE_ENV if new else PASSPHRASE_ENV)


def load(
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    file: Path | None = None,
) -> Configuration:
    """The configuration: the file's values, then the environment's, then ``flags`` ({key:
    value}; None means "not given"). A bad value anywhere is :class:`InvalidInput` naming where
    it was; an unknown key in the file too (a typo would otherwise be ignored in silence)."""
    environ = os.environ if environ is None else environ
    path = file or config_path(environ)
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name, value in read_file(path).items():
        values[name], sources[name] = value, f"file {path}"
    for variable, name in ENVIRONMENT.items():
        text = environ.get(variable, "")
        if text.strip():
            value = _checked(KEYS[name], text, f"The environment variable {variable}")
            values[name] = not value if variable in _NEGATED else value
            sources[name] = f"environment {variable}"
    if values.get("llm.backend", "ollama") == "ollama" and "llm.base_url" not in values:
        host = environ.get(OLLAMA_HOST, "").strip()
        if host:
            values["llm.base_url"], sources["llm.base_url"] = host, f"environment {OLLAMA_HOST}"
    for name, value in (flags or {}).items():
        if value is not None:
            values[name] = _checked(KEYS[name], value, f"The option for {name}")
            sources[name] = "command line"
    return _build(values, sources, path)


def _build(values: dict[str, Any], sources: dict[str, str], path: Path) -> Configuration:
    tuning: dict[str, dict[str, Any]] = {}
    for name, value in values.items():
        section, _, item = name.partition(".")
        if section in TUNABLE:
            tuning.setdefault(section, {})[item] = value
    llm = LLMConfig(
        backend=values.get("llm.backend", "ollama"),
        model=values.get("llm.model"),
        base_url=values.get("llm.base_url"),
        api_key=values.get("llm.api_key"),
        timeout_s=values.get("llm.timeout_s", LLMConfig().timeout_s),
        max_reply_tokens=values.get("llm.max_reply_tokens", LLMConfig().max_reply_tokens),
        max_verdict_tokens=values.get("llm.max_verdict_tokens", LLMConfig().max_verdict_tokens),
    )
    store = values.get("store")
    return Configuration(
        store=Path(store).expanduser() if store else default_db_path(),
        user=values.get("user", "me"),
        embedder=values.get("embedder"),
        llm_enabled=values.get("llm.enabled", True),
        llm=llm,
        tuning=tuning,
        values=values,
        sources=sources,
        file=path,
    )


def _checked(key: Key, value: Any, where: str) -> Any:
    try:
        return key.read(value)
    except InvalidInput as error:
        raise InvalidInput(f"{where}: {error}") from None
    except ValueError as error:
        raise InvalidInput(f"{where}: {key.name} must be {error}, not {value!r}.") from None


def find(name: str) -> Key:
    key = KEYS.get(name.strip().lower())
    if key is None:
        raise InvalidInput(
            f"Unknown setting {name!r}; `localmind config show` lists them (e.g. "
            "llm.backend, llm.model, governance.capacity)."
        )
    return key


def read_file(path: Path) -> dict[str, Any]:
    """The file's settings as {dotted key: value}; {} when there is no file."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInput(f"Cannot read the configuration file {path}: {error}.") from None
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"The configuration file {path} is not valid TOML: {error}.") from None
    found: dict[str, Any] = {}
    for name, value in _flatten(document):
        if name not in KEYS:
            raise InvalidInput(
                f"The configuration file {path} has an unknown setting {name!r}; "
                "`localmind config show` lists them."
            )
        found[name] = _checked(KEYS[name], value, f"The configuration file {path}")
    return found


def _flatten(document: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for name, value in document.items():
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", value


def set_value(path: Path, name: str, text: str | None) -> Any:
    """Write ``name = text`` into the file at ``path`` (``text`` None: remove the key), keeping
    the rest of the file, its comments included, as it was. The value is checked first and the
    file replaced atomically, so a bad value or a failed write leaves the file as it was.
    Returns the value as stored."""
    import tomlkit

    key = find(name)
    value = None if text is None else _checked(key, text, "The value")
    read_file(path)  # a file that does not load now is not edited blindly
    try:
        document = tomlkit.parse(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        document = tomlkit.document()
    *tables, item = key.name.split(".")
    container: Any = document
    for table in tables:
        if table not in container:
            if text is None:
                return None
            container[table] = tomlkit.table()
        container = container[table]
    if text is None:
        container.pop(item, None)
    else:
        container[item] = "none" if value is None else value  # TOML has no null
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, tomlkit.dumps(document).encode())
    return value


def shown(configuration: Configuration) -> list[tuple[str, str, str]]:
    """Every setting as (key, value, where it came from), secrets masked: `config show`."""
    rows = []
    for name, key in KEYS.items():
        if name in configuration.values:
            value = configuration.values[name]
            text = "****" if key.secret else ("none" if value is None else str(value))
            rows.append((name, text, configuration.sources[name]))
        else:
            rows.append((name, _default(name), "default"))
    return rows


def _default(name: str) -> str:
    section, _, item = name.partition(".")
    if section in TUNABLE:
        value = getattr(getattr(Settings(), section), item)
        return "none" if value is None else str(value)
    defaults = Configuration()
    return {
        "store": str(defaults.store),
        "user": defaults.user,
        "llm.enabled": "True",
        "llm.backend": defaults.llm.backend,
        "llm.timeout_s": str(defaults.llm.timeout_s),
        "llm.max_reply_tokens": str(defaults.llm.max_reply_tokens),
        "llm.max_verdict_tokens": str(defaults.llm.max_verdict_tokens),
    }.get(name, "(the backend's)" if name.startswith("llm.") else "(the store's)")
