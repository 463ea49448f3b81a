"""Where a secret (or a forgotten text) could still show or stay, surface by surface (leak11,
issue 13 item 4): the CLI's review list, what `add` says, and every file the commands leave
on disk. Real store, real embedder, the real CLI in-process."""

from __future__ import annotations

from pathlib import Path

from localmind.cli.memories import TYPED_SECRET
from localmind.cli.review import HIDDEN
from tests.cli_support import Cli

DOOR, DOOR_NEW = "The door code of the flat is 7391#", "The door code of the flat changed to 2280#"
PIN = "我的银行卡PIN是4821"
RENT, RENT_NEW = "My rent is 1200 euros a month", "My rent went up to 1450 euros a month"
DIGITS = ("7391", "2280")


def test_cli_conflicts_shows_a_secret_pair_only_with_reveal(cli: Cli) -> None:
    """The review list shows every pending pair at once: a secret side is dots (and the
    reason, which may quote it, waits too) unless --reveal, in text and JSON alike."""
    for text in (RENT, RENT_NEW, DOOR, DOOR_NEW):
        cli.ok("add", "-", input=text)
    listed = cli.ok("conflicts").stdout
    assert not any(d in listed for d in DIGITS)
    assert listed.count(HIDDEN) == 2 and "(with the texts: --reveal)" in listed
    assert RENT_NEW in listed and "why  may contradict" in listed  # a plain pair as it was
    document = cli.json("conflicts")
    assert not any(d in str(document) for d in DIGITS)
    secret = next(c for c in document if c["existing"]["secret"])
    assert secret["existing"]["content"] is None and secret["reason"] is None
    assert document[0]["existing"]["content"] == RENT

    revealed = cli.ok("conflicts", "--reveal").stdout
    assert DOOR in revealed and DOOR_NEW in revealed and HIDDEN not in revealed
    assert DOOR in str(cli.json("conflicts", "--reveal"))
    settled = cli.ok("resolve", str(secret["id"]), "take-new").stdout
    assert "is now version 2 — (a secret: `localmind show` shows it)" in settled
    assert not any(d in settled for d in DIGITS)


def test_add_names_a_pending_secret_without_its_text(cli: Cli) -> None:
    for text in (DOOR, DOOR_NEW):
        cli.ok("add", "-", input=text)
    again = cli.ok("add", "-", input=DOOR_NEW)  # told again: "it is in pending conflict #1"
    assert "pending conflict #1" in again.stdout and "(a secret)" in again.stdout
    assert "7391" not in again.output


def test_a_secret_typed_on_the_command_line_is_said_to_be_in_the_shell_history(
    cli: Cli,
) -> None:
    typed = cli.ok("add", PIN)
    assert "looks like a secret" in typed.stderr and TYPED_SECRET in typed.stderr
    piped = cli.ok("add", "-", input=DOOR + "\n")
    assert "looks like a secret" in piped.stderr and TYPED_SECRET not in piped.stderr
    assert DOOR in cli.contents()  # read whole from standard input, the line's end dropped
    plain = cli.ok("add", RENT)
    assert "history" not in plain.output
    assert "stays in your shell's history: give - instead" in " ".join(
        cli.ok("add", "--help").stdout.split()
    )


def _files_holding(root: Path, fragments: tuple[str, ...]) -> list[str]:
    return [
        f"{fragment!r} in {path.relative_to(root)}"
        for path in sorted(root.rglob("*"))
        if path.is_file()
        for fragment in fragments
        if fragment.encode() in path.read_bytes()
    ]
