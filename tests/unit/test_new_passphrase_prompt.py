"""A new passphrase too short is refused as it is typed, before the confirmation (review12 R13:
typed twice, then refused, and the whole command run again)."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from localmind.cli.context import _long_enough


@click.command()
def choose() -> None:
    chosen = click.prompt(
        "New passphrase", hide_input=True, confirmation_prompt=True, value_proc=_long_enough
    )
    click.echo(f"chosen {len(chosen)}")


def test_a_short_passphrase_is_asked_again_before_its_confirmation() -> None:
    result = CliRunner().invoke(choose, input="abc\ncorrect horse\ncorrect horse\n")

    assert result.exit_code == 0, result.output
    assert "too short: choose one of at least 8 characters" in result.output
    # asked again at once: the short one was never to be repeated
    assert result.output.count("Repeat for confirmation") == 1
    assert result.output.rstrip().endswith("chosen 13")


def test_a_long_enough_passphrase_passes_as_typed() -> None:
    assert _long_enough("correct horse") == "correct horse"
    with pytest.raises(click.UsageError, match="too short"):
        _long_enough("   abc   ")
