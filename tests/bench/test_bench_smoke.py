"""The benchmarks run from a fresh install on tiny data (their figures live in
docs/benchmarks.md; this only proves the commands work end to end)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.personal import SETS

ROOT = Path(__file__).resolve().parents[2]


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_retrieval_scores_the_personal_set_beside_both_legs(tmp_path: Path) -> None:
    """The personal set lives in the repository (MADial and LoCoMo are read from outside it,
    so the suite does not run them)."""
    out = tmp_path / "retrieval.md"
    dump = tmp_path / "dump.json"
    result = run_bench(
        "retrieval",
        "--sets",
        "personal",
        "--questions",
        "12",
        "--out",
        str(out),
        "--dump",
        str(dump),
    )
    assert result.returncode == 0, result.stderr
    report = out.read_text(encoding="utf-8")
    for system in ("BM25 only", "dense only", "localmind recall (as shipped)"):
        assert f"| personal (ours) | {system} | 12 |" in report.replace("**", ""), system
    assert "personal2" not in report, "the held-out set runs only when named"
    assert "personal3" not in report, "the held-out set runs only when named"
    assert "personal4" not in report, "the held-out set runs only when named"
    assert "personal5" not in report, "the fifth set runs only when named"
    assert "personal6" not in report, "the sixth set runs only when named"
    assert (tmp_path / "retrieval.json").exists()
    fitted = run_bench("fit", str(dump))
    assert fitted.returncode == 0, fitted.stderr
    assert "FusionConfig(bias=" in fitted.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("named", "others"),
    [
        ("personal2", ("personal3", "personal4", "personal5")),
        ("personal3", ("personal2", "personal4", "personal5")),
        ("personal5", ("personal2", "personal3", "personal4")),
    ],
)
def test_retrieval_scores_the_held_out_set_when_named(
    tmp_path: Path, named: str, others: tuple[str, ...]
) -> None:
    out = tmp_path / "held-out.md"
    result = run_bench("retrieval", "--sets", named, "--questions", "6", "--out", str(out))
    assert result.returncode == 0, result.stderr
    report = out.read_text(encoding="utf-8").replace("**", "")
    assert f"`python -m bench retrieval --sets {named} --questions 6`" in report
    for system in ("BM25 only", "dense only", "localmind recall (as shipped)"):
        assert f"| {SETS[named].title} | {system} | 6 |" in report, system
    assert "personal (ours)" not in report
    for other in others:
        assert other not in report, "naming one held-out set runs only that one"


@pytest.mark.slow
def test_a_second_embedder_is_scored_beside_the_store_and_weighed_by_fit(tmp_path: Path) -> None:
    """The bundled model as its own second model: its brute-force ranking over the store's
    memories must score what the store's vector leg scores, and `bench fit` weighs its cosine."""
    out, dump = tmp_path / "retrieval.md", tmp_path / "dump.json"
    result = run_bench(
        "retrieval",
        "--sets",
        "personal",
        "--questions",
        "20",
        "--second-embedder",
        "use",
        "--out",
        str(out),
        "--dump",
        str(dump),
    )
    assert result.returncode == 0, result.stderr
    rows = {}
    for line in out.read_text(encoding="utf-8").replace("**", "").splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] == "personal (ours)" and len(cells) == 7:
            rows[cells[1]] = cells[3:6]  # R@1, R@5, R@10
    assert rows["second model, dense only"] == rows["dense only"]
    candidates = [c for q in json.loads(dump.read_text(encoding="utf-8")) for c in q["candidates"]]
    assert all(c["cos2"] == pytest.approx(c["cos"], abs=1e-3) for c in candidates if c["cos"])
    fitted = run_bench("fit", str(dump))
    assert fitted.returncode == 0, fitted.stderr
    assert "| personal (ours) | refitted with second |" in fitted.stdout
    assert "second_cosine=" in fitted.stdout


@pytest.mark.slow
def test_perf_quick_measures_a_small_store(tmp_path: Path) -> None:
    result = run_bench(
        "perf",
        "--quick",
        "--systems",
        "localmind-enc,localmind-plain,numpy",
        "--out",
        str(tmp_path),
        "--cache-dir",
        str(tmp_path / "cache"),
        "--plot",
        str(tmp_path / "latency.png"),
        "--coldstart-rounds",
        "0",  # its own test below
    )
    assert result.returncode == 0, result.stderr
    [report] = tmp_path.glob("perf-*.md")
    text = report.read_text(encoding="utf-8")
    assert "| 1k | localmind-enc |" in text and "| 1k | numpy |" in text
    assert "encryption overhead" in text


@pytest.mark.slow
def test_import_rate_times_both_kinds_of_import_side_by_side(tmp_path: Path) -> None:
    result = run_bench(
        "import-rate", "--sizes", "80", "--rounds", "1", "--cache-dir", str(tmp_path / "cache")
    )
    assert result.returncode == 0, result.stderr
    assert "| 80 | off |" in result.stdout and "| 80 | on |" in result.stdout
    assert "| 80 | on ÷ off |" in result.stdout


@pytest.mark.slow
def test_import_wait_runs_adds_while_a_real_import_runs() -> None:
    result = run_bench("import-wait", "--lines", "40")
    assert result.returncode == 0, result.stderr
    assert "import of 40 lines:" in result.stdout and "  Imported " in result.stdout
    said = result.stdout.splitlines()
    assert any("adds meanwhile" in line and "failed as busy" in line for line in said)
    assert said[-1].startswith("add wall (each a new process, start-up included): median ")


@pytest.mark.slow
def test_retrieval_scores_a_personal_set_imported_beside_told_one_by_one(tmp_path: Path) -> None:
    out = tmp_path / "retrieval.md"
    result = run_bench(
        "retrieval",
        "--sets",
        "personal",
        "--questions",
        "6",
        "--personal-imported",
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    report = out.read_text(encoding="utf-8").replace("**", "")
    assert "| personal (ours) | localmind recall (as shipped) | 6 |" in report
    imported = "| personal (ours), imported in one batch | localmind recall (as shipped) | 6 |"
    assert imported in report


@pytest.mark.slow
def test_perf_times_cold_starts_of_whole_processes(tmp_path: Path) -> None:
    result = run_bench(
        "perf", "--coldstart-only", "--coldstart-rounds", "5", "--out", str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    [report] = tmp_path.glob("coldstart-*.md")
    text = report.read_text(encoding="utf-8")
    assert "medians of 5 interleaved rounds" in text
    for command in ("`localmind --version`", "`localmind recall`", "`localmind add`"):
        assert f"| {command}" in text
    assert "answers `initialize`" in text and "empty model cache" in text
    [figures] = tmp_path.glob("coldstart-*.json")
    medians = json.loads(figures.read_text(encoding="utf-8"))["coldstart"]["median_s"]
    assert all(seconds > 0 for seconds in medians.values())


@pytest.mark.slow
def test_sync_throughput_carries_a_few_events(tmp_path: Path) -> None:
    out = tmp_path / "sync.md"
    result = run_bench("sync", "--events", "300", "--rounds", "1", "--out", str(out))
    assert result.returncode == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert "300 `add` events" in text and "events/s" in text


@pytest.mark.parametrize(
    ("sets", "variable", "named"),
    [
        ("madial", "LOCALMIND_MADIAL_DIR", "MADial-Bench"),
        # (the same path for another set, a ~1 s process: the full run's; polish13)
        pytest.param("locomo", "LOCALMIND_LOCOMO_DIR", "LoCoMo", marks=pytest.mark.slow),
    ],
)
def test_retrieval_without_its_outside_data_says_where_it_goes(
    tmp_path: Path, sets: str, variable: str, named: str
) -> None:
    """MADial-Bench and LoCoMo are not in the repository (a fresh clone has neither): one line
    naming the variable that points to them, not a traceback."""
    missing = tmp_path / "not-here"
    result = subprocess.run(
        [sys.executable, "-m", "bench", "retrieval", "--sets", sets],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, variable: str(missing)},
    )

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {named}") and variable in line and str(missing) in line


def test_the_vendored_madial_bench_holds_every_dialogue_and_its_gold_memories() -> None:
    """MADial-Bench's memories and dialogues are in the repository (MIT, with its licence), so
    its rows of `bench retrieval` need nothing beside a fresh clone."""
    from bench import madial

    assert (madial.VENDORED / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    for lang in madial.LANGUAGES:
        memories = {m.id: m for m in madial.load_memories(madial.VENDORED, lang)}
        dialogues = madial.load_dialogues(madial.VENDORED, lang)
        assert len(dialogues) == 160, lang
        for dialogue in dialogues:
            assert dialogue.gold and dialogue.gold <= set(memories), (lang, dialogue.index)
            assert {memories[i].user for i in dialogue.gold} == {dialogue.user}


@pytest.mark.slow
def test_retrieval_scores_madial_from_the_vendored_copy(tmp_path: Path) -> None:
    from bench import madial

    out = tmp_path / "retrieval.md"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "retrieval",
            "--sets",
            "madial en",
            "--questions",
            "5",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "LOCALMIND_MADIAL_DIR": str(madial.VENDORED)},
    )
    assert result.returncode == 0, result.stderr
    report = out.read_text(encoding="utf-8").replace("**", "")
    assert "| MADial en, plain recall | localmind recall (as shipped) | 5 |" in report


@pytest.mark.slow
@pytest.mark.parametrize(
    ("way", "said"),
    [
        ("remember-many", "  remembered 30: "),
        ("export-import", "  Imported "),
        ("sync", "  imported "),
    ],
)
def test_import_wait_times_one_process_adding_during_each_long_write(way: str, said: str) -> None:
    result = run_bench("import-wait", "--lines", "30", "--way", way, "--adder", "loop")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{way} of 30 lines:") and lines[1].startswith(said), lines[:2]
    assert any(line.endswith(" failed as busy") for line in lines)
    assert lines[-1].startswith("add wall (each Memory.remember in one process, its model ")
