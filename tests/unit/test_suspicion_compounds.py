"""jieba glues "new" to the thing (新手机, 新房子): a new phone is still the phone the older text
names, so "用户换了新手机" changes "用户的手机是 iPhone 13" (review10 F28). Places and people
spelled with 新/旧 (新西兰, 旧金山, 新娘子) stay whole."""

from __future__ import annotations

from localmind.statement import read
from localmind.suspicion import suspect


def test_a_new_phone_changes_the_phone() -> None:
    suspicion = suspect("用户的手机是 iPhone 13。", "用户换了新手机，现在用 Pixel 8。")
    assert suspicion.contradicts, suspicion.why


def test_a_new_thing_is_read_as_the_thing() -> None:
    assert "手机" in read("用户换了新手机").terms
    assert "房子" in read("我们买了新房子").terms


def test_places_spelled_with_new_or_old_stay_whole() -> None:
    assert "新西兰" in [w.norm for w in read("我们搬去了新西兰").words]
    assert "旧金山" in [w.norm for w in read("我住在旧金山").words]
