import pytest

from localmind.cjk import mostly_cjk
from localmind.fts_terms import cjk_bigrams, index_text, match_expression, query_terms
from localmind.token_budget import estimate


def test_chinese_runs_become_overlapping_bigrams() -> None:
    assert cjk_bigrams("喜欢编程") == ["喜欢", "欢编", "编程"]
    assert index_text("用户喜欢 Rust 编程语言").split() == [
        "用户",
        "户喜",
        "喜欢",
        "Rust",
        "编程",
        "程语",
        "语言",
    ]


def test_query_terms_mix_scripts_and_drop_english_stopwords() -> None:
    assert query_terms("What do I like about 绿茶?") == ["like", "绿茶"]


def test_match_expression_quotes_terms_so_fts_syntax_is_inert() -> None:
    expression = match_expression('tea" OR NOT * (coffee) NEAR')
    assert expression == '"tea" OR "coffee" OR "near"'


def test_a_query_without_searchable_terms_has_no_expression() -> None:
    assert match_expression("the of and ...") is None


def test_a_single_chinese_character_matches_as_a_prefix() -> None:
    assert match_expression("茶") == '"茶"*'


def test_a_long_query_keeps_its_latest_terms() -> None:
    query = " ".join(f"word{n}" for n in range(300))
    expression = match_expression(query)
    assert expression is not None
    assert expression.count(" OR ") == 255
    assert '"word299"' in expression and '"word0"' not in expression


def test_the_index_and_the_token_estimate_agree_on_what_is_cjk() -> None:
    """One definition (localmind.cjk): rare Han of the supplementary planes (𠀀, Extension B, in
    names) are bigrams in the index and one token each in the estimate, like common Han."""
    for text in ("编程语言", "𠀀𠀁𠀂𠀃", "かなカナ", "한국어요"):
        assert index_text(text).split() == cjk_bigrams(text)
        assert estimate(text) == 4
    assert estimate("Rust编程") == 3  # a word, then one token per character


@pytest.mark.parametrize(
    ("text", "cjk"),
    [
        ("我每周三晚上去游泳", True),
        ("Pepper现在还是寄养的小狗吗？", True),  # a Chinese sentence with a name in it
        ("我手机上用的是搜狗拼音输入法。", True),
        ("Is Tom allergic to cats?", False),
        ("We flew to 杭州 for Chinese New Year", False),  # an English sentence with a place
        ("2025-12-24 3pm", False),
        ("", False),
    ],
)
def test_mostly_cjk_tells_which_script_a_text_is_written_in(text: str, cjk: bool) -> None:
    assert mostly_cjk(text) is cjk
