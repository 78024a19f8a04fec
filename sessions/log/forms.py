"""The scene's forms: what a jogador declares, what the Mestre announces, rolls and narrates.
No form takes a die.
"""

from __future__ import annotations

from django import forms

from campaigns.forms import request_key_field
from rulesets.gurps3e.checks import DAMAGE_TYPE_CHOICES, DIFFICULTY_CHOICES, LOCATION_CHOICES
from rulesets.registry import dice_readable, rule_errors
from sessions.log import services

MODIFIER_ROWS = 4
CONTEST_MODIFIER_ROWS = 2
MODIFIER_VALUE_MISSING = "Diga o valor do modificador (ex.: −2)."


def _add_modifier_rows(form: forms.Form, rows: int, prefix: str = "") -> None:
    for index in range(rows):
        form.fields[f"{prefix}mod_label_{index}"] = forms.CharField(
            required=False, max_length=200, label="Modificador"
        )
        form.fields[f"{prefix}mod_value_{index}"] = forms.IntegerField(
            required=False, min_value=-50, max_value=50, label="Valor"
        )


def _modifier_rows(form: forms.Form, rows: int, prefix: str = ""):
    return [(form[f"{prefix}mod_label_{i}"], form[f"{prefix}mod_value_{i}"]) for i in range(rows)]


def _clean_modifier_rows(form: forms.Form, data: dict, rows: int, prefix: str = ""):
    modifiers = []
    for index in range(rows):
        label_name, value_name = f"{prefix}mod_label_{index}", f"{prefix}mod_value_{index}"
        label = (data.get(label_name) or "").strip()
        value = data.get(value_name)
        if value_name in form.errors or label_name in form.errors:
            continue
        if label and value is None:
            form.add_error(value_name, MODIFIER_VALUE_MISSING)
        elif value is not None and not label:
            form.add_error(label_name, services.MODIFIER_LABEL_EMPTY)
        elif label and value is not None:
            modifiers.append(services.Modifier(label=label, value=value))
    return modifiers


class DeclarationForm(forms.Form):
    request_key = request_key_field()
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

    ``target`` is ``<character code>|<key>``: an attribute or skill of the character's
    homologated sheet, offered with its level and chance, the level read by the server; or
    ``custom``: for a character with a sheet, a skill it lacks (its default, §3.3; the
    attribute and difficulty only where the Árbitro's catalogue lacks the skill); for a
    creature or NPC without a sheet (or nobody), a label, a level and a kind. A roll that
    answers a declaration takes the modifiers announced for it, not those typed here.
    """

    request_key = request_key_field()
    target = forms.ChoiceField(label="Rolar contra")
    label = forms.CharField(label="Perícia ou nome (se outro)", required=False, max_length=200)
    base_level = forms.IntegerField(
        label="NH (só criatura ou NPC sem ficha)", required=False, min_value=-50, max_value=50
    )
    default_attribute = forms.ChoiceField(
        label="Atributo da perícia (pré-definido, se o catálogo não a tem)",
        choices=[("", "—"), ("st", "ST"), ("dx", "DX"), ("iq", "IQ"), ("ht", "HT")],
        required=False,
    )
    difficulty = forms.ChoiceField(
        label="Dificuldade (idem)",
        choices=[("", "—"), *DIFFICULTY_CHOICES],
        required=False,
    )
    new_skill = forms.BooleanField(
        label="Perícia nova (nem a ficha nem o catálogo a têm: vale a regra geral)",
        required=False,
    )
    kind = forms.ChoiceField(
        label="Tipo (se outro)",
        choices=[("skill", "Perícia"), ("attribute", "Atributo"), ("defence", "Defesa")],
        required=False,
    )
    custom_character = forms.ChoiceField(label="De quem (se outro)", required=False)
    declaration = forms.ChoiceField(label="Responde à declaração", required=False)
    hidden = forms.BooleanField(label="Rolagem escondida (§1.6)", required=False)
    # A d20 ruleset's (the Xuleta's): the DC or AC, the Mestre's edge and, for another test,
    # its kind; the page shows them only in such a campaign.
    dc = forms.IntegerField(
        label="CD (ou a CA do alvo)", required=False, min_value=-30, max_value=60
    )
    edge = forms.ChoiceField(
        label="Vantagem do Mestre",
        choices=[("", "—"), ("advantage", "Vantagem"), ("disadvantage", "Desvantagem")],
        required=False,
    )
    light = forms.ChoiceField(
        label="Luz (teste pela vista)",
        choices=[
            ("", "—"),
            ("bright", "Llum brillant"),
            ("dim", "Llum tènue"),
            ("darkness", "Foscor"),
        ],
        required=False,
    )
    roll = forms.ChoiceField(
        label="Tipo de d20 (se outro)",
        choices=[("check", "Teste"), ("save", "Salvação"), ("attack", "Ataque")],
        required=False,
    )

    def __init__(
        self,
        *args,
        target_choices=(),
        declaration_choices=(),
        character_choices=(),
        d20=False,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        if d20:  # the d20's sheetless side says a bonus, not a GURPS skill level (NH)
            self.fields["base_level"].label = "Bônus (só criatura ou NPC sem ficha)"
        self.fields["target"].choices = [("", "— escolha —"), *target_choices, ("custom", "Outro…")]
        # "Outro…" opens the panel where the custom test is described.
        self.fields["target"].widget.attrs["hx-on:change"] = (
            "this.form.querySelector('details.custom').open = (this.value === 'custom')"
        )
        self.fields["declaration"].choices = [("", "—"), *declaration_choices]
        self.fields["custom_character"].choices = [("", "— nenhuma —"), *character_choices]
        _add_modifier_rows(self, MODIFIER_ROWS)

    def modifier_rows(self):
        return _modifier_rows(self, MODIFIER_ROWS)

    def clean(self):
        data = super().clean()
        if data.get("target") == "custom":
            if "label" not in self.errors and not (data.get("label") or "").strip():
                self.add_error("label", services.LABEL_EMPTY)
        data["modifiers"] = _clean_modifier_rows(self, data, MODIFIER_ROWS)
        return data


class AnnouncementForm(forms.Form):
    """The Mestre's modifiers for a declared action, said before any die (§1.4)."""

    request_key = request_key_field()
    declaration = forms.ChoiceField(
        label="Para a declaração",
        error_messages={"required": services.ANNOUNCEMENT_NEEDS_DECLARATION},
    )
    note = forms.CharField(
        label="O que se rola (opcional)",
        required=False,
        max_length=300,
        widget=forms.TextInput(attrs={"placeholder": "p.ex. rola-se Observação"}),
    )

    def __init__(self, *args, declaration_choices=(), **kwargs):
        kwargs.setdefault("prefix", "announce")
        super().__init__(*args, **kwargs)
        self.fields["declaration"].choices = [("", "— escolha —"), *declaration_choices]
        _add_modifier_rows(self, MODIFIER_ROWS)

    def modifier_rows(self):
        return _modifier_rows(self, MODIFIER_ROWS)

    def clean(self):
        data = super().clean()
        data["modifiers"] = _clean_modifier_rows(self, data, MODIFIER_ROWS)
        return data


class NarrationForm(forms.Form):
    request_key = request_key_field()
    text = forms.CharField(
        label="Narração",
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=8000,
        error_messages={"required": services.NARRATION_EMPTY},
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "narration")
        super().__init__(*args, **kwargs)


def _optional_choices(choices, empty="— nenhuma —"):
    return [("", empty), *choices]


class DamageRollForm(forms.Form):
    """A damage expression rolled on the server: ``2d+1``, ``1d−1``, ``3d``."""

    request_key = request_key_field()
    expression = forms.CharField(
        label="Dados de dano",
        max_length=20,
        widget=forms.TextInput(attrs={"placeholder": "p.ex. 2d+1"}),
        error_messages={"required": "Diga os dados, p.ex. 2d+1."},
    )
    label = forms.CharField(label="De quê (opcional)", required=False, max_length=200)
    character = forms.ChoiceField(label="Personagem", required=False)
    declaration = forms.ChoiceField(label="Responde à declaração", required=False)

    def __init__(self, *args, character_choices=(), declaration_choices=(), **kwargs):
        kwargs.setdefault("prefix", "damage")
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = _optional_choices(character_choices)
        self.fields["declaration"].choices = _optional_choices(declaration_choices, "—")

    def clean_expression(self):
        text = self.cleaned_data["expression"]
        try:
            dice_readable(text)
        except rule_errors() as error:
            raise forms.ValidationError(error.message) from None
        return text.strip()


TABLE_FLAGS = (
    ("unarmed", "Desarmado"),
    ("unbreakable", "Arma que não quebra"),
    ("cheap", "Arma barata"),
    ("impaling", "Ataque perfurante"),
    ("ranged", "Arma de longo alcance"),
    ("best_intent", "Mágica e intenção da melhor espécie"),
)


class TableRollForm(forms.Form):
    """A roll on one of the engine's tables. Only the options given go to the engine, which
    refuses those its table does not take."""

    request_key = request_key_field()
    table = forms.ChoiceField(label="Tabela")
    character = forms.ChoiceField(label="Personagem", required=False)
    declaration = forms.ChoiceField(label="Responde à declaração", required=False)
    margin_of_failure = forms.IntegerField(
        label="Margem de fracasso (Verificação de Pânico)",
        required=False,
        min_value=1,
        max_value=50,
    )
    location = forms.ChoiceField(label="Local do golpe", required=False)
    damage_type = forms.ChoiceField(label="Tipo de dano", required=False)

    def __init__(self, *args, character_choices=(), declaration_choices=(), **kwargs):
        kwargs.setdefault("prefix", "table")
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [("", "— escolha —"), *services.table_choices()]
        self.fields["character"].choices = _optional_choices(character_choices)
        self.fields["declaration"].choices = _optional_choices(declaration_choices, "—")
        self.fields["location"].choices = _optional_choices(LOCATION_CHOICES, "—")
        self.fields["damage_type"].choices = _optional_choices(DAMAGE_TYPE_CHOICES, "—")
        for name, label in TABLE_FLAGS:
            self.fields[name] = forms.BooleanField(label=label, required=False)

    def flags(self):
        return [self[name] for name, _ in TABLE_FLAGS]

    def clean(self):
        data = super().clean()
        options = {name: True for name, _ in TABLE_FLAGS if data.get(name)}
        for name in ("margin_of_failure", "location", "damage_type"):
            if data.get(name) not in (None, ""):
                options[name] = data[name]
        data["options"] = options
        return data


class ContestForm(forms.Form):
    """A quick contest (§1.5): each side a character of the scene against a line of its own
    sheet (the level read by the server), or (``custom``) a creature or NPC without a sheet,
    with its name, what it tests and the level the Mestre says; each with its modifiers."""

    request_key = request_key_field()
    a_target = forms.ChoiceField(label="Lado A")
    b_target = forms.ChoiceField(label="Lado B")
    declaration = forms.ChoiceField(label="Responde à declaração (lado A)", required=False)

    def __init__(self, *args, target_choices=(), declaration_choices=(), d20=False, **kwargs):
        kwargs.setdefault("prefix", "contest")
        super().__init__(*args, **kwargs)
        for side in ("a", "b"):
            self.fields[f"{side}_target"].choices = [
                ("", "— escolha —"),
                *target_choices,
                ("custom", "Criatura ou NPC sem ficha…"),
            ]
            self.fields[f"{side}_name"] = forms.CharField(
                label="Nome (sem ficha)", required=False, max_length=90
            )
            self.fields[f"{side}_label"] = forms.CharField(
                label="Testa (sem ficha)", required=False, max_length=90
            )
            self.fields[f"{side}_base_level"] = forms.IntegerField(
                label="Bônus (sem ficha)" if d20 else "NH (sem ficha)",
                required=False,
                min_value=-50,
                max_value=50,
            )
        self.fields["declaration"].choices = _optional_choices(declaration_choices, "—")
        _add_modifier_rows(self, CONTEST_MODIFIER_ROWS, "a_")
        _add_modifier_rows(self, CONTEST_MODIFIER_ROWS, "b_")

    def a_modifier_rows(self):
        return _modifier_rows(self, CONTEST_MODIFIER_ROWS, "a_")

    def b_modifier_rows(self):
        return _modifier_rows(self, CONTEST_MODIFIER_ROWS, "b_")

    def clean(self):
        data = super().clean()
        data["a_modifiers"] = _clean_modifier_rows(self, data, CONTEST_MODIFIER_ROWS, "a_")
        data["b_modifiers"] = _clean_modifier_rows(self, data, CONTEST_MODIFIER_ROWS, "b_")
        return data
