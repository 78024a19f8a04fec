"""Services of the table: declarations, the server's rolls, the chain that keeps them honest.

No die comes from a client (DESIGN.md invariant 1): ``roll_create`` takes the level and the
modifiers, never a dice value, and asks ``gurps.checks`` to roll with ``secrets.SystemRandom``.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from gurps import checks
from gurps.dice import RandomSource
from sessions.models import Declaration, Roll, Scene
from sheets.models import Campaign, Character
from sheets.services import ServiceError, sheet_view

GENESIS_HASH = "0" * 64

SCENE_CLOSED = "A cena está encerrada; nada mais entra no registro."
CHARACTER_NOT_IN_SCENE = "Esta personagem não está na cena."
NOT_YOUR_CHARACTER = "Você só declara ações das suas próprias personagens."
DECLARATION_EMPTY = "Diga o que a personagem faz, e com quê."
LABEL_EMPTY = "Diga contra o quê se rola (a perícia, o atributo ou a defesa)."
MODIFIER_LABEL_EMPTY = "Todo modificador precisa de um nome (o que ele cobra ou dá)."
LEVEL_OUT_OF_RANGE = "Nível fora do intervalo aceito (−50 a 50)."
UNKNOWN_TARGET = "Esta personagem não tem essa perícia, atributo ou defesa na ficha homologada."
NO_SHEET = "Esta personagem não tem ficha homologada."
HIDDEN_NEEDS_CHARACTER = (
    "Rolagem escondida é de uma personagem: ela vai para a pasta do jogador (§1.6)."
)
IDEMPOTENCY_CONFLICT = (
    "Esta chave de idempotência já foi usada por outra rolagem, com outro pedido."
)

MAX_MODIFIERS = 20


@dataclass(frozen=True)
class Modifier:
    label: str
    value: int


def _system_random() -> RandomSource:
    return secrets.SystemRandom()


def declaration_create(
    *, scene: Scene, character: Character, user, text: str, request_key: str = ""
) -> Declaration:
    """Record what a jogador's character does. The same ``request_key`` twice records once."""
    if request_key:
        existing = Declaration.objects.filter(scene=scene, request_key=request_key).first()
        if existing is not None:
            return existing
    text = (text or "").strip()
    if not scene.is_open:
        raise ServiceError(SCENE_CLOSED, code="scene_closed")
    if not text:
        raise ServiceError(DECLARATION_EMPTY, field="text")
    if not character.is_owned_by(user):
        raise ServiceError(NOT_YOUR_CHARACTER, field="character", code="forbidden")
    if not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    try:
        with transaction.atomic():
            return Declaration.objects.create(
                scene=scene, character=character, author=user, text=text, request_key=request_key
            )
    except IntegrityError:
        return Declaration.objects.get(scene=scene, request_key=request_key)


def clean_modifiers(raw: Iterable[Modifier]) -> list[Modifier]:
    modifiers = []
    for modifier in raw:
        label = (modifier.label or "").strip()
        if not label:
            raise ServiceError(MODIFIER_LABEL_EMPTY, field="modifiers")
        if not -50 <= modifier.value <= 50:
            raise ServiceError(LEVEL_OUT_OF_RANGE, field="modifiers")
        modifiers.append(Modifier(label=label[:200], value=int(modifier.value)))
    if len(modifiers) > MAX_MODIFIERS:
        raise ServiceError(f"No máximo {MAX_MODIFIERS} modificadores.", field="modifiers")
    return modifiers


def roll_canonical_content(roll: Roll) -> str:
    """The roll's content as canonical JSON (sorted keys, no spaces): what its hash covers."""
    content = {
        "campaign": roll.campaign.slug,
        "sequence": roll.sequence,
        "scene": str(roll.scene.code),
        "character": str(roll.character.code) if roll.character_id else None,
        "declaration": roll.declaration_id,
        "label": roll.label,
        "kind": roll.kind,
        "base_level": roll.base_level,
        "modifiers": roll.modifiers,
        "effective_level": roll.effective_level,
        "dice": roll.dice,
        "total": roll.total,
        "outcome": roll.outcome,
        "margin": roll.margin,
        "hidden": roll.hidden,
        "name": roll.name,
        "rolled_by": roll.rolled_by.get_username(),
        "created_at": roll.created_at.isoformat(),
        "salt": roll.salt,
    }
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def roll_hash(previous_hash: str, canonical_content: str) -> str:
    return hashlib.sha256((previous_hash + canonical_content).encode("utf-8")).hexdigest()


def _hidden_roll_name(scene: Scene, character: Character | None) -> str:
    week = scene.week
    earlier = Roll.objects.filter(scene__week=week, hidden=True)
    if character is not None and character.owner_id:
        earlier = earlier.filter(character__owner_id=character.owner_id)
    else:
        earlier = earlier.filter(character=character)
    return f"semana-{week.number:02d}-rolagem-{earlier.count() + 1:02d}"


def roll_create(
    *,
    scene: Scene,
    user,
    label: str,
    base_level: int,
    kind: str,
    modifiers: Iterable[Modifier] = (),
    character: Character | None = None,
    declaration: Declaration | None = None,
    hidden: bool = False,
    source: RandomSource | None = None,
    request_key: str = "",
) -> Roll:
    """Roll 3d6 on the server against ``base_level`` plus ``modifiers`` and append it.

    The modifiers are fixed before the dice (canon §1.4); the roll is refused at effective
    level 3 or less unless it is a defence (§1.1; raises ``gurps.errors.NoRollAtThreeOrLess``).
    Rolls are numbered per campaign without gaps and chained (DESIGN.md invariant 2).
    The same ``request_key`` twice (a form posted twice) returns the first roll, unrolled.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    label = (label or "").strip()
    modifiers = list(modifiers)
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _same_request(existing, label, base_level, kind, modifiers, character, hidden)
    if not label:
        raise ServiceError(LABEL_EMPTY, field="label")
    if not scene.is_open:
        raise ServiceError(SCENE_CLOSED, code="scene_closed")
    if not -50 <= base_level <= 50:
        raise ServiceError(LEVEL_OUT_OF_RANGE, field="base_level")
    roll_kind = checks.RollKind(kind)
    if character is not None and not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    if hidden and character is None:
        raise ServiceError(HIDDEN_NEEDS_CHARACTER, field="hidden")
    if declaration is not None and declaration.scene_id != scene.pk:
        raise ServiceError("A declaração é de outra cena.", field="declaration")
    modifiers = clean_modifiers(modifiers)
    effective = checks.effective_level(base_level, [m.value for m in modifiers])
    checks.ensure_rollable(effective, roll_kind)
    result = checks.roll_success(source or _system_random(), effective, roll_kind)
    for attempt in range(5):
        if request_key:
            existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
            if existing is not None:
                return _same_request(
                    existing, label, base_level, kind, modifiers, character, hidden
                )
        try:
            return _append_roll(
                campaign=campaign,
                scene=scene,
                user=user,
                label=label[:200],
                kind=roll_kind,
                base_level=base_level,
                modifiers=modifiers,
                character=character,
                declaration=declaration,
                hidden=hidden,
                result=result,
                request_key=request_key,
            )
        except IntegrityError:
            # Another writer took the same sequence number first; take the next one.
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


def _same_request(roll: Roll, label, base_level, kind, modifiers, character, hidden) -> Roll:
    """The roll already made for this request key, if the request is the same one."""
    asked = {
        "label": label[:200],
        "base_level": base_level,
        "kind": str(kind),
        "modifiers": [{"label": m.label.strip(), "value": m.value} for m in modifiers],
        "character": character.pk if character else None,
        "hidden": hidden,
    }
    made = {
        "label": roll.label,
        "base_level": roll.base_level,
        "kind": roll.kind,
        "modifiers": roll.modifiers,
        "character": roll.character_id,
        "hidden": roll.hidden,
    }
    if asked != made:
        raise ServiceError(IDEMPOTENCY_CONFLICT, code="idempotency_conflict")
    return roll


@transaction.atomic
def _append_roll(*, campaign: Campaign, result: checks.SuccessRoll, **fields) -> Roll:
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    last = Roll.objects.filter(campaign=campaign).order_by("-sequence").first()
    roll = Roll(
        campaign=campaign,
        sequence=(last.sequence + 1) if last else 1,
        scene=fields["scene"],
        character=fields["character"],
        declaration=fields["declaration"],
        label=fields["label"],
        kind=str(fields["kind"]),
        base_level=fields["base_level"],
        modifiers=[{"label": m.label, "value": m.value} for m in fields["modifiers"]],
        effective_level=result.effective_level,
        dice=list(result.dice),
        total=result.total,
        outcome=str(result.outcome),
        margin=result.margin,
        hidden=fields["hidden"],
        name=_hidden_roll_name(fields["scene"], fields["character"]) if fields["hidden"] else "",
        rolled_by=fields["user"],
        created_at=timezone.now(),
        previous_hash=last.hash if last else GENESIS_HASH,
        request_key=fields["request_key"],
        salt=secrets.token_hex(16),
    )
    roll.hash = roll_hash(roll.previous_hash, roll_canonical_content(roll))
    roll.save()
    return roll


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    count: int
    first_broken: int | None


def rolls_verify(campaign: Campaign) -> ChainReport:
    """Recompute the chain of a campaign's rolls: gaps, links and hashes."""
    previous = GENESIS_HASH
    count = 0
    rolls = Roll.objects.filter(campaign=campaign).select_related(
        "campaign", "scene", "character", "rolled_by"
    )
    for expected, roll in enumerate(rolls.order_by("sequence").iterator(), start=1):
        count += 1
        if (
            roll.sequence != expected
            or roll.previous_hash != previous
            or roll.hash != roll_hash(previous, roll_canonical_content(roll))
        ):
            return ChainReport(ok=False, count=count, first_broken=roll.sequence)
        previous = roll.hash
    return ChainReport(ok=True, count=count, first_broken=None)


# --- what the Mestre can roll against, from the homologated sheet ----------------------------


@dataclass(frozen=True)
class RollTarget:
    key: str
    label: str
    kind: str
    level: int


ATTRIBUTE_LABELS = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT"}


def roll_targets(character: Character) -> list[RollTarget]:
    """The attributes, skills and defences (with PD) of a character's homologated sheet."""
    view = sheet_view(character)
    if view is None:
        return []
    targets = [
        RollTarget(f"attr:{key}", label, "attribute", getattr(view.version, key))
        for key, label in ATTRIBUTE_LABELS.items()
    ]
    targets += [
        RollTarget(f"skill:{line.skill.pk}", line.skill.name, "skill", line.skill.level)
        for line in view.skills
    ]
    d = view.derived
    targets.append(RollTarget("def:dodge", "Esquiva (com PD)", "defence", d.dodge_total))
    if d.block_total is not None:
        targets.append(RollTarget("def:block", "Bloquear (com PD)", "defence", d.block_total))
    for index, parry in enumerate(d.parries_total):
        targets.append(
            RollTarget(
                f"def:parry:{index}", f"Aparar — {parry.name} (com PD)", "defence", parry.value
            )
        )
    return targets


def roll_target(character: Character, key: str) -> RollTarget:
    for target in roll_targets(character):
        if target.key == key:
            return target
    raise ServiceError(UNKNOWN_TARGET, field="target")


# --- the log as a page shows it ---------------------------------------------------------------


@dataclass(frozen=True)
class LogEntry:
    """One line of the scene log. For a hidden roll a jogador sees name and hash only."""

    kind: str  # "declaration" | "roll"
    created_at: object
    declaration: Declaration | None = None
    roll: Roll | None = None
    masked: bool = False


def scene_log_entries(scene: Scene, *, membership, user) -> list[LogEntry]:
    """Declarations and rolls of a scene in the order they happened (2 queries)."""
    declarations = Declaration.objects.filter(scene=scene).select_related("character", "author")
    rolls = Roll.objects.filter(scene=scene).select_related(
        "character", "rolled_by", "declaration__character"
    )
    entries = [LogEntry("declaration", d.created_at, declaration=d) for d in declarations]
    for roll in rolls:
        if roll.hidden and not membership.runs_the_table:
            if roll.character is None or not roll.character.is_owned_by(user):
                continue
            entries.append(LogEntry("roll", roll.created_at, roll=roll, masked=True))
        else:
            entries.append(LogEntry("roll", roll.created_at, roll=roll))
    entries.sort(key=lambda e: (e.created_at, 0 if e.kind == "declaration" else 1))
    return entries
