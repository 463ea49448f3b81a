"""What every page has: the navigation bar, its body, the status bar and the footer."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast

from textual import work
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, Footer

from localmind.errors import LocalmindError
from localmind.memory import Memory
from sync.watch import SyncReport
from tui.widgets.bars import NavBar, StatusBar

if TYPE_CHECKING:
    from tui.app import LocalmindApp

T = TypeVar("T")
#: A table's columns: (key, heading) in order.
Columns = tuple[tuple[str, str], ...]

#: Terminals at least this wide get every column and panel side by side; narrower ones (the
#: default 80×24) a layout that keeps what matters readable (the screen's class ``-narrow``).
WIDE_FROM = 110
BREAKPOINTS = [(0, "-narrow"), (WIDE_FROM, "-wide")]


class Page(Screen[None]):
    PAGE: ClassVar[str]
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    @property
    def lm(self) -> LocalmindApp:
        return cast("LocalmindApp", self.app)

    @property
    def memory(self) -> Memory:
        memory = self.lm.memory
        assert memory is not None, "pages are only shown once the store is unlocked"
        return memory

    @property
    def narrow(self) -> bool:
        return self.app.size.width < WIDE_FROM

    def fit_columns(
        self,
        table: DataTable[object],
        wide: Columns,
        narrow: Columns,
        widths: Mapping[str, int] | None = None,
    ) -> bool:
        """Give ``table`` the columns for the terminal's width (``widths``: the fixed ones, so
        that the text column knows its room); True when they changed (then the table is
        empty: the caller shows its rows again)."""
        wanted = narrow if self.narrow else wide
        if [str(key.value) for key in table.columns] == [key for key, _ in wanted]:
            return False
        table.clear(columns=True)
        for key, label in wanted:
            table.add_column(label, key=key, width=(widths or {}).get(key))
        return True

    def compose(self) -> ComposeResult:
        yield NavBar(self.PAGE)
        yield from self.body()
        yield StatusBar(id="status")
        yield Footer()

    def body(self) -> ComposeResult:
        raise NotImplementedError

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        """Show the store as it is now (called whenever the page comes to the front)."""

    def synced(self, report: SyncReport) -> None:
        """A sync ran while this page is in front (its report says what came in)."""

    def in_background(
        self, job: Callable[[], T], done: Callable[[T], object] | None = None
    ) -> None:
        """Run ``job`` (store or model work) in a thread; then ``done(result)`` on the UI.
        A localmind error becomes a notification; the page stays as it was."""
        self._background(job, done)

    @work(thread=True, group="store")
    def _background(self, job: Callable[[], T], done: Callable[[T], object] | None) -> None:
        try:
            result = job()
        except LocalmindError as error:
            self.app.call_from_thread(self.notify, str(error), severity="error", markup=False)
            return
        if done is not None:
            self.app.call_from_thread(done, result)
        self.app.call_from_thread(self.lm.refresh_status)
