"""Prompt templates, as text files beside this module (shipped in the wheel)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def load(name: str) -> str:
    return (files(__package__) / f"{name}.txt").read_text(encoding="utf-8")


def render(name: str, **values: str) -> str:
    """The template with ``{placeholders}`` filled; other braces in values are left alone."""
    text = load(name)
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text
