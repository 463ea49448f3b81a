import pytest

from localmind.ringbuffer import RingBuffer


def test_keeps_the_newest_items_and_reports_what_it_dropped() -> None:
    buffer: RingBuffer[int] = RingBuffer(3)
    dropped = [buffer.push(n) for n in range(5)]
    assert list(buffer) == [2, 3, 4]
    assert list(buffer.newest_first()) == [4, 3, 2]
    assert dropped == [None, None, None, 0, 1]


def test_remove_if_keeps_order() -> None:
    buffer: RingBuffer[int] = RingBuffer(5)
    for n in range(5):
        buffer.push(n)
    assert buffer.remove_if(lambda n: n % 2 == 0) == 3
    assert list(buffer) == [1, 3]


def test_capacity_must_be_positive() -> None:
    with pytest.raises(ValueError):
        RingBuffer(0)
