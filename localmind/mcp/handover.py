"""The MCP SDK takes over the standard streams from :mod:`localmind.mcp.front`.

The SDK's stdio transport reads the client's messages after the first one, which the front
read (and perhaps answered) before the SDK was imported. Its session is fed that first message
before anything from the transport, so it negotiates the protocol and records the client as if
it had read it itself, and the answer it gives to an ``initialize`` the front already answered
is dropped: the client sees one answer per request.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, Self

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCResponse, jsonrpc_message_adapter

from localmind.mcp.front import FirstMessage


def parsed(line: bytes) -> SessionMessage | Exception:
    """The first line as the stdio transport would have handed it to the session."""
    try:
        text = line.decode("utf-8", errors="replace")  # as the transport decodes
        return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))
    except Exception as error:  # the transport hands a bad line on as an exception, too
        return error


class _Wrapping:
    """A stream over another: closing it closes that one."""

    def __init__(self, inner: ReadStream[Any] | WriteStream[Any]) -> None:
        self._inner = inner

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


class Replayed(_Wrapping):
    """A read stream that yields the front's message first, then the transport's."""

    def __init__(self, first: SessionMessage | Exception, rest: ReadStream[Any]) -> None:
        super().__init__(rest)
        self._rest = rest
        self._first: SessionMessage | Exception | None = first

    @property
    def last_context(self) -> Any:
        # the sender's context of the transport's last message (the SDK reads it if present)
        return getattr(self._rest, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        if self._first is not None:
            first, self._first = self._first, None
            return first
        message: SessionMessage | Exception = await self._rest.receive()
        return message

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class WithoutSecondAnswer(_Wrapping):
    """A write stream that drops the session's answer to the request the front answered."""

    def __init__(self, answered_id: int | str | None, inner: WriteStream[SessionMessage]) -> None:
        super().__init__(inner)
        self._sink = inner
        self._answered_id = answered_id

    async def send(self, item: SessionMessage, /) -> None:
        message = item.message
        if (
            self._answered_id is not None
            and isinstance(message, JSONRPCResponse | JSONRPCError)
            and message.id == self._answered_id
        ):
            self._answered_id = None
            if isinstance(message, JSONRPCError):  # the front's checks let a bad one through
                print(f"localmind mcp: initialize: {message.error.message}", file=sys.stderr)
            return
        await self._sink.send(item)


async def serve_stdio(server: MCPServer[Any], first: FirstMessage) -> None:
    """``server.run("stdio")``, continuing the conversation the front began."""
    lowlevel = server._lowlevel_server  # what run_stdio_async serves; no public accessor
    async with stdio_server() as (read_stream, write_stream):
        reading: ReadStream[SessionMessage | Exception] = read_stream
        if first.line:  # (empty: the client closed the input before writing anything)
            reading = Replayed(parsed(first.line), read_stream)
        await lowlevel.run(
            reading,
            WithoutSecondAnswer(first.answered_id, write_stream),
            lowlevel.create_initialization_options(),
        )
