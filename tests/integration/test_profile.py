"""The user profile and the context block, with the Ollama test server as the model."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from localmind import Memory, NewMemory
from localmind.config import ProfileConfig, Settings
from localmind.llm.ollama import OllamaLLM
from localmind.profile import PREAMBLE
from localmind.token_budget import estimate
from tests.conftest import FakeClock
from tests.ollama_server import FakeOllama, unused_port_host

EN = [
    "The user is a backend engineer at a fintech start-up",
    "The user writes mostly Go and some Python",
    "The user prefers short answers with code examples",
    "The user is migrating the payments service to Kubernetes",
]
ZH = [
    "用户是一名后端工程师",
    "用户主要使用 Go 和 Python",
    "用户喜欢简洁的回答",
    "用户正在把支付服务迁移到 Kubernetes",
]


def profile_requests(server: FakeOllama) -> list[str]:
    return [
        r.last_user_message
        for r in server.chat_requests()
        if "用户画像" in r.last_user_message or "user profile" in r.last_user_message.lower()
    ]


def seeded(open_memory: Callable[..., Memory], llm: OllamaLLM | None, texts: list[str]) -> Memory:
    memory = open_memory(llm=llm)
    memory.remember_many([NewMemory(t, "semantic", importance=0.8) for t in texts])
    return memory


def test_profile_is_built_once_and_rebuilt_only_when_enough_changed(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.default_reply = "User profile: A backend engineer who writes Go."
    memory = seeded(open_memory, llm, EN)
    first = memory.profile()
    assert first is not None
    assert (first.version, first.method) == (1, "llm")
    assert first.text == "A backend engineer who writes Go."  # the label is stripped
    assert memory.profile() == first
    assert len(profile_requests(ollama_server)) == 1

    memory.remember("The user started learning Rust")  # one change: not enough
    assert memory.profile() == first
    for fact in [
        "The user lives in Porto",
        "The user has two cats",
        "The user runs marathons",
        "The user reads science fiction",
    ]:
        memory.remember(fact)
    second = memory.profile()
    assert second is not None and (second.version, second.method) == (2, "llm-incremental")
    update = profile_requests(ollama_server)[-1]
    assert "A backend engineer who writes Go." in update  # builds on the previous profile
    assert "The user runs marathons" in update
    assert memory.profile(rebuild=True).version == 3  # type: ignore[union-attr]
    assert [p.version for p in memory.profile_history()] == [1, 2, 3]


def test_chinese_memories_get_the_chinese_prompt(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.default_reply = "用户画像：一名使用 Go 的后端工程师。"
    memory = seeded(open_memory, llm, ZH)
    profile = memory.profile()
    assert profile is not None and profile.text == "一名使用 Go 的后端工程师。"
    [prompt] = profile_requests(ollama_server)
    assert prompt.startswith("请根据以下用户的历史记忆信息，生成一段简洁的用户画像描述")
    assert "用户正在把支付服务迁移到 Kubernetes" in prompt


def test_a_long_profile_is_cut_to_its_budget_in_both_languages(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.default_reply = "The user likes long sentences about many things. " * 80
    english = seeded(open_memory, llm, EN).profile()
    assert english is not None and 150 < estimate(english.text) <= 200
    ollama_server.default_reply = "用户喜欢很长的句子，谈论许多事情。" * 80
    chinese = seeded(open_memory, llm, ZH).profile(rebuild=True)
    assert chinese is not None and 150 < estimate(chinese.text) <= 200


def test_without_ollama_the_profile_is_extractive_and_within_budget(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=OllamaLLM(host=unused_port_host()))
    memory.remember_many(
        [NewMemory("The user is a backend engineer", "semantic", importance=1.0)]
        + [
            NewMemory(f"The user once mentioned topic number {n} in passing", importance=0.1)
            for n in range(60)
        ]
    )
    profile = memory.profile()
    assert profile is not None and profile.method == "extractive"
    assert profile.text.startswith("The user is a backend engineer")
    assert estimate(profile.text) <= 200


def test_context_holds_the_profile_then_the_relevant_memories_within_budgets(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.default_reply = "A backend engineer. " * 100
    memory = seeded(open_memory, llm, EN)
    long_story = "The user told a very long story about Kubernetes migrations. " * 60
    memory.remember(long_story)
    context = memory.context("How is the Kubernetes migration going?")
    preamble, about = context.split("\n\nAbout the user:\n")
    about, relevant = about.split("\n\nRelevant memories:\n")
    assert preamble == PREAMBLE["en"]
    assert all(line.startswith("> A backend engineer.") for line in about.splitlines())
    assert estimate(about) <= 200 + 2 * len(about.splitlines())  # the "> " of each line
    assert estimate(relevant) <= 300
    assert "Kubernetes" in relevant
    # The budgets hold the profile and the memories; the preamble comes on top.
    assert estimate(memory.context("Kubernetes", profile_tokens=50, memory_tokens=60)) <= (
        50 + 60 + estimate(PREAMBLE["en"]) + 10
    )


def test_context_with_no_memories_is_empty(memory: Memory) -> None:
    assert memory.context("anything") == ""
    assert memory.profile() is None


def test_an_extractive_profile_ends_its_last_sentence_whatever_its_budget(
    open_memory: Callable[..., Memory],
) -> None:
    """Its closing full stop counts in its budget: over by that mark alone, it used to be cut
    back to the last "; " and end with a dangling semicolon."""
    memory = open_memory(llm=OllamaLLM(host=unused_port_host()))
    memory.remember_many(
        [NewMemory(f"I once learnt fact number {n} about tea", "semantic") for n in range(40)]
    )
    memory.close()
    for budget in range(20, 160, 7):
        settings = Settings(profile=replace(ProfileConfig(), budget_tokens=budget))
        with open_memory(llm=OllamaLLM(host=unused_port_host()), settings=settings) as memory:
            profile = memory.profile(rebuild=True)
        assert profile is not None and profile.method == "extractive"
        assert profile.text.endswith("tea."), (budget, profile.text[-30:])
        assert estimate(profile.text) <= budget


def test_the_model_is_never_given_both_sides_of_a_pending_change(
    open_memory: Callable[..., Memory],
    llm: OllamaLLM,
    ollama_server: FakeOllama,
    clock: FakeClock,
) -> None:
    """It would write both into the profile as facts: it gets the newer one (taken as current
    until the person answers), as recall and the context block do."""
    offline = open_memory(llm=OllamaLLM(host=unused_port_host()))
    offline.remember("I live in Berlin")
    clock.advance(days=30)
    assert offline.remember_explained("I moved to Lisbon last month").decision == "queued"
    offline.remember("I have two cats")
    offline.close()
    ollama_server.default_reply = "A cat owner."
    profile = open_memory(llm=llm).profile(rebuild=True)
    assert profile is not None and profile.method == "llm"
    [prompt] = profile_requests(ollama_server)
    assert "I moved to Lisbon last month" in prompt and "I have two cats" in prompt
    assert "I live in Berlin" not in prompt


def test_without_a_model_the_profile_says_who_the_person_is_first(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=OllamaLLM(host=unused_port_host()))
    # the valuable-but-incidental facts come first in the store's own order (importance)
    memory.remember_many(
        [
            NewMemory("The user is allergic to penicillin", "semantic", importance=0.9),
            NewMemory("用户的猫叫豆豆", "semantic", importance=0.8),
            NewMemory("The user dislikes early morning meetings", "semantic", importance=0.8),
            NewMemory("用户每周三晚上上陶艺课", "semantic", importance=0.8),
            NewMemory("The user likes oolong tea", "semantic", importance=0.8),
            NewMemory("The user works as a data engineer at Zalando", "semantic", importance=0.5),
            NewMemory("我住在柏林", "semantic", importance=0.5),
            NewMemory("The user's name is Lena Fischer", "semantic", importance=0.5),
            NewMemory("My sister lives in Munich", "semantic", importance=0.5),
        ]
    )
    profile = memory.profile()
    assert profile is not None and profile.method == "extractive"
    said = profile.text
    assert said.startswith("The user's name is Lena Fischer")
    assert "Zalando" in said and "柏林" in said
    assert "Munich" not in said  # the sister's city is not who the person is
    assert "penicillin" in said  # then the most valuable of the rest


@pytest.mark.slow
def test_an_extractive_profile_closes_each_fact_with_its_own_scripts_mark(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    """One long Chinese memory among English ones made the whole profile "；"-joined, ending
    "。" (review9 Q4/M6); a majority vote then gave "…主管；I drive a 2012 Toyota Corolla。"
    (review10 F16): each fact is now followed by its own script's mark."""
    long_chinese = "我搬到了里斯本，现在住在 Alfama 区的一栋老房子里，上班要坐二十分钟的电车"
    memory = open_memory(llm=OllamaLLM(host=unused_port_host()))
    short = ["I drink oolong tea", "I have a dog called Rex", "I cycle to work"]
    memory.remember_many(
        [NewMemory(text, "semantic", importance=0.8) for text in [*short, long_chinese]]
    )
    profile = memory.profile()
    assert profile is not None and profile.method == "extractive"
    assert f"{long_chinese}；" in profile.text and profile.text.endswith(".")
    assert profile.text.count("；") == 1 and profile.text.count("; ") == 2
    # and the other way round: mostly Chinese, one English memory (which tells the job again,
    # later: the Chinese telling of it is left out, one line per attribute)
    chinese = open_memory(llm=OllamaLLM(host=unused_port_host()), path=tmp_path / "zh.db")
    chinese.remember_many([NewMemory(text, "semantic", importance=0.8) for text in [*ZH, EN[0]]])
    profile = chinese.profile()
    assert profile is not None and f"{EN[0]}" in profile.text and ZH[0] not in profile.text
    assert profile.text.startswith(f"{EN[0]}; ") and profile.text.endswith("。")
    assert profile.text.count("；") == 2 and profile.text.count("; ") == 1
