"""Language models: the port, its backends (Ollama, any OpenAI-compatible server) and the
registry that picks one by name (:mod:`localmind.llm.registry`)."""

from localmind.llm.base import LLM, LLMBadReply, LLMError, LLMUnavailable, Message

__all__ = ["LLM", "LLMBadReply", "LLMError", "LLMUnavailable", "Message"]
