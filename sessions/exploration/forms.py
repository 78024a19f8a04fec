"""The exploration tracker's forms. No form takes a die: the server rolls."""

from __future__ import annotations

from django import forms

from garganta_site.forms import request_key_field
from sessions.models import Exploration, ExplorationTimer
from sessions.procedure.data import BY_KEY

DANGER_CHOICES = [("", "— declare —")] + list(Exploration.Danger.choices)
REGION_CHOICES = [("", "— sem teste de encontro —")] + [
    (row.label, row.label) for row in BY_KEY["encounter_by_region"].rows
]


class _Form(forms.Form):
    request_key = request_key_field()

    def __init__(self, *args, **kwargs):
        # Ids of their own: the scene page holds these forms beside the log's and the combat's.
        kwargs.setdefault("auto_id", f"exploration-{type(self).__name__.lower()}-%s")
        super().__init__(*args, **kwargs)


def _names(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


class StartForm(_Form):
    danger = forms.ChoiceField(choices=DANGER_CHOICES, label="Nível de perigo (o Mestre declara)")
    total_darkness = forms.BooleanField(required=False, label="Total escuridão (torna Mortal)")
    region = forms.CharField(max_length=200, required=False, label="Região (para o fechamento)")
    marching_order = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Ordem de marcha, um por linha, da frente para trás",
    )

    def clean_marching_order(self) -> list[str]:
        return _names(self.cleaned_data["marching_order"])


class DeclareForm(_Form):
    danger = forms.ChoiceField(choices=Exploration.Danger.choices, label="Nível de perigo")
    total_darkness = forms.BooleanField(required=False, label="Total escuridão (torna Mortal)")


class MarchingForm(_Form):
    marching_order = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        label="Ordem de marcha, um por linha, da frente para trás",
    )

    def clean_marching_order(self) -> list[str]:
        return _names(self.cleaned_data["marching_order"])


class TimerForm(_Form):
    name = forms.CharField(max_length=100, label="Nome")
    kind = forms.ChoiceField(choices=ExplorationTimer.Kind.choices, label="Tipo")
    turns = forms.IntegerField(
        min_value=1, max_value=10_000, label="Duração em turnos (informada pelo Mestre)"
    )


class TurnStartForm(_Form):
    pass


class TurnEndForm(_Form):
    rested = forms.BooleanField(required=False, label="O grupo descansou neste turno")
    note = forms.CharField(max_length=1000, required=False, label="O que o grupo fez")


class SurpriseForm(_Form):
    pass


class SleepForm(_Form):
    hours = forms.IntegerField(min_value=1, max_value=12, initial=8, label="Horas de sono")


class TravelForm(_Form):
    region_row = forms.ChoiceField(
        choices=REGION_CHOICES, required=False, label="Encontro por região (1d6)"
    )


class ConsequenceForm(_Form):
    text = forms.CharField(max_length=1000, label="Consequência GURPS (services.: 1 de fadiga, §6)")


class LootForm(_Form):
    category = forms.ChoiceField(
        choices=[("treasure", "Tesouro"), ("item", "Item")], label="Achado"
    )
    kind = forms.CharField(max_length=100, label="Tipo")
    quantity = forms.IntegerField(min_value=1, max_value=100_000, initial=1, label="Quantidade")


class EndForm(_Form):
    pass
