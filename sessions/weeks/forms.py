"""The week's forms: a world action, a new scene, the weekly report, its return and correction,
the Boletim.
"""

from __future__ import annotations

from django import forms

from campaigns.forms import request_key_field
from sessions.log import services as log_services
from sessions.weeks import services

# The scene's floor is where in the Garganta it happens (the campaign's world, in every ruleset).
FLOOR_TOO_LOW = "O andar da Garganta é 1 ou mais."


class WorldActionForm(forms.Form):
    request_key = request_key_field()
    character = forms.ChoiceField(label="Personagem")
    text = forms.CharField(
        label="A ação de mundo",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=4000,
        error_messages={"required": services.WORLD_ACTION_EMPTY},
    )

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(str(c.code), c.name) for c in characters]


class SceneForm(forms.Form):
    request_key = request_key_field()
    title = forms.CharField(
        label="Título", max_length=200, error_messages={"required": log_services.SCENE_TITLE_EMPTY}
    )
    floor = forms.IntegerField(
        label="Andar da Garganta",
        required=False,
        min_value=1,
        error_messages={"min_value": FLOOR_TOO_LOW},
    )
    terrain = forms.CharField(label="Terreno", required=False, max_length=200)
    boss = forms.CharField(label="Chefe de encontro", required=False, max_length=200)
    characters = forms.MultipleChoiceField(
        label="Personagens na cena", required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, characters=(), **kwargs):
        kwargs.setdefault("prefix", "scene")
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(str(c.code), c.name) for c in characters]


class ReportForm(forms.Form):
    text = forms.CharField(
        label="Relatório da semana",
        widget=forms.Textarea(attrs={"rows": 10}),
        max_length=50_000,
        error_messages={"required": services.REPORT_EMPTY},
    )


class ReportReturnForm(forms.Form):
    reason = forms.CharField(
        label="Motivo da devolução",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=4000,
        error_messages={"required": services.REPORT_RETURN_NEEDS_REASON},
    )


class ReportCorrectionForm(forms.Form):
    new_text = forms.CharField(
        label="Texto corrigido",
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=50_000,
        error_messages={"required": services.CORRECTION_EMPTY},
    )
    reason = forms.CharField(
        label="Por que se corrige",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=4000,
        error_messages={"required": services.CORRECTION_NEEDS_REASON},
    )


class BulletinForm(forms.Form):
    text = forms.CharField(
        label="Boletim da semana",
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=50_000,
        error_messages={"required": services.BULLETIN_EMPTY},
    )
