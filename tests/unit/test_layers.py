"""The layers hold: import-linter's contracts in pyproject.toml (the core never imports a front
end or their libraries; the TUI over sync over the core; the core's own layers, every module
placed; the domain's order; the store imports nothing above it) pass, and an import that breaks
them is caught. And only the store speaks SQL, and only it imports the database library."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("localmind", "tui", "sync")
STORE = ROOT / "localmind" / "store"

# SQL as the code writes it: upper-case keywords, in string literals that are not docstrings.
SQL = re.compile(
    r"\b(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|PRAGMA|"
    r"CREATE\s+(TABLE|INDEX|TRIGGER|VIRTUAL\s+TABLE)|DROP\s+(TABLE|INDEX|TRIGGER))\b"
)
# Calls that run a statement on a connection (or the store's escape hatch for aggregates).
RUNS_SQL = {"execute", "executemany", "executescript", "scalar"}
# Modules outside localmind/store allowed to name SQL, each with its reason. Empty: keep it so.
ALLOWED: dict[str, str] = {}


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


#: Imports that break a contract, each with what lint-imports says of it.
BREAKS = [
    # a record that reaches up into the domain
    ("localmind/records.py", "localmind.recall", "localmind.records is not allowed"),
    # the facade reaching for a front end
    ("localmind/memory.py", "localmind.cli", "localmind.memory is not allowed"),
    # reading and judging are independent: a shared type goes below both
    ("localmind/recall.py", "localmind.lifecycle", "localmind.recall is not allowed"),
    # the sync engine runs without the TUI
    ("sync/__init__.py", "tui.app", "sync is not allowed to import tui"),
    # the store speaks SQL for the domain, never the other way round
    ("localmind/store/meta.py", "localmind.recall", "localmind.store.meta -> localmind.recall"),
    # a front end reaches the database through the store
    ("sync/watch.py", "apsw", "sync.watch -> apsw"),
    # ... and so does the rest of the core: its errors and types are the store's names
    ("localmind/rollback.py", "apsw", "localmind.rollback -> apsw"),
    ("localmind/cli/errors.py", "apsw", "localmind.cli.errors -> apsw"),
]


def test_imports_up_the_layers_and_a_module_without_a_layer_are_refused(
    copy_of_the_code: Path,
) -> None:
    # every break at once, one lint-imports run (~1 s); each alone: the two tests below
    for module, imported, _ in BREAKS:
        with (copy_of_the_code / module).open("a") as source:
            source.write(f"\nimport {imported}  # noqa\n")
    (copy_of_the_code / "localmind" / "newcomer.py").write_text('"""Not placed yet."""\n')
    result = lint_imports(copy_of_the_code)
    assert result.returncode != 0
    for _, _, refusal in BREAKS:
        assert refusal in result.stdout
    assert "localmind.newcomer" in result.stdout


# (the full run's: one lint-imports run for each break, ~1 s each; polish13)
@pytest.mark.slow
@pytest.mark.parametrize(("module", "imported", "refusal"), BREAKS)
def test_an_import_up_the_layers_is_refused(
    copy_of_the_code: Path, module: str, imported: str, refusal: str
) -> None:
    with (copy_of_the_code / module).open("a") as source:
        source.write(f"\nimport {imported}  # noqa\n")
    result = lint_imports(copy_of_the_code)
    assert result.returncode != 0
    assert refusal in result.stdout


@pytest.mark.slow
def test_a_new_core_module_must_be_given_a_layer(copy_of_the_code: Path) -> None:
    (copy_of_the_code / "localmind" / "newcomer.py").write_text('"""Not placed yet."""\n')
    result = lint_imports(copy_of_the_code)
    assert result.returncode != 0
    assert "localmind.newcomer" in result.stdout


#: What a module that names SQL holds somewhere in its text: most hold neither, and are not
#: parsed (the walk over every module's tree took ~2 s; polish13).
MAY_NAME_SQL = re.compile(SQL.pattern + r"|\.\s*(" + "|".join(RUNS_SQL) + r")\b")


def sql_in(source: str) -> list[str]:
    """Where ``source`` names SQL: a statement in a string, or a call that runs one."""
    if not MAY_NAME_SQL.search(source):
        return []
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and SQL.search(node.value)
        ):
            found.append(f"line {node.lineno}: {node.value[:60]!r}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in RUNS_SQL
        ):
            found.append(f"line {node.lineno}: .{node.func.attr}(...)")
    return found


def test_only_the_store_speaks_sql() -> None:
    modules = [
        path
        for package in ("localmind", "tui", "sync")
        for path in sorted((ROOT / package).rglob("*.py"))
        if STORE not in path.parents
    ]
    assert len(modules) > 50  # the walk found the code
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in modules
        if (found := sql_in(path.read_text(encoding="utf-8")))
        and str(path.relative_to(ROOT)) not in ALLOWED
    }
    assert offenders == {}


def test_the_sql_check_sees_statements_and_calls() -> None:
    source = (
        '"""SELECT in a docstring is prose."""\n'
        'rows = db.execute(f"SELECT id FROM memories WHERE namespace = {x}")\n'
        "store.scalar(query)\n"
        'label = "Select a memory"\n'
    )
    assert sorted(sql_in(source)) == [
        "line 2: 'SELECT id FROM memories WHERE namespace = '",
        "line 2: .execute(...)",
        "line 3: .scalar(...)",
    ]
