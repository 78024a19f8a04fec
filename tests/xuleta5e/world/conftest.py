"""A Xuleta campaign with its Mestre, Árbitro and a jogador, its first week open, a scene with
three characters whose homologated sheets give the contract's ``check_data`` (built here by
hand: the sheets part is another helper's), and a scripted random source for the server's
dice.

The ruleset's sheets part is stood in by ``StubSheets`` (the contract's state model and a
``check_data`` that returns the sheet's numbers with the state): these tests read the contract,
not the sheets helper's data model.
"""

from __future__ import annotations

import dataclasses

import pytest
from django.contrib.auth import get_user_model
from pydantic import BaseModel, Field

from campaigns.models import Membership
from garganta_site.founding import campaign_create
from rulesets import registry
from sessions import entries
from sessions.log import services as log_services
from sessions.weeks import services as weeks_services
from sheets.models import Character, SheetVersion
from tests.gurps.helpers import ScriptedSource

PASSWORD = "senha-da-xuleta"  # pragma: allowlist secret
KEY = "xuleta5e"
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")


class DeathSaves(BaseModel):
    successes: int = Field(default=0, ge=0, le=3)
    failures: int = Field(default=0, ge=0, le=3)


class State(BaseModel):
    """The contract's state (``CharacterState.data``), every key with a default."""

    hp_lost: int = Field(default=0, ge=0)
    temp_hp: int = Field(default=0, ge=0)
    exhaustion: int = Field(default=0, ge=0, le=6)
    conditions: list[str] = []
    hit_dice_spent: int = Field(default=0, ge=0)
    slots_spent: dict[str, int] = {}
    death_saves: DeathSaves = DeathSaves()
    stable: bool = False
    dead: bool = False
    concentration: str = ""
    last_long_rest: str = ""
    ate_and_drank: bool = False


class StubSheets:
    """The contract's sheets part: a version's data IS check_data's numbers (without state)."""

    data_model = None
    state_model = State

    def validate(self, data):
        return dict(data)

    def check_data(self, data, state):
        return {**data, "state": dict(state)}


def sheet_numbers(name: str, *, con: int = 2, con_save: int = 4, level: int = 3, hp: int = 28):
    """The contract's ``check_data`` (without ``state``) of a level-``level`` fighter."""
    modifiers = {"str": 2, "dex": 1, "con": con, "int": 0, "wis": 1, "cha": 0}
    saves = {**modifiers, "con": con_save, "str": modifiers["str"] + 2}
    return {
        "name": name,
        "level": level,
        "abilities": dict.fromkeys(ABILITIES, 12),
        "modifiers": modifiers,
        "proficiency_bonus": 2,
        "checks": modifiers,
        "skills": {},
        "saves": saves,
        "passive_perception": 13,
        "ac": 16,
        "max_hp": hp,
        "hit_die": 10,
        "hit_dice": level,
        "speed_m": 9,
        "darkvision_m": 0,
        "attacks": [],
        "spellcasting": None,
        "resistances": [],
        "vulnerabilities": [],
        "immunities": [],
    }


PARTY = ("Aina", "Bru", "Carme")


@pytest.fixture(autouse=True)
def stub_sheets(monkeypatch):
    ruleset = registry._RULESETS[KEY]
    monkeypatch.setitem(registry._RULESETS, KEY, dataclasses.replace(ruleset, sheets=StubSheets()))


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return {
        name: make(f"x5-{name}", password=PASSWORD) for name in ("mestre", "arbitro", "jogador")
    }


@pytest.fixture
def campaign(people):
    made = campaign_create(slug="xuleta", name="Campanha da Xuleta", ruleset=KEY)
    for name, role in (
        ("mestre", Membership.Role.MESTRE),
        ("arbitro", Membership.Role.ARBITRO),
        ("jogador", Membership.Role.JOGADOR),
    ):
        Membership.objects.create(user=people[name], campaign=made, role=role)
    return made


@pytest.fixture
def characters(campaign, people):
    """Aina (CON save +4), Bru (+1, CON mod −1), Carme (+4), each with a homologated sheet."""
    made = {}
    for name, con, con_save in (("Aina", 2, 4), ("Bru", -1, 1), ("Carme", 2, 4)):
        character = Character.objects.create(campaign=campaign, owner=people["jogador"], name=name)
        SheetVersion.objects.create(
            character=character,
            number=1,
            status=SheetVersion.Status.HOMOLOGATED,
            data=sheet_numbers(name, con=con, con_save=con_save),
            created_by=people["jogador"],
            decided_by=people["arbitro"],
        )
        made[name] = character
    return made


@pytest.fixture
def scene(campaign, people, characters):
    week = weeks_services.week_open(campaign=campaign, user=people["mestre"])
    made = log_services.scene_create(week=week, user=people["mestre"], title="O camí")
    made.characters.add(*characters.values())
    return made


@pytest.fixture
def server_dice(monkeypatch):
    """``server_dice(4, 7, …)``: the server's next dice, in order (a test fails if one is left
    or one more is drawn)."""
    scripted = {}

    def script(*faces: int) -> ScriptedSource:
        source = ScriptedSource(faces)
        scripted["source"] = source
        monkeypatch.setattr(entries, "dice_source", lambda: source)
        return source

    yield script
    if "source" in scripted:
        assert scripted["source"].values == [], "dados roteirizados não usados"


@pytest.fixture
def quote():
    """``quote(sentence)`` asserts the sentence is the Xuleta's (``tests.xuleta.conftest``)."""
    from tests.xuleta.conftest import in_text

    def check(sentence: str) -> str:
        assert in_text(sentence), f"not in the Xuleta: {sentence!r}"
        return sentence

    return check
