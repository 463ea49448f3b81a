"""Text from memories is data, never control: what may reach a terminal.

A memory's text comes from anyone who could make the assistant remember something (a web page
in a chat, an MCP client, a sync folder). Printed raw, an escape sequence in it would act on
the terminal: clear the screen, move the cursor over earlier output, set the window title, or
write the clipboard (OSC 52). :func:`printable` shows every such character as an escape
(``\\u001b``) instead, so the text stays readable and nothing in it is obeyed. The escapes are
valid JSON too, so JSON output goes through the same function.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls (U+009B is an 8-bit CSI on some
# terminals), the line and paragraph separators, and the bidirectional marks, embeddings,
# overrides and isolates that make a terminal show text in another order than it is stored.
_CONTROL = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[{_CONTROL}]")
_UNSAFE_OR_BREAK = re.compile(f"[{_CONTROL}\t\n]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def printable(text: str, *, newlines: bool = True) -> str:
    """``text`` with every character a terminal could act on written as ``\\uXXXX``. Tab and
    newline stay as they are when ``newlines`` (multi-line layouts), and are escaped too when
    not (a one-line row)."""
    return (_UNSAFE if newlines else _UNSAFE_OR_BREAK).sub(_escape, text)


def without_controls(text: str) -> str:
    """``text`` without those characters, for a display that must keep each character's
    column (an editor's cursor): terminals and Rich give them no width, so dropping them moves
    nothing. The text itself is not changed, only what is drawn."""
    return _UNSAFE.sub("", text)
