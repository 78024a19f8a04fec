"""The layers hold (pyproject.toml's import-linter contracts) and scripts/structure.py finds no
import cycle, between modules or between apps."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

BROKEN_ELSEWHERE: set[str] = set()


def test_the_import_contracts_hold():
    run = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_structure_finds_no_cycle_but_those_being_broken():
    run = subprocess.run(
        [sys.executable, "scripts/structure.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    found, section = set(), None
    for line in run.stdout.splitlines():
        if line.startswith(("import cycles: ", "app import cycles: ")):
            section = "cycles"
        elif not line.startswith("  "):
            section = None
        elif section and not line.startswith("    "):  # a cycle; its imports go deeper
            found.add(line.strip())
    assert found <= BROKEN_ELSEWHERE, run.stdout
    assert run.returncode == (1 if found else 0), run.stdout
