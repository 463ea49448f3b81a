"""A user who writes Traditional Chinese (review15a TW1, TW3, TW4: 林美玲 in Taichung): her
changes are queued, her periods read (上個月, 民國114年), and her memories found by a question in
either script, as a Simplified writer's are. Real encrypted store, sqlite-vec, FTS5 and the
bundled model; the clock stands at Wednesday 2 December 2026 (Asia/Taipei is UTC+8: noon UTC
is the same day there)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory, NewMemory
from localmind.lifecycle import Decision
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock

pytestmark = pytest.mark.slow  # the model

NOW = "2026-12-02T09:00"


def _at(moment: str) -> float:
    return dt.datetime.fromisoformat(moment).replace(tzinfo=dt.UTC).timestamp()


@pytest.fixture
def told(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> Callable[[dict[str, str]], Memory]:
    """A store holding each text as told at its moment (UTC), judged as ``import`` judges."""

    def tell(texts: dict[str, str]) -> Memory:
        clock.now = _at(NOW)
        memory = open_memory(llm=None)
        memory.remember_many([NewMemory(text, created_at=_at(at)) for text, at in texts.items()])
        return memory

    return tell


def test_a_dose_changed_now_in_traditional_is_queued_against_the_old_dose(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    # TW1: "脈優現在每天早上吃10毫克" was stored beside the 5 mg dose, no conflict asked
    clock.now = _at(NOW)
    memory = open_memory(llm=None)
    dose = memory.remember(
        "我先生陳志明的血壓藥是脈優，每天早上吃5毫克。",
        "semantic",
        created_at=_at("2025-12-06T04:00"),
    )
    changed = memory.remember_explained(
        "志明的血壓藥脈優現在每天早上吃10毫克。", "semantic", created_at=_at("2026-03-20T04:00")
    )
    assert changed.decision is Decision.QUEUED, changed
    assert changed.related is not None and changed.related.id == dose.id
    # stored as she wrote it
    assert memory.get(changed.record.id).content == "志明的血壓藥脈優現在每天早上吃10毫克。"


YEAR = {
    "合唱團在中山堂辦聖誕音樂會，我唱女中音，小宇來看。": "2025-12-14T06:00",
    "平安夜全家在怡君家吃火鍋，小宇拿到樂高。": "2025-12-24T12:00",
    "每個月初一、十五我吃素。": "2026-01-05T02:00",
    "志明每三個月要回診拿慢性處方箋。": "2025-12-20T02:00",
    "怡君帶小宇去日月潭玩了兩天。": "2026-10-10T02:00",
    "志明在公園散步的時候跌倒，膝蓋擦傷。": "2026-11-08T02:00",
    "家豪帶女朋友回來吃飯，是新竹人。": "2026-11-21T10:00",
}
NOVEMBER = {"志明在公園散步的時候跌倒，膝蓋擦傷。", "家豪帶女朋友回來吃飯，是新竹人。"}


@pytest.mark.parametrize("question", ["上個月發生了什麼事？", "上个月发生了什么事？"])
def test_last_month_asked_in_traditional_is_november(
    told: Callable[[dict[str, str]], Memory], question: str
) -> None:
    # TW3: 上個月 was no period (only 上个月 was): December and January memories came first
    memory = told(YEAR)
    results = memory.recall(question, 4)
    first_two = {r.memory.content for r in results[:2]}
    assert first_two == NOVEMBER, [r.memory.content for r in results]
    assert all(r.breakdown.in_period for r in results[:2])


def test_a_republic_of_china_year_names_its_gregorian_year(
    told: Callable[[dict[str, str]], Memory],
) -> None:
    # TW4: 民國114年 is 2025; 民國 alone matched 我的生日是民國56年7月9日
    memory = told({**YEAR, "我的生日是民國56年7月9日。": "2026-02-01T02:00"})
    results = memory.recall("民國114年12月發生什麼事？", 4)
    december = {t for t, at in YEAR.items() if at.startswith("2025-12")}
    assert results and results[0].memory.content in december, [r.memory.content for r in results]
    assert all(r.breakdown.in_period for r in results if r.memory.content in december)
    assert any(r.breakdown.in_period for r in results)


@pytest.mark.parametrize(
    ("stored", "question", "same_script"),
    [
        (
            "李醫師把志明的脈優停了，改成得安穩160毫克每天一顆。",
            "李医师给志明换了什么药？",
            "李醫師給志明換了什麼藥？",
        ),
        (
            "李医师把志明的脉优停了，改成得安稳160毫克每天一颗。",
            "李醫師給志明換了什麼藥？",
            "李医师给志明换了什么药？",
        ),
    ],
)
def test_a_question_in_one_script_finds_a_memory_in_the_other_by_its_words(
    open_memory: Callable[..., Memory], stored: str, question: str, same_script: str
) -> None:
    # a Traditional memory and a Simplified question shared no bigram but 志明
    memory = open_memory(llm=None)
    memory.remember(stored, "semantic")
    memory.remember("小黑是我們家的狗，今年三歲。", "semantic")

    def found(asked: str) -> float:
        [result] = [r for r in memory.recall(asked, 5, threshold=0) if r.memory.content == stored]
        assert result.breakdown.keyword_rank == 1, result.breakdown
        return result.breakdown.keyword_coverage

    assert found(question) == pytest.approx(found(same_script))


def test_a_store_indexed_before_the_fold_is_searched_by_simplified_words_after_the_upgrade(
    tmp_path: Path,
) -> None:
    # A store made before the fold holds the Traditional bigrams (醫師, 脈優) in its keyword
    # index: opening it with this version indexes its Traditional memories again.
    path = tmp_path / "old.db"
    stored = "李醫師把志明的脈優停了，改成得安穩160毫克每天一顆。"
    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF, llm=None) as memory:
        memory.remember(stored, "semantic")
        memory.remember("I drink oolong tea every morning.", "semantic")
        db = memory._store.db
        with db:  # as the store was before migration 9: the bigrams as written
            rowid = db.execute("SELECT rowid FROM memories WHERE content = ?", (stored,)).fetchone()
            old = " " + " ".join(stored[i : i + 2] for i in range(len(stored) - 1)) + " "
            db.execute("DELETE FROM memory_fts WHERE rowid = ?", rowid)
            db.execute("INSERT INTO memory_fts (rowid, text) VALUES (?, ?)", (rowid[0], old))
            db.execute("UPDATE meta SET value = '8' WHERE key = 'schema_version'")

    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF, llm=None) as memory:
        # 李医 and 医师, the bigrams of a Simplified question, were in no row: 李醫, 醫師 were
        [found] = [r for r in memory.recall("李医师", 5, threshold=0) if r.memory.content == stored]
        assert found.breakdown.keyword_rank == 1, found.breakdown
        # and a Traditional question still finds it by its words (both read as Simplified)
        [again] = [r for r in memory.recall("安穩", 5, threshold=0) if r.memory.content == stored]
        assert again.breakdown.keyword_rank == 1, again.breakdown
