"""Child processes the reliability tests start (``python -m tests.workers.<name>``), and the
store invariants they check afterwards."""
