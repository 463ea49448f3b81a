"""The lift a memory in the other script gets (its cosine counts for more: only meaning connects
it to the question) goes to the ones nearest the question, not alike to every memory in that
language: Chinese notes about a dentist and a sister do not outrank an English memory closer in
meaning to an English question (docs/design.md, "Recall, round 7"). Real encrypted store,
sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory, NewMemory, Settings
from localmind.config import FusionConfig

ANSWER = "Lily switched from violin to piano in January; her teacher is Mrs. Lee, Wednesdays."
ANSWER_ZH = "莉莉一月份不学小提琴了，改学钢琴，每周三放学后跟李老师上课。"
DENTIST = "今天去何医生那里洗牙，她说我有一颗蛀牙要补。"
SISTER = "我妹妹陈安娜在上海当建筑师，比我小四岁。"
PIANO_AS_A_KID = "I took piano lessons as a kid in Hangzhou until I was twelve."
MEMORIES = [
    ANSWER,
    ANSWER_ZH,
    DENTIST,
    SISTER,
    PIANO_AS_A_KID,
    "我手机上用的是搜狗拼音输入法。",
    "我爸妈住在杭州，爸爸退休前是电气工程师，妈妈是中学语文老师。",
    "我们家的狗Pepper已经正式领养了。",
    "Our landlord raised the rent by five percent this year.",
    "The team meeting moved to Thursday afternoons.",
]
QUESTION = "Does my daughter still play the violin?"


def _ranked(memory: Memory) -> list[str]:
    memory.remember_many([NewMemory(content=text) for text in MEMORIES])
    return [r.memory.content for r in memory.recall(QUESTION, 5)]


def test_filler_in_the_other_script_does_not_outrank_closer_memories_in_the_questions(
    open_memory: Callable[..., Memory], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ranked = _ranked(open_memory())
    # both answers first, the one told in Chinese included: the lift is for it
    assert set(ranked[:2]) == {ANSWER_ZH, ANSWER}
    # the English memory nearer in meaning (piano lessons) comes next, above the Chinese notes
    # about a sister and a dentist, far below the Chinese answer's cosine
    assert ranked[2] == PIANO_AS_A_KID
    assert {SISTER, DENTIST} <= set(ranked[3:])
    # ... and it is the rule that decides: with every memory in the other script lifted alike
    # (as before round 7) the note about the sister outranks it
    monkeypatch.setattr("localmind.ranking.OTHER_SCRIPT_RAMP", 1e9)
    before = open_memory(
        path=tmp_path / "before.db", settings=Settings(fusion=FusionConfig(other_script_cosine=3.0))
    )
    ranked = _ranked(before)
    assert ranked.index(SISTER) < ranked.index(PIANO_AS_A_KID)
