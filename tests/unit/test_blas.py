"""``blas.one_thread``: one BLAS thread inside the block, the caller's setting restored after."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from localmind import blas


def _blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


def test_one_thread_inside_the_block_and_the_callers_setting_after() -> None:
    np.ones(4) @ np.ones(4)  # numpy's BLAS is loaded
    assert _blas_threads(), "numpy's wheels bring OpenBLAS"
    with threadpool_limits(limits=2, user_api="blas"):
        with blas.one_thread():
            assert _blas_threads() == [1] * len(_blas_threads())
            with blas.one_thread():  # nested: still one, and the outer block restores
                assert set(_blas_threads()) == {1}
            assert set(_blas_threads()) == {1}
        assert set(_blas_threads()) == {2}
        with pytest.raises(RuntimeError), blas.one_thread():
            raise RuntimeError("a failed search")
        assert set(_blas_threads()) == {2}
