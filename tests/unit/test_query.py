from localmind.chat.query import dialogue_query


def test_the_last_user_turn_is_repeated_after_the_conversation() -> None:
    query = dialogue_query(["Hi!", "Hello, how can I help?"], "What tea did I like?")
    assert query.splitlines() == [
        "Hi!",
        "Hello, how can I help?",
        "What tea did I like?",
        "What tea did I like?",
        "What tea did I like?",
    ]


def test_the_oldest_turns_give_way_when_it_is_too_long() -> None:
    turns = [f"turn {n} " + "x" * 90 for n in range(20)]
    query = dialogue_query(turns, "latest", max_chars=500)
    assert len(query) <= 500
    assert query.endswith("latest\nlatest\nlatest")
    assert "turn 19" in query and "turn 0 " not in query
