"""The numbers behind the sheet page and the API (sheets.computed.sheet_view)."""

from __future__ import annotations

from decimal import Decimal

from sheets.computed import sheet_view
from sheets.models import Possession
from sheets.reads import homologated_version


def test_the_jurado_at_seed_is_carga_leve_with_block_12(jurado):
    view = sheet_view(jurado)
    d = view.derived
    assert view.carried_kg == Decimal("23")  # mail 11.5 + shield 7 + gládio 1.5 + pack 3
    assert (d.encumbrance.level, d.encumbrance.name) == (1, "Leve")
    assert (d.move, d.dodge, d.block, d.passive_defense) == (5, 5, 7, 5)
    assert d.block_total == 12  # canon §4.6: 7 + 2 + 3


def test_the_jurado_with_his_companions_loot_drops_to_carga_media_and_loses_a_dodge(jurado):
    before = sheet_view(jurado).derived
    Possession.objects.filter(character=jurado, item__isnull=True).update(carried=True)

    view = sheet_view(jurado)
    d = view.derived
    assert view.carried_kg == Decimal("34")
    assert (d.encumbrance.level, d.encumbrance.name) == (2, "Média")
    assert (d.move, d.dodge) == (4, 4)
    assert d.dodge - before.dodge == -1  # canon case jurado-carga
    assert d.block_total == 12  # Carga does not touch Block


def test_a_shield_without_the_shield_skill_keeps_its_pd_but_gives_no_block(jurado):
    version = homologated_version(jurado)
    version.skills.filter(name__iexact="Escudo").delete()
    d = sheet_view(jurado).derived
    assert (d.block, d.block_total, d.passive_defense) == (None, None, 5)  # mail 3 + shield 2


def test_the_hoplitas_weapons_do_damage_from_st_12(hoplita):
    view = sheet_view(hoplita)
    weapons = {w.name: (w.written, w.expression, w.skill_level) for w in view.weapons}
    assert weapons["Gládio"] == ("Bal corte", "1d+2", 14)
    assert weapons["Lança"] == ("GDP+1 perf", "1d", 17)


def test_a_character_without_a_homologated_version_has_no_sheet_view(demo, jogador):
    character = demo.characters.create(name="Recém-chegado", owner=jogador)
    assert sheet_view(character) is None
