"""The draft page shows one blank skill row; a browser posts it back with its selects set.
Left blank, it is skipped (sheets.forms.SkillLineForm)."""

from __future__ import annotations

from django.urls import reverse

from sheets.drafts import sheet_draft_create
from sheets.models import SheetVersion


def test_the_blank_row_as_a_browser_posts_it_does_not_block_the_draft(client_for, jogador, jurado):
    draft = sheet_draft_create(character=jurado, user=jogador)
    skills = list(draft.skills.all())
    data = {
        **draft.attributes(),
        "notes": "",
        "skills-TOTAL_FORMS": str(len(skills) + 1),
        "skills-INITIAL_FORMS": "0",
        "skills-MIN_NUM_FORMS": "0",
        "skills-MAX_NUM_FORMS": "1000",
    }
    for index, skill in enumerate(skills):
        for key in ("name", "attribute", "difficulty", "level", "points"):
            value = 11 if (key == "level" and skill.name == "Observação") else getattr(skill, key)
            data[f"skills-{index}-{key}"] = str(value)
    blank = len(skills)
    data.update({f"skills-{blank}-attribute": "st", f"skills-{blank}-difficulty": "E"})
    response = client_for(jogador).post(reverse("draft", args=[jurado.code]), data)
    assert response.status_code == 302
    saved = SheetVersion.objects.get(pk=draft.pk)
    assert saved.skills.get(name="Observação").level == 11
    assert saved.skills.count() == len(skills)
