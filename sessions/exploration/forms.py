"""The exploration tracker's forms. No form takes a die: the server rolls."""

from __future__ import annotations

from django import forms

from campaigns.forms import request_key_field
from procedure import tables as procedure_data
from sessions.models import Exploration, ExplorationTimer, SupplyChange

DANGER_CHOICES = [("", "— declare —")] + list(Exploration.Danger.choices)
SEASON_CHOICES = [("", "— diga —")] + [(c.key, c.label) for c in procedure_data.SEASONS]
REGIONS = [(r.key, r.label) for r in procedure_data.REGIONS]
ACTIVITIES = [(c.key, c.label) for c in procedure_data.ACTIVITIES]
MODES = [(c.key, c.label) for c in procedure_data.MODES]


class _Form(forms.Form):
    request_key = request_key_field()

    def __init__(self, *args, **kwargs):
        # Ids of their own: the scene page holds these forms beside the log's and the combat's.
        kwargs.setdefault("auto_id", f"exploration-{type(self).__name__.lower()}-%s")
        super().__init__(*args, **kwargs)


def _names(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


class StartForm(_Form):
    danger = forms.ChoiceField(
        choices=[("", "— sem masmorra: só a jornada —"), *Exploration.Danger.choices],
        required=False,
        label="Nível de perigo (o Mestre declara)",
    )
    season = forms.ChoiceField(
        choices=[("", "— sem jornada —"), *((c.key, c.label) for c in procedure_data.SEASONS)],
        required=False,
        label="Jornada: estação do ano (o clima inicial)",
    )
    total_darkness = forms.BooleanField(required=False, label="Total escuridão (torna Mortal)")
    region = forms.CharField(max_length=200, required=False, label="Região (para o fechamento)")
    marching_order = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Ordem de marcha, um por linha, da frente para trás",
    )

    def clean_marching_order(self) -> list[str]:
        return _names(self.cleaned_data["marching_order"])

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("danger") and not cleaned.get("season") and "danger" not in self.errors:
            self.add_error("danger", START_NEEDS_DANGER_OR_SEASON)
        return cleaned


START_NEEDS_DANGER_OR_SEASON = (
    "Diga o nível de perigo (a masmorra) ou a estação do ano (a jornada, que não precisa de nível "
    "de perigo)."
)


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


class JourneyForm(_Form):
    season = forms.ChoiceField(choices=SEASON_CHOICES, label="Estação do ano (o clima inicial)")
    region = forms.ChoiceField(
        choices=[("", "— diga na 1ª rodada —")] + REGIONS, required=False, label="O grupo está em"
    )


class TravelForm(_Form):
    """A round of travel: the party's activity, the hex, Tabela A's way of advancing, and
    one choice per character of the marching order («um jogador pode escolher»)."""

    activity = forms.ChoiceField(
        choices=[("", "— escolha —")] + ACTIVITIES, label="Atividade do grupo"
    )
    region = forms.ChoiceField(
        choices=[("", "— o mesmo hex —")] + REGIONS, required=False, label="O grupo está em"
    )
    mode = forms.ChoiceField(
        choices=[("", "— como antes —")] + MODES, required=False, label="Avançando (Tabela A)"
    )

    def __init__(self, *args, party=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.party = list(party)
        for index, name in enumerate(self.party):
            self.fields[f"who_{index}"] = forms.ChoiceField(
                choices=[("", "— a do grupo —")] + ACTIVITIES, required=False, label=name
            )

    @property
    def character_fields(self):
        return [self[f"who_{index}"] for index in range(len(self.party))]

    def clean(self):
        cleaned = super().clean()
        cleaned["per_character"] = {
            name: cleaned[f"who_{index}"]
            for index, name in enumerate(self.party)
            if cleaned.get(f"who_{index}")
        }
        return cleaned


class JourneyTestForm(_Form):
    test = forms.UUIDField(widget=forms.HiddenInput)
    roll = forms.IntegerField(min_value=1, max_value=2_147_483_647, label="Rolagem GURPS nº")


class SupplyForm(_Form):
    """The Mestre's adjustment of a count: whose, what, how much, why."""

    holder = forms.ChoiceField(label="De quem", required=False)
    kind = forms.ChoiceField(choices=SupplyChange.Kind.choices, label="Provisão")
    delta = forms.IntegerField(
        min_value=-10_000, max_value=10_000, label="Quanto muda (−2 sai, 5 entra)"
    )
    reason = forms.CharField(max_length=300, label="Por quê")

    def __init__(self, *args, party=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["holder"].choices = [("", "Estoque comum"), *((n, n) for n in party)]


class ConsequenceForm(_Form):
    text = forms.CharField(max_length=1000, label="Consequência GURPS (ex.: 1 de fadiga, §6)")


class LootForm(_Form):
    category = forms.ChoiceField(
        choices=[("treasure", "Tesouro"), ("item", "Item")], label="Achado"
    )
    kind = forms.CharField(max_length=100, label="Tipo")
    quantity = forms.IntegerField(min_value=1, max_value=100_000, initial=1, label="Quantidade")


class EndForm(_Form):
    pass
