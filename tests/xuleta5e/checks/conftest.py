"""The checks' tests quote the text as the engine's do (``tests.xuleta.conftest.quote``)."""

from tests.xuleta.conftest import quote  # noqa: F401
