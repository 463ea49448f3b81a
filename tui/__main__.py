"""``python -m tui``: the same as ``localmind``."""

from tui.launcher import main

main()
