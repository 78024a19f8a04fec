from __future__ import annotations

from decimal import Decimal

from django import forms
from django.forms import formset_factory

from gurps import damage, skill_costs
from gurps.errors import InvalidValue
from sheets.homologation import RETURN_NEEDS_REASON
from sheets.models import Item, Skill, Trait
from sheets.possessions import (
    LOOT_NEEDS_NAME,
    MAX_QUANTITY,
    MAX_WEIGHT_KG,
    QUANTITY_AT_LEAST_1,
    QUANTITY_TOO_LARGE,
    WEIGHT_NOT_NEGATIVE,
    WEIGHT_TOO_LARGE,
)


class LootForm(forms.Form):
    request_key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    name = forms.CharField(
        label="Espólio", max_length=200, error_messages={"required": LOOT_NEEDS_NAME}
    )
    weight_kg = forms.DecimalField(
        label="Peso (kg, cada)",
        max_digits=8,
        decimal_places=3,
        min_value=Decimal("0"),
        max_value=MAX_WEIGHT_KG,
        localize=True,  # "2,5" as the page writes it; "2.5" works too
        error_messages={
            "required": "Diga o peso em kg (0 se não pesa nada).",
            "min_value": WEIGHT_NOT_NEGATIVE,
            "max_value": WEIGHT_TOO_LARGE,
            "invalid": "Escreva o peso como número, em kg (ex.: 2,5).",
        },
    )
    quantity = forms.IntegerField(
        label="Quantidade",
        initial=1,
        min_value=1,
        max_value=MAX_QUANTITY,
        error_messages={
            "min_value": QUANTITY_AT_LEAST_1,
            "max_value": QUANTITY_TOO_LARGE,
            "required": QUANTITY_AT_LEAST_1,
        },
    )


class QuantityForm(forms.Form):
    quantity = forms.IntegerField(
        min_value=1,
        max_value=MAX_QUANTITY,
        error_messages={
            "min_value": QUANTITY_AT_LEAST_1,
            "max_value": QUANTITY_TOO_LARGE,
            "required": QUANTITY_AT_LEAST_1,
            "invalid": QUANTITY_AT_LEAST_1,
        },
    )


ATTRIBUTE_ERRORS = {
    "min_value": "Atributo mínimo é 1.",
    "max_value": "Acima de 30 não é um atributo desta campanha.",
    "required": "Obrigatório.",
    "invalid": "Número inteiro.",
}


class DraftForm(forms.Form):
    st = forms.IntegerField(label="ST", min_value=1, max_value=30, error_messages=ATTRIBUTE_ERRORS)
    dx = forms.IntegerField(label="DX", min_value=1, max_value=30, error_messages=ATTRIBUTE_ERRORS)
    iq = forms.IntegerField(label="IQ", min_value=1, max_value=30, error_messages=ATTRIBUTE_ERRORS)
    ht = forms.IntegerField(label="HT", min_value=1, max_value=30, error_messages=ATTRIBUTE_ERRORS)
    notes = forms.CharField(
        label="Notas", required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3})
    )


class SkillLineForm(forms.Form):
    name = forms.CharField(label="Perícia", max_length=200)
    # The initial values are what the blank row's selects post: left blank, the row is
    # unchanged and skipped, instead of failing on its empty NH and points.
    attribute = forms.ChoiceField(
        label="Atributo", choices=Skill.Attribute.choices, initial=Skill.Attribute.ST
    )
    difficulty = forms.ChoiceField(
        label="Dificuldade", choices=Skill.Difficulty.choices, initial=Skill.Difficulty.EASY
    )
    level = forms.IntegerField(label="NH", min_value=-10, max_value=40)
    points = forms.DecimalField(label="Pontos", min_value=0, max_digits=5, decimal_places=1)


class BaseSkillFormSet(forms.BaseFormSet):
    def clean(self):
        super().clean()
        names = set()
        for form in self.forms:
            if not form.cleaned_data or form.cleaned_data.get("DELETE"):
                continue
            if "name" not in form.cleaned_data:
                continue  # the field's own error is already shown
            name = form.cleaned_data["name"].strip().casefold()
            if name in names:
                form.add_error("name", "Perícia repetida nesta ficha.")
            names.add(name)


SkillFormSet = formset_factory(
    SkillLineForm, formset=BaseSkillFormSet, extra=1, can_delete=True, max_num=200
)


# --- a whole proposal: skill, trait and item lines of a draft ---------------------------------

POINTS_MAX = 999
POINTS_TOO_LARGE = "Mais de 999 pontos numa perícia: confira o número."
LEVEL_ERRORS = {
    "min_value": "NH de −10 para cima.",
    "max_value": "NH acima de 40: confira o número.",
    "invalid": "NH é um número inteiro.",
}


class DraftSkillLineForm(forms.Form):
    """A skill line of a draft: the player gives the points (the level comes from the cost
    table) or the level (the points come from it), or both; the page shows the other side."""

    name = forms.CharField(label="Perícia", max_length=200)
    # The initial values are what the blank row's selects post: left blank, the row is
    # unchanged and skipped, instead of failing on its empty name.
    attribute = forms.ChoiceField(
        label="Atributo", choices=Skill.Attribute.choices, initial=Skill.Attribute.ST
    )
    difficulty = forms.ChoiceField(
        label="Dificuldade", choices=Skill.Difficulty.choices, initial=Skill.Difficulty.EASY
    )
    points = forms.CharField(
        label="Pontos",
        required=False,
        max_length=12,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 4}),
    )
    level = forms.IntegerField(
        label="NH", required=False, min_value=-10, max_value=40, error_messages=LEVEL_ERRORS
    )

    def clean_points(self):
        text = self.cleaned_data["points"].strip()
        if not text:
            return None
        try:
            value = skill_costs.require_halves(text)
        except InvalidValue as error:
            raise forms.ValidationError(error.message) from None
        if value > POINTS_MAX:
            raise forms.ValidationError(POINTS_TOO_LARGE)
        return value


class TraitLineForm(forms.Form):
    name = forms.CharField(label="Nome", max_length=200)
    kind = forms.ChoiceField(label="Tipo", choices=Trait.Kind.choices, initial=Trait.Kind.ADVANTAGE)
    key = forms.ChoiceField(label="O motor lê", choices=Trait.Key.choices, required=False)
    level = forms.IntegerField(label="Nível", required=False, min_value=0, max_value=100)
    points = forms.IntegerField(
        label="Pontos",
        min_value=-1000,
        max_value=1000,
        error_messages={"required": "Diga os pontos (0 se não custa nada)."},
    )


ITEM_NUMBER_ERRORS = {"invalid": "Um número inteiro.", "min_value": "Não pode ser negativo."}


class ItemLineForm(forms.Form):
    """An item (kg, quantity, PD/RD) or a weapon (damage as the sheet writes it, its skill,
    parry kind, ranged TR/Prec/½D/Max)."""

    name = forms.CharField(label="Item", max_length=200)
    weight_kg = forms.DecimalField(
        label="kg (cada)",
        max_digits=8,
        decimal_places=3,
        min_value=Decimal("0"),
        max_value=MAX_WEIGHT_KG,
        localize=True,
        error_messages={
            "required": "Diga o peso em kg (0 se não pesa nada).",
            "min_value": WEIGHT_NOT_NEGATIVE,
            "max_value": WEIGHT_TOO_LARGE,
            "invalid": "Escreva o peso como número, em kg (ex.: 2,5).",
        },
    )
    quantity = forms.IntegerField(
        label="Qtd.",
        initial=1,
        min_value=1,
        max_value=MAX_QUANTITY,
        error_messages={
            "min_value": QUANTITY_AT_LEAST_1,
            "max_value": QUANTITY_TOO_LARGE,
            "required": QUANTITY_AT_LEAST_1,
        },
    )
    passive_defense = forms.IntegerField(
        label="PD", initial=0, min_value=0, max_value=20, error_messages=ITEM_NUMBER_ERRORS
    )
    damage_resistance = forms.IntegerField(
        label="RD", initial=0, min_value=0, max_value=100, error_messages=ITEM_NUMBER_ERRORS
    )
    is_shield = forms.BooleanField(label="Escudo", required=False)
    damage = forms.CharField(label="Dano", required=False, max_length=60)
    skill_name = forms.CharField(label="Perícia", required=False, max_length=200)
    parry = forms.ChoiceField(label="Apara", choices=Item.Parry.choices, required=False)
    ranged_snap_shot = forms.IntegerField(
        label="TR", required=False, min_value=0, max_value=30, error_messages=ITEM_NUMBER_ERRORS
    )
    ranged_accuracy = forms.IntegerField(
        label="Prec", required=False, min_value=0, max_value=30, error_messages=ITEM_NUMBER_ERRORS
    )
    ranged_half_damage_m = forms.IntegerField(
        label="½D (m)", required=False, min_value=0, max_value=100000,
        error_messages=ITEM_NUMBER_ERRORS,
    )  # fmt: skip
    ranged_max_m = forms.IntegerField(
        label="Máx (m)", required=False, min_value=0, max_value=100000,
        error_messages=ITEM_NUMBER_ERRORS,
    )  # fmt: skip
    carried_by_default = forms.BooleanField(label="Leva consigo", required=False, initial=True)

    def clean_damage(self):
        text = self.cleaned_data["damage"].strip()
        if text:
            try:
                damage.weapon_damage(text, 10)
            except InvalidValue as error:
                raise forms.ValidationError(error.message) from None
        return text


class BaseLineFormSet(forms.BaseFormSet):
    """Lines of one kind; two with the same name (any case) are refused next to the name."""

    repeated = "Linha repetida nesta ficha."

    def clean(self):
        super().clean()
        names = set()
        for form in self.forms:
            if not form.cleaned_data or form.cleaned_data.get("DELETE"):
                continue
            if "name" not in form.cleaned_data:
                continue
            name = form.cleaned_data["name"].strip().casefold()
            if name in names:
                form.add_error("name", self.repeated)
            names.add(name)

    def lines(self) -> list[dict]:
        """The kept lines' values, in order (deleted and untouched blank rows left out)."""
        return [
            {k: v for k, v in form.cleaned_data.items() if k != "DELETE"}
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]


class BaseDraftSkillFormSet(BaseLineFormSet):
    repeated = "Perícia repetida nesta ficha."


DraftSkillFormSet = formset_factory(
    DraftSkillLineForm, formset=BaseDraftSkillFormSet, extra=1, can_delete=True, max_num=200
)
TraitFormSet = formset_factory(
    TraitLineForm, formset=BaseLineFormSet, extra=1, can_delete=True, max_num=200
)
ItemFormSet = formset_factory(
    ItemLineForm, formset=BaseLineFormSet, extra=1, can_delete=True, max_num=200
)

IMPORT_MAX_CHARS = 20_000
IMPORT_TOO_LONG = (
    "O texto tem {count} caracteres; o máximo é 20.000 (uma ficha cabe folgada). Cole só a ficha."
)
IMPORT_EMPTY = "Cole o texto da ficha: uma linha por atributo, perícia, vantagem ou item."


class ImportForm(forms.Form):
    text = forms.CharField(
        label="Ficha como texto",
        widget=forms.Textarea(attrs={"rows": 8}),
        strip=False,
        error_messages={"required": IMPORT_EMPTY},
    )

    def clean_text(self):
        text = self.cleaned_data["text"]
        if len(text) > IMPORT_MAX_CHARS:
            raise forms.ValidationError(
                IMPORT_TOO_LONG.format(count=f"{len(text):,}".replace(",", "."))
            )
        if not text.strip():
            raise forms.ValidationError(IMPORT_EMPTY)
        return text


class ReturnForm(forms.Form):
    reason = forms.CharField(
        label="Motivo",
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": RETURN_NEEDS_REASON},
    )
