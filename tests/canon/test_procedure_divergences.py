"""The points of the Mestre's session procedure written for another game are open divergences
in the Árbitro's register, each quoting the procedure's own text."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from canon import seed
from canon.models import Correction, Divergence
from canon.services import registers_seed
from garganta_site.founding import campaign_create
from tests.gurps.helpers import PROCEDURE_PATH

TEXT = PROCEDURE_PATH.read_text(encoding="utf-8")
LINES = TEXT.split("\n")

# What the issue names, by the words the procedure uses: each is quoted by some divergence.
NAMED = [
    "teste de CON",
    "Teste de CON DC 12",
    "Teste de DES",
    "Teste de DES DC 12",
    "DESV",
    "dados de vida igual ao nível",
    "1 de sanidade",
    "2 de dano em Sabedoria",
    "teste de pânico",
    "Teste de Pânico",
    "1d4 de dano de CON",
    "Em um resultado de 5:6 o grupo está seguro.",
    "Pântano: 3:6",
]


def _quoted(line: str) -> bool:
    """A quoted line is the text's: a line or part of one; "label — cells" stands for a
    tab-separated row, or for a context label before the text's words."""
    line = line.removeprefix("…")
    if line in TEXT or line.replace(" — ", "\t") in LINES:
        return True
    _, _, rest = line.partition(" — ")
    return bool(rest) and rest.removeprefix("…") in TEXT


@pytest.mark.parametrize("item", seed.PROCEDURE_DIVERGENCES, ids=lambda i: i.source_key)
def test_each_divergence_quotes_the_procedure(item):
    assert item.side_a_label.startswith("Sessão do Mestre")
    lines = item.side_a.split("\n")
    assert lines and all(_quoted(line) for line in lines), [
        line for line in lines if not _quoted(line)
    ]
    assert item.reading, "each says what the site does meanwhile"


@pytest.mark.parametrize("words", NAMED)
def test_every_point_the_issue_names_is_quoted(words):
    assert words in TEXT
    assert any(words in item.side_a for item in seed.PROCEDURE_DIVERGENCES)


def test_the_fright_check_is_the_default_for_panic():
    for key in ("procedure:panic-table", "procedure:panic-test"):
        item = next(i for i in seed.PROCEDURE_DIVERGENCES if i.source_key == key)
        assert "§5b" in item.reading
        assert "Verificação de Pânico" in item.reading


def test_the_readings_chosen_for_n_in_6_are_registered():
    keys = {i.source_key for i in seed.PROCEDURE_DIVERGENCES}
    assert {"procedure:chance-notation", "procedure:make-camp-5-6"} <= keys


@pytest.mark.django_db
def test_a_campaign_s_register_has_each_open_and_quoting_the_procedure():
    campaign = campaign_create(slug="nova", name="Nova")
    for item in seed.PROCEDURE_DIVERGENCES:
        divergence = Divergence.objects.get(campaign=campaign, source_key=item.source_key)
        assert divergence.status == Divergence.Status.OPEN
        assert divergence.document == "Sessão do Mestre"
        assert divergence.side_a == item.side_a
        assert divergence.reading == item.reading


@pytest.mark.django_db
def test_seeding_twice_adds_no_procedure_divergence():
    campaign = campaign_create(slug="nova", name="Nova")
    before = Divergence.objects.filter(campaign=campaign).count()
    registers_seed(campaign=campaign)
    assert Divergence.objects.filter(campaign=campaign).count() == before
    assert Divergence.objects.filter(
        campaign=campaign, source_key__startswith="procedure:"
    ).count() == len(seed.PROCEDURE_DIVERGENCES)


# --- lines an earlier seed wrote, corrected where they still stand -------------------------------


def _as_seeded_before(campaign):
    """The register as an earlier seed left it: each corrected line as it then said."""
    for item in seed.DIVERGENCE_CORRECTIONS:
        Divergence.objects.filter(campaign=campaign, source_key=item.divergence_key).update(
            **{item.field: item.before}
        )
    Correction.objects.filter(
        campaign=campaign, source_key__in=[i.source_key for i in seed.DIVERGENCE_CORRECTIONS]
    ).delete()


@pytest.mark.django_db
def test_a_new_campaign_has_the_lines_as_they_are_now_with_no_correction():
    campaign = campaign_create(slug="nova", name="Nova")
    for item in seed.DIVERGENCE_CORRECTIONS:
        divergence = Divergence.objects.get(campaign=campaign, source_key=item.divergence_key)
        assert getattr(divergence, item.field) == item.after
    assert not Correction.objects.filter(campaign=campaign, target="divergence").exists()


@pytest.mark.django_db
def test_a_campaign_seeded_before_gets_its_lines_corrected_once_keeping_what_they_said():
    campaign = campaign_create(slug="nova", name="Nova")
    _as_seeded_before(campaign)
    registers_seed(campaign=campaign)
    registers_seed(campaign=campaign)
    for item in seed.DIVERGENCE_CORRECTIONS:
        divergence = Divergence.objects.prefetch_related("corrections").get(
            campaign=campaign, source_key=item.divergence_key
        )
        assert getattr(divergence, item.field) == item.before  # the row keeps what it said
        assert divergence.now[item.field] == item.after
        correction = Correction.objects.get(campaign=campaign, source_key=item.source_key)
        assert (correction.before, correction.after, correction.reason) == (
            item.before,
            item.after,
            item.reason,
        )


@pytest.mark.django_db
def test_a_line_the_arbitro_corrected_himself_is_left_as_he_left_it(arbitro):
    from canon.services import correction_create

    campaign = Campaign.objects.get(slug="a-garganta")
    _as_seeded_before(campaign)
    divergence = Divergence.objects.get(campaign=campaign, source_key="procedure:exhaustion")
    correction_create(
        entry=divergence,
        field="reading",
        after="A leitura do Árbitro.",
        reason="Dele.",
        user=arbitro,
    )
    registers_seed(campaign=campaign)
    assert not Correction.objects.filter(
        campaign=campaign, source_key="procedure:exhaustion-reading-counted"
    ).exists()
    fresh = Divergence.objects.prefetch_related("corrections").get(pk=divergence.pk)
    assert fresh.now["reading"] == "A leitura do Árbitro."


def test_the_exhaustion_reading_says_the_site_counts_it():
    item = next(i for i in seed.PROCEDURE_DIVERGENCES if i.source_key == "procedure:exhaustion")
    assert "não conta exaustão" not in item.reading
    assert "O site conta os pontos de exaustão" in item.reading
