"""The sync protocol's decisions, as pure functions (sync/protocol.py): how a cursor moves,
which files an import applies, what a device may compact, when a departed laptop's directory
may go. The integration tests (tests/integration/test_sync_*.py) prove the same through real
stores and folders; these say exactly where each line is drawn."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sync import protocol
from sync.codec import Published

ME, OTHER, THIRD = "0" * 26, "1" * 26, "2" * 26


def test_a_segment_past_a_gap_waits_in_done_until_the_gap_is_filled() -> None:
    assert protocol.advanced(0, set(), number=2) == (0, {2})
    assert protocol.advanced(0, {2}, number=3) == (0, {2, 3})
    assert protocol.advanced(0, {2, 3}, number=1) == (3, set())


def test_a_snapshot_moves_the_cursor_to_its_end_and_keeps_what_lies_beyond() -> None:
    assert protocol.advanced(1, {3, 7}, through=5) == (5, {7})
    assert protocol.advanced(1, {6, 7}, through=5) == (7, set())
    assert protocol.advanced(9, set(), through=5) == (9, set())  # never backwards


@given(order=st.permutations(range(1, 9)))
def test_segments_applied_in_any_order_end_at_the_same_cursor(order: list[int]) -> None:
    cursor, done = 0, set[int]()
    for number in order:
        cursor, done = protocol.advanced(cursor, done, number=number)
    assert (cursor, done) == (8, set())


def test_an_import_tries_the_newest_snapshot_first_and_skips_what_it_has() -> None:
    assert protocol.snapshots_to_try([4, 12, 8], cursor=6) == [12, 8]
    assert protocol.snapshots_to_try([4], cursor=4) == []
    assert protocol.segments_to_apply([9, 3, 5, 4, 7], cursor=4, done={7}) == [5, 9]


def test_pending_counts_a_snapshot_ahead_once() -> None:
    assert protocol.pending([5, 6, 7], [4], cursor=0, done={6}) == 3  # 5, 7 and the snapshot
    assert protocol.pending([5, 6], [4], cursor=5, done=set()) == 1


def published(applied: int, *, left: bool = False, through: int = 0) -> Published:
    return Published({ME: applied}, "laptop", left, through)


def test_compaction_waits_for_the_slowest_device_and_ignores_departed_and_strangers() -> None:
    said = {OTHER: published(6), THIRD: published(3), ME: published(99)}
    assert protocol.lowest_cursor(ME, said, lambda device: True) == 3
    said[THIRD] = published(1, left=True, through=10)  # it left: it reads nothing any more
    assert protocol.lowest_cursor(ME, said, lambda device: True) == 6
    # One that published nothing holds everything up, unless it is a stranger's directory.
    said[THIRD] = None
    assert protocol.lowest_cursor(ME, said, lambda device: True) == 0
    assert protocol.lowest_cursor(ME, said, lambda device: False) == 6
    assert protocol.lowest_cursor(ME, {}, lambda device: True) is None


def test_compaction_folds_only_own_segments_all_have_passed_and_enough_of_them() -> None:
    numbers = [1, 2, 3, 4, 99_999_999]  # the last one a stranger planted
    plan = protocol.compaction(numbers, written=4, passed=3, wanted=2)
    assert plan == protocol.Compaction([1, 2, 3], through=3)
    assert protocol.compaction(numbers, written=4, passed=1, wanted=2) is None  # too few
    assert protocol.compaction(numbers, written=4, passed=0, wanted=1) is None
    # Alone in the folder: a laptop that joins later takes the snapshot of everything.
    assert protocol.compaction(numbers, written=4, passed=None, wanted=2) == protocol.Compaction(
        [1, 2, 3, 4], through=4
    )
    assert protocol.compaction([1], written=1, passed=None, wanted=8) is None


def test_a_departed_directory_goes_once_its_last_segment_is_applied_here() -> None:
    assert protocol.may_retire(published(0, left=True, through=5), cursor=5)
    assert not protocol.may_retire(published(0, left=True, through=5), cursor=4)
    assert not protocol.may_retire(published(0), cursor=50)
    assert not protocol.may_retire(None, cursor=50)


def test_a_directory_that_lost_its_start_is_noticed() -> None:
    assert protocol.lost_its_start([], [], written=3)  # retired while away
    assert protocol.lost_its_start([7, 8], [], written=8)
    assert not protocol.lost_its_start([1, 2], [], written=2)
    assert not protocol.lost_its_start([5], [4], written=5)  # a snapshot is a start
    assert not protocol.lost_its_start([], [], written=0)  # nothing written yet
