from __future__ import annotations

from decimal import Decimal

from django import forms
from django.forms import formset_factory

from sheets import services
from sheets.models import Skill


class LootForm(forms.Form):
    request_key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    name = forms.CharField(
        label="Espólio", max_length=200, error_messages={"required": services.LOOT_NEEDS_NAME}
    )
    weight_kg = forms.DecimalField(
        label="Peso (kg, cada)",
        max_digits=8,
        decimal_places=3,
        min_value=Decimal("0"),
        max_value=services.MAX_WEIGHT_KG,
        localize=True,  # "2,5" as the page writes it; "2.5" works too
        error_messages={
            "required": "Diga o peso em kg (0 se não pesa nada).",
            "min_value": services.WEIGHT_NOT_NEGATIVE,
            "max_value": services.WEIGHT_TOO_LARGE,
            "invalid": "Escreva o peso como número, em kg (ex.: 2,5).",
        },
    )
    quantity = forms.IntegerField(
        label="Quantidade",
        initial=1,
        min_value=1,
        max_value=services.MAX_QUANTITY,
        error_messages={
            "min_value": services.QUANTITY_AT_LEAST_1,
            "max_value": services.QUANTITY_TOO_LARGE,
            "required": services.QUANTITY_AT_LEAST_1,
        },
    )


class QuantityForm(forms.Form):
    quantity = forms.IntegerField(
        min_value=1,
        max_value=services.MAX_QUANTITY,
        error_messages={
            "min_value": services.QUANTITY_AT_LEAST_1,
            "max_value": services.QUANTITY_TOO_LARGE,
            "required": services.QUANTITY_AT_LEAST_1,
            "invalid": services.QUANTITY_AT_LEAST_1,
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


class ReturnForm(forms.Form):
    reason = forms.CharField(
        label="Motivo",
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": services.RETURN_NEEDS_REASON},
    )
