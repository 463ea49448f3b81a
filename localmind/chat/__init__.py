"""A conversation with memory (the loop of ``localmind chat`` and the TUI's chat page): a front
end over :class:`~localmind.memory.Memory` and the LLM port, like the CLI and the MCP server."""

from localmind.chat.session import Session, Turn

__all__ = ["Session", "Turn"]
