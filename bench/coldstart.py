"""Cold start as a user or an assistant meets it: whole ``localmind`` processes, timed from
spawn to exit (or, for ``localmind mcp``, to the answer to ``initialize``), side by side with
``localmind --version`` (Python, the CLI's imports, nothing else) in interleaved rounds.

The store is made with the default key derivation (Argon2id, 64 MiB), as a user's is: every
process that opens a store pays it. The model cache lives in a private cache directory, so
the first process after it is emptied is measured once too: what the very first run costs.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PASSPHRASE = "benchmark passphrase"
# no time phrase: one would add dateparser (~0.15 s) to any recall that has one
QUERY = "what do I like to drink?"
# a recall whose results are Chinese, one of them told in English too: the pairing of results
# reads the statements (jieba) and compares across languages (CC-CEDICT; review12 R8)
QUERY_ZH = "我们现在住在哪里？"
SEED_MEMORIES = [
    "I prefer green tea over coffee in the morning",
    "用户喜欢 Rust 编程语言",
    "My sister lives in Lyon and visits in May",
    "I am allergic to peanuts",
    "The team meeting is on Tuesdays at 10",
    "我们住在成都的老房子里",
    "我们去年搬到了上海",
    "We moved to Shanghai last year",
]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}
# (name, what it measures)
COMMANDS = (
    ("version", "`localmind --version`"),
    ("recall", "`localmind recall` (opens the store, loads the model, searches)"),
    ("recall_zh", "`localmind recall` in Chinese, Chinese results"),
    ("add", "`localmind add` (opens the store, loads the model, remembers)"),
    ("mcp_initialize", "`localmind mcp` answers `initialize`"),
    ("mcp_first_recall", "`localmind mcp` answers `initialize`, then a first `recall`"),
)
TARGETS = {"recall": 2.5, "add": 2.5, "mcp_initialize": 1.5}


def _env(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        LOCALMIND_DB=str(workdir / "memory.db"),
        LOCALMIND_PASSPHRASE=PASSPHRASE,
        XDG_CACHE_HOME=str(workdir / "cache"),
        # a closed port: no Ollama, as with `--no-llm`, and never the developer's own
        OLLAMA_HOST="http://127.0.0.1:9",
    )
    for name in ("LOCALMIND_UNSAFE_TEST_KDF", "LOCALMIND_USER", "LOCALMIND_EMBEDDER"):
        env.pop(name, None)
    return env


def _localmind(*args: str) -> list[str]:
    return [sys.executable, "-m", "localmind", *args]


Sample = tuple[float, float | None]  # (wall seconds, CPU seconds of the process, if known)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _process_cpu(pid: int) -> float | None:
    """CPU seconds a running process has used so far (Linux; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run(args: list[str], env: dict[str, str]) -> Sample:
    cpu = _children_cpu()
    started = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - started, _children_cpu() - cpu


def _rpc(process: subprocess.Popen[bytes], message: dict[str, Any]) -> dict[str, Any]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()
    while True:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("localmind mcp exited before answering")
        reply: dict[str, Any] = json.loads(line)
        if reply.get("id") == message["id"]:
            if "error" in reply:
                raise RuntimeError(f"localmind mcp: {reply['error']}")
            return reply


def _mcp(env: dict[str, str], then_recall: bool) -> Sample:
    started = time.perf_counter()
    process = subprocess.Popen(
        _localmind("--no-llm", "mcp"),
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        _rpc(process, INITIALIZE)
        if then_recall:
            assert process.stdin is not None
            notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            process.stdin.write(json.dumps(notification).encode() + b"\n")
            call = {"name": "recall", "arguments": {"query": QUERY}}
            _rpc(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
        return time.perf_counter() - started, _process_cpu(process.pid)
    finally:
        if process.stdin is not None:
            process.stdin.close()
        process.wait(timeout=60)
        if process.stdout is not None:
            process.stdout.close()


def measure(rounds: int = 7, workdir: Path | None = None) -> dict[str, Any]:
    """Medians (and all samples) of each command over ``rounds`` interleaved rounds, plus the
    first start with an empty model cache."""
    with tempfile.TemporaryDirectory(prefix="localmind-coldstart-") as scratch:
        root = workdir or Path(scratch)
        env = _env(root)
        for text in SEED_MEMORIES:  # creates the store with the default KDF
            subprocess.run(
                _localmind("--no-llm", "add", text), env=env, check=True, capture_output=True
            )
        # the first recall after the cache was emptied: it parses the package's model and
        # writes the cache
        _remove_cache(root / "cache")
        first_run, _ = _run(_localmind("recall", QUERY), env)
        counter = iter(range(1_000_000))
        runs: dict[str, Callable[[], Sample]] = {
            "version": lambda: _run(_localmind("--version"), env),
            "recall": lambda: _run(_localmind("recall", QUERY), env),
            "recall_zh": lambda: _run(_localmind("recall", QUERY_ZH), env),
            "add": lambda: _run(
                _localmind("--no-llm", "add", f"benchmark note number {next(counter)}"), env
            ),
            "mcp_initialize": lambda: _mcp(env, then_recall=False),
            "mcp_first_recall": lambda: _mcp(env, then_recall=True),
        }
        for fn in runs.values():  # one warm-up each: the OS page cache, .pyc files
            fn()
        samples: dict[str, list[Sample]] = {name: [] for name in runs}
        for _ in range(rounds):
            for name, fn in runs.items():
                samples[name].append(fn())
    medians = {name: statistics.median(w for w, _ in values) for name, values in samples.items()}
    cpu = {
        name: statistics.median(c for _, c in values)
        if all(c is not None for _, c in values)
        else None
        for name, values in samples.items()
    }
    version = medians["version"]
    return {
        "rounds": rounds,
        "loadavg": os.getloadavg(),
        "first_recall_empty_cache_s": first_run,
        "median_s": medians,
        "median_cpu_s": cpu,
        "samples_s": samples,
        "ratio_to_version": {name: value / version for name, value in medians.items()},
        "cpu_ratio_to_version": {
            name: value / cpu["version"] if value is not None and cpu["version"] else None
            for name, value in cpu.items()
        },
        "targets": {
            name: {
                "limit": limit,
                "ratio": medians[name] / version,
                "met": medians[name] / version <= limit,
            }
            for name, limit in TARGETS.items()
        },
    }


def _remove_cache(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def markdown(result: dict[str, Any]) -> list[str]:
    lines = [
        f"### Cold start, whole processes (medians of {result['rounds']} interleaved rounds)",
        "",
        "| command | median wall | ÷ `--version` | median CPU | ÷ `--version` | target (wall) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, what in COMMANDS:
        median = result["median_s"][name]
        ratio = result["ratio_to_version"][name]
        cpu, cpu_ratio = result["median_cpu_s"][name], result["cpu_ratio_to_version"][name]
        target = result["targets"].get(name)
        verdict = (
            f"≤ {target['limit']}× — {'met' if target['met'] else 'NOT met'}" if target else ""
        )
        cpu_text = f"{cpu * 1000:.0f} ms | {cpu_ratio:.2f}" if cpu is not None else "| "
        lines.append(f"| {what} | {median * 1000:.0f} ms | {ratio:.2f} | {cpu_text} | {verdict} |")
    lines += [
        "",
        f"The first `localmind recall` with an empty model cache (it builds the cache): "
        f"{result['first_recall_empty_cache_s'] * 1000:.0f} ms. Load average at the end: "
        f"{', '.join(f'{x:.1f}' for x in result['loadavg'])} (CPU time is the steadier figure "
        "on a shared machine; for `localmind mcp`, the CPU used until the answer).",
        "",
    ]
    return lines


if __name__ == "__main__":
    outcome = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
    print("\n".join(markdown(outcome)))
