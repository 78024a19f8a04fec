"""The readings gurps.combat depends on are all in gurps.readings."""

from __future__ import annotations

from gurps.readings import READINGS_BY_KEY


def test_every_reading_the_module_names_exists() -> None:
    for key in (
        "half_move_rounds_down",
        "terrain_move_rounds_down",
        "simple_order_tie_reroll",
        "feint_margin_is_own_margin",
        "grapple_dx_then_st",
        "grapple_tie_break",
        "attack_17_at_16_plus",
        "defence_roll_on_passive_only",
        "forced_ht_roll_at_three_or_less",
        "critical_multiplier_before_all_out_bonus",
        "critical_head_damage_when_unsaid",
        "faint_roll_for_named_npcs",
        "fled_fight_seconds",
    ):
        assert key in READINGS_BY_KEY
