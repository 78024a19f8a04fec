"""The calculator of the rules pages (/regras/calculadora/): one form per question.

Each form reads its fields, asks ``gurps`` in ``clean()`` and keeps the answer in
``.result``. The engine's errors are translated here, at the edge, and nowhere else: an
``InvalidValue`` goes next to the form field it names (``engine_fields`` maps the engine's
field to the form's), an ``OutsideCanon`` is kept in ``.outside_canon`` for the page to say
that the canon has no number and offer the Árbitro a divergence.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from django import forms

from gurps import checks, damage, falls, ranged
from gurps.dice import three_d6_distribution
from gurps.errors import (
    DISTANCE_NOT_A_NUMBER,
    FALL_HEIGHT_NOT_A_NUMBER,
    NEGATIVE_FALL_HEIGHT,
    NEGATIVE_SPEED,
    SPEED_NOT_A_NUMBER,
    InvalidValue,
    NoRollAtThreeOrLess,
    OutsideCanon,
)
from gurps.tabular import signed

# Plain decimals only ("13,5", "7", "-2"): an exponent such as "1e999999999" would make the
# exact Fraction the engine builds take the whole server's memory.
_PLAIN_NUMBER = re.compile(r"\s*[-+]?\d{1,9}(?:[.,]\d{1,6})?\s*")

INTEGER_ERRORS = {"invalid": "Escreva um número inteiro, p.ex. 12."}


def percent_text(p: Fraction) -> str:
    """A chance as a percent truncated to one decimal, the Brazilian way: 4/216 → "1,8%".
    Truncated, like the canon's own table (§1.1), so it never promises more than it is."""
    tenths = math.floor(Fraction(p) * 1000)
    whole, tenth = divmod(tenths, 10)
    return f"{whole}%" if tenth == 0 else f"{whole},{tenth}%"


def _plain_number(value: str, message: str) -> str:
    if not _PLAIN_NUMBER.fullmatch(value):
        raise forms.ValidationError(message)
    return value.strip()


class CalculatorForm(forms.Form):
    """Base of the four calculators. ``name`` is the form's prefix and the partial that
    shows it; ``engine_fields`` maps an ``InvalidValue.field`` to a form field."""

    name: str = ""
    engine_fields: dict[str, str] = {}

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("prefix", self.name)
        super().__init__(*args, **kwargs)
        self.result = None
        self.outside_canon: OutsideCanon | None = None

    def calculate(self, data: dict):
        raise NotImplementedError

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            self.result = self.calculate(cleaned)
        except InvalidValue as error:
            self.add_error(self.engine_fields.get(error.field), error.message)
        except OutsideCanon as error:
            self.outside_canon = error
        return cleaned

    def asked(self) -> str:
        """The question as the reader asked it, in Portuguese ("dano com ST 21")."""
        return ""

    def divergence_context(self) -> str:
        """What was asked and what the engine said, for the divergence the Árbitro may open."""
        message = self.outside_canon.message if self.outside_canon else ""
        return f"Calculadora das regras, {self.asked()}: {message}"


# --- (a) the odds at a level (§1.1–1.2) ---------------------------------------------------------


@dataclass(frozen=True)
class RollFace:
    """One total of 3d6 at the level asked: how many of the 216 rolls give it, and what it is."""

    total: int
    ways: int
    outcome: checks.Outcome
    name: str


@dataclass(frozen=True)
class OddsResult:
    level: int
    percent: int
    success: Fraction
    critical_success: Fraction
    critical_failure: Fraction
    faces: tuple[RollFace, ...]
    refusal: str | None

    @property
    def success_ways(self) -> int:
        return int(self.success * 216)

    @property
    def critical_success_ways(self) -> int:
        return int(self.critical_success * 216)

    @property
    def critical_failure_ways(self) -> int:
        return int(self.critical_failure * 216)

    @property
    def critical_success_percent(self) -> str:
        return percent_text(self.critical_success)

    @property
    def critical_failure_percent(self) -> str:
        return percent_text(self.critical_failure)

    def _totals(self, outcome: checks.Outcome) -> str:
        totals = [str(face.total) for face in self.faces if face.outcome is outcome]
        if len(totals) > 1:
            return ", ".join(totals[:-1]) + " ou " + totals[-1]
        return "".join(totals)

    @property
    def critical_success_totals(self) -> str:
        return self._totals(checks.Outcome.CRITICAL_SUCCESS)

    @property
    def critical_failure_totals(self) -> str:
        return self._totals(checks.Outcome.CRITICAL_FAILURE)


class OddsForm(CalculatorForm):
    name = "odds"
    engine_fields = {"level": "level"}

    level = forms.IntegerField(label="NH", error_messages=INTEGER_ERRORS)

    def calculate(self, data: dict) -> OddsResult:
        level = data["level"]
        distribution = three_d6_distribution()
        faces = []
        for total, ways in distribution.items():
            outcome = checks.success_outcome(total, level)
            faces.append(RollFace(total, ways, outcome, checks.OUTCOME_NAMES[outcome]))
        try:
            checks.ensure_rollable(level, checks.RollKind.SKILL)
            refusal = None
        except NoRollAtThreeOrLess as error:
            refusal = error.message
        success = checks.success_probability(level)
        return OddsResult(
            level=level,
            percent=checks.percent_truncated(success),
            success=success,
            critical_success=checks.critical_success_probability(level),
            critical_failure=checks.critical_failure_probability(level),
            faces=tuple(faces),
            refusal=refusal,
        )


# --- (b) damage at a ST (§4.9) ------------------------------------------------------------------


@dataclass(frozen=True)
class DamageResult:
    st: int
    row: damage.BasicDamageRow
    weapon: damage.WeaponDamage | None

    @property
    def weapon_type(self) -> str:
        if self.weapon is None or self.weapon.damage_type is None:
            return ""
        return damage.DAMAGE_TYPE_NAMES[self.weapon.damage_type]


class DamageForm(CalculatorForm):
    name = "damage"
    engine_fields = {"st": "st", "damage": "weapon"}

    st = forms.IntegerField(label="ST", error_messages=INTEGER_ERRORS)
    weapon = forms.CharField(
        label="Arma (opcional)",
        required=False,
        max_length=60,
        widget=forms.TextInput(attrs={"placeholder": "p.ex. GDP+1 perf"}),
    )

    def calculate(self, data: dict) -> DamageResult:
        st = data["st"]
        row = damage.basic_damage(st)
        weapon = damage.weapon_damage(data["weapon"], st) if data["weapon"] else None
        return DamageResult(st=st, row=row, weapon=weapon)

    def asked(self) -> str:
        weapon = self.cleaned_data.get("weapon")
        return f"dano com ST {self.cleaned_data.get('st')}" + (
            f", arma «{weapon}»" if weapon else ""
        )


# --- (c) a fall (§4.12) -------------------------------------------------------------------------


ARMOUR_NONE = "none"


@dataclass(frozen=True)
class FallResult:
    metres: int
    acrobatics_passed: bool
    effective_metres: int
    band: falls.FallBand
    damage: str
    ceiling_reached: bool
    armour: str
    wears_armour: bool
    dr: int
    dr_against_fall: int | None


class FallForm(CalculatorForm):
    name = "fall"
    engine_fields = {"metres": "metres", "dr": "dr", "armour": "armour"}

    metres = forms.CharField(
        label="Altura (m)",
        max_length=20,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "placeholder": "p.ex. 6"}),
    )
    acrobatics_passed = forms.BooleanField(label="Passou em Acrobacia", required=False)
    armour = forms.ChoiceField(
        label="Armadura",
        choices=(
            (ARMOUR_NONE, "Nenhuma"),
            (falls.FallArmour.METAL.value, "Metal medieval"),
            (falls.FallArmour.LEATHER.value, "Couro"),
            (falls.FallArmour.OTHER.value, "Outra"),
        ),
        initial=ARMOUR_NONE,
    )
    dr = forms.IntegerField(label="RD", required=False, initial=0, error_messages=INTEGER_ERRORS)

    def clean_metres(self) -> str:
        return _plain_number(self.cleaned_data["metres"], FALL_HEIGHT_NOT_A_NUMBER)

    def calculate(self, data: dict) -> FallResult:
        height = ranged.to_metres(
            data["metres"], "metres", FALL_HEIGHT_NOT_A_NUMBER, NEGATIVE_FALL_HEIGHT
        )
        passed = data["acrobatics_passed"]
        effective = falls.effective_fall_height(height, acrobatics_passed=passed)
        dr = data["dr"] or 0
        armour = data["armour"]
        dr_counts = None
        if armour == ARMOUR_NONE:
            dr_counts = 0
        else:
            try:
                dr_counts = falls.dr_against_fall(dr, armour)
            except OutsideCanon as error:
                # The damage still stands; only the armour's part has no number.
                self.outside_canon = error
        expression = falls.fall_damage(effective)
        return FallResult(
            metres=int(height),
            acrobatics_passed=passed,
            effective_metres=effective,
            band=falls.fall_band(effective),
            damage=expression.display.upper(),  # the canon writes falls with a capital D
            ceiling_reached=effective > falls.FALL_CEILING_METRES,
            armour=dict(self.fields["armour"].choices)[armour],
            wears_armour=armour != ARMOUR_NONE,
            dr=dr,
            dr_against_fall=dr_counts,
        )

    def asked(self) -> str:
        data = self.cleaned_data
        armour = dict(self.fields["armour"].choices).get(data.get("armour"), "")
        acrobatics = "passou" if data.get("acrobatics_passed") else "não passou"
        return (
            f"queda de {data.get('metres')} m, Acrobacia {acrobatics}, "
            f"armadura {armour.lower()} de RD {data.get('dr') or 0}"
        )


# --- (d) a range (§4.11) ------------------------------------------------------------------------


@dataclass(frozen=True)
class RangeResult:
    distance_m: Fraction
    speed_mps: Fraction
    row: ranged.RangeRow

    @property
    def total(self) -> Fraction:
        return self.distance_m + self.speed_mps

    @property
    def modifier(self) -> str:
        return signed(self.row.modifier)


class RangeForm(CalculatorForm):
    name = "range"
    engine_fields = {"distance_m": "distance_m", "speed_mps": "speed_mps"}

    distance_m = forms.CharField(
        label="Distância (m)",
        max_length=20,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "placeholder": "p.ex. 13,5"}),
    )
    speed_mps = forms.CharField(
        label="Velocidade (m/s)",
        max_length=20,
        required=False,
        initial="0",
        widget=forms.TextInput(attrs={"inputmode": "decimal", "placeholder": "0 se parado"}),
    )

    def clean_distance_m(self) -> str:
        return _plain_number(self.cleaned_data["distance_m"], DISTANCE_NOT_A_NUMBER)

    def clean_speed_mps(self) -> str:
        return _plain_number(self.cleaned_data["speed_mps"] or "0", SPEED_NOT_A_NUMBER)

    def calculate(self, data: dict) -> RangeResult:
        row = ranged.range_row(data["distance_m"], data["speed_mps"])
        return RangeResult(
            distance_m=ranged.to_metres(data["distance_m"]),
            speed_mps=ranged.to_metres(
                data["speed_mps"], "speed_mps", SPEED_NOT_A_NUMBER, NEGATIVE_SPEED
            ),
            row=row,
        )

    def asked(self) -> str:
        data = self.cleaned_data
        return f"alvo a {data.get('distance_m')} m, a {data.get('speed_mps') or 0} m/s"


CALCULATORS: dict[str, type[CalculatorForm]] = {
    form.name: form for form in (OddsForm, DamageForm, FallForm, RangeForm)
}
