"""Forms of the Árbitro's console. Each carries a one-time ``request_key``: the same form
posted twice makes one row (canon.services)."""

from __future__ import annotations

from django import forms

from campaigns.forms import request_key_field
from canon import services
from canon.models import Decision, Divergence
from rulesets.registry import ruleset_for
from sheets.forms import DraftForm


class _CampaignChoice(forms.Form):
    """A form with a campaign: a choice only for someone in more than one."""

    request_key = request_key_field()
    campaign = forms.ChoiceField(label="Campanha")

    def __init__(self, *args, campaigns=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.campaigns = {c.slug: c for c in campaigns}
        self.fields["campaign"].choices = [(c.slug, c.name) for c in campaigns]
        if len(self.campaigns) == 1:
            self.fields["campaign"].widget = forms.HiddenInput()
            self.fields["campaign"].initial = next(iter(self.campaigns))

    @property
    def single_campaign(self) -> bool:
        return len(self.campaigns) == 1

    def chosen_campaign(self):
        return self.campaigns[self.cleaned_data["campaign"]]


class DivergenceForm(_CampaignChoice):
    title = forms.CharField(
        label="Título",
        max_length=200,
        error_messages={"required": services.TITLE_REQUIRED, "max_length": services.TITLE_TOO_LONG},
    )
    description = forms.CharField(
        label="O que diverge, e onde",
        widget=forms.Textarea(attrs={"rows": 4}),
        error_messages={"required": services.DESCRIPTION_REQUIRED},
    )
    section = forms.CharField(label="Seção do cânone", max_length=40, required=False)
    page = forms.CharField(label="Página do site onde apareceu", max_length=300, required=False)
    side_a_label = forms.CharField(label="Um lado (quem diz)", max_length=120, required=False)
    side_a = forms.CharField(
        label="O que diz", required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    side_b_label = forms.CharField(label="O outro lado (quem diz)", max_length=120, required=False)
    side_b = forms.CharField(
        label="O que diz", required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    reading = forms.CharField(
        label="Resposta que o site usa até a decisão (se houver)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ResolveForm(forms.Form):
    resolution = forms.CharField(
        label="Como se resolveu",
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": services.RESOLUTION_REQUIRED},
    )
    decision = forms.ChoiceField(label="Pela decisão (se houver)", required=False)

    def __init__(self, *args, decisions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.decisions = {str(d.code): d for d in decisions}
        self.fields["decision"].choices = [("", "— nenhuma —")] + [
            (str(d.code), _decision_choice(d)) for d in decisions
        ]

    def chosen_decision(self):
        return self.decisions.get(self.cleaned_data.get("decision") or "")


def _decision_choice(decision: Decision) -> str:
    day = decision.decided_on.strftime("%d/%m/%Y") if decision.decided_on else "sem data"
    return f"{decision.label} ({day}) — {decision.now['title']}"


def house_choices(campaigns) -> list[tuple[str, str]]:
    """The house settings a decision may name: those of the rulesets of ``campaigns`` (the
    service checks the key against the chosen campaign's), each ruleset's in its order; the
    ruleset's label beside the title when the campaigns play more than one."""
    rulesets = [ruleset_for(key) for key in dict.fromkeys(c.ruleset for c in campaigns)]
    choices = []
    for ruleset in rulesets:
        for setting in ruleset.pages.house_settings() if ruleset.pages is not None else ():
            title = setting.title if len(rulesets) == 1 else f"{setting.title} ({ruleset.label})"
            choices.append((setting.key, title))
    return choices


class DecisionForm(_CampaignChoice):
    number = forms.IntegerField(
        label="Número",
        required=False,
        min_value=1,
        help_text="Em branco se a decisão não tem número; o site não inventa um.",
        error_messages={
            "min_value": services.DECISION_NUMBER_INVALID,
            "invalid": services.DECISION_NUMBER_INVALID,
        },
    )
    decided_on = forms.DateField(
        label="Data",
        required=False,
        help_text="Em branco: hoje.",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"invalid": "Data inválida: use o calendário ou dd/mm/aaaa."},
        input_formats=["%Y-%m-%d", "%d/%m/%Y"],
    )
    title = forms.CharField(
        label="Título",
        max_length=200,
        error_messages={
            "required": services.DECISION_TITLE_REQUIRED,
            "max_length": services.TITLE_TOO_LONG,
        },
    )
    text = forms.CharField(
        label="Texto da decisão",
        widget=forms.Textarea(attrs={"rows": 5}),
        error_messages={"required": services.DECISION_TEXT_REQUIRED},
    )
    section = forms.CharField(label="Seção do cânone", max_length=40, required=False)
    fixes = forms.CharField(
        label="O que ela fixou (a dúvida, ou a regra do livro que muda)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    house_key = forms.ChoiceField(label="Regra da casa", required=False)
    replaces = forms.ChoiceField(label="Substitui a decisão", required=False)
    resolves = forms.MultipleChoiceField(
        label="Resolve as pendências",
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, decisions=(), open_divergences=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["house_key"].choices = [("", "— nenhuma —")] + house_choices(
            self.campaigns.values()
        )
        self.decisions = {str(d.code): d for d in decisions}
        self.fields["replaces"].choices = [("", "— nenhuma —")] + [
            (str(d.code), _decision_choice(d)) for d in decisions
        ]
        self.divergences = {str(d.code): d for d in open_divergences}
        self.fields["resolves"].choices = [
            (str(d.code), f"{d.now['title']} ({d.where_short})") for d in open_divergences
        ]

    def chosen_replaces(self):
        return self.decisions.get(self.cleaned_data.get("replaces") or "")

    def chosen_resolves(self) -> list[Divergence]:
        return [self.divergences[code] for code in self.cleaned_data.get("resolves", [])]


class CorrectionForm(forms.Form):
    request_key = request_key_field()
    field = forms.ChoiceField(
        label="Linha corrigida", error_messages={"required": services.UNKNOWN_FIELD}
    )
    after = forms.CharField(
        label="O que a linha passa a dizer",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    reason = forms.CharField(
        label="Por quê",
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": services.REASON_REQUIRED},
    )

    def __init__(self, *args, fields: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["field"].choices = [("", "— escolha —")] + list(fields.items())
        # Choosing a line puts what it says now in the text box, to be edited (needs htmx's
        # hx-on; without JavaScript the box starts empty and the current text is on the page).
        self.fields["field"].widget.attrs["hx-on:change"] = (
            "const now = JSON.parse(document.getElementById('now-values').textContent);"
            "const box = this.form.querySelector('textarea[name=after]');"
            "if (!box.value || box.dataset.filled) { box.value = now[this.value] || '';"
            " box.dataset.filled = '1'; }"
        )


class SheetCorrectionForm(DraftForm):
    request_key = request_key_field()
    reason = forms.CharField(
        label="Motivo da correção",
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": services.REASON_REQUIRED},
    )


class DataCorrectionForm(forms.Form):
    """The Árbitro's correction of a sheet kept as JSON (the Xuleta): the whole sheet, as the
    draft's API takes it, his notes and the reason."""

    request_key = request_key_field()
    data = forms.JSONField(
        label="A ficha corrigida (JSON, como o rascunho)",
        widget=forms.Textarea(attrs={"rows": 24, "spellcheck": "false", "class": "mono"}),
        error_messages={
            "required": "Mande a ficha corrigida (data).",
            "invalid": "A ficha (data) precisa ser um JSON válido: um objeto.",
        },
    )
    notes = forms.CharField(
        label="Notas", required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3})
    )
    reason = forms.CharField(
        label="Motivo da correção",
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": services.REASON_REQUIRED},
    )

    def clean_data(self):
        data = self.cleaned_data["data"]
        if not isinstance(data, dict):
            raise forms.ValidationError("A ficha (data) precisa ser um JSON válido: um objeto.")
        return data


class HomologateForm(forms.Form):
    """The Árbitro's homologation: with the audit's warnings, why he homologates anyway; the
    fingerprint of the warnings he read travels with it (sheets.homologation.sheet_homologate)."""

    digest = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    note = forms.CharField(
        label="Por que homologa mesmo assim",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
