"""Language models: the port and its Ollama implementation."""

from localmind.llm.base import LLM, LLMBadReply, LLMError, LLMUnavailable, Message

__all__ = ["LLM", "LLMBadReply", "LLMError", "LLMUnavailable", "Message"]
