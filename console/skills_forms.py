"""Forms of the Árbitro's skill tables: a cost row's cells, a catalogue entry."""

from __future__ import annotations

from django import forms

from canon.models import SkillCatalogueEntry, SkillCostRow, SkillCostTable


class CostRowForm(forms.Form):
    """The Árbitro's change of a cost row: one field per column, and why."""

    reason = forms.CharField(
        label="Por que muda", max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, table: SkillCostTable, row: SkillCostRow, **kwargs):
        kwargs.setdefault("prefix", f"row-{row.position}")
        super().__init__(*args, **kwargs)
        for index, column in enumerate(table.columns):
            self.fields[f"cell_{index}"] = forms.CharField(
                label=column, initial=row.cells[index], max_length=20, required=False
            )
        self.order_fields([*(f"cell_{i}" for i in range(len(table.columns))), "reason"])
        self.column_count = len(table.columns)

    def cells(self) -> list[str]:
        return [self.cleaned_data[f"cell_{i}"] for i in range(self.column_count)]

    def cell_fields(self):
        return [self[f"cell_{i}"] for i in range(self.column_count)]


class CatalogueEntryForm(forms.Form):
    """A skill of the catalogue: name, attribute, difficulty, its defaults (§3.3), and why it
    changes."""

    name = forms.CharField(label="Perícia", max_length=200)
    attribute = forms.ChoiceField(
        label="Atributo", choices=SkillCatalogueEntry.Attribute.choices, required=False
    )
    difficulty = forms.ChoiceField(
        label="Dificuldade", choices=SkillCatalogueEntry.Difficulty.choices, required=False
    )
    defaults_rule = forms.ChoiceField(
        label="Pré-definido", choices=SkillCatalogueEntry.DefaultsRule.choices
    )
    defaults = forms.CharField(
        label="Os da descrição",
        required=False,
        max_length=2000,
        help_text="Como a descrição escreve: «ST−5 ou DX−5», «Arremesso ou DX−3».",
    )
    source = forms.CharField(label="Fonte", required=False, max_length=300)
    reason = forms.CharField(
        label="Por que muda", max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    @classmethod
    def for_entry(cls, entry: SkillCatalogueEntry, data=None) -> CatalogueEntryForm:
        initial = {**entry.snapshot(), "defaults": " ou ".join(entry.defaults)}
        return cls(data, prefix=f"e-{entry.code}", initial=initial)

    def fields_for_service(self) -> dict:
        data = self.cleaned_data
        return {
            key: data[key]
            for key in ("name", "attribute", "difficulty", "defaults_rule", "defaults", "source")
        }
