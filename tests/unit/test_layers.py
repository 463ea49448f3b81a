"""The layers hold: import-linter's contracts in pyproject.toml (the core never imports a front
end or their libraries; the TUI over sync over the core; the core's own layers, every module
placed; the domain's order) pass, and an import that breaks them is caught."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("localmind", "tui", "sync")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    return subprocess.run(
        [lint, "--no-cache", "--no-logo"], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_every_contract_holds() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(contracts)} kept, 0 broken." in result.stdout


@pytest.fixture
def copy_of_the_code(tmp_path: Path) -> Path:
    """The three packages and pyproject.toml, copied, to break on purpose."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("module", "imported", "refusal"),
    [
        # a record that reaches up into the domain
        ("localmind/records.py", "localmind.recall", "localmind.records is not allowed"),
        # the facade reaching for a front end
        ("localmind/memory.py", "localmind.cli", "localmind.memory is not allowed"),
        # reading and judging are independent: a shared type goes below both
        ("localmind/recall.py", "localmind.lifecycle", "localmind.recall is not allowed"),
        # the sync engine runs without the TUI
        ("sync/__init__.py", "tui.app", "sync is not allowed to import tui"),
    ],
)
def test_an_import_up_the_layers_is_refused(
    copy_of_the_code: Path, module: str, imported: str, refusal: str
) -> None:
    with (copy_of_the_code / module).open("a") as source:
        source.write(f"\nimport {imported}  # noqa\n")
    result = lint_imports(copy_of_the_code)
    assert result.returncode != 0
    assert refusal in result.stdout


def test_a_new_core_module_must_be_given_a_layer(copy_of_the_code: Path) -> None:
    (copy_of_the_code / "localmind" / "newcomer.py").write_text('"""Not placed yet."""\n')
    result = lint_imports(copy_of_the_code)
    assert result.returncode != 0
    assert "localmind.newcomer" in result.stdout
