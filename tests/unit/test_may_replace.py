"""What recall and remember take as a later version (``suspicion.may_replace``): the same person
and the same thing, never a newer memory about another person or another attribute (review12
R3-R5; docs/design.md, "Outdated marks, round 12")."""

from __future__ import annotations

import pytest

from localmind.suspicion import may_replace


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Noah's teacher this year is Ms. Delgado", "Noah's new best friend at Lakeview is Tariq"),
        (
            "My mom's doctor switched her medication to ramipril",
            "My mom's blood pressure is fine now",
        ),
        ("Li Na started drinking tea again, a chai every afternoon", "I'm back to drinking tea"),
        (
            "We moved to Richmond, near the river",
            "Noah now goes to Lakeview Elementary in Richmond",
        ),
        # a cat's arrival is no later version of a job offer because both say Berlin and
        # Chen Hao (review13 J7): the change is told of Mochi, whom the offer never names
        (
            "Chen Hao got the offer from Zalando! He starts in Berlin on January 15",
            "Mochi is in Berlin now! Chen Hao brought her on the flight",
        ),
    ],
)
def test_a_newer_text_about_another_person_or_thing_replaces_nothing(
    older: str, newer: str
) -> None:
    assert not may_replace(older, newer, alike=True)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Noah goes to Brookfield Elementary, grade 3", "Noah now goes to Lakeview Elementary"),
        (
            "My mom's doctor switched her medication to ramipril",
            "Mom stopped ramipril; she's on amlodipine again",
        ),
        ("我们住在温哥华的 Kitsilano", "We moved to Burnaby, near Metrotown"),
        ("I prefer coffee", "我戒咖啡了"),
        # ... a change of someone the older text names, though another is named too
        (
            "Chen Hao got the offer from Zalando! He starts in Berlin on January 15",
            "Chen Hao starts in Berlin now on January 5, Zalando moved it up",
        ),
        # 考完试 ("after the exam") is no person's name, whatever jieba's dictionary tags it
        ("考完试以后咖啡还是戒不掉，已经成了习惯。", "现在改成喝黑咖啡，不加糖不加奶。"),
    ],
)
def test_a_change_of_the_same_thing_may_replace(older: str, newer: str) -> None:
    assert may_replace(older, newer, alike=True)
