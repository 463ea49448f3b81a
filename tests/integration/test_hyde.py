"""HyDE: recall also searches with the embedding of an answer the model imagines. The code path
runs against the Ollama test server (a real model cannot run here)."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory
from localmind.llm.ollama import OllamaLLM
from tests.ollama_server import FakeOllama, unused_port_host

MEMORIES = [
    "Biscuit, the family golden retriever, loves swimming in the lake",
    "The quarterly report is due on the last Friday of March",
    "Grandma's apple pie recipe uses cinnamon and brown sugar",
]


def test_hyde_searches_with_the_imagined_answer_too(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    memory = open_memory(llm=llm)
    for text in MEMORIES:
        memory.remember(text)
    question = "Which animal do we have at home?"
    plain = {
        r.memory.content: r.breakdown for r in memory.recall(question, touch=False, threshold=0)
    }
    ollama_server.when_prompt_contains(
        question, "Our family dog is a golden retriever called Biscuit who loves to swim."
    )
    hyde = memory.recall(question, touch=False, hyde=True)

    [request] = [r for r in ollama_server.chat_requests() if question in r.last_user_message]
    assert "Question: Which animal do we have at home?" in request.last_user_message
    assert hyde[0].memory.content == MEMORIES[0]
    boosted = hyde[0].breakdown.vector_similarity
    assert boosted is not None and boosted > (plain[MEMORIES[0]].vector_similarity or 0) + 0.1


def test_without_ollama_hyde_is_skipped_and_recall_still_answers(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=OllamaLLM(host=unused_port_host()))
    for text in MEMORIES:
        memory.remember(text)
    question = "Which animal do we have at home?"
    with_hyde = [r.memory.id for r in memory.recall(question, touch=False, hyde=True)]
    without = [r.memory.id for r in memory.recall(question, touch=False)]
    assert with_hyde == without
