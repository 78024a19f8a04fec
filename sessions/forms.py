from __future__ import annotations

import uuid

from django import forms

from sessions import services

MODIFIER_ROWS = 4


def _one_time_key() -> str:
    return uuid.uuid4().hex


class DeclarationForm(forms.Form):
    # A new key per rendered form: posting the same form twice records one entry.
    request_key = forms.CharField(widget=forms.HiddenInput, required=False, initial=_one_time_key)
    character = forms.ChoiceField(label="Personagem")
    text = forms.CharField(
        label="O que faz, e com quê",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=4000,
        error_messages={"required": services.DECLARATION_EMPTY},
    )

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(str(c.code), c.name) for c in characters]


class RollForm(forms.Form):
    """The Mestre's roll: what to roll against and the modifiers, never a die.

    ``target`` is ``<character code>|<key>`` from the character's homologated sheet, or
    ``custom`` with a label, a level and a kind.
    """

    request_key = forms.CharField(widget=forms.HiddenInput, required=False, initial=_one_time_key)
    target = forms.ChoiceField(label="Rolar contra")
    label = forms.CharField(label="Nome (se outro)", required=False, max_length=200)
    base_level = forms.IntegerField(
        label="NH (se outro)", required=False, min_value=-50, max_value=50
    )
    kind = forms.ChoiceField(
        label="Tipo (se outro)",
        choices=[("skill", "Perícia"), ("attribute", "Atributo"), ("defence", "Defesa")],
        required=False,
    )
    declaration = forms.ChoiceField(label="Responde à declaração", required=False)
    hidden = forms.BooleanField(label="Rolagem escondida (§1.6)", required=False)

    def __init__(self, *args, target_choices=(), declaration_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [("", "— escolha —"), *target_choices, ("custom", "Outro…")]
        # "Outro…" opens the panel where the custom test is described.
        self.fields["target"].widget.attrs["hx-on:change"] = (
            "this.form.querySelector('details.custom').open = (this.value === 'custom')"
        )
        self.fields["declaration"].choices = [("", "—"), *declaration_choices]
        for index in range(MODIFIER_ROWS):
            self.fields[f"mod_label_{index}"] = forms.CharField(
                required=False, max_length=200, label="Modificador"
            )
            self.fields[f"mod_value_{index}"] = forms.IntegerField(
                required=False, min_value=-50, max_value=50, label="Valor"
            )

    def modifier_rows(self):
        return [(self[f"mod_label_{i}"], self[f"mod_value_{i}"]) for i in range(MODIFIER_ROWS)]

    def clean(self):
        data = super().clean()
        if data.get("target") == "custom":
            if "label" not in self.errors and not (data.get("label") or "").strip():
                self.add_error("label", services.LABEL_EMPTY)
            if data.get("base_level") is None:
                self.add_error("base_level", "Diga o NH contra o qual se rola.")
            if not data.get("kind"):
                self.add_error("kind", "Diga o tipo do teste.")
        modifiers = []
        for index in range(MODIFIER_ROWS):
            label = (data.get(f"mod_label_{index}") or "").strip()
            value = data.get(f"mod_value_{index}")
            if f"mod_value_{index}" in self.errors or f"mod_label_{index}" in self.errors:
                continue
            if label and value is None:
                self.add_error(f"mod_value_{index}", "Diga o valor do modificador (ex.: −2).")
            elif value is not None and not label:
                self.add_error(f"mod_label_{index}", services.MODIFIER_LABEL_EMPTY)
            elif label and value is not None:
                modifiers.append(services.Modifier(label=label, value=value))
        data["modifiers"] = modifiers
        return data
