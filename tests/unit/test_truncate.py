"""Cutting text to a token budget (profiles and context blocks): a list cut between two items
says it goes on, instead of ending on the separator."""

from __future__ import annotations

from localmind import token_budget as tokens


def test_a_list_cut_between_items_ends_with_an_ellipsis_not_a_separator():
    items = [f"I have been learning topic number {n} with care every evening" for n in range(40)]
    for separator in ("; ", "；"):
        text = separator.join(items) + "."
        for budget in range(20, tokens.estimate(text), 7):
            cut = tokens.truncate(text, budget)
            assert tokens.estimate(cut) <= budget
            assert not cut.endswith((";", "；")), (separator, budget, cut[-20:])


def test_a_sentence_cut_at_its_end_keeps_its_full_stop():
    text = "I live in Porto. " * 40
    cut = tokens.truncate(text, 30)
    assert cut.endswith("Porto.")
