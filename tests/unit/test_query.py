from localmind.chat.query import dialogue_query
from localmind.transcript import utterances, with_last_repeated


def test_the_conversation_ends_with_the_last_user_turn() -> None:
    query = dialogue_query(["Hi!", "Hello, how can I help?"], "What tea did I like?")
    assert query.splitlines() == ["Hi!", "Hello, how can I help?", "What tea did I like?"]


def test_the_oldest_turns_give_way_when_it_is_too_long() -> None:
    turns = [f"turn {n} " + "x" * 90 for n in range(20)]
    query = dialogue_query(turns, "latest", max_chars=500)
    assert len(query) <= 500
    assert query.endswith("\nlatest")
    assert "turn 19" in query and "turn 0 " not in query


def test_a_transcript_is_read_as_what_was_said() -> None:
    transcript = (
        "<BOD>\n"
        '<Bart>: "I got full marks in maths today!"\n'
        "<Assistant>:“That's wonderful!”\n"
        "\n"
        '<Bart>:"How should I celebrate?"\n'
        "<EOD>\n"
    )
    assert utterances(transcript) == [
        "I got full marks in maths today!",
        "That's wonderful!",
        "How should I celebrate?",
    ]


def test_lines_without_markup_are_kept_as_they_are() -> None:
    notes = 'I said "yes" to the job.\n<b> is bold: a tag inside\n"Quoted" but untagged'
    assert utterances(notes) == notes.splitlines()


def test_the_last_line_is_repeated_after_the_conversation() -> None:
    assert with_last_repeated(["Hi!", "What tea did I like?"], 2).splitlines() == [
        "Hi!",
        "What tea did I like?",
        "What tea did I like?",
        "What tea did I like?",
    ]
    assert with_last_repeated([], 2) == ""
