"""The Xuleta's site tests: the text's sentences (``quote``), here too."""

from tests.xuleta.conftest import quote  # noqa: F401
