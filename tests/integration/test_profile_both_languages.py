"""A fact told in both languages is given once in the profile without a model (review13 J5:
the cat and the allergy each took two of its places, once in each language), while two facts
that merely share a name both stay. The real encrypted store and the bundled model."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory, NewMemory

CAT_EN = "My cat Mochi is a 3-year-old British Shorthair, still with my mom in Shanghai"
CAT_ZH = "我的猫叫Mochi，是一只三岁的英短蓝猫，暂时寄养在上海我妈妈家。"
PEANUTS_EN = "I'm allergic to peanuts — mild, my lips swell, no EpiPen needed"
PEANUTS_ZH = "我对花生过敏，吃了嘴唇会肿"
VET = "Mochi的兽医是Dr. Alvarez"


def test_a_fact_told_in_both_languages_is_given_once(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory(llm=None)
    memory.remember_many(
        [NewMemory(text, "semantic") for text in (CAT_EN, PEANUTS_EN, CAT_ZH, PEANUTS_ZH, VET)],
        check=False,  # as five memories, whatever remember would merge
    )
    profile = memory.profile(rebuild=True)
    assert profile is not None and profile.method == "extractive"
    said = profile.text
    assert (CAT_EN in said) != (CAT_ZH.rstrip("。") in said), said
    assert (PEANUTS_EN in said) != (PEANUTS_ZH in said), said
    # another fact about Mochi is no retelling of the cat
    assert VET in said
