"""Sheets through the API: the campaign's homologated sheets with their derived block."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from django.core.cache import cache
from django.shortcuts import get_object_or_404
from ninja import Field, Query, Router, Schema
from ninja.errors import HttpError

from campaigns.api_errors import errors
from campaigns.auth import AUTH
from campaigns.errors import ServiceError
from campaigns.models import Membership
from canon.services import reading_pendencias
from rulesets.registry import ruleset_for
from sheets import data_draft, data_sheet, ruleset_data
from sheets.audit import character_defaults
from sheets.computed import sheet_view
from sheets.homologation import sheet_submit, version_warnings
from sheets.models import Character, SheetVersion
from sheets.reads import sheet_revision, state_of
from sheets.schemas import DerivedOut, ReadingOut, derived_out, reading_pairs, readings_out

router = Router(auth=AUTH)

CharacterKind = Annotated[
    Literal["pc", "named_npc", "creature"],
    Field(
        description="pc = Personagem de jogador; named_npc = NPC nomeado; creature = Bicho de "
        "bestiário (quem morre quando: §5.4.1)"
    ),
]
Owner = Annotated[
    str | None,
    Field(description="O usuário do jogador que joga a personagem; null: ninguém a joga"),
]


class SheetListOut(Schema):
    id: UUID
    name: str
    campaign: str  # the campaign's slug
    kind: CharacterKind
    owner: Owner
    homologated: datetime | None


class TraitOut(Schema):
    name: str
    kind: str
    key: str
    points: int


class SkillOut(Schema):
    name: str
    attribute: str
    difficulty: str
    level: int
    points: float
    success: float


class ItemOut(Schema):
    id: UUID
    name: str
    weight_kg: float
    quantity: int
    carried: bool
    passive_defense: int
    damage_resistance: int
    damage: str
    damage_now: str | None
    skill: str
    parry: str


class ConditionOut(Schema):
    """A condition the body is in now (§5.2–5.4, §5.4.1): cambaleando, atordoado,
    inconsciente, morto, a 0 PV ou menos."""

    key: Literal["staggered", "stunned", "ht_each_turn", "unconscious", "dead"]
    name: str
    text: str
    section: str


class SheetOut(Schema):
    id: UUID
    name: str
    kind: CharacterKind
    owner: Owner
    version: int
    homologated: datetime | None
    st: int
    dx: int
    iq: int
    ht: int
    traits: list[TraitOut]
    skills: list[SkillOut]
    items: list[ItemOut]
    hp_lost: int
    fatigue_lost: int
    carried_kg: float
    derived: DerivedOut
    conditions: list[ConditionOut]
    readings: list[ReadingOut] = Field(
        description="Os números desta ficha que dependem de uma leitura provisória, como a "
        "página da ficha mostra"
    )


class NumberOut(Schema):
    value: int | float | str
    formula: str = Field(description="A conta, com os números da ficha, nas palavras do texto")
    section: str = Field(description="A seção do texto (§4.2 Tirada d'atac)")


class DataSheetOut(Schema):
    """A sheet of a ruleset that keeps it as JSON (the Xuleta, ``ruleset: xuleta5e``)."""

    id: UUID
    name: str
    kind: CharacterKind
    owner: Owner
    ruleset: str = Field(description="O sistema de regras da campanha (xuleta5e)")
    version: int
    homologated: datetime | None
    data: dict[str, Any] = Field(
        description="As entradas da ficha homologada, como escritas (nenhum número derivado): "
        "name, level, abilities (str dex con int wis cha: 1–30), proficiencies (skills: os nomes "
        "do texto; saves: as chaves), ac, max_hp, hit_die (6/8/10/12), speed_m, darkvision_m, "
        "attacks, spellcasting, resistances, vulnerabilities, immunities, notes"
    )
    state: dict[str, Any] = Field(
        description="O estado em jogo: hp_lost, temp_hp, exhaustion (0–6), conditions (chaves), "
        "hit_dice_spent, slots_spent, death_saves, stable, dead, concentration, "
        "last_long_rest, ate_and_drank"
    )
    sheet: dict[str, Any] = Field(
        description="O que os testes, o combate e o procedimento leem da ficha (check_data): "
        "modifiers, proficiency_bonus, checks, skills (as 18), saves, passive_perception, ac, "
        "max_hp, hit_die, hit_dice, speed_m, darkvision_m, attacks (bonus, damage, "
        "damage_modifier, damage_type…), spellcasting (save_dc, attack_bonus, slots…)"
    )
    numbers: dict[str, NumberOut] = Field(
        description="Cada número com a conta e a seção, sob o estado (esgotamento, estados): "
        "modifiers.str, skills.Percepció, saves.dex, passive_perception, speed, max_hp, hp, "
        "spell_save_dc, slots.1…"
    )
    attacks: list[dict[str, Any]] = Field(
        description="Cada ataque com bonus e damage (value, formula, section), ability e tipo"
    )
    edges: dict[str, str] = Field(
        description="check, save, attack → none/advantage/disadvantage, pelo estado"
    )
    save_edges: dict[str, str]
    auto_fail: list[str] = Field(description="As salvações que falham sem tirar (str, dex)")
    attacked_edge: str = Field(description="A vantagem de quem ataca esta personagem")
    conditions: list[str] = Field(description="Os estados em vigor, com os que eles implicam")
    exhaustion_effects: list[str]
    readings: list[ReadingOut]


def _data_sheet_out(character: Character) -> dict:
    """A JSON sheet's answer: the newest homologated version's data, the state, what checks
    read of them and every number with its formula (the ruleset's ``SheetsPart``). Kept in the
    cache by the sheet's fingerprint, as GURPS's (``sheets.reads.sheet_revision``, the
    campaign's ruleset with it); the Árbitro's pendências of the readings are read fresh."""
    revision = sheet_revision(
        character, state_of(character), _owner(character), character.campaign.ruleset
    )
    if revision is None:
        answer = _data_sheet_answer(character)
    elif revision.homologated is None:
        raise HttpError(404, NO_SHEET)
    else:
        answer = cache.get_or_set(
            f"data-sheet-api:{revision.key}", lambda: _data_sheet_answer(character), timeout=3600
        )
    return {**answer, "readings": _with_pendencias(character, answer["readings"])}


def _data_sheet_answer(character: Character) -> dict:
    """What ``_data_sheet_out`` keeps: everything but the pendências."""
    version = character.versions.filter(status="homologated").order_by("-number").first()
    if version is None:
        raise HttpError(404, NO_SHEET)
    sheets = ruleset_for(character.campaign.ruleset).sheets
    state = ruleset_data.data_state(character)
    derived = sheets.derive(version.data, state)
    readings = []
    for key in derived["readings"]:
        reading = sheets.reading(key)
        readings.append(
            {
                "value": "sheet",
                "reading": key,
                "section": reading.section,
                "question": reading.question,
                "answer": reading.answer,
            }
        )
    return {
        "id": character.code,
        "name": character.name,
        "kind": character.kind,
        "owner": _owner(character),
        "ruleset": character.campaign.ruleset,
        "version": version.number,
        "homologated": version.decided_at,
        "data": version.data,
        "state": state,
        "sheet": sheets.check_data(version.data, state),
        **{k: v for k, v in derived.items() if k != "readings"},
        "readings": readings,
    }


def _owner(character: Character) -> str | None:
    return character.owner.get_username() if character.owner_id else None


def _reading_pairs(view) -> list[tuple[str, str]]:
    """(number, reading key) of each number of the sheet that rests on an open reading."""
    return reading_pairs(view.derived)


def _with_pendencias(character: Character, rows: list[dict]) -> list[dict]:
    """The readings' ``rows`` (each with its ``reading`` key), each with the Árbitro's pendência
    in the character's campaign: its code and status, or None (1 query)."""
    found = reading_pendencias(
        character.campaign_id, character.campaign.ruleset, {row["reading"] for row in rows}
    )
    answered = []
    for row in rows:
        code, status = found.get(row["reading"], (None, None))
        answered.append({**row, "divergence": code, "divergence_status": status})
    return answered


def _campaign_ids(user) -> list[int]:
    return list(Membership.objects.filter(user=user).values_list("campaign_id", flat=True))


@router.get("", response={200: list[SheetListOut], **errors(401)}, summary="As fichas da campanha")
def sheet_list(request):
    characters = Character.objects.filter(campaign_id__in=_campaign_ids(request.user))
    rows = []
    characters = characters.select_related("campaign", "owner").prefetch_related("versions")
    for character in characters:
        homologated = [v for v in character.versions.all() if v.status == "homologated"]
        rows.append(
            {
                "id": character.code,
                "name": character.name,
                "campaign": character.campaign.slug,
                "kind": character.kind,
                "owner": _owner(character),
                "homologated": max(
                    (v.decided_at for v in homologated if v.decided_at), default=None
                ),
            }
        )
    return rows


@router.get(
    "/{uuid:code}",
    response={200: SheetOut | DataSheetOut, **errors(401, 404)},
    summary="A ficha homologada e o estado em jogo",
)
def sheet_detail(request, code: UUID):
    """The numbers come from ``sheets.computed.sheet_view`` (so from ``gurps``); they are kept in
    the cache by the sheet's fingerprint (``sheets.reads.sheet_revision``: the character, its
    state, versions and possessions, and the owner), so they are computed again only when one
    of those changed. The Árbitro's pendências of the readings move on their own: read fresh
    each time (1 query)."""
    character = get_object_or_404(
        Character.objects.select_related("state", "owner", "campaign"),
        code=code,
        campaign_id__in=_campaign_ids(request.user),
    )
    if data_sheet.keeps_json(character):  # the Xuleta: its data, state and numbers
        return _data_sheet_out(character)
    state = state_of(character)
    revision = sheet_revision(character, state, _owner(character))
    if revision is None:
        answer = _sheet_out(character, state)
    elif revision.homologated is None:
        raise HttpError(404, NO_SHEET)
    else:
        answer = cache.get_or_set(
            f"sheet-api:{revision.key}", lambda: _sheet_out(character, state), timeout=3600
        )
    readings = _with_pendencias(character, readings_out(answer["reading_pairs"]))
    return {**{k: v for k, v in answer.items() if k != "reading_pairs"}, "readings": readings}


NO_SHEET = "Esta personagem ainda não tem ficha homologada."


def _sheet_out(character: Character, state) -> dict:
    view = sheet_view(character, state=state)
    if view is None:
        raise HttpError(404, NO_SHEET)
    damage_now = {w.name: w.expression for w in view.weapons}
    return {
        "id": character.code,
        "name": character.name,
        "kind": character.kind,
        "owner": _owner(character),
        "version": view.version.number,
        "homologated": view.version.decided_at,
        **view.version.attributes(),
        "traits": [
            {"name": t.name, "kind": t.kind, "key": t.key, "points": t.points}
            for t in view.version.traits.all()
        ],
        "skills": [
            {
                "name": line.skill.name,
                "attribute": line.skill.attribute,
                "difficulty": line.skill.difficulty,
                "level": line.skill.level,
                "points": float(line.skill.points),
                "success": float(line.probability),
            }
            for line in view.skills
        ],
        "items": [
            {
                "id": p.code,
                "name": p.name,
                "weight_kg": float(p.unit_weight_kg),
                "quantity": p.quantity,
                "carried": p.carried,
                "passive_defense": p.item.passive_defense if p.item_id else 0,
                "damage_resistance": p.item.damage_resistance if p.item_id else 0,
                "damage": p.item.damage if p.item_id else "",
                "damage_now": damage_now.get(p.name) if p.item_id and p.item.damage else None,
                "skill": p.item.skill_name if p.item_id else "",
                "parry": p.item.parry if p.item_id else "",
            }
            for p in view.possessions
        ],
        "hp_lost": view.state.hp_lost,
        "fatigue_lost": view.state.fatigue_lost,
        "carried_kg": float(view.carried_kg),
        "derived": derived_out(view.derived),
        "conditions": [
            {"key": c.key, "name": c.name, "text": c.text, "section": c.section}
            for c in view.conditions
        ],
        "reading_pairs": _reading_pairs(view),
    }


# --- a draft written as JSON (a ruleset that keeps its sheet so: the Xuleta) ------------------


class DataDraftIn(Schema, extra="forbid"):
    data: dict[str, Any] = Field(
        description="As entradas da ficha, inteiras (substituem as do rascunho): name, level "
        "(1–20), abilities ({str, dex, con, int, wis, cha}: 1–30), proficiencies ({skills: os "
        "nomes do texto, saves: as chaves}), ac, max_hp, hit_die (6, 8, 10, 12), speed_m "
        "(9), darkvision_m (0), attacks ([{name, damage «1d8», damage_type, finesse, light, "
        "thrown, ranged, reach_m, range_m [normal, longo], proficient}]), spellcasting (null "
        "ou {class: mag, clergue, druida, explorador, bard, bruixot, fetiller, paladí; slots "
        '{"1": n…"9": n}; cantrips; spells}), resistances, vulnerabilities, immunities (tipos '
        "de dano), notes"
    )
    notes: str = Field("", max_length=2000, description="O que o jogador diz ao Árbitro")


class DataDraftOut(Schema):
    id: UUID = Field(description="A personagem")
    version: int
    status: Literal["draft", "submitted"]
    data: dict[str, Any] = Field(description="As entradas como a ficha as guarda")
    warnings: list[str] = Field(
        description="A conferência do Árbitro (o que não fecha), linha a linha: ele os lê "
        "antes de homologar"
    )


NOT_OWNER_OR_ARBITRO = "Só o jogador da personagem ou o Árbitro escrevem a ficha dela."
NO_DRAFT = "Esta personagem não tem rascunho aberto: escreva um (POST …/draft) antes de enviar."


def _draft_character(request, code: UUID) -> tuple[Character, Membership]:
    character = get_object_or_404(
        Character.objects.select_related("campaign"),
        code=code,
        campaign_id__in=_campaign_ids(request.user),
    )
    membership = Membership.objects.get(user=request.user, campaign_id=character.campaign_id)
    if not (character.is_owned_by(request.user) or membership.role == Membership.Role.ARBITRO):
        raise ServiceError(NOT_OWNER_OR_ARBITRO, code="forbidden")
    return character, membership


def _draft_out(character: Character, version: SheetVersion) -> dict:
    lines, _ = version_warnings(version)
    return {
        "id": character.code,
        "version": version.number,
        "status": version.status,
        "data": version.data,
        "warnings": lines,
    }


@router.post(
    "/{uuid:code}/draft",
    response={200: DataDraftOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="Escrever o rascunho de uma ficha da Xuleta (JSON): cria ou substitui",
)
def data_draft_write(request, code: UUID, payload: DataDraftIn):
    """O rascunho inteiro da ficha (só o jogador dela ou o Árbitro), conferido pelo modelo da
    ficha: um erro nomeia o campo (data.abilities.str) e os valores aceitos, e nada é salvo.
    Numa campanha de GURPS a ficha se escreve nas tabelas (recusado)."""
    character, _ = _draft_character(request, code)
    draft = SheetVersion.objects.filter(
        character=character, status=SheetVersion.Status.DRAFT
    ).first()
    if draft is None:
        draft = ruleset_data.data_draft_create(
            character=character, user=request.user, data=payload.data, notes=payload.notes
        )
    else:
        draft = data_draft.data_draft_update(version=draft, data=payload.data, notes=payload.notes)
    return _draft_out(character, draft)


@router.post(
    "/{uuid:code}/draft/submit",
    response={200: DataDraftOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="Enviar ao Árbitro o rascunho de uma ficha da Xuleta",
)
def data_draft_submit(request, code: UUID):
    """O rascunho aberto vai à fila de homologação; o Árbitro o lê com a conferência
    (``warnings``) e o homologa ou devolve no console."""
    character, _ = _draft_character(request, code)
    if not data_sheet.keeps_json(character):
        raise ServiceError(ruleset_data.GURPS_KEEPS_TABLES, field="data")
    draft = SheetVersion.objects.filter(
        character=character, status=SheetVersion.Status.DRAFT
    ).first()
    if draft is None:
        raise ServiceError(NO_DRAFT, code="not_a_draft")
    return _draft_out(character, sheet_submit(version=draft, user=request.user))


# --- "e sem a perícia?" ---------------------------------------------------------------------------


class DefaultUsedOut(Schema):
    default: str = Field(..., description="como o catálogo escreve: «DX−5», «Arremesso»")
    source: str = Field(..., description="st/dx/iq/ht, ou o nome da perícia de que parte")
    source_kind: Literal["attribute", "skill"]
    modifier: int
    base: int = Field(..., description="o atributo como conta (no máximo 20) ou o NH da fonte")
    capped_from: int | None = Field(None, description="o atributo da ficha, quando passou de 20")
    computation: str
    considered: list[str]


class SkillDefaultOut(Schema):
    skill: str
    attribute: Literal["st", "dx", "iq", "ht"] | None
    difficulty: Literal["E", "A", "H", "VH"] | None
    has_skill: bool = Field(..., description="a ficha tem a perícia: level é o NH dela")
    level: int | None = Field(None, description="o NH com que rola; null: sem pré-definido")
    general_rule: bool = Field(..., description="o catálogo usa a regra geral (§3.3)")
    default: DefaultUsedOut | None
    reason: str = Field(..., description="por que não há pré-definido, quando não há")


class SheetDefaultsOut(Schema):
    id: UUID
    name: str
    version: int
    st: int
    dx: int
    iq: int
    ht: int
    skills: list[SkillDefaultOut]


def _default_out(answer) -> dict:
    used = answer.default
    entry = answer.skill
    return {
        "skill": entry.name,
        "attribute": entry.attribute,
        "difficulty": entry.difficulty.value if entry.difficulty else None,
        "has_skill": answer.has_skill,
        "level": answer.level,
        "general_rule": answer.general_rule,
        "reason": answer.reason,
        "default": None
        if used is None
        else {
            "default": used.default.text,
            "source": used.default.source,
            "source_kind": "attribute" if used.default.is_attribute else "skill",
            "modifier": used.default.modifier,
            "base": used.base,
            "capped_from": used.capped_from,
            "computation": used.computation,
            "considered": list(used.considered),
        },
    }


@router.get(
    "/{uuid:code}/defaults",
    response={200: SheetDefaultsOut, **errors(401, 404, 422)},
    summary="E sem a perícia? O NH por pré-definido em cada perícia do catálogo (§3.3)",
)
def sheet_defaults(request, code: UUID, skill: str | None = Query(None, max_length=200)):
    """Para cada perícia do catálogo do Árbitro: o NH da ficha, se ela a tem; senão o melhor
    pré-definido (de atributo, contado até 20, ou de outra perícia da ficha), com a conta; ou
    por que não há. ``skill`` filtra por nome (maiúsculas não importam)."""
    character = get_object_or_404(Character, code=code, campaign_id__in=_campaign_ids(request.user))
    view = character_defaults(character)
    if view is None:
        raise HttpError(404, NO_SHEET)
    answers = [
        a for a in view.answers if skill is None or a.skill.name.casefold() == skill.casefold()
    ]
    return {
        "id": character.code,
        "name": character.name,
        "version": view.version.number,
        **view.version.attributes(),
        "skills": [_default_out(a) for a in answers],
    }


# --- who asks ----------------------------------------------------------------------------------

me_router = Router(auth=AUTH)


class PlayedOut(Schema):
    id: UUID
    name: str


class MembershipOut(Schema):
    campaign: str = Field(description="O slug da campanha")
    campaign_name: str
    ruleset: str = Field(description="O sistema de regras da campanha (a chave: gurps3e …)")
    ruleset_label: str = Field(description="O nome do sistema de regras, em português")
    role: Literal["jogador", "mestre", "arbitro"] = Field(
        description="jogador, mestre (Mestre de Cena) ou arbitro (Árbitro)"
    )
    plays: list[PlayedOut] = Field(description="As personagens que você joga nesta campanha")


class MeOut(Schema):
    username: str
    name: str
    memberships: list[MembershipOut]


@me_router.get(
    "", response={200: MeOut, **errors(401)}, summary="Quem pergunta: campanhas, papel, personagens"
)
def me(request):
    user = request.user
    memberships = Membership.objects.filter(user=user).select_related("campaign")
    played = Character.objects.filter(owner=user).order_by("name")
    return {
        "username": user.get_username(),
        "name": user.get_full_name() or user.get_username(),
        "memberships": [
            {
                "campaign": m.campaign.slug,
                "campaign_name": m.campaign.name,
                "ruleset": m.campaign.ruleset,
                "ruleset_label": m.campaign.get_ruleset_display(),
                "role": m.role,
                "plays": [
                    {"id": c.code, "name": c.name} for c in played if c.campaign_id == m.campaign_id
                ],
            }
            for m in memberships.order_by("campaign__slug")
        ],
    }
