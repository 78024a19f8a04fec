"""Helpers of the scene tests: the Mestre's roll targets and a scripted server die."""

from __future__ import annotations

import pytest

from sessions import entries
from sessions.weeks import services as weeks_services
from sheets.models import Skill
from tests.gurps.helpers import ScriptedSource


def skill_target(character, skill_name: str) -> str:
    """The roll form's target for a skill of the character's homologated sheet (the server
    reads its level)."""
    skill = Skill.objects.get(
        version__character=character, version__status="homologated", name=skill_name
    )
    return f"{character.code}|skill:{skill.name}"


@pytest.fixture
def server_dice(monkeypatch):
    """``server_dice(1, 2, 3)``: the server's next rolls come out as those faces, in order."""

    def script(*faces: int) -> None:
        source = ScriptedSource(faces)
        monkeypatch.setattr(entries, "dice_source", lambda: source)

    return script


def homologate_week(week, *, mestre, arbitro, text="A semana 1: a galeria do andar 3.") -> None:
    """The end of a week: the Mestre writes and submits the report, the Árbitro homologates."""
    weeks_services.report_write(week=week, user=mestre, text=text)
    weeks_services.report_submit(week=week, user=mestre)
    weeks_services.report_homologate(week=week, user=arbitro)
    week.refresh_from_db()


def close_week(week, *, mestre, arbitro, bulletin="Boletim: a galeria caiu.") -> None:
    """Homologate the week's report and publish its Boletim."""
    homologate_week(week, mestre=mestre, arbitro=arbitro)
    weeks_services.week_publish_bulletin(week=week, user=mestre, text=bulletin)
    week.refresh_from_db()
