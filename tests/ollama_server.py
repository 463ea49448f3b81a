"""A small in-process HTTP server that speaks Ollama's real API (``/api/tags``, ``/api/chat``,
``/api/generate``, ``/api/version``), so tests exercise the real ``ollama`` client over real
HTTP. Replies are scripted; every request is recorded.

A reply is a string (the assistant's content), a dict (sent as JSON content, for ``format``
requests), or a callable taking the request body and returning either. Special replies:
``Fail(status, message)`` answers with an HTTP error, ``Hang(seconds)`` waits before answering
(to trip client timeouts), ``Garbage(text)`` sends a body that is not Ollama's JSON.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Fail:
    status: int
    message: str


@dataclass
class Hang:
    seconds: float
    then: Any = "late answer"


@dataclass
class Garbage:
    text: str = "<html>not ollama</html>"


Reply = str | dict[str, Any] | Fail | Hang | Garbage | Callable[[dict[str, Any]], Any]


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, str]]:
        return list(self.body.get("messages", []))

    @property
    def last_user_message(self) -> str:
        users = [m["content"] for m in self.messages if m.get("role") == "user"]
        return users[-1] if users else str(self.body.get("prompt", ""))


@dataclass
class FakeOllama:
    models: list[str] = field(default_factory=lambda: ["qwen2.5:3b"])
    default_reply: Reply = "OK"
    requests: list[Recorded] = field(default_factory=list)
    _script: deque[Reply] = field(default_factory=deque)
    _rules: list[tuple[Callable[[dict[str, Any]], bool], Reply]] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _stop_hanging: threading.Event = field(default_factory=threading.Event)

    # --- scripting ----------------------------------------------------------------------------

    def reply(self, *replies: Reply) -> None:
        """Queue replies for the next chat/generate requests, in order."""
        self._script.extend(replies)

    def when(self, predicate: Callable[[dict[str, Any]], bool], reply: Reply) -> None:
        """Answer every request matching ``predicate`` with ``reply`` (checked before the
        queue)."""
        self._rules.append((predicate, reply))

    def when_schema_has(self, key: str, reply: Reply) -> None:
        """Answer structured-output requests whose JSON schema has property ``key``."""
        self.when(lambda body: key in (body.get("format") or {}).get("properties", {}), reply)

    def when_prompt_contains(self, text: str, reply: Reply) -> None:
        """Answer requests whose last user message contains ``text``."""
        self.when(lambda body: text in Recorded("", body).last_user_message, reply)

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path == "/api/chat"]

    # --- serving ------------------------------------------------------------------------------

    @property
    def host(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeOllama:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                fake.requests.append(Recorded(self.path, {}))
                if self.path == "/api/tags":
                    self._json(200, {"models": [_model_entry(name) for name in fake.models]})
                elif self.path == "/api/version":
                    self._json(200, {"version": "0.12.0"})
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append(Recorded(self.path, body))
                if self.path not in ("/api/chat", "/api/generate"):
                    self._json(404, {"error": "not found"})
                    return
                model = body.get("model", "")
                if model not in fake.models:
                    self._json(404, {"error": f'model "{model}" not found, try pulling it first'})
                    return
                reply = fake._next_reply(body)
                while isinstance(reply, Hang):
                    fake._stop_hanging.wait(reply.seconds)
                    reply = reply.then
                if callable(reply) and not isinstance(reply, (Fail, Garbage)):
                    reply = reply(body)
                if isinstance(reply, Fail):
                    self._json(reply.status, {"error": reply.message})
                    return
                if isinstance(reply, Garbage):
                    self._raw(200, reply.text.encode(), "text/html")
                    return
                content = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
                chat = self.path == "/api/chat"
                if body.get("stream", True):
                    self._stream(model, content, chat)
                else:
                    self._json(200, _final(model, content, chat))

            def _stream(self, model: str, content: str, chat: bool) -> None:
                pieces = [content[i : i + 4] for i in range(0, len(content), 4)]
                lines = [_chunk(model, piece, chat) for piece in pieces]
                lines.append(_final(model, "", chat))
                payload = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
                self._raw(200, payload, "application/x-ndjson")

            def _json(self, status: int, document: dict[str, Any]) -> None:
                self._raw(status, json.dumps(document).encode(), "application/json")

            def _raw(self, status: int, payload: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        self._stop_hanging.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        for predicate, reply in self._rules:
            if predicate(body):
                return reply
        if self._script:
            return self._script.popleft()
        return self.default_reply


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _model_entry(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "model": name,
        "modified_at": _now(),
        "size": 1_929_000_000,
        "digest": "0" * 64,
        "details": {
            "format": "gguf",
            "family": "qwen2",
            "parameter_size": "3.1B",
            "quantization_level": "Q4_K_M",
        },
    }


def _chunk(model: str, content: str, chat: bool) -> dict[str, Any]:
    base: dict[str, Any] = {"model": model, "created_at": _now(), "done": False}
    if chat:
        base["message"] = {"role": "assistant", "content": content}
    else:
        base["response"] = content
    return base


def _final(model: str, content: str, chat: bool) -> dict[str, Any]:
    document = _chunk(model, content, chat)
    document.update(
        done=True,
        done_reason="stop",
        total_duration=1_000_000,
        load_duration=1000,
        prompt_eval_count=10,
        eval_count=max(1, len(content) // 4),
        eval_duration=500_000,
    )
    return document


def unused_port_host() -> str:
    """An address where nothing listens: a server that is down."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
