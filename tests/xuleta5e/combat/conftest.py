"""The Xuleta's combat tests on the site: the text's ``quote`` fixture (tests.xuleta)."""

from tests.xuleta.conftest import quote  # noqa: F401 - a fixture
