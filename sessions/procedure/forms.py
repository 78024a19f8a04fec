"""Forms of the procedure's tables: the Mestre's roll on the scene page and the Árbitro's change
of a row. No field takes a die (docs/DESIGN.md, invariant 1 (The server rolls))."""

from __future__ import annotations

from django import forms

from campaigns.forms import request_key_field
from procedure import journey as procedure_journey
from procedure import tables as table_rules
from sessions.models import RandomTable
from sessions.procedure import services as procedure_services

CHOICE_UNKNOWN = "Escolha uma tabela da lista."


class ProcedureRollForm(forms.Form):
    """A table of the procedure (with its column, or the row of a chance table), and a
    modifier to the total for a rolled table."""

    request_key = request_key_field()
    choice = forms.ChoiceField(label="Tabela do procedimento")
    modifier = forms.IntegerField(
        label="Modificador do total", required=False, initial=0, min_value=-20, max_value=20
    )

    def __init__(self, *args, choices=(), **kwargs):
        kwargs.setdefault("prefix", "procedure")
        super().__init__(*args, **kwargs)
        self.fields["choice"].choices = [("", "— escolha —"), *choices]

    def clean(self):
        data = super().clean()
        value = data.get("choice") or ""
        parts = value.split("|")
        if len(parts) != 4:
            if "choice" not in self.errors:
                self.add_error("choice", CHOICE_UNKNOWN)
            return data
        data["key"], data["column"], data["row_label"], data["die"] = parts
        data["modifier"] = data.get("modifier") or 0
        if data["row_label"] and data["modifier"]:
            # A chance ("N:6") takes no modifier: refused, not silently dropped.
            self.add_error("modifier", CHANCE_TAKES_NO_MODIFIER)
        return data


CHANCE_TAKES_NO_MODIFIER = "Uma chance «N:6» se rola sem modificador: deixe o campo vazio."


class RowEditForm(forms.Form):
    """The Árbitro's change of a row's cells, one field per column, and why."""

    reason = forms.CharField(
        label="Por que muda", max_length=1000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, table: RandomTable, row, **kwargs):
        kwargs.setdefault("prefix", f"row-{row.position}")
        super().__init__(*args, **kwargs)
        for index, column in enumerate(table.columns):
            self.fields[f"cell_{index}"] = forms.CharField(
                label=column,
                initial=row.cells[index],
                widget=forms.Textarea(attrs={"rows": 2}),
                strip=True,
            )
        self.order_fields([*(f"cell_{i}" for i in range(len(table.columns))), "reason"])
        self.column_count = len(table.columns)

    def cells(self) -> list[str]:
        return [self.cleaned_data[f"cell_{i}"] for i in range(self.column_count)]

    def cell_fields(self):
        return [self[f"cell_{i}"] for i in range(self.column_count)]


def procedure_form(campaign, data=None) -> ProcedureRollForm:
    """The scene page's panel: every rolled table of the campaign, by table (2 queries)."""
    choices = procedure_services.procedure_choices(procedure_services.procedure_tables(campaign))
    return ProcedureRollForm(data, choices=choices)


class TableAddForm(forms.Form):
    """The Árbitro's new table: a region's Tabela de Encontros, or any the Mestre needs."""

    name = forms.CharField(label="Nome", max_length=200)
    region = forms.ChoiceField(
        label="Região (Tabela de Encontros da Região)",
        required=False,
        choices=[
            ("", "— nenhuma: outra tabela —"),
            *((r.key, r.label) for r in procedure_journey.REGIONS),
        ],
    )
    die = forms.ChoiceField(
        label="Dado", choices=[(d, d) for d in table_rules.ARBITRO_DICE], initial="1d6"
    )
    note = forms.CharField(
        label="Nota", required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "table")
        super().__init__(*args, **kwargs)


class RowAddForm(forms.Form):
    """A row of a table the Árbitro made: a face or range of its die, its text, why."""

    label = forms.CharField(label="Face ou faixa (3, 1-2, 7+)", max_length=20)
    text = forms.CharField(
        label="O que traz", max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
    reason = forms.CharField(label="Por quê", max_length=1000)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "newrow")
        super().__init__(*args, **kwargs)
