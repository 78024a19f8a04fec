"""Services of the table: weeks, world actions, the scene log, the server's rolls, the weekly
report and the chain that keeps every roll honest.

No die comes from a client (DESIGN.md invariant 1): every ``*_create`` that rolls takes levels,
modifiers, an expression or a table's key, never a dice value, and asks ``gurps`` to roll with
``secrets.SystemRandom``. The rules themselves (what a roll's outcome is, who wins a contest,
what a table says, how many world actions a week has) come from ``gurps`` only.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from garganta_site.errors import ServiceError
from gurps import checks, house, tables
from gurps.dice import RandomSource, parse_dice
from sessions.models import (
    Declaration,
    ModifierAnnouncement,
    Narration,
    ReportCorrection,
    Roll,
    Scene,
    Week,
    WeeklyReport,
    WorldAction,
)
from sheets.models import Campaign, Character, Membership
from sheets.services import membership_for, sheet_view

GENESIS_HASH = "0" * 64

# Messages are constants so tests import them instead of repeating them.
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
ENTRY_IDEMPOTENCY_CONFLICT = (
    "Esta chave de idempotência já foi usada para outra entrada: gere uma chave nova."
)
ONLY_THE_TABLE = "Só o Mestre de Cena ou o Árbitro fazem isso."
ONLY_THE_ARBITRO = "Só o Árbitro homologa, devolve ou corrige o relatório da semana."
WEEK_CLOSED_FOR_ENTRIES = "A Semana {number} não recebe mais entradas: {state}."
DECLARATION_OTHER_SCENE = "A declaração é de outra cena."
DECLARATION_OTHER_CHARACTER = (
    "A declaração é de {name}: a rolagem que responde a ela é dessa personagem."
)
ANNOUNCEMENT_NEEDS_DECLARATION = (
    "O modificador se anuncia para uma ação declarada (§1.4): escolha a declaração."
)
MODIFIERS_NOT_ANNOUNCED = (
    "Esta rolagem responde a uma declaração: os modificadores dela são os anunciados antes, "
    "numa entrada própria (§1.4). Anuncie-os primeiro e deixe estes campos vazios."
)
NARRATION_EMPTY = "Escreva a narração."
SCENE_TITLE_EMPTY = "Dê um título à cena."
SCENE_CHARACTER_OUTSIDE = "Esta personagem não é desta campanha."
TOO_MANY_DICE = "No máximo {limit} dados numa rolagem."
DAMAGE_ADDS_TOO_LARGE = "O que se soma aos dados vai de −{limit} a +{limit}."
CONTEST_NEEDS_CHARACTER = "Cada lado da Disputa Rápida é uma personagem da cena."
CONTEST_SAME_CHARACTER = "A Disputa Rápida é entre duas personagens diferentes."
CONTEST_KIND = "Numa Disputa Rápida cada lado testa uma perícia ou um atributo (§1.5)."
UNKNOWN_TABLE = "Tabela desconhecida."
WORLD_ACTION_EMPTY = "Diga o que a personagem faz no mundo com esta ação."
NOT_YOUR_CHARACTER_WORLD = "Você só gasta ações de mundo das suas próprias personagens."
WORLD_ACTIONS_USED_UP = (
    "{character} já gastou as {limit} ações de mundo da Semana {number}. Elas não acumulam; "
    "cenas livres continuam ilimitadas (§8)."
)
BULLETIN_FIRST = "A Semana {next} só abre depois do Boletim da Semana {number} (§8)."
BULLETIN_EMPTY = "Escreva o Boletim antes de publicar."
BULLETIN_NEEDS_HOMOLOGATION = "O Boletim sai depois que o Árbitro homologa o relatório da semana."
BULLETIN_ALREADY = "O Boletim desta semana já foi publicado; ele não muda."
REPORT_EMPTY = "Escreva o relatório: o que aconteceu na semana, cena a cena."
REPORT_MISSING = "Ainda não há relatório desta semana."
REPORT_WITH_ARBITRO = "O relatório está com o Árbitro; espere a decisão."
REPORT_HOMOLOGATED_IS_FINAL = (
    "Relatório homologado não se edita: uma correção entra como nova entrada, "
    "e o texto antigo fica."
)
REPORT_NOT_SUBMITTED = "Este relatório não está esperando o Árbitro (já foi decidido?)."
REPORT_RETURN_NEEDS_REASON = "Diga por que o relatório volta: o Mestre precisa saber o que mudar."
CORRECTION_NEEDS_HOMOLOGATION = (
    "Só relatório homologado recebe correção; antes disso, o Mestre o reescreve."
)
CORRECTION_EMPTY = "Escreva o texto corrigido."
CORRECTION_UNCHANGED = "O texto corrigido é igual ao que está em vigor."
CORRECTION_NEEDS_REASON = "Diga por que se corrige: a razão fica no registro."
CAMPAIGN_REQUIRED = "Você participa de mais de uma campanha: diga qual (campaign)."

MAX_MODIFIERS = 20
MAX_DAMAGE_DICE = 30
MAX_DAMAGE_ADDS = 200


@dataclass(frozen=True)
class Modifier:
    label: str
    value: int


def _system_random() -> RandomSource:
    return secrets.SystemRandom()


# --- who may do what --------------------------------------------------------------------------


def _require_table(user, campaign: Campaign) -> Membership:
    membership = membership_for(user, campaign)
    if membership is None or not membership.runs_the_table:
        raise ServiceError(ONLY_THE_TABLE, code="forbidden")
    return membership


def _require_arbitro(user, campaign: Campaign) -> Membership:
    membership = membership_for(user, campaign)
    if membership is None or membership.role != Membership.Role.ARBITRO:
        raise ServiceError(ONLY_THE_ARBITRO, code="forbidden")
    return membership


def _ensure_week_accepts_entries(week: Week) -> None:
    """Refuse an entry once the week's report is with the Árbitro (or later). Read from the
    database, not from the instance: a report submitted since the week was read counts."""
    fresh = Week.objects.select_related("report").get(pk=week.pk)
    if not fresh.accepts_entries:
        raise ServiceError(
            WEEK_CLOSED_FOR_ENTRIES.format(
                number=fresh.number, state=fresh.get_state_display().lower()
            ),
            code="week_closed",
        )


def _ensure_scene_accepts_entries(scene: Scene) -> None:
    if not scene.is_open:
        raise ServiceError(SCENE_CLOSED, code="scene_closed")
    _ensure_week_accepts_entries(scene.week)


# --- weeks ------------------------------------------------------------------------------------


def week_current(campaign: Campaign) -> Week | None:
    """The campaign's newest week (the open one, or the last one closed)."""
    return Week.objects.filter(campaign=campaign).order_by("-number").first()


@transaction.atomic
def week_open(*, campaign: Campaign, user, number: int | None = None) -> Week:
    """Open the next week: week 1 if none, else N+1 once the Boletim of N is out (§8).

    ``number``, when given, is the week the caller means to open: if it is already open (the
    same button pressed twice) it is returned as it is.
    """
    _require_table(user, campaign)
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if number is not None:
        existing = Week.objects.filter(campaign=campaign, number=number).first()
        if existing is not None:
            return existing
    last = week_current(campaign)
    if last is not None and last.bulletin_published_at is None:
        raise ServiceError(
            BULLETIN_FIRST.format(next=last.number + 1, number=last.number),
            code="bulletin_not_published",
        )
    number = last.number + 1 if last else 1
    return Week.objects.create(campaign=campaign, number=number, opened_at=timezone.now())


@transaction.atomic
def week_publish_bulletin(*, week: Week, user, text: str) -> Week:
    """Publish the week's Boletim, once, after its report is homologated; the week closes."""
    _require_table(user, week.campaign)
    locked = Week.objects.select_for_update().get(pk=week.pk)
    text = (text or "").strip()
    if locked.bulletin_published_at is not None:
        if locked.bulletin == text:
            return locked  # the same Boletim published twice: once
        raise ServiceError(BULLETIN_ALREADY, code="bulletin_published")
    report = locked.report_or_none()
    if report is None or not report.is_homologated:
        raise ServiceError(BULLETIN_NEEDS_HOMOLOGATION, code="report_not_homologated")
    if not text:
        raise ServiceError(BULLETIN_EMPTY, field="bulletin")
    locked.bulletin = text
    locked.bulletin_published_at = timezone.now()
    locked.bulletin_published_by = user
    locked.status = Week.Status.CLOSED
    locked.save(
        update_fields=["bulletin", "bulletin_published_at", "bulletin_published_by", "status"]
    )
    Scene.objects.filter(week=locked).update(status=Scene.Status.CLOSED)
    return locked


@transaction.atomic
def scene_create(
    *,
    week: Week,
    user,
    title: str,
    floor: int | None = None,
    terrain: str = "",
    boss: str = "",
    characters: Iterable[Character] = (),
    request_key: str = "",
) -> Scene:
    """A new scene of the week (free scenes are unlimited, §8). Terrain and boss are said
    here, before the first die (§5.4.1, §5d). The same ``request_key`` twice opens one."""
    request_key = (request_key or "")[:64]
    _require_table(user, week.campaign)
    title = (title or "").strip()
    existing = _replayed(Scene.objects.filter(week=week), request_key, user, title=title[:200])
    if existing is not None:
        return existing
    _ensure_week_accepts_entries(week)
    if not title:
        raise ServiceError(SCENE_TITLE_EMPTY, field="title")
    characters = list(characters)
    if any(c.campaign_id != week.campaign_id for c in characters):
        raise ServiceError(SCENE_CHARACTER_OUTSIDE, field="characters")
    try:
        with transaction.atomic():
            scene = Scene.objects.create(
                week=week,
                title=title[:200],
                floor=floor,
                terrain=(terrain or "").strip()[:200],
                boss=(boss or "").strip()[:200],
                request_key=request_key,
            )
    except IntegrityError:
        # The same form, posted twice at once: the other request opened it.
        return _replayed(Scene.objects.filter(week=week), request_key, user, title=title[:200])
    scene.characters.set(characters)
    return scene


def _replayed(queryset, request_key: str, user, **same):
    """The entry an earlier request with ``request_key`` made, or None.

    A key is its asker's own: an entry another user made, or one made with other content
    (``same``: field → value), is a conflict (ServiceError "idempotency_conflict", 409) and
    is never handed back — returning it would give one user's entry to another. Callers check
    permissions before calling this.
    """
    if not request_key:
        return None
    existing = queryset.filter(request_key=request_key).first()
    if existing is None:
        return None
    author_id = getattr(existing, "author_id", user.pk)
    if author_id != user.pk or any(getattr(existing, f) != v for f, v in same.items()):
        raise ServiceError(
            ENTRY_IDEMPOTENCY_CONFLICT, field="request_key", code="idempotency_conflict"
        )
    return existing


# --- world actions ----------------------------------------------------------------------------


def world_actions_left(week: Week, character: Character) -> int:
    used = WorldAction.objects.filter(week=week, character=character).count()
    return max(0, house.WORLD_ACTIONS_PER_WEEK - used)


def world_action_create(
    *, week: Week, character: Character, user, text: str, request_key: str = ""
) -> WorldAction:
    """Spend one of the character's world actions of the week (§8: three, not carried over).

    Only the jogador who owns the character spends them, as only they declare. The fourth is
    refused; the same ``request_key`` twice spends one.
    """
    request_key = (request_key or "")[:64]
    text = (text or "").strip()
    if not character.is_owned_by(user) or character.campaign_id != week.campaign_id:
        raise ServiceError(NOT_YOUR_CHARACTER_WORLD, field="character", code="forbidden")
    same = {"character_id": character.pk, "text": text}
    existing = _replayed(WorldAction.objects.filter(week=week), request_key, user, **same)
    if existing is not None:
        return existing
    _ensure_week_accepts_entries(week)
    if not text:
        raise ServiceError(WORLD_ACTION_EMPTY, field="text")
    limit = house.WORLD_ACTIONS_PER_WEEK
    for attempt in range(3):
        used = WorldAction.objects.filter(week=week, character=character).count()
        if used >= limit:
            raise ServiceError(
                WORLD_ACTIONS_USED_UP.format(
                    character=character.name, limit=limit, number=week.number
                ),
                field="character",
                code="world_actions_used_up",
            )
        try:
            with transaction.atomic():
                return WorldAction.objects.create(
                    week=week,
                    character=character,
                    ordinal=used + 1,
                    text=text,
                    author=user,
                    request_key=request_key,
                )
        except IntegrityError:
            # Another request took the same number (or the same key) first: look again.
            existing = _replayed(WorldAction.objects.filter(week=week), request_key, user, **same)
            if existing is not None:
                return existing
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


# --- the scene log: declarations, announced modifiers, narration -------------------------------


def declaration_create(
    *, scene: Scene, character: Character, user, text: str, request_key: str = ""
) -> Declaration:
    """Record what a jogador's character does. The same ``request_key`` twice records once."""
    text = (text or "").strip()
    if not character.is_owned_by(user):
        raise ServiceError(NOT_YOUR_CHARACTER, field="character", code="forbidden")
    same = {"character_id": character.pk, "text": text}
    existing = _replayed(Declaration.objects.filter(scene=scene), request_key, user, **same)
    if existing is not None:
        return existing
    if not scene.is_open:
        raise ServiceError(SCENE_CLOSED, code="scene_closed")
    if not text:
        raise ServiceError(DECLARATION_EMPTY, field="text")
    if not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    _ensure_week_accepts_entries(scene.week)
    try:
        with transaction.atomic():
            return Declaration.objects.create(
                scene=scene, character=character, author=user, text=text, request_key=request_key
            )
    except IntegrityError:
        return _replayed(Declaration.objects.filter(scene=scene), request_key, user, **same)


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


def _modifier_dicts(modifiers: Iterable[Modifier]) -> list[dict]:
    return [{"label": m.label, "value": m.value} for m in modifiers]


def announcement_create(
    *,
    scene: Scene,
    user,
    declaration: Declaration | None,
    modifiers: Iterable[Modifier] = (),
    note: str = "",
    request_key: str = "",
) -> ModifierAnnouncement:
    """The Mestre says the modifiers of a declared action before any die (§1.4).

    Its own entry in the log; a roll that answers the declaration afterwards carries exactly
    these (an empty list says "sem modificadores"). It never touches a roll already made.
    """
    request_key = (request_key or "")[:64]
    _require_table(user, scene.week.campaign)
    same = {"declaration_id": declaration.pk if declaration else None}
    existing = _replayed(
        ModifierAnnouncement.objects.filter(scene=scene), request_key, user, **same
    )
    if existing is not None:
        return existing
    _ensure_scene_accepts_entries(scene)
    if declaration is None:
        raise ServiceError(ANNOUNCEMENT_NEEDS_DECLARATION, field="declaration")
    if declaration.scene_id != scene.pk:
        raise ServiceError(DECLARATION_OTHER_SCENE, field="declaration")
    modifiers = clean_modifiers(modifiers)
    try:
        with transaction.atomic():
            return ModifierAnnouncement.objects.create(
                scene=scene,
                declaration=declaration,
                modifiers=_modifier_dicts(modifiers),
                note=(note or "").strip()[:300],
                author=user,
                request_key=request_key,
            )
    except IntegrityError:
        return _replayed(
            ModifierAnnouncement.objects.filter(scene=scene), request_key, user, **same
        )


def narration_create(*, scene: Scene, user, text: str, request_key: str = "") -> Narration:
    """The Mestre narrates what the dice made happen."""
    request_key = (request_key or "")[:64]
    _require_table(user, scene.week.campaign)
    text = (text or "").strip()
    existing = _replayed(Narration.objects.filter(scene=scene), request_key, user, text=text)
    if existing is not None:
        return existing
    _ensure_scene_accepts_entries(scene)
    if not text:
        raise ServiceError(NARRATION_EMPTY, field="text")
    try:
        with transaction.atomic():
            return Narration.objects.create(
                scene=scene, author=user, text=text, request_key=request_key
            )
    except IntegrityError:
        return _replayed(Narration.objects.filter(scene=scene), request_key, user, text=text)


def latest_announcement(declaration: Declaration) -> ModifierAnnouncement | None:
    return declaration.announcements.order_by("-created_at", "-pk").first()


def _answering(
    scene: Scene,
    declaration: Declaration | None,
    character: Character | None,
    modifiers: list[Modifier],
) -> tuple[ModifierAnnouncement | None, list[Modifier]]:
    """The announcement a roll answering ``declaration`` uses, and its modifiers.

    A roll that answers a declaration carries exactly the modifiers announced for it (the
    latest announcement; none if none was made) and no others (§1.4).
    """
    if declaration is None:
        return None, modifiers
    if declaration.scene_id != scene.pk:
        raise ServiceError(DECLARATION_OTHER_SCENE, field="declaration")
    if character is not None and declaration.character_id != character.pk:
        raise ServiceError(
            DECLARATION_OTHER_CHARACTER.format(name=declaration.character.name),
            field="declaration",
        )
    if modifiers:
        raise ServiceError(MODIFIERS_NOT_ANNOUNCED, field="modifiers")
    announcement = latest_announcement(declaration)
    if announcement is None:
        return None, []
    return announcement, [Modifier(m["label"], m["value"]) for m in announcement.modifiers]


# --- the chain --------------------------------------------------------------------------------


def roll_canonical_content(roll: Roll) -> str:
    """The roll's content as canonical JSON (sorted keys, no spaces): what its hash covers.

    The keys of the first rolls are always there; ``announcement`` and ``details`` (what a
    damage, table or contest roll adds) only when the roll has them, so a chain written
    before they existed still verifies.
    """
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
    if roll.announcement_id is not None:
        content["announcement"] = str(roll.announcement.code)
    if roll.details:
        content["details"] = roll.details
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


def _append_with_retries(
    campaign: Campaign, request_key: str, fields: dict, same: Callable[[Roll], Roll]
) -> Roll:
    """Append a roll, taking the next sequence number; a lost race takes the one after."""
    for attempt in range(5):
        if request_key:
            existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
            if existing is not None:
                return same(existing)
        try:
            return _append_roll(campaign=campaign, request_key=request_key, **fields)
        except IntegrityError:
            # Another writer took the same sequence number first; take the next one.
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


@transaction.atomic
def _append_roll(*, campaign: Campaign, **fields) -> Roll:
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    # Under the campaign's lock, which report_submit takes too: no roll slips into a week
    # whose report went to the Árbitro while it was being rolled.
    _ensure_week_accepts_entries(fields["scene"].week)
    last = Roll.objects.filter(campaign=campaign).order_by("-sequence").first()
    hidden = fields.pop("hidden", False)
    roll = Roll(
        campaign=campaign,
        sequence=(last.sequence + 1) if last else 1,
        hidden=hidden,
        name=_hidden_roll_name(fields["scene"], fields.get("character")) if hidden else "",
        created_at=timezone.now(),
        previous_hash=last.hash if last else GENESIS_HASH,
        salt=secrets.token_hex(16),
        **fields,
    )
    roll.hash = roll_hash(roll.previous_hash, roll_canonical_content(roll))
    roll.save()
    return roll


def _conflict_unless(roll: Roll, asked: dict) -> Roll:
    made = {key: getattr(roll, key) for key in asked}
    if asked != made:
        raise ServiceError(IDEMPOTENCY_CONFLICT, code="idempotency_conflict")
    return roll


# --- rolls: a test of success -----------------------------------------------------------------


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

    The modifiers are fixed before the dice (canon §1.4): a roll that answers a declaration
    takes exactly the modifiers announced for it and no others. The roll is refused at
    effective level 3 or less unless it is a defence (§1.1; raises
    ``gurps.errors.NoRollAtThreeOrLess``). Rolls are numbered per campaign without gaps and
    chained (DESIGN.md invariant 2). The same ``request_key`` twice (a form posted twice)
    returns the first roll, unrolled.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    label = (label or "").strip()
    modifiers = list(modifiers)
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _same_request(existing, label, base_level, kind, modifiers, character, hidden)
    _require_table(user, campaign)
    if not label:
        raise ServiceError(LABEL_EMPTY, field="label")
    _ensure_scene_accepts_entries(scene)
    if not -50 <= base_level <= 50:
        raise ServiceError(LEVEL_OUT_OF_RANGE, field="base_level")
    roll_kind = checks.RollKind(kind)
    if character is not None and not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    if hidden and character is None:
        raise ServiceError(HIDDEN_NEEDS_CHARACTER, field="hidden")
    modifiers = clean_modifiers(modifiers)
    announcement, modifiers = _answering(scene, declaration, character, modifiers)
    effective = checks.effective_level(base_level, [m.value for m in modifiers])
    checks.ensure_rollable(effective, roll_kind)
    result = checks.roll_success(source or _system_random(), effective, roll_kind)
    fields = {
        "scene": scene,
        "user": user,
        "label": label[:200],
        "kind": roll_kind,
        "base_level": base_level,
        "modifiers": modifiers,
        "character": character,
        "declaration": declaration,
        "announcement": announcement,
        "hidden": hidden,
        "result": result,
    }
    return _append_with_retries(
        campaign,
        request_key,
        _test_fields(**fields),
        lambda existing: _same_request(
            existing, label, base_level, kind, modifiers, character, hidden
        ),
    )


def _test_fields(*, result: checks.SuccessRoll, user, kind, modifiers, **fields) -> dict:
    return {
        **fields,
        "kind": str(kind),
        "modifiers": _modifier_dicts(modifiers),
        "effective_level": result.effective_level,
        "dice": list(result.dice),
        "total": result.total,
        "outcome": str(result.outcome),
        "margin": result.margin,
        "rolled_by": user,
    }


def _same_request(roll: Roll, label, base_level, kind, modifiers, character, hidden) -> Roll:
    """The roll already made for this request key, if the request is the same one."""
    asked = {
        "label": label[:200],
        "base_level": base_level,
        "kind": str(kind),
        "character": character.pk if character else None,
        "hidden": hidden,
    }
    made = {
        "label": roll.label,
        "base_level": roll.base_level,
        "kind": roll.kind,
        "character": roll.character_id,
        "hidden": roll.hidden,
    }
    # Modifiers typed in must match; a roll answering a declaration took the announced ones.
    if roll.announcement_id is None:
        asked["modifiers"] = [{"label": m.label.strip(), "value": m.value} for m in modifiers]
        made["modifiers"] = roll.modifiers
    if asked != made:
        raise ServiceError(IDEMPOTENCY_CONFLICT, code="idempotency_conflict")
    return roll


# --- rolls: damage, the engine's tables, quick contests ---------------------------------------


def damage_roll_create(
    *,
    scene: Scene,
    user,
    expression: str,
    label: str = "",
    character: Character | None = None,
    declaration: Declaration | None = None,
    source: RandomSource | None = None,
    request_key: str = "",
) -> Roll:
    """Roll a damage expression (``2d+1``, ``1d-1``, ``3d``) on the server (§4.9).

    The total is the faces plus the expression's adds, as rolled; the minimums and the
    wounding of §4.9 are the engine's (``gurps.damage.injury``), applied where the injury is.
    Raises ``gurps.errors.InvalidDiceExpression`` for an unreadable expression.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    parsed = parse_dice(expression)
    label = (label or "").strip()[:200] or f"Dano {parsed.display}"
    asked = {"kind": Roll.Kind.DAMAGE.value, "label": label, "details": {"expression": str(parsed)}}
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _conflict_unless(existing, asked)
    _require_table(user, campaign)
    _ensure_scene_accepts_entries(scene)
    if parsed.count > MAX_DAMAGE_DICE:
        raise ServiceError(TOO_MANY_DICE.format(limit=MAX_DAMAGE_DICE), field="expression")
    if abs(parsed.modifier) > MAX_DAMAGE_ADDS:
        raise ServiceError(DAMAGE_ADDS_TOO_LARGE.format(limit=MAX_DAMAGE_ADDS), field="expression")
    if character is not None and not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    announcement, _ = _answering(scene, declaration, character, [])
    faces, total = parsed.roll(source or _system_random())
    fields = {
        "scene": scene,
        "character": character,
        "declaration": declaration,
        "announcement": announcement,
        "label": label,
        "kind": Roll.Kind.DAMAGE.value,
        "dice": list(faces),
        "total": total,
        "details": {"expression": str(parsed)},
        "rolled_by": user,
    }
    return _append_with_retries(
        campaign, request_key, fields, lambda existing: _conflict_unless(existing, asked)
    )


def table_choices() -> list[tuple[str, str]]:
    """The engine's tables the Mestre can roll on: (key, title)."""
    return list(tables.TABLE_TITLES.items())


def table_roll_create(
    *,
    scene: Scene,
    user,
    table_key: str,
    options: dict | None = None,
    character: Character | None = None,
    declaration: Declaration | None = None,
    source: RandomSource | None = None,
    request_key: str = "",
) -> Roll:
    """Roll on one of the engine's tables (critical miss, critical hit, critical hit to the
    head, spell critical failure, fright check) and append what it says, rerolls included.

    ``options`` go to ``gurps.tables.roll_on_table`` as they are (the fright check needs
    ``margin_of_failure``; a critical miss ``unarmed``, ``impaling`` …): the engine says what
    each table takes and refuses the rest (``gurps.errors.InvalidValue`` naming the option).
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    options = dict(options or {})
    if table_key not in tables.TABLE_TITLES:
        raise ServiceError(UNKNOWN_TABLE, field="table")
    asked = {"kind": Roll.Kind.TABLE.value, "label": tables.TABLE_TITLES[table_key][:200]}
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _conflict_unless(existing, asked)
    _require_table(user, campaign)
    _ensure_scene_accepts_entries(scene)
    if character is not None and not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    announcement, _ = _answering(scene, declaration, character, [])
    result = tables.roll_on_table(table_key, source or _system_random(), **options)
    details = {
        "table": result.table_key,
        "title": result.title,
        "rolls": list(result.rolls),
        "faces": [list(faces) for faces in result.faces],
        "row": result.row.label,
        "effect": result.effect,
        "text": result.text,
        "readings": list(result.readings),
        "options": {
            key: str(value) if not isinstance(value, bool | int) else value
            for key, value in options.items()
        },
    }
    fields = {
        "scene": scene,
        "character": character,
        "declaration": declaration,
        "announcement": announcement,
        "label": result.title[:200],
        "kind": Roll.Kind.TABLE.value,
        "dice": [face for faces in result.faces for face in faces],
        "total": result.total,
        "details": details,
        "rolled_by": user,
    }
    return _append_with_retries(
        campaign, request_key, fields, lambda existing: _conflict_unless(existing, asked)
    )


@dataclass(frozen=True)
class ContestSide:
    """One side of a quick contest: who, against what level, with which modifiers."""

    character: Character | None
    label: str
    base_level: int
    kind: str = "skill"
    modifiers: tuple[Modifier, ...] = ()


def _contest_side_dict(side: ContestSide, modifiers, result: checks.SuccessRoll) -> dict:
    return {
        "character": str(side.character.code),
        "name": side.character.name,
        "label": side.label,
        "kind": str(side.kind),
        "base_level": side.base_level,
        "modifiers": _modifier_dicts(modifiers),
        "effective_level": result.effective_level,
        "dice": list(result.dice),
        "total": result.total,
        "outcome": str(result.outcome),
        "margin": result.margin,
    }


def contest_create(
    *,
    scene: Scene,
    user,
    a: ContestSide,
    b: ContestSide,
    declaration: Declaration | None = None,
    source: RandomSource | None = None,
    request_key: str = "",
) -> Roll:
    """A quick contest between two characters of the scene (§1.5), as one logged roll.

    Each side rolls 3d6 against its own level plus its modifiers; ``gurps.checks.
    quick_contest`` says who won (or nobody). Side A's roll fills the roll's own fields;
    both sides and the winner are in ``details``. A contest answering a declaration is side
    A's, with the modifiers announced for it.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    labels = [(side.label or "").strip()[:90] for side in (a, b)]
    label = f"{labels[0]} × {labels[1]}"
    asked = {"kind": Roll.Kind.CONTEST.value, "label": label}
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _conflict_unless(existing, asked)
    _require_table(user, campaign)
    _ensure_scene_accepts_entries(scene)
    in_scene = set(scene.characters.values_list("pk", flat=True))
    cleaned = []
    for prefix, side, side_label in (("a", a, labels[0]), ("b", b, labels[1])):
        if side.character is None or side.character.pk not in in_scene:
            raise ServiceError(CONTEST_NEEDS_CHARACTER, field=f"{prefix}.character")
        if not side_label:
            raise ServiceError(LABEL_EMPTY, field=f"{prefix}.label")
        if not -50 <= side.base_level <= 50:
            raise ServiceError(LEVEL_OUT_OF_RANGE, field=f"{prefix}.base_level")
        if side.kind not in (checks.RollKind.SKILL, checks.RollKind.ATTRIBUTE):
            raise ServiceError(CONTEST_KIND, field=f"{prefix}.kind")
        try:
            modifiers = clean_modifiers(side.modifiers)
        except ServiceError as error:
            raise ServiceError(error.message, field=f"{prefix}.modifiers") from None
        cleaned.append(modifiers)
    if a.character.pk == b.character.pk:
        raise ServiceError(CONTEST_SAME_CHARACTER, field="b.character")
    announcement, cleaned[0] = _answering(scene, declaration, a.character, cleaned[0])
    source = source or _system_random()
    results = []
    for side, modifiers in zip((a, b), cleaned, strict=True):
        effective = checks.effective_level(side.base_level, [m.value for m in modifiers])
        checks.ensure_rollable(effective, side.kind)
        results.append((side, modifiers, effective))
    rolled = [checks.roll_success(source, eff, side.kind) for side, _, eff in results]
    winner = checks.quick_contest(rolled[0], rolled[1])
    details = {
        "a": _contest_side_dict(a, cleaned[0], rolled[0]),
        "b": _contest_side_dict(b, cleaned[1], rolled[1]),
        "winner": winner,
    }
    first = rolled[0]
    fields = {
        "scene": scene,
        "character": a.character,
        "declaration": declaration,
        "announcement": announcement,
        "label": label,
        "kind": Roll.Kind.CONTEST.value,
        "base_level": a.base_level,
        "modifiers": _modifier_dicts(cleaned[0]),
        "effective_level": first.effective_level,
        "dice": list(first.dice),
        "total": first.total,
        "outcome": str(first.outcome),
        "margin": first.margin,
        "details": details,
        "rolled_by": user,
    }
    return _append_with_retries(
        campaign, request_key, fields, lambda existing: _conflict_unless(existing, asked)
    )


# --- verifying the chain ----------------------------------------------------------------------


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
        "campaign", "scene", "character", "rolled_by", "announcement"
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


def campaign_for_verify(user, slug: str | None) -> Campaign:
    """The campaign whose chain a member asks to verify: the one named, or their only one."""
    memberships = Membership.objects.filter(user=user).select_related("campaign")
    if slug:
        membership = memberships.filter(campaign__slug=slug).first()
        if membership is None:
            raise ServiceError("Campanha não encontrada.", field="campaign", code="not_found")
        return membership.campaign
    campaigns = [m.campaign for m in memberships]
    if len(campaigns) != 1:
        raise ServiceError(CAMPAIGN_REQUIRED, field="campaign")
    return campaigns[0]


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


# --- the weekly report ------------------------------------------------------------------------


@transaction.atomic
def report_write(*, week: Week, user, text: str) -> WeeklyReport:
    """Write (or rewrite) the week's report while it is a draft or was returned."""
    _require_table(user, week.campaign)
    text = (text or "").strip()
    if week.bulletin_published_at is not None:
        raise ServiceError(REPORT_HOMOLOGATED_IS_FINAL, code="report_final")
    report = WeeklyReport.objects.select_for_update().filter(week=week).first()
    if report is not None and report.status == WeeklyReport.Status.SUBMITTED:
        raise ServiceError(REPORT_WITH_ARBITRO, code="report_submitted")
    if report is not None and report.is_homologated:
        raise ServiceError(REPORT_HOMOLOGATED_IS_FINAL, code="report_final")
    if not text:
        raise ServiceError(REPORT_EMPTY, field="text")
    if report is None:
        return WeeklyReport.objects.create(
            week=week, text=text, written_by=user, written_at=timezone.now()
        )
    report.text = text
    report.written_by = user
    report.written_at = timezone.now()
    report.save(update_fields=["text", "written_by", "written_at"])
    return report


@transaction.atomic
def report_submit(*, week: Week, user) -> WeeklyReport:
    """Send the report to the Árbitro; the week's log closes until it comes back."""
    _require_table(user, week.campaign)
    Campaign.objects.select_for_update().get(pk=week.campaign_id)
    report = WeeklyReport.objects.select_for_update().filter(week=week).first()
    if report is None:
        raise ServiceError(REPORT_MISSING, field="text", code="report_missing")
    if report.status == WeeklyReport.Status.SUBMITTED:
        return report  # sent twice: it is with the Árbitro once
    if report.is_homologated:
        raise ServiceError(REPORT_HOMOLOGATED_IS_FINAL, code="report_final")
    report.status = WeeklyReport.Status.SUBMITTED
    report.submitted_at = timezone.now()
    report.save(update_fields=["status", "submitted_at"])
    return report


def _decide_report(week: Week, user, status: str, reason: str = "") -> WeeklyReport:
    _require_arbitro(user, week.campaign)
    report = WeeklyReport.objects.select_for_update().filter(week=week).first()
    if report is not None and report.status == status and report.return_reason == reason:
        return report  # the same decision twice (a double click): made once
    if report is None or report.status != WeeklyReport.Status.SUBMITTED:
        raise ServiceError(REPORT_NOT_SUBMITTED, code="report_not_submitted")
    report.status = status
    report.decided_at = timezone.now()
    report.decided_by = user
    report.return_reason = reason
    report.save(update_fields=["status", "decided_at", "decided_by", "return_reason"])
    return report


@transaction.atomic
def report_homologate(*, week: Week, user) -> WeeklyReport:
    """The Árbitro approves the report: it never changes again, and the week's hidden rolls
    show their dice and targets to everyone (§1.6)."""
    return _decide_report(week, user, WeeklyReport.Status.HOMOLOGATED)


@transaction.atomic
def report_return(*, week: Week, user, reason: str) -> WeeklyReport:
    """The Árbitro sends the report back with a reason; the week's log opens again."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(REPORT_RETURN_NEEDS_REASON, field="reason")
    return _decide_report(week, user, WeeklyReport.Status.RETURNED, reason)


def report_current_text(report: WeeklyReport, corrections: list[ReportCorrection] | None = None):
    """What the report says now: its homologated text, or its latest correction's."""
    if corrections is None:
        corrections = list(report.corrections.order_by("at", "pk"))
    return corrections[-1].new_text if corrections else report.text


@transaction.atomic
def report_correct(*, week: Week, user, new_text: str, reason: str) -> ReportCorrection:
    """Correct a homologated report with a new entry that keeps what it said before."""
    _require_arbitro(user, week.campaign)
    report = WeeklyReport.objects.select_for_update().filter(week=week).first()
    if report is None or not report.is_homologated:
        raise ServiceError(CORRECTION_NEEDS_HOMOLOGATION, code="report_not_homologated")
    new_text = (new_text or "").strip()
    reason = (reason or "").strip()
    if not new_text:
        raise ServiceError(CORRECTION_EMPTY, field="new_text")
    if not reason:
        raise ServiceError(CORRECTION_NEEDS_REASON, field="reason")
    corrections = list(report.corrections.order_by("at", "pk"))
    last = corrections[-1] if corrections else None
    if last is not None and (last.new_text, last.reason, last.by_id) == (new_text, reason, user.pk):
        return last  # the same correction posted twice: recorded once
    old_text = report_current_text(report, corrections)
    if new_text == old_text:
        raise ServiceError(CORRECTION_UNCHANGED, field="new_text")
    return ReportCorrection.objects.create(
        report=report,
        old_text=old_text,
        new_text=new_text,
        reason=reason,
        by=user,
        at=timezone.now(),
    )


# --- who sees what of a roll ------------------------------------------------------------------

FULL, MASKED, ABSENT = "full", "masked", "absent"


def roll_visibility(roll: Roll, *, membership: Membership, user, revealed: bool) -> str:
    """How much of ``roll`` a member sees (DESIGN.md invariant 4).

    Every roll in full to the Mestre and the Árbitro. A hidden roll: to its player, name, time
    and commitment until the week's report is homologated; to other jogadores, nothing;
    after homologation, everything, to everyone, so anyone can check the commitment.
    """
    if not roll.hidden or membership.runs_the_table or revealed:
        return FULL
    if roll.character is not None and roll.character.is_owned_by(user):
        return MASKED
    return ABSENT


# --- the log as a page shows it ---------------------------------------------------------------

_ORDER = {"declaration": 0, "announcement": 1, "roll": 2, "narration": 3}


@dataclass(frozen=True)
class LogEntry:
    """One line of the scene log. For a hidden roll a jogador sees name and hash only."""

    kind: str  # "declaration" | "announcement" | "roll" | "narration"
    created_at: object
    declaration: Declaration | None = None
    roll: Roll | None = None
    masked: bool = False
    announcement: ModifierAnnouncement | None = None
    narration: Narration | None = None
    revealed: bool = False  # a hidden roll shown in full because the report is homologated

    @property
    def canonical(self) -> str:
        """What the roll's hash covers, for whoever checks a revealed commitment."""
        return roll_canonical_content(self.roll)

    @property
    def commitment_ok(self) -> bool:
        return roll_hash(self.roll.previous_hash, self.canonical) == self.roll.hash


def scene_log_entries(scene: Scene, *, membership, user) -> list[LogEntry]:
    """The scene's timeline in the order it happened (5 queries: the week's report, then
    declarations, announcements, rolls and narrations)."""
    revealed = scene.week.hidden_rolls_revealed
    declarations = Declaration.objects.filter(scene=scene).select_related("character", "author")
    announcements = ModifierAnnouncement.objects.filter(scene=scene).select_related(
        "declaration__character", "author"
    )
    rolls = Roll.objects.filter(scene=scene).select_related(
        "character", "rolled_by", "declaration__character", "announcement", "campaign", "scene"
    )
    narrations = Narration.objects.filter(scene=scene).select_related("author")
    entries = [LogEntry("declaration", d.created_at, declaration=d) for d in declarations]
    entries += [LogEntry("announcement", a.created_at, announcement=a) for a in announcements]
    for roll in rolls:
        seen = roll_visibility(roll, membership=membership, user=user, revealed=revealed)
        if seen == ABSENT:
            continue
        entries.append(
            LogEntry(
                "roll",
                roll.created_at,
                roll=roll,
                masked=seen == MASKED,
                revealed=roll.hidden and revealed,
            )
        )
    entries += [LogEntry("narration", n.created_at, narration=n) for n in narrations]
    entries.sort(key=lambda e: (e.created_at, _ORDER[e.kind]))
    return entries


def scene_log_token(scene: Scene, entries: list[LogEntry]) -> str:
    """What a polling page already has: the count of entries, and whether hidden rolls are
    revealed (homologation changes what the same entries show)."""
    return f"{len(entries)}{'r' if scene.week.hidden_rolls_revealed else ''}"


# --- the week page ----------------------------------------------------------------------------


@dataclass
class CharacterActions:
    character: Character
    actions: list[WorldAction] = field(default_factory=list)
    limit: int = 0

    @property
    def left(self) -> int:
        return max(0, self.limit - len(self.actions))


def week_world_actions(week: Week) -> list[CharacterActions]:
    """Each player character of the campaign with the world actions spent this week."""
    limit = house.WORLD_ACTIONS_PER_WEEK
    rows = {
        c.pk: CharacterActions(c, limit=limit)
        for c in Character.objects.filter(
            campaign=week.campaign, kind=Character.Kind.PLAYER_CHARACTER
        ).select_related("owner")
    }
    for action in WorldAction.objects.filter(week=week).select_related("character", "author"):
        rows.setdefault(action.character_id, CharacterActions(action.character, limit=limit))
        rows[action.character_id].actions.append(action)
    return list(rows.values())


def week_scenes(week: Week, *, membership: Membership | None = None, user=None) -> list[Scene]:
    """The week's scenes, oldest first, each with ``roll_count``: the rolls this member may
    know exist (another jogador's hidden roll is not counted before the reveal, §1.6)."""
    counted = Q()
    if membership is not None and not membership.runs_the_table and not week.hidden_rolls_revealed:
        counted = Q(rolls__hidden=False) | Q(rolls__character__owner=user)
    return list(
        Scene.objects.filter(week=week)
        .prefetch_related("characters")
        .annotate(roll_count=Count("rolls", filter=counted, distinct=True))
        .order_by("created_at")
    )


def week_hidden_rolls(week: Week) -> list[LogEntry]:
    """The week's hidden rolls, in full, for the report page: the table checks them against
    the report before homologation; everyone sees them after."""
    rolls = (
        Roll.objects.filter(scene__week=week, hidden=True)
        .select_related(
            "character", "scene", "rolled_by", "campaign", "announcement", "declaration__character"
        )
        .order_by("sequence")
    )
    revealed = week.hidden_rolls_revealed
    return [LogEntry("roll", r.created_at, roll=r, revealed=revealed) for r in rolls]


def report_visible_to(membership: Membership, report: WeeklyReport | None) -> bool:
    """The report speaks of hidden rolls: jogadores read it once it is homologated."""
    if report is None:
        return False
    return membership.runs_the_table or report.is_homologated


# --- exports ----------------------------------------------------------------------------------


def roll_data(roll: Roll, *, masked: bool) -> dict:
    """A roll as the API and the JSON exports give it; a masked one keeps only what its
    player may see before homologation (name, time, sequence, commitment)."""
    data = {
        "id": roll.code,
        "sequence": roll.sequence,
        "name": roll.name,
        "label": roll.label,
        "kind": roll.kind,
        "character": roll.character.code if roll.character_id else None,
        "declaration": roll.declaration.code if roll.declaration_id else None,
        "announcement": roll.announcement.code if roll.announcement_id else None,
        "hidden": roll.hidden,
        "base_level": roll.base_level,
        "modifiers": roll.modifiers,
        "dice": roll.dice,
        "total": roll.total,
        "effective_level": roll.effective_level,
        "outcome": roll.outcome or None,
        "outcome_label": Roll.Outcome(roll.outcome).label if roll.outcome else None,
        "margin": roll.margin,
        "details": roll.details or None,
        "hash": roll.hash,
        "previous_hash": roll.previous_hash,
        "salt": roll.salt,
        "canonical": roll_canonical_content(roll),
        "rolled_by": roll.rolled_by.get_username(),
        "created_at": roll.created_at,
    }
    if masked:
        # A hidden roll's values show only after the weekly report is homologated (§1.6).
        for key in (
            "base_level",
            "modifiers",
            "dice",
            "total",
            "effective_level",
            "outcome",
            "outcome_label",
            "margin",
            "details",
            "salt",
            "canonical",
        ):
            data[key] = None
        data["label"] = data["kind"] = ""
    return data


def _entry_data(entry: LogEntry) -> dict:
    if entry.kind == "declaration":
        d = entry.declaration
        return {
            "type": "declaration",
            "id": d.code,
            "created_at": d.created_at,
            "character": {"id": d.character.code, "name": d.character.name},
            "author": d.author.get_username(),
            "text": d.text,
        }
    if entry.kind == "announcement":
        a = entry.announcement
        return {
            "type": "announcement",
            "id": a.code,
            "created_at": a.created_at,
            "declaration": a.declaration.code,
            "modifiers": a.modifiers,
            "net": a.net_modifier,
            "note": a.note,
            "author": a.author.get_username(),
        }
    if entry.kind == "narration":
        n = entry.narration
        return {
            "type": "narration",
            "id": n.code,
            "created_at": n.created_at,
            "author": n.author.get_username(),
            "text": n.text,
        }
    return {"type": "roll", **roll_data(entry.roll, masked=entry.masked)}


def scene_export(scene: Scene, *, membership, user) -> dict:
    """A scene and its whole timeline, every roll the viewer may see, as plain data."""
    entries = scene_log_entries(scene, membership=membership, user=user)
    week = scene.week
    return {
        "scene": {
            "id": scene.code,
            "title": scene.title,
            "campaign": week.campaign.slug,
            "week": week.number,
            "floor": scene.floor,
            "terrain": scene.terrain,
            "boss": scene.boss,
            "status": scene.status,
            "characters": [{"id": c.code, "name": c.name} for c in scene.characters.all()],
        },
        "entries": [_entry_data(e) for e in entries],
    }


def week_export(week: Week, *, membership, user) -> dict:
    """A week: its state, world actions, report (when the viewer may read it), Boletim and
    every scene with its timeline."""
    report = week.report_or_none()
    data = {
        "campaign": week.campaign.slug,
        "week": week.number,
        "state": week.state,
        "opened_at": week.opened_at,
        "bulletin": week.bulletin if week.bulletin_published_at else None,
        "bulletin_published_at": week.bulletin_published_at,
        "world_actions": [
            {
                "id": a.code,
                "character": {"id": row.character.code, "name": row.character.name},
                "ordinal": a.ordinal,
                "text": a.text,
                "author": a.author.get_username(),
                "created_at": a.created_at,
            }
            for row in week_world_actions(week)
            for a in row.actions
        ],
        "report": None,
        "scenes": [
            scene_export(scene, membership=membership, user=user) for scene in week_scenes(week)
        ],
    }
    if report is not None:
        data["report"] = {"status": report.status}
        if report_visible_to(membership, report):
            corrections = list(report.corrections.select_related("by").order_by("at", "pk"))
            data["report"].update(
                {
                    "text": report.text,
                    "current_text": report_current_text(report, corrections),
                    "decided_at": report.decided_at,
                    "corrections": [
                        {
                            "old_text": c.old_text,
                            "new_text": c.new_text,
                            "reason": c.reason,
                            "by": c.by.get_username(),
                            "at": c.at,
                        }
                        for c in corrections
                    ],
                }
            )
    return data


# --- a player's folder of hidden rolls (§1.6) -------------------------------------------------

FOLDER_README = """Pasta de rolagens escondidas — {player}, campanha {campaign}

Uma rolagem por arquivo, com o nome que ela recebeu ao ser gravada (§1.6).
Antes da homologação do relatório da semana, o arquivo traz o nome, a hora, o número na
cadeia da campanha e o compromisso ("hash"). Depois, traz também o dado, o alvo e o
conteúdo canônico ("canonical"), e qualquer um confere o compromisso:

    sha256(previous_hash + canonical) == hash

Em Python:

    import hashlib, json
    r = json.load(open("semana-NN-rolagem-NN.json", encoding="utf-8"))  # o nome do arquivo
    print(hashlib.sha256((r["previous_hash"] + r["canonical"]).encode()).hexdigest() == r["hash"])
"""


def player_folder(campaign: Campaign, player) -> list[tuple[str, str]]:
    """The player's hidden rolls as files ``semana-NN-rolagem-NN.json``, one roll per file,
    masked until their week's report is homologated; plus a LEIA-ME on how to check them."""
    rolls = (
        Roll.objects.filter(campaign=campaign, hidden=True, character__owner=player)
        .select_related(
            "character",
            "declaration",
            "announcement",
            "rolled_by",
            "campaign",
            "scene__week__report",
        )
        .order_by("sequence")
    )
    files = [
        (
            "LEIA-ME.txt",
            FOLDER_README.format(player=player.get_username(), campaign=campaign.name),
        )
    ]
    for roll in rolls:
        revealed = roll.scene.week.hidden_rolls_revealed
        data = roll_data(roll, masked=not revealed)
        data["week"] = roll.scene.week.number
        data["scene"] = {"id": roll.scene.code, "title": roll.scene.title}
        data["revealed"] = revealed
        files.append(
            (
                f"{roll.name}.json",
                json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True, default=str),
            )
        )
    return files
