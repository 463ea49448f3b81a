"""A small in-process HTTP server that speaks Ollama's real API (``/api/tags``, ``/api/chat``,
``/api/generate``, ``/api/version``) and the OpenAI-compatible one of llama-server, LM Studio or
vLLM (``/v1/models``, ``/v1/chat/completions``, streamed as server-sent events or not), so tests
exercise the real ``ollama`` and ``openai`` clients over real HTTP. Replies are scripted, the same
for both; every request is recorded.

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
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case

    @property
    def messages(self) -> list[dict[str, str]]:
        return list(self.body.get("messages", []))

    @property
    def schema(self) -> dict[str, Any]:
        """The JSON schema the request asked the answer to follow (Ollama's ``format``, OpenAI's
        ``response_format``), or {}."""
        if isinstance(self.body.get("format"), dict):
            return dict(self.body["format"])
        response_format = self.body.get("response_format") or {}
        if "schema" in response_format:  # {"type": "json_object", "schema": ...}
            return dict(response_format["schema"])
        return dict((response_format.get("json_schema") or {}).get("schema") or {})

    @property
    def token_cap(self) -> int | None:
        """The most tokens the request let the answer have (Ollama's ``options.num_predict``,
        OpenAI's ``max_tokens``), or None when it set no cap."""
        cap = (self.body.get("options") or {}).get("num_predict", self.body.get("max_tokens"))
        return None if cap is None else int(cap)

    @property
    def last_user_message(self) -> str:
        users = [m["content"] for m in self.messages if m.get("role") == "user"]
        return users[-1] if users else str(self.body.get("prompt", ""))


@dataclass
class FakeOllama:
    models: list[str] = field(default_factory=lambda: ["qwen2.5:3b"])
    default_reply: Reply = "OK"
    # the OpenAI-compatible response_format types it accepts (llama-cpp-python's: json_object)
    response_formats: tuple[str, ...] = ("text", "json_schema", "json_object")
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
        self.when(lambda body: key in Recorded("", body).schema.get("properties", {}), reply)

    def when_prompt_contains(self, text: str, reply: Reply) -> None:
        """Answer requests whose last user message contains ``text``."""
        self.when(lambda body: text in Recorded("", body).last_user_message, reply)

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path in CHAT_PATHS]

    # --- serving ------------------------------------------------------------------------------

    @property
    def host(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def base_url(self) -> str:
        """Where an OpenAI client finds it."""
        return self.host + "/v1"

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
                elif self.path == "/v1/models":
                    self._json(
                        200, {"object": "list", "data": [_openai_model(n) for n in fake.models]}
                    )
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append(
                    Recorded(self.path, body, {k.lower(): v for k, v in self.headers.items()})
                )
                openai = self.path == "/v1/chat/completions"
                if self.path not in (*CHAT_PATHS, "/api/generate"):
                    self._json(404, {"error": "not found"})
                    return
                model = body.get("model", "")
                if model not in fake.models:
                    self._error(404, f'model "{model}" not found, try pulling it first', openai)
                    return
                asked_format = (body.get("response_format") or {}).get("type", "text")
                if openai and asked_format not in fake.response_formats:
                    self._error(422, f"response_format type {asked_format!r} unsupported", openai)
                    return
                reply = fake._next_reply(body)
                while isinstance(reply, Hang):
                    fake._stop_hanging.wait(reply.seconds)
                    reply = reply.then
                if callable(reply) and not isinstance(reply, (Fail, Garbage)):
                    reply = reply(body)
                if isinstance(reply, Fail):
                    self._error(reply.status, reply.message, openai)
                    return
                if isinstance(reply, Garbage):
                    self._raw(200, reply.text.encode(), "text/html")
                    return
                content = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
                if openai:
                    self._openai_answer(model, content, bool(body.get("stream", False)))
                    return
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

            def _openai_answer(self, model: str, content: str, stream: bool) -> None:
                if not stream:
                    self._json(200, _openai_completion(model, content))
                    return
                pieces = [content[i : i + 4] for i in range(0, len(content), 4)]
                events = [_openai_chunk(model, {"content": piece}, None) for piece in pieces]
                events.append(_openai_chunk(model, {}, "stop"))
                payload = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
                self._raw(200, payload + b"data: [DONE]\n\n", "text/event-stream")

            def _error(self, status: int, message: str, openai: bool) -> None:
                if openai:
                    error = {"message": message, "type": "invalid_request_error", "code": status}
                    self._json(status, {"error": error})
                else:
                    self._json(status, {"error": message})

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


CHAT_PATHS = ("/api/chat", "/v1/chat/completions")


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


def _openai_model(name: str) -> dict[str, Any]:
    return {"id": name, "object": "model", "created": 1_780_000_000, "owned_by": "llamacpp"}


def _openai_completion(model: str, content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_780_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _openai_chunk(model: str, delta: dict[str, str], finish: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 1_780_000_000,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def unused_port_host() -> str:
    """An address where nothing listens: a server that is down."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
