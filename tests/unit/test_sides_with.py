"""Which side of a pending change a text told meanwhile gives the value of
(``lifecycle.sides_with``, review10 F6/F6b): it then joins that side instead of waiting as a
second conflict."""

from __future__ import annotations

import pytest

from localmind.lifecycle import sides_with

HAMBURG = "The user lives in Hamburg, in the Altona district."
BERLIN = "The user moved to Berlin last month and now lives in Kreuzberg."
VEGETARIAN = "The user is vegetarian."
FISH = "The user started eating fish again, so is no longer vegetarian."


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("The user lives in Berlin.", True),  # a name only the change has
        ("The user lives in Altona.", False),  # a name only the older memory has
        ("The user lives in Munich.", None),  # a third value: a change of its own
        ("The user lives in Hamburg and Berlin.", None),  # both: neither side
        ("The user lives in a flat.", None),  # no value at all
    ],
)
def test_names_tell_the_side(text: str, side: bool | None) -> None:
    assert sides_with(text, HAMBURG, BERLIN) is side


def test_without_names_negation_tells_the_side() -> None:
    assert sides_with("The user doesn't eat meat.", VEGETARIAN, FISH) is True
    assert sides_with("The user eats only vegetables.", VEGETARIAN, FISH) is False
    # sides negated alike: no side
    assert sides_with("The user eats no meat.", "I don't eat pork", "I don't eat beef") is None


def test_numbers_tell_the_side() -> None:
    older, newer = "My rent is 950 euros.", "My rent went up to 1100 euros."
    assert sides_with("I pay 1100 euros rent.", older, newer) is True
    assert sides_with("I pay 950 euros rent.", older, newer) is False
    assert sides_with("I pay 1400 euros rent.", older, newer) is None
