"""A group check in a d20 ruleset's scene (the Xuleta, issue 22 item 2): «Quan tot el grup fa
el mateix (travessar un aiguamoll d'amagat), tira cadascú i, si almenys la meitat ho
aconsegueix, ho aconsegueix el grup.» (Xuleta, «Proves de grup»)

The Mestre names the characters, the skill or ability and the DC (and the edge he gives). The
server rolls each character's check as any roll of the scene (``services.roll_create``: the
bonus from his homologated sheet, the edge his state gives, hidden as any hidden roll, one link
of the chain each), then appends the group's result as its own roll of kind ``group``: no die
of its own, ``total`` the successes, ``effective_level`` the DC, the outcome by the engine's
``group_succeeds`` of the ruleset's checks (the engine's ``xuleta.rolls.group_succeeds``), and in ``details["group"]`` each member's roll. A hidden group
check hides the result too (the table sees it; a jogador sees his own character's roll masked).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from campaigns.errors import ServiceError
from rulesets.base import RandomSource
from rulesets.registry import ruleset_for
from sessions import entries
from sessions.entries import ensure_scene_accepts_entries, require_table
from sessions.log import levels, services
from sessions.log.chain import append_with_retries
from sessions.models import Roll, Scene
from sheets.models import Character

GROUP = "group"
GROUP_LABEL = "Teste de grupo"
RULE = (
    "«Quan tot el grup fa el mateix (travessar un aiguamoll d'amagat), tira cadascú i, si "
    "almenys la meitat ho aconsegueix, ho aconsegueix el grup.» (Proves de grup)"
)
MIN_MEMBERS, MAX_MEMBERS = 2, 12

GROUP_D20_ONLY = (
    "O teste de grupo é de um sistema de d20 (a Xuleta): o sistema desta campanha, «{label}», "
    "não o tem."
)
GROUP_SIZE = "Um teste de grupo é de {low} a {high} personagens da cena (characters); vieram {n}."
GROUP_REPEATED = "{name} aparece duas vezes em characters: cada personagem rola uma vez."
GROUP_NO_SHEET = (
    "{name} não tem ficha homologada: num teste de grupo o bônus de cada um vem da sua ficha."
)
GROUP_KIND = "Um teste de grupo é um teste (roll: check), não {kind}: use check."
GROUP_NAMES = "Diga a perícia (skill) ou a característica (ability) que o grupo testa."


@dataclass(frozen=True)
class GroupCheck:
    """The group's result (the ``group`` roll) and each member's roll, in the order named."""

    result: Roll
    members: list[Roll]


def _member_key(request_key: str, index: int) -> str:
    return f"{request_key[:56]}:grupo-{index}" if request_key else ""


def _same_group(roll: Roll, characters: Sequence[Character], asked: dict) -> Roll:
    group = (roll.details or {}).get(GROUP) or {}
    made = {
        "kind": roll.kind,
        "characters": [m["character"] for m in group.get("members", [])],
        "asked": group.get("asked"),
    }
    wanted = {"kind": GROUP, "characters": [str(c.code) for c in characters], "asked": asked}
    if made != wanted:
        raise ServiceError(services.IDEMPOTENCY_CONFLICT, code="idempotency_conflict")
    return roll


def _members_of(result: Roll) -> list[Roll]:
    codes = [m["roll"] for m in result.details[GROUP]["members"]]
    found = {str(r.code): r for r in Roll.objects.filter(code__in=codes)}
    return [found[code] for code in codes]


def group_check_create(
    *,
    scene: Scene,
    user,
    characters: Sequence[Character],
    skill: str = "",
    ability: str = "",
    kind: str = "",
    dc: int | None = None,
    edge: str = "",
    light: str = "",
    hidden: bool = False,
    source: RandomSource | None = None,
    request_key: str = "",
) -> GroupCheck:
    """Roll each of ``characters``' check (``skill`` or ``ability``) against ``dc`` and log
    whether the group passes: at least half of them succeed. ServiceError naming the field
    (``characters``, ``skill``, ``ability``, ``roll``, ``dc``, ``edge``) before any die; the
    same ``request_key`` twice returns the first group check, unrolled."""
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    characters = list(characters)
    asked = {
        "skill": " ".join((skill or "").split()),
        "ability": ability or "",
        "dc": dc,
        "edge": edge or "",
        "light": light or "",
        "hidden": bool(hidden),
    }
    require_table(user, campaign)
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return GroupCheck(_same_group(existing, characters, asked), _members_of(existing))
    ensure_scene_accepts_entries(scene)
    ruleset = ruleset_for(campaign.ruleset)
    checks = ruleset.part("checks")
    if not hasattr(checks, "group_succeeds"):
        raise ServiceError(GROUP_D20_ONLY.format(label=ruleset.label), field="characters")
    if kind and kind != "check":
        raise ServiceError(GROUP_KIND.format(kind=kind), field="roll")
    if not MIN_MEMBERS <= len(characters) <= MAX_MEMBERS:
        raise ServiceError(
            GROUP_SIZE.format(low=MIN_MEMBERS, high=MAX_MEMBERS, n=len(characters)),
            field="characters",
        )
    if not (skill or "").strip() and not ability:
        raise ServiceError(GROUP_NAMES, field="skill")
    services.ensure_d20_fields(campaign, dc=dc, edge=edge, needs_dc=True)
    in_scene = set(scene.characters.values_list("pk", flat=True))
    seen = set()
    request = levels.Asked(
        skill=(skill or "").strip(),
        attribute=ability or "",
        kind="check",
        dc=dc,
        edge=edge or "",
        light=light or "",
        scene_light="" if light else services.scene_light(scene),
    )
    names = []
    for index, character in enumerate(characters):
        field = f"characters.{index}"
        if character.pk not in in_scene:
            raise ServiceError(services.CHARACTER_NOT_IN_SCENE, field=field)
        if character.pk in seen:
            raise ServiceError(GROUP_REPEATED.format(name=character.name), field=field)
        seen.add(character.pk)
        sheet = levels.sheet_levels(character)
        if sheet is None:
            raise ServiceError(GROUP_NO_SHEET.format(name=character.name), field=field)
        names.append(levels.level_for(character, request, sheet=sheet).name)
    source = source or entries.dice_source()
    with transaction.atomic():
        members = [
            services.roll_create(
                scene=scene,
                user=user,
                label=f"{names[index]} (teste de grupo)",
                kind="check",
                skill=skill,
                attribute=ability,
                character=character,
                hidden=hidden,
                source=source,
                request_key=_member_key(request_key, index),
                dc=dc,
                edge=edge,
                light=light,
            )
            for index, character in enumerate(characters)
        ]
        passed = [roll.outcome in ("success", "critical_success") for roll in members]
        successes = sum(passed)
        group_passes = checks.group_succeeds(successes, len(members))
        label = f"Teste de grupo: {names[0]} contra {dc}"
        details = {
            GROUP: {
                "asked": asked,
                "members": [
                    {
                        "character": str(character.code),
                        "name": character.name,
                        "roll": str(roll.code),
                        "sequence": roll.sequence,
                        "success": ok,
                    }
                    for character, roll, ok in zip(characters, members, passed, strict=True)
                ],
                "successes": successes,
                "count": len(members),
                "needed": (len(members) + 1) // 2,
                "dc": dc,
                "rule": RULE,
                "text": (
                    f"{successes} de {len(members)} conseguem (precisam {(len(members) + 1) // 2}"
                    f"): {'o grupo consegue' if group_passes else 'o grupo falha'}"
                ),
            }
        }
        outcome = "success" if group_passes else "failure"
        fields = {
            "scene": scene,
            "character": None,
            "declaration": None,
            "announcement": None,
            "label": label[:200],
            "kind": GROUP,
            "base_level": None,
            "modifiers": [],
            "effective_level": dc,
            "dice": [],
            "total": successes,
            "outcome": outcome,
            "margin": None,
            "details": details,
            "hidden": hidden,
            "rolled_by": user,
        }
        result = append_with_retries(
            campaign,
            request_key,
            fields,
            lambda existing: _same_group(existing, characters, asked),
        )
    return GroupCheck(result, members)
