"""The scene log through the API: the Mestre's AI client, and any member who wants to check.

Two routers, mounted in garganta_site.api: ``/scenes`` (the timeline and what is added to it)
and ``/rolls`` (the chain). No body takes a die: the server rolls.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Field, Header, Query, Router, Schema, Status
from ninja.errors import HttpError
from pydantic import StrictBool, StrictInt, field_validator

from campaigns.access import membership_for
from campaigns.api_errors import errors
from campaigns.auth import AUTH, gated
from campaigns.errors import ServiceError
from campaigns.models import Membership
from rulesets.registry import XULETA5E, dice_readable, rule_errors, ruleset_for
from sessions import vocabularies as vocab
from sessions.log import chain, group, services, timeline
from sessions.models import Declaration, Scene
from sheets.models import Character

# Permission first (issue 27): every write's access is checked in its authentication,
# before its body is validated or its Idempotency-Key replayed.
router = Router(auth=gated(lambda request, user: _table_first(request)))
rolls_router = Router(auth=AUTH)

TableKey = vocab.TABLE.annotated()
TestKindKey = vocab.TEST_KIND.annotated()
ContestKindKey = vocab.CONTEST_KIND.annotated()
AttributeKey = vocab.TEST_ATTRIBUTE.annotated()
DifficultyKey = vocab.DIFFICULTY.annotated()
HitLocationKey = vocab.HIT_LOCATION.annotated()
DamageTypeKey = vocab.DAMAGE_TYPE.annotated()
LevelSourceKey = vocab.LEVEL_SOURCE.annotated()

SKILL_HELP = (
    "A perícia, pelo nome (maiúsculas e acentos não importam). O NH vem da ficha homologada da "
    "personagem, ou do melhor pré-definido (§3.3) se ela não a tem."
)
ATTRIBUTE_HELP = (
    "Sem skill: o atributo do teste, cujo nível vem da ficha (ST menos a fadiga, §6.2). Com "
    "skill: o atributo da perícia, só para o pré-definido pela regra geral quando o catálogo "
    "do Árbitro não tem a perícia."
)
DIFFICULTY_HELP = (
    "A dificuldade da perícia, só para o pré-definido pela regra geral (§3.3) quando o "
    "catálogo do Árbitro não tem a perícia."
)
NEW_SKILL_HELP = (
    "Só para uma perícia que nem a ficha nem o catálogo do Árbitro conhecem e que é mesmo "
    "nova (não um erro de grafia): com attribute e difficulty, vale o pré-definido pela regra "
    "geral (§3.3). Sem isto, um nome desconhecido é recusado com os nomes mais próximos."
)
BASE_LEVEL_HELP = (
    "Só para quem não tem ficha homologada (criatura, NPC): o nível que o Mestre diz. Para "
    "uma personagem com ficha, omita: se vier, tem de conferir com a ficha."
)

# A d20 ruleset's (the Xuleta's) fields: its enums are its checks part's sets.
_D20 = ruleset_for(XULETA5E).part("checks")
D20AbilityKey = Literal[_D20.abilities]
D20RollKey = Literal[_D20.roll_kinds]
D20EdgeKey = Literal[_D20.edges]
D20LightKey = Literal[_D20.lights]
LIGHT_HELP = (
    "Xuleta: a luz em que se faz um teste pela vista (bright: llum brillant; dim: llum tènue, "
    "desvantagem em Percepció; darkness: foscor, «a efectes pràctics estàs encegat»: o teste "
    "falha sem rolar, salvo visão no escuro da ficha). Omita: um teste de Percepció numa cena "
    "cuja exploração está em escuridão total é feito no escuro"
)
D20_ONLY_FIELD = "«{field}» é do GURPS: numa campanha da Xuleta, use {instead}."
D20_NO_SUCH_FIELD = "«{field}» é do GURPS (a perícia dele): numa campanha da Xuleta, omita-o."
# A d20 campaign's body says ability and roll where the services say attribute and kind: a
# refusal is said back in the body's words (field and text).
D20_SAID = (
    ("o atributo (attribute)", "a característica (ability)"),
    ("(attribute)", "(ability)"),
    ("(kind)", "(roll)"),
)
D20_FIELDS = {"attribute": "ability", "kind": "roll"}
ABILITY_HELP = (
    "Xuleta: a característica de um teste ou de uma salvação (str, dex, con, int, wis, cha); "
    "com skill, a outra característica que o Mestre pede para a perícia"
)
ROLL_HELP = (
    "Xuleta: check (teste, com skill ou ability), save (salvação, com ability) ou attack "
    "(ataque, com skill = o nome do ataque da ficha); omita e vale check"
)
DC_HELP = "Xuleta (obrigatória nela): a CD do teste ou da salvação, ou a CA do alvo num ataque"
EDGE_HELP = (
    "Xuleta: a vantagem ou desvantagem que o Mestre dá (cobertura, ajuda, distância…); as dos "
    "estados e do esgotamento da personagem vêm do seu estado, e as duas nunca se acumulam"
)

ONLY_THE_TABLE_ROLLS = "Só o Mestre de Cena ou o Árbitro conduzem a cena: anunciam, rolam e narram."


# --- schemas ----------------------------------------------------------------------------------


class CharacterRef(Schema):
    id: UUID
    name: str


class SceneOut(Schema):
    id: UUID
    title: str
    campaign: str  # the campaign's slug
    week: int
    status: str
    characters: list[CharacterRef]


class ModifierIn(Schema, extra="forbid"):
    label: str = Field(min_length=1, max_length=200)
    value: StrictInt = Field(ge=-50, le=50)


class RollIn(Schema, extra="forbid"):
    character: UUID | None = None
    declaration: UUID | None = Field(
        default=None, description="A declaração que a rolagem responde (e o seu anúncio)"
    )
    skill: str = Field(default="", max_length=200, description=SKILL_HELP)
    attribute: AttributeKey | None = Field(default=None, description=ATTRIBUTE_HELP)
    difficulty: DifficultyKey | None = Field(default=None, description=DIFFICULTY_HELP)
    new_skill: StrictBool = Field(default=False, description=NEW_SKILL_HELP)
    label: str = Field(
        default="", max_length=200, description="O nome da rolagem; omita e vale o da perícia"
    )
    base_level: StrictInt | None = Field(default=None, ge=-50, le=50, description=BASE_LEVEL_HELP)
    kind: TestKindKey | None = Field(
        default=None, description="Perícia, atributo ou defesa; omita e vale o de skill/attribute"
    )
    modifiers: list[ModifierIn] = Field(default=[], max_length=20)
    hidden: StrictBool = False
    ability: D20AbilityKey | None = Field(default=None, description=ABILITY_HELP)
    roll: D20RollKey | None = Field(default=None, description=ROLL_HELP)
    dc: StrictInt | None = Field(default=None, ge=-30, le=60, description=DC_HELP)
    edge: D20EdgeKey | None = Field(default=None, description=EDGE_HELP)
    light: D20LightKey | None = Field(default=None, description=LIGHT_HELP)


class DamageRollIn(Schema, extra="forbid"):
    expression: str = Field(min_length=1, max_length=20)
    label: str = Field(default="", max_length=200)
    character: UUID | None = None
    declaration: UUID | None = None

    @field_validator("expression")
    @classmethod
    def _readable(cls, value: str) -> str:
        try:
            dice_readable(value)
        except rule_errors() as error:
            raise ValueError(error.message) from None
        return value


class TableOptionsIn(Schema, extra="forbid"):
    """Each table's options, named (``rules_lookup``/vocabularies lists which table takes
    which); an option the table does not take is refused naming it."""

    unarmed: StrictBool | None = Field(
        default=None, description="critical_miss (§4.8): o golpe foi desarmado"
    )
    unbreakable: StrictBool | None = Field(
        default=None, description="critical_miss: arma que não quebra (maça, mangual, mágica…)"
    )
    cheap: StrictBool | None = Field(default=None, description="critical_miss: arma barata")
    impaling: StrictBool | None = Field(default=None, description="critical_miss: arma de perfurar")
    ranged: StrictBool | None = Field(default=None, description="critical_miss: arma de disparo")
    location: HitLocationKey | None = Field(
        default=None, description="critical_hit / critical_head: o local atingido (§4.8)"
    )
    damage_type: DamageTypeKey | None = Field(
        default=None, description="critical_hit / critical_head: o tipo de dano"
    )
    best_intent: StrictBool | None = Field(
        default=None,
        description="spell_critical_failure (§4.15): magia e intenção da melhor espécie",
    )
    margin_of_failure: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="fright_check (§5b): por quanto a Verificação de Pânico falhou; omita com "
        "follows, e a margem vem da rolagem",
    )


class TableRollIn(Schema, extra="forbid"):
    table: TableKey
    options: TableOptionsIn = Field(default_factory=TableOptionsIn)
    follows: UUID | None = Field(
        default=None,
        description="A rolagem desta cena que a tabela segue (a Verificação de Pânico que "
        "falhou, o ataque do erro crítico): a tabela leva o número dela, a personagem e, no "
        "Pânico, a margem pela qual falhou",
    )
    character: UUID | None = None
    declaration: UUID | None = None


class ContestSideIn(Schema, extra="forbid"):
    character: UUID | None = Field(
        default=None, description="Uma personagem da cena; omita para criatura ou NPC sem ficha"
    )
    name: str = Field(default="", max_length=90, description="O nome da criatura ou NPC sem ficha")
    skill: str = Field(default="", max_length=200, description=SKILL_HELP)
    attribute: AttributeKey | None = Field(default=None, description=ATTRIBUTE_HELP)
    difficulty: DifficultyKey | None = Field(default=None, description=DIFFICULTY_HELP)
    new_skill: StrictBool = Field(default=False, description=NEW_SKILL_HELP)
    label: str = Field(
        default="", max_length=90, description="O que o lado testa; omita e vale o da perícia"
    )
    base_level: StrictInt | None = Field(default=None, ge=-50, le=50, description=BASE_LEVEL_HELP)
    kind: ContestKindKey | None = None
    modifiers: list[ModifierIn] = Field(default=[], max_length=20)
    ability: D20AbilityKey | None = Field(default=None, description=ABILITY_HELP)
    edge: D20EdgeKey | None = Field(default=None, description=EDGE_HELP)
    light: D20LightKey | None = Field(default=None, description=LIGHT_HELP)


class ContestIn(Schema, extra="forbid"):
    a: ContestSideIn
    b: ContestSideIn
    declaration: UUID | None = None


class GroupCheckIn(Schema, extra="forbid"):
    """A group check (Xuleta, «Proves de grup»): each character rolls, the group passes if at
    least half succeed."""

    characters: list[UUID] = Field(
        min_length=group.MIN_MEMBERS,
        max_length=group.MAX_MEMBERS,
        description="As personagens da cena que fazem todas o mesmo (cada uma com ficha "
        "homologada: o bônus vem dela, e a vantagem ou desvantagem do seu estado)",
    )
    skill: str = Field(default="", max_length=200, description="A perícia, pelo nome do texto")
    ability: D20AbilityKey | None = Field(default=None, description=ABILITY_HELP)
    roll: Literal["check"] | None = Field(
        default=None, description="Só check: um teste de grupo é um teste"
    )
    dc: int = Field(ge=-30, le=60, description="A CD do teste")
    edge: D20EdgeKey | None = Field(default=None, description=EDGE_HELP)
    light: D20LightKey | None = Field(default=None, description=LIGHT_HELP)
    hidden: StrictBool = Field(
        default=False,
        description="Cada rolagem escondida como as outras (a do jogador na sua pasta), e o "
        "resultado do grupo só para a mesa até a homologação do relatório",
    )


class DeclarationIn(Schema, extra="forbid"):
    character: UUID
    text: str = Field(min_length=1, max_length=4000)


class AnnouncementIn(Schema, extra="forbid"):
    declaration: UUID
    modifiers: list[ModifierIn] = Field(default=[], max_length=20)
    note: str = Field(default="", max_length=300)


class NarrationIn(Schema, extra="forbid"):
    text: str = Field(min_length=1, max_length=8000)


class ModifierOut(Schema):
    label: str
    value: int


class RollOut(Schema):
    id: UUID
    sequence: int
    name: str
    label: str
    kind: str
    kind_label: str = Field(
        description="O tipo em português, como o sistema de regras da campanha o chama"
    )
    character: UUID | None
    declaration: UUID | None
    announcement: UUID | None
    hidden: bool
    base_level: int | None
    modifiers: list[ModifierOut] | None
    dice: list[int] | None
    total: int | None
    effective_level: int | None
    outcome: str | None
    outcome_label: str | None
    margin: int | None
    details: dict[str, Any] | None
    level_source: LevelSourceKey | None = Field(
        description="De onde veio o nível: ficha, pré-definido (§3.3) ou dito pelo Mestre"
    )
    level_text: str | None = Field(
        description="O nível como o log o diz: «Rastreamento 13 (ficha)», «ST 11 − 2 por fadiga = 9»"
    )
    hash: str
    previous_hash: str
    salt: str | None
    canonical: str | None
    rolled_by: str
    created_at: datetime


class EntryOut(Schema):
    """One entry of the timeline: ``type`` says which; the fields of the others are absent."""

    type: Literal["declaration", "announcement", "roll", "narration", "state_change"]
    id: UUID
    created_at: datetime
    author: str | None = None
    text: str | None = None
    character: CharacterRef | UUID | None = None
    declaration: UUID | None = None
    modifiers: list[ModifierOut] | None = None
    net: int | None = None
    note: str | None = None
    roll: RollOut | None = None
    # a state change (PV and fatigue outside a fight: sessions.log.scene_api)
    hp: int | None = None
    fatigue: int | None = None
    reason: str | None = None
    answers_roll: UUID | None = None


class EntryCreatedOut(Schema):
    id: UUID
    type: str
    created_at: datetime


class ChainOut(Schema):
    ok: bool
    count: int
    first_broken: int | None


# --- access -----------------------------------------------------------------------------------


def _get_scene(request, code: UUID) -> tuple[Scene, Membership]:
    scene = get_object_or_404(Scene.objects.select_related("week__campaign"), code=code)
    membership = membership_for(request.user, scene.week.campaign)
    if membership is None:
        raise Http404  # as for an id that does not exist: it confirms nothing
    return scene, membership


def _table_first(request) -> None:
    """The scene's writes are the table's, but a declaration, which is its character's owner's
    (its service says so)."""
    if not request.path.endswith("/declarations"):
        _get_scene_for_table(request, request.resolver_match.kwargs["code"])


def _get_scene_for_table(request, code: UUID) -> Scene:
    scene, membership = _get_scene(request, code)
    if not membership.runs_the_table:
        raise HttpError(403, ONLY_THE_TABLE_ROLLS)
    return scene


def _character(scene: Scene, code: UUID | None, field: str = "character") -> Character | None:
    if code is None:
        return None
    character = scene.characters.filter(code=code).first()
    if character is None:
        raise ServiceError(services.CHARACTER_NOT_IN_SCENE, field=field)
    return character


def _declaration(scene: Scene, code: UUID | None) -> Declaration | None:
    if code is None:
        return None
    declaration = (
        Declaration.objects.filter(scene=scene, code=code).select_related("character").first()
    )
    if declaration is None:
        raise ServiceError(services.DECLARATION_OTHER_SCENE, field="declaration")
    return declaration


def _modifiers(items: list[ModifierIn]) -> list[services.Modifier]:
    return [services.Modifier(label=m.label, value=m.value) for m in items]


def _roll_out(roll) -> dict:
    return timeline.roll_data(roll, masked=False)


def _created(entry, kind: str):
    return Status(201, {"id": entry.code, "type": kind, "created_at": entry.created_at})


def _entry_out(data: dict) -> dict:
    """A timeline entry of timeline.scene_export as the schema gives it (a roll nested)."""
    if data["type"] != "roll":
        return data
    roll = {k: v for k, v in data.items() if k != "type"}
    return {"type": "roll", "id": roll["id"], "created_at": roll["created_at"], "roll": roll}


# --- /scenes ----------------------------------------------------------------------------------


@router.get(
    "",
    response={200: list[SceneOut], **errors(401)},
    summary="As cenas das campanhas de quem pergunta",
)
def scene_list(request):
    campaign_ids = Membership.objects.filter(user=request.user).values("campaign_id")
    scenes = (
        Scene.objects.filter(week__campaign_id__in=campaign_ids)
        .select_related("week__campaign")
        .prefetch_related("characters")
    )
    return [
        {
            "id": s.code,
            "title": s.title,
            "campaign": s.week.campaign.slug,
            "week": s.week.number,
            "status": s.status,
            "characters": [{"id": c.code, "name": c.name} for c in s.characters.all()],
        }
        for s in scenes
    ]


@router.get(
    "/{uuid:code}/rolls",
    response={200: list[RollOut], **errors(401, 404)},
    summary="As rolagens da cena, em ordem",
)
def roll_list(request, code: UUID):
    scene, membership = _get_scene(request, code)
    entries = timeline.scene_log_entries(scene, membership=membership, user=request.user)
    rolls = [e for e in entries if e.kind == "roll"]
    rolls.sort(key=lambda e: e.roll.sequence)
    return [timeline.roll_data(e.roll, masked=e.masked) for e in rolls]


class LogPageOut(Schema):
    """A page of the timeline, its entries in the order they happened."""

    entries: list[EntryOut]
    next_cursor: str | None = Field(
        description="Passe em `after` para ler o que vem depois da última entrada desta "
        "página (também o que ainda não aconteceu); null só num registro vazio lido sem cursor"
    )
    has_more: bool = Field(description="Se já há entradas depois de `next_cursor`")
    before_cursor: str | None = Field(
        description="Passe em `before` para ler as entradas anteriores à primeira desta "
        "página; null quando não há anteriores"
    )


def _cursor(text: str | None, field: str) -> timeline.Cursor | None:
    return None if text is None else timeline.Cursor.parse(text, field=field)


@router.get(
    "/{uuid:code}/log",
    response={200: LogPageOut, **errors(401, 404, 422)},
    summary="A linha do tempo da cena: declarações, modificadores anunciados, rolagens, narração",
)
def scene_timeline(
    request,
    code: UUID,
    after: str | None = Query(
        None, max_length=100, description="Só as entradas depois deste cursor (`next_cursor`)"
    ),
    before: str | None = Query(
        None,
        max_length=100,
        description="Só as entradas antes deste cursor (`before_cursor`): as últimas delas",
    ),
    newest: bool = Query(
        False, description="As últimas `limit` entradas (o fim do registro), sem cursor"
    ),
    limit: int = Query(50, ge=1, le=200, description="Quantas entradas, no máximo"),
):
    """A page of the scene's log, in order. Without a cursor, from the start (or, with
    ``newest``, the end); ``after``/``before`` are opaque cursors from an earlier page (a bad
    one: 422 naming the field). A hidden roll is filtered per viewer as on the page (docs/DESIGN.md,
    invariant 4 (Hidden is not invisible)): a cursor never reaches what the viewer may not see. The
    cost does not grow with the log: each source is read by keyset with LIMIT."""
    scene, membership = _get_scene(request, code)
    page = timeline.log_page(
        scene,
        membership=membership,
        user=request.user,
        after=_cursor(after, "after"),
        before=_cursor(before, "before"),
        limit=limit,
        newest=newest,
    )
    last = page.last
    return {
        "entries": [_entry_out(timeline.entry_data(e)) for e in page.entries],
        "next_cursor": str(last) if last else after,
        "has_more": page.more_after,
        "before_cursor": str(page.first) if page.more_before and page.entries else None,
    }


@router.get(
    "/{uuid:code}/export",
    response={200: dict[str, Any], **errors(401, 404)},
    summary="A cena inteira em JSON, com toda rolagem que quem pergunta pode ver",
)
def scene_export(request, code: UUID):
    scene, membership = _get_scene(request, code)
    return timeline.scene_export(scene, membership=membership, user=request.user)


@router.post(
    "/{uuid:code}/declarations",
    response={201: EntryCreatedOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O jogador declara o que a sua personagem faz, e com quê",
)
def declaration_create(
    request,
    code: UUID,
    payload: DeclarationIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene, _ = _get_scene(request, code)
    character = _character(scene, payload.character)
    declaration = services.declaration_create(
        scene=scene,
        character=character,
        user=request.user,
        text=payload.text,
        request_key=idempotency_key[:64],
    )
    return _created(declaration, "declaration")


@router.post(
    "/{uuid:code}/announcements",
    response={201: EntryCreatedOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O Mestre anuncia os modificadores de uma declaração, antes dos dados",
)
def announcement_create(
    request,
    code: UUID,
    payload: AnnouncementIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene = _get_scene_for_table(request, code)
    announcement = services.announcement_create(
        scene=scene,
        user=request.user,
        declaration=_declaration(scene, payload.declaration),
        modifiers=_modifiers(payload.modifiers),
        note=payload.note,
        request_key=idempotency_key,
    )
    return _created(announcement, "announcement")


@router.post(
    "/{uuid:code}/narrations",
    response={201: EntryCreatedOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O Mestre narra",
)
def narration_create(
    request,
    code: UUID,
    payload: NarrationIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene = _get_scene_for_table(request, code)
    narration = services.narration_create(
        scene=scene, user=request.user, text=payload.text, request_key=idempotency_key
    )
    return _created(narration, "narration")


@router.post(
    "/{uuid:code}/rolls",
    response={201: RollOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O servidor rola 3d6 contra a perícia ou o atributo da ficha (só Mestre ou Árbitro)",
)
def roll_create(
    request,
    code: UUID,
    payload: RollIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene = _get_scene_for_table(request, code)
    _d20_names(scene, payload)
    with _d20_said(scene):
        roll = services.roll_create(
            scene=scene,
            user=request.user,
            label=payload.label,
            base_level=payload.base_level,
            kind=payload.kind or payload.roll or "",
            skill=payload.skill,
            attribute=payload.attribute or payload.ability or "",
            difficulty=payload.difficulty or "",
            new_skill=payload.new_skill,
            modifiers=_modifiers(payload.modifiers),
            character=_character(scene, payload.character),
            declaration=_declaration(scene, payload.declaration),
            hidden=payload.hidden,
            request_key=idempotency_key,
            dc=payload.dc,
            edge=payload.edge or "",
            light=payload.light or "",
        )
    return Status(201, _roll_out(roll))


@contextmanager
def _d20_said(scene: Scene):
    """A refusal of the services in a d20 campaign, with the body's names (``D20_SAID``)."""
    try:
        yield
    except ServiceError as error:
        if not services.rolls_d20(scene.week.campaign):
            raise
        *head, last = error.field.split(".") if error.field else [""]
        message = error.message
        for gurps, d20 in D20_SAID:
            message = message.replace(gurps, d20)
        field = ".".join([*head, D20_FIELDS.get(last, last)]) if error.field else ""
        raise ServiceError(message, field=field, code=error.code) from None


def _d20_names(scene: Scene, payload: Schema, prefix: str = "") -> None:
    """A d20 ruleset names its rolls by ``ability`` and ``roll``, GURPS by ``attribute`` and
    ``kind``: each refused in the other's campaign, the field named (422)."""
    ruleset = services.ruleset_for(scene.week.campaign.ruleset)
    d20 = getattr(ruleset.part("checks"), "needs_dc", False)
    where = f"{prefix}." if prefix else ""
    if d20:
        for gurps_only in ("difficulty", "new_skill"):
            if getattr(payload, gurps_only, None):
                raise ServiceError(
                    D20_NO_SUCH_FIELD.format(field=gurps_only), field=f"{where}{gurps_only}"
                )
    for ours, theirs in (("ability", "attribute"), ("roll", "kind")):
        if not hasattr(payload, ours):
            continue
        sent = theirs if d20 else ours
        if getattr(payload, sent, None):
            if d20:
                message = D20_ONLY_FIELD.format(field=theirs, instead=ours)
            else:
                message = services.D20_ONLY.format(field=ours, label=ruleset.label)
            raise ServiceError(message, field=f"{where}{sent}")


@router.post(
    "/{uuid:code}/damage-rolls",
    response={201: RollOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O servidor rola uma expressão de dano (2d+1, 1d−1…)",
)
def damage_roll_create(
    request,
    code: UUID,
    payload: DamageRollIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene = _get_scene_for_table(request, code)
    roll = services.damage_roll_create(
        scene=scene,
        user=request.user,
        expression=payload.expression,
        label=payload.label,
        character=_character(scene, payload.character),
        declaration=_declaration(scene, payload.declaration),
        request_key=idempotency_key,
    )
    return Status(201, _roll_out(roll))


def _followed(scene: Scene, code: UUID | None):
    """The roll of ``scene`` a table roll follows (as the scene's log shows it), or None."""
    if code is None:
        return None
    roll = services.Roll.objects.filter(scene=scene, code=code).first()
    if roll is None:
        raise ServiceError(services.FOLLOWED_ROLL_UNKNOWN, field="follows")
    return roll


@router.post(
    "/{uuid:code}/table-rolls",
    response={201: RollOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O servidor rola numa tabela do motor (erro crítico, golpe fulminante, pânico…)",
)
def table_roll_create(
    request,
    code: UUID,
    payload: TableRollIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene = _get_scene_for_table(request, code)
    roll = services.table_roll_create(
        scene=scene,
        user=request.user,
        table_key=payload.table,
        options=payload.options.model_dump(exclude_none=True),
        follows=_followed(scene, payload.follows),
        character=_character(scene, payload.character),
        declaration=_declaration(scene, payload.declaration),
        request_key=idempotency_key,
    )
    return Status(201, _roll_out(roll))


@router.post(
    "/{uuid:code}/contests",
    response={201: RollOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O servidor rola uma Disputa Rápida: personagens da cena, ou criatura/NPC sem ficha",
)
def contest_create(
    request,
    code: UUID,
    payload: ContestIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene = _get_scene_for_table(request, code)
    _d20_names(scene, payload.a, "a")
    _d20_names(scene, payload.b, "b")
    here = services.scene_light(scene)
    sides = [
        services.ContestSide(
            character=_character(scene, side.character, f"{name}.character"),
            label=side.label,
            base_level=side.base_level,
            kind=side.kind or "",
            modifiers=tuple(_modifiers(side.modifiers)),
            skill=side.skill,
            attribute=side.attribute or side.ability or "",
            difficulty=side.difficulty or "",
            new_skill=side.new_skill,
            name=side.name,
            edge=side.edge or "",
            light=side.light or "",
            scene_light=here,
        )
        for name, side in (("a", payload.a), ("b", payload.b))
    ]
    with _d20_said(scene):
        roll = services.contest_create(
            scene=scene,
            user=request.user,
            a=sides[0],
            b=sides[1],
            declaration=_declaration(scene, payload.declaration),
            request_key=idempotency_key,
        )
    return Status(201, _roll_out(roll))


class GroupCheckOut(Schema):
    result: RollOut = Field(
        description="O resultado do grupo: kind group, total = quantos conseguiram, "
        "effective_level = a CD, details.group com cada membro"
    )
    members: list[RollOut] = Field(description="A rolagem de cada personagem, na ordem pedida")


@router.post(
    "/{uuid:code}/group-checks",
    response={201: GroupCheckOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="Teste de grupo (Xuleta): cada personagem rola; o grupo consegue se ao menos "
    "metade consegue",
)
def group_check_create(
    request,
    code: UUID,
    payload: GroupCheckIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene = _get_scene_for_table(request, code)
    characters = [
        _character(scene, member, f"characters.{index}")
        for index, member in enumerate(payload.characters)
    ]
    made = group.group_check_create(
        scene=scene,
        user=request.user,
        characters=characters,
        skill=payload.skill,
        ability=payload.ability or "",
        kind=payload.roll or "",
        dc=payload.dc,
        edge=payload.edge or "",
        light=payload.light or "",
        hidden=payload.hidden,
        request_key=idempotency_key,
    )
    return Status(
        201, {"result": _roll_out(made.result), "members": [_roll_out(r) for r in made.members]}
    )


# --- /rolls -----------------------------------------------------------------------------------


@rolls_router.get(
    "/verify",
    response={200: ChainOut, **errors(401, 404, 422)},
    summary="Recalcula a cadeia de rolagens da campanha: íntegra, ou o primeiro elo quebrado",
)
def rolls_verify(request, campaign: str | None = None):
    report = chain.rolls_verify(chain.campaign_for_verify(request.user, campaign))
    return {"ok": report.ok, "count": report.count, "first_broken": report.first_broken}
