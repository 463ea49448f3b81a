"""The command palette's localmind actions (Ctrl+P): every page and the main jobs by name, and
every action of the page in front (forget, pin, confirm, … on Memories), as its keys do."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.screens.base import Page
from tui.screens.help import keys_of

if TYPE_CHECKING:
    from tui.app import LocalmindApp

Command = tuple[str, str, Callable[[], Awaitable[None]]]


async def _run(screen: Page, action: str) -> None:
    await screen.run_action(action)


#: The palette's own entries for a page's action: that page's entry of the action is left out,
#: so the palette does not list both "Search memories" and "Memories: Search".
JOBS: tuple[tuple[str, str, str, str], ...] = (
    ("Search memories", "Find memories by meaning and words", "memories", "search"),
    ("Rebuild profile", "Build the profile again now", "profile", "rebuild"),
    ("Run maintenance", "Expire, decay and archive now", "health", "maintain"),
)


class LocalmindCommands(Provider):
    def _commands(self) -> list[Command]:
        app = cast("LocalmindApp", self.app)
        if app.memory is None:
            return []
        jobs = {page: (title, help_text, action) for title, help_text, page, action in JOBS}

        def job(page: str) -> Command:
            title, help_text, action = jobs[page]
            return (title, help_text, partial(app.go, page, action))

        return [
            ("Chat", "Talk with your local model", partial(app.go, "chat")),
            ("Memories", "Browse, search and correct memories", partial(app.go, "memories")),
            job("memories"),
            ("Conflicts", "Review memories that may contradict", partial(app.go, "conflicts")),
            ("Profile", "The profile the assistant is given", partial(app.go, "profile")),
            job("profile"),
            ("Health", "Counts, capacity, activity, latency", partial(app.go, "health")),
            job("health"),
            ("Sync", "Sync status, devices and the last sync (Health)", partial(app.go, "health")),
            ("Keys", "Every key binding", app.show_help),
            *self._page_actions(),
        ]

    def _page_actions(self) -> list[Command]:
        """Every action the page in front has a key for, by its name (with the key), but those
        the palette already offers as jobs."""
        screen = self.screen
        if not isinstance(screen, Page):
            return []
        page = screen.PAGE.capitalize()
        offered = {(job_page, action) for _, _, job_page, action in JOBS}
        commands: list[Command] = []
        for binding in screen.BINDINGS:
            if (
                isinstance(binding, Binding)
                and binding.description
                and (screen.PAGE, binding.action) not in offered
            ):
                commands.append(
                    (
                        f"{page}: {binding.description}",
                        f"{keys_of(binding)} on this page",
                        partial(_run, screen, binding.action),
                    )
                )
        return commands

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
