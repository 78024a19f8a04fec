"""The texts the project is built from live in the repository (docs/canon/, docs/cases/), so a
clone alone has everything its tests read. When the shared folder they were copied from sits
beside the repository (../shared/, as on the developers' machines), the copies must be the
same text: a difference is a new version of the canon that nobody brought in yet."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
COPIES = {
    "docs/canon/como-se-joga.md": "canon/como-se-joga.md",
    "docs/canon/sessao-do-mestre.txt": "canon/sessao-do-mestre.txt",
    "docs/canon/custo-de-pericias.md": "canon/custo-de-pericias.md",
    "docs/canon/README.md": "canon/README.md",
    "docs/canon/xuleta-5e-ca.txt": "canon/xuleta-5e-ca.txt",
    "docs/canon/outro-sistema-combate.txt": "canon/outro-sistema-combate.txt",
    "docs/cases/canon-examples.json": "cases/canon-examples.json",
}


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_the_repository_holds_each_text_it_is_built_from(copy: str) -> None:
    assert (ROOT / copy).read_text(encoding="utf-8").strip(), f"{copy} is missing or empty"


@pytest.mark.parametrize(("copy", "source"), sorted(COPIES.items()))
def test_a_shared_folder_beside_the_repository_has_the_same_texts(copy: str, source: str):
    original = SHARED / source
    if not original.exists():
        pytest.skip(f"no {original} beside the repository: the copy in {copy} is the text")
    assert (ROOT / copy).read_bytes() == original.read_bytes(), (
        f"{original} differs from the repository's {copy}: a new version of the text. Read "
        f"what changed, copy it into {copy}, and bring the code and tests in line with it."
    )
