"""A queued reason's note that no model checked the pair, and the model's setup text it carries.

A pair queued without a model ends its reason with "no LLM to check (<why: Ollama is not
running at …. Start Ollama with `ollama serve`, then …>)". Said with every pair, that setup
text drowns the reasons (24 times in one `localmind conflicts`, review13 J15), and over MCP an
assistant with a shell may run the command it reads (review7 finding 9). Front ends show the
reason :func:`without_setup` and, where a person reads it, the setup once (:func:`setup_of`)."""

from __future__ import annotations

import re

#: What a reason says when no model could be asked (lifecycle writes it, the status after it).
NO_LLM = "no LLM to check"
_NO_MODEL_CHECK = re.compile(rf"{NO_LLM} \((.*)\)\s*$", re.DOTALL)
_COMMAND = re.compile(r"`[^`]+`")


def unchecked(suspicion: str, status: str) -> str:
    """The reason of a pair queued because no model could be asked, and why it could not."""
    return f"{suspicion}; {NO_LLM} ({status})"


def without_setup(reason: str, said: str = NO_LLM) -> str:
    """``reason`` without the model's status and setup commands: "…; ``said``" instead (a
    part that is a command of its own goes too)."""
    reason = _NO_MODEL_CHECK.sub(said, reason)
    parts = reason.split("; ")
    kept = [part for part in parts if not _COMMAND.search(part)]
    if len(kept) < len(parts):
        kept.append(said)
    return "; ".join(dict.fromkeys(kept))


def setup_of(reason: str) -> str | None:
    """Why no model checked the pair and how to start one, as it was when it was queued (or
    None: a model judged it, or it was queued for another reason)."""
    found = _NO_MODEL_CHECK.search(reason)
    return found.group(1).strip() if found else None
