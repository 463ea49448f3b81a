"""The review queue, round 14 (queue14), through Memory.remember on the real encrypted store
with the bundled USE-m3 embedder and no model: a change told again in the other language
waits once, though the sameness guard finds the two tellings different for what one language
leaves out or the old value the retelling names; a third value does not (docs/design.md, "The
review queue, round 14")."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory
from localmind.lifecycle import Decision


def test_a_retelling_that_names_the_old_value_joins_the_waiting_change(
    open_memory: Callable[..., Memory],
) -> None:
    # "from March 10" is the booking's date: no value of the retelling's own (the guard read
    # the dates as differing, and the person got the same question twice)
    memory = open_memory(llm=None)
    memory.remember("Mom's knee replacement is booked for March 10 at Burnaby Hospital.")
    change = memory.remember_explained("妈妈的膝关节手术推迟了，医院改成5月12日。")
    assert change.decision is Decision.QUEUED, change.reason
    again = memory.remember_explained("Mom's knee surgery got pushed from March 10 to May 12.")
    assert again.decision is Decision.MERGED, again.reason
    [conflict] = memory.conflicts()
    assert conflict.candidate.id == change.record.id


def test_a_change_told_in_both_languages_is_one_question(
    open_memory: Callable[..., Memory],
) -> None:
    # personal5: 一周三次 is "three times a week", not Wednesday, and the Chinese telling
    # leaves out "I've signed up"; both made the two tellings "different"
    memory = open_memory(llm=None)
    memory.remember("My gym is the Bonsor community centre, six dollars a visit.")
    memory.remember("我的健身房是Bonsor社区中心，一次六块。")
    change = memory.remember_explained(
        "I stopped going to the Bonsor gym - I've signed up at Modo Yoga on Kingsway, "
        "3 classes a week."
    )
    assert change.decision is Decision.QUEUED, change.reason
    again = memory.remember_explained(
        "现在不去Bonsor健身房了，在Kingsway上的Modo瑜伽馆练瑜伽，一周三次。"
    )
    assert again.decision is Decision.MERGED, again.reason
    assert [c.candidate.id for c in memory.conflicts()] == [change.record.id]


def test_a_third_value_in_the_other_language_is_a_question_of_its_own(
    open_memory: Callable[..., Memory],
) -> None:
    # Helix is a name the waiting change does not give, and Neovim one the retelling does not:
    # two values, never merged into one
    memory = open_memory(llm=None)
    memory.remember("My editor is VS Code.")
    first = memory.remember_explained("My editor is now Neovim.")
    assert first.decision is Decision.QUEUED, first.reason
    third = memory.remember_explained("我的编辑器现在换成Helix了。")
    assert third.decision is Decision.QUEUED, third.reason
    assert {c.candidate.content for c in memory.conflicts()} == {
        "My editor is now Neovim.",
        "我的编辑器现在换成Helix了。",
    }


def test_a_new_phone_told_by_its_make_waits_and_a_phone_plan_does_not(
    open_memory: Callable[..., Memory],
) -> None:
    # review13 J9 addendum: "switched to X" with the attribute named only in the older text
    memory = open_memory(llm=None)
    phone = memory.remember("My phone is an iPhone 13 mini.")
    plan = memory.remember_explained("I switched my phone plan to Telekom.")
    assert plan.decision is not Decision.QUEUED, plan.reason
    new_phone = memory.remember_explained("I switched to a Pixel 9.")
    assert new_phone.decision is Decision.QUEUED, new_phone.reason
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.id) == (phone.id, new_phone.record.id)


def test_the_german_teacher_is_no_change_of_the_class_days(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember("我的德语课改到了周一和周三晚上。")
    teacher = memory.remember_explained("我的德语老师换了，新老师叫Herr Becker。")
    assert teacher.decision is not Decision.QUEUED, teacher.reason
    memory.remember("My German class is on Tuesday and Thursday evenings.")
    english = memory.remember_explained("My German teacher is now Herr Becker.")
    assert english.decision is not Decision.QUEUED, english.reason
    assert memory.conflicts() == []


def test_a_later_change_is_paired_with_the_change_its_retelling_joined(
    open_memory: Callable[..., Memory],
) -> None:
    # the English retelling is merged into the Chinese change; the next English change is
    # compared with it in words, so it is paired with the newest of the chain, not with the
    # Saturday school it replaced (personal5: recall then put the Saturday school first)
    memory = open_memory(llm=None)
    memory.remember(
        "我们有两个孩子：儿子何以恒（Ethan），2013年生；女儿何以宁（Chloe），2020年生。"
    )
    memory.remember(
        "Every Saturday morning Ethan goes to Mandarin class at the Richmond Chinese school."
    )
    change = memory.remember_explained(
        "搬家以后太远了，以恒不去列治文的中文学校了，改成每周二晚上在网上跟一位北京的老师学中文。"
    )
    assert change.decision is Decision.QUEUED, change.reason
    again = memory.remember_explained(
        "Ethan stopped going to the Saturday Chinese school in Richmond; he does Mandarin "
        "online with a teacher in Beijing every Tuesday evening."
    )
    assert again.decision is Decision.MERGED, again.reason
    dropped = memory.remember_explained(
        "Ethan dropped the online Mandarin lessons; he's taking French at school instead."
    )
    assert dropped.decision is Decision.QUEUED, dropped.reason
    assert dropped.related is not None and dropped.related.id == change.record.id
