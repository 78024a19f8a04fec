"""The combat tracker through the API, for the Mestre's AI client: start a combat, add
combatants, declare boss and terrain, pass the turn, declare a maneuver (and change it before
its first die), resolve an attack (the server rolls), run a whole turn in one call (or its dry
run), mark a combatant fled, end it, read the state. The same services, rules and refusals as
the page; no body takes a die. ``Idempotency-Key`` makes the same request twice one action; a
dry run spends none (the key it brings is left free)."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Field, Header, Router, Schema, Status
from ninja.errors import HttpError
from pydantic import StrictBool

from campaigns.access import membership_for
from campaigns.api_errors import errors
from campaigns.auth import gated, idempotency_release, runs_a_table
from campaigns.errors import ServiceError
from sessions import vocabularies as vocab
from sessions.combat import acting as combat_acting
from sessions.combat import attack as combat_attack
from sessions.combat import cards as combat_cards
from sessions.combat import defending as combat_defending
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import pending as combat_pending
from sessions.combat import services, specs
from sessions.combat import turns as combat_turns
from sessions.combat.messages import COMBATANT_NOT_FOUND
from sessions.combat.schemas import (
    AdjustmentOut,
    AttackOut,
    CombatActionOut,
    CombatantAddedOut,
    CombatOut,
    DefenceAnswerOut,
    TurnOut,
    TurnPreviewOut,
    action_data,
    combat_data,
    event_rolls,
    preview_data,
    turn_data,
)
from sessions.log import services as log_services
from sessions.log.api import ModifierIn
from sessions.models import Combat, Combatant, Scene
from sessions.native_combat import services as native_services

# Permission first (issue 27): every write's access is checked in its authentication,
# before its body is validated or its Idempotency-Key replayed.
router = Router(auth=gated(lambda request, user: _table_first(request, user)))

# The closed sets these bodies take (sessions.vocabularies): enums of keys in the schema, the
# Portuguese names accepted too.
WeaponClassKey = vocab.WEAPON_CLASS.annotated(blank=True)
AttackKindKey = vocab.ATTACK_KIND.annotated()
CombatantKindKey = vocab.COMBATANT_KIND.annotated()
SurpriseKey = vocab.SURPRISE.annotated(blank=True)
TerrainKey = vocab.TERRAIN.annotated()
ManeuverKey = vocab.MANEUVER.annotated()
AllOutOptionKey = vocab.ALL_OUT_OPTION.annotated(blank=True)
PostureKey = vocab.POSTURE.annotated(blank=True)
HitLocationKey = vocab.HIT_LOCATION.annotated()
ArmSideKey = vocab.ARM_SIDE.annotated()
LimbSideKey = vocab.LIMB_SIDE.annotated()
DefenceKey = vocab.DEFENCE.annotated()
OptionalDefenceKey = vocab.DEFENCE.annotated(blank=True)

ONLY_THE_TABLE_RUNS_COMBAT = "Só o Mestre de Cena ou o Árbitro conduzem o combate."
Key = Header("", alias="Idempotency-Key")
# What a write of the tracker may answer besides its success (campaigns.api_errors).
TABLE_WRITE = errors(401, 403, 404, 409, 422)
TABLE_WRITE_WITH_BODY = errors(400, 401, 403, 404, 409, 422)  # 400: a body that is not JSON


class CombatStartIn(Schema, extra="forbid"):
    scene: UUID
    characters: list[UUID] | None = Field(default=None, max_length=50)


class CombatWeaponIn(Schema, extra="forbid"):
    name: str = Field(min_length=1, max_length=100)
    skill: int | None = Field(
        default=None,
        ge=specs.SKILL[0],
        le=specs.SKILL[1],
        description="NH da arma; sem ele, a DX da criatura",
    )
    damage: str = Field(min_length=1, max_length=40)
    weapon_class: WeaponClassKey = ""
    attack_kind: AttackKindKey = "hand_weapon"
    parry: int | None = Field(default=None, ge=specs.DEFENCE_LEVEL[0], le=specs.DEFENCE_LEVEL[1])
    weight_kg: str | None = Field(default=None, max_length=12)
    accuracy: int | None = Field(
        default=None, ge=specs.ACCURACY[0], le=specs.ACCURACY[1], description="Precisão (§4.11)"
    )


class CombatantIn(Schema, extra="forbid"):
    """Uma personagem da cena (``character``, só o id: os números vêm da ficha homologada e do
    estado), ou uma criatura ou PdM com os seus números. O dano de cada arma diz o tipo:
    «1d-2 cort», «2d+1 perf», «1d cont» (§4.9)."""

    character: UUID | None = None
    name: str = Field(default="", max_length=200)
    kind: CombatantKindKey = "creature"
    st: int = Field(default=10, ge=specs.ATTRIBUTE[0], le=specs.ATTRIBUTE[1])
    dx: int = Field(default=10, ge=specs.ATTRIBUTE[0], le=specs.ATTRIBUTE[1])
    iq: int = Field(default=10, ge=specs.ATTRIBUTE[0], le=specs.ATTRIBUTE[1])
    ht: int = Field(default=10, ge=specs.ATTRIBUTE[0], le=specs.ATTRIBUTE[1])
    hp: int | None = Field(default=None, ge=specs.HP[0], le=specs.HP[1])
    move: int | None = Field(
        default=None,
        ge=specs.MOVE[0],
        le=specs.MOVE[1],
        description="Deslocamento do bestiário; sem ele, o do cânone pela DX, HT e Carga (§2.1)",
    )
    dodge: int | None = Field(
        default=None,
        ge=specs.DEFENCE_LEVEL[0],
        le=specs.DEFENCE_LEVEL[1],
        description="Esquiva do bestiário; sem ela, a do cânone: o Deslocamento (§2.1)",
    )
    block: int | None = Field(default=None, ge=specs.DEFENCE_LEVEL[0], le=specs.DEFENCE_LEVEL[1])
    passive_defense: int = Field(
        default=0, ge=specs.PASSIVE_DEFENSE[0], le=specs.PASSIVE_DEFENSE[1]
    )
    damage_resistance: int = Field(
        default=0, ge=specs.DAMAGE_RESISTANCE[0], le=specs.DAMAGE_RESISTANCE[1]
    )
    combat_reflexes: StrictBool = False
    flees: StrictBool = False
    weapons: list[CombatWeaponIn] = Field(default=[], max_length=10)
    surprise: SurpriseKey = ""
    demo_note: str = Field(default="", max_length=1000)


class CombatDeclareIn(Schema, extra="forbid"):
    terrain: list[TerrainKey] | None = Field(default=None, max_length=5)
    boss: UUID | None = None


class ManeuverIn(Schema, extra="forbid"):
    combatant: UUID
    maneuver: ManeuverKey
    all_out_option: AllOutOptionKey = ""
    posture: PostureKey = ""
    weapon: int | None = Field(default=None, ge=specs.WEAPON_LINE[0], le=specs.WEAPON_LINE[1])
    reloading: StrictBool = False
    target: UUID | None = None
    target_sees: StrictBool = True


class AdjustIn(Schema, extra="forbid"):
    combatant: UUID
    hp_lost: int = Field(ge=-400, le=400)
    reason: str = Field(min_length=1, max_length=500)


class TurnAttackIn(Schema, extra="forbid"):
    """O ataque do turno: os mesmos campos de um ataque, sem o atacante (é o combatente do
    turno)."""

    defender: UUID
    weapon: int = Field(default=0, ge=specs.WEAPON_LINE[0], le=specs.WEAPON_LINE[1])
    lighting: int = Field(default=0, ge=specs.LIGHTING[0], le=specs.LIGHTING[1])
    total_darkness: StrictBool = False
    bad_footing: int = Field(default=0, ge=specs.FOOTING[0], le=specs.FOOTING[1])
    awkward_position: int = Field(default=0, ge=specs.FOOTING[0], le=specs.FOOTING[1])
    location: HitLocationKey = "torso"
    arm_side: ArmSideKey | None = None
    side: LimbSideKey | None = Field(
        default=None,
        description="O lado da perna, da mão ou do pé (cada membro tem o seu limite, §5.5)",
    )
    distance_m: int | None = Field(default=None, ge=specs.DISTANCE_M[0], le=specs.DISTANCE_M[1])
    modifiers: list[ModifierIn] = Field(default=[], max_length=10)
    defences: list[DefenceKey] = Field(
        default=[],
        max_length=2,
        description="Só para bicho ou NPC sem jogador: a defesa de um jogador é dele (§4.6)",
    )
    parry_weapon: int | None = Field(default=None, ge=specs.WEAPON_LINE[0], le=specs.WEAPON_LINE[1])
    retreat: StrictBool = False
    dagger: StrictBool = False


class AttackIn(TurnAttackIn, extra="forbid"):
    attacker: UUID


class TurnIn(Schema, extra="forbid"):
    """O turno inteiro de um combatente numa chamada: o turno passa a ele (se ainda não é o
    dele), a manobra com as suas opções (os mesmos campos de uma manobra) e o ataque. Com
    ``dry_run`` nada se rola nem se grava: a resposta (200) diz o NH efetivo com cada
    modificador e as defesas que o defensor poderia usar; nenhuma Idempotency-Key se gasta."""

    combatant: UUID
    maneuver: ManeuverKey | None = Field(
        default=None,
        description="Sem manobra (null): vale a manobra já declarada neste turno (§4.1)",
    )
    all_out_option: AllOutOptionKey = ""
    posture: PostureKey = ""
    weapon: int | None = Field(
        default=None,
        ge=specs.WEAPON_LINE[0],
        le=specs.WEAPON_LINE[1],
        description="A arma da manobra (Apontar, Preparar, Finta)",
    )
    reloading: StrictBool = False
    target: UUID | None = Field(
        default=None, description="Contra quem é a finta (Finta, Ataque Total b)"
    )
    target_sees: StrictBool = True
    attack: TurnAttackIn | None = None
    dry_run: StrictBool = Field(
        default=False, description="Só a prévia: nada rolado, nada gravado (§1.4, §4.10)"
    )


class DefenceChoiceIn(Schema, extra="forbid"):
    """«Decidir por mim»: a escolha do próprio defensor, deixada de antemão (§4.1, §4.6), que
    vale até ele a mudar; sem ela, cada ataque que acerta espera a resposta dele. ``first``
    best: a de maior total que a manobra deixa, a cada ataque."""

    first: DefenceKey | Literal["best"]
    then: OptionalDefenceKey = ""
    retreat: StrictBool = Field(default=False, description="Recua (+3, uma vez por rodada)")
    parry_weapon: int | None = Field(
        default=None,
        ge=specs.WEAPON_LINE[0],
        le=specs.WEAPON_LINE[1],
        description="A linha de arma que apara (índice)",
    )


AnswerKey = Literal["dodge", "parry", "block", "none"]


class DefenceAnswerIn(Schema, extra="forbid"):
    """A resposta do jogador ao ataque que espera a defesa da sua personagem (§4.6): dodge
    (Esquiva), parry (Aparar, com ``parry_weapon``: a linha da arma), block (Bloquear) ou
    none (não me defendo: só a Defesa Passiva, a mira fica, §4.3); ``retreat`` recua (+3, uma
    vez por rodada, §4.7)."""

    answer: AnswerKey = Field(description="dodge · parry · block · none (não me defendo)")
    parry_weapon: int | None = Field(default=None, ge=specs.WEAPON_LINE[0], le=specs.WEAPON_LINE[1])
    retreat: StrictBool = False


class DefenceWaitIn(Schema, extra="forbid"):
    """O prazo do Mestre para a defesa de um jogador, em minutos (0 a 1440); null: o combate
    espera o jogador. Passado o prazo, vale a escolha que ele deixou, ou a de maior total."""

    minutes: int | None = Field(ge=0, le=1440)


class EndIn(Schema, extra="forbid"):
    spoils: str = Field(default="", max_length=4000)


def _table_first(request, user) -> None:
    """The tracker's writes are the table's (a standing defence and the answer to an attack
    are also the defender's jogador's, §4.6: a member passes here, the service says whose);
    the start names its scene in the body: who runs no table anywhere is refused before it."""
    code = request.resolver_match.kwargs.get("code")
    if code is None:
        if not runs_a_table(user):
            raise HttpError(403, ONLY_THE_TABLE_RUNS_COMBAT)
        return
    _combat(request, code, table=not request.path.endswith(("/defence", "/defence/answer")))


def _combat(request, code: UUID, *, table: bool = True) -> tuple[Combat, object]:
    combat = get_object_or_404(Combat.objects.select_related("scene__week__campaign"), code=code)
    membership = membership_for(request.user, combat.scene.week.campaign)
    if membership is None:
        raise Http404  # as for an id that does not exist: it confirms nothing
    if table and not membership.runs_the_table:
        raise HttpError(403, ONLY_THE_TABLE_RUNS_COMBAT)
    native_services.refuse_gurps_tools(combat)  # a sistema001 fight: /fights, fight_read
    return combat, membership


def _state(request, combat: Combat, membership) -> dict:
    combat.refresh_from_db()
    if combat_pending.defences_overdue_apply(combat):  # no background job: applied when read
        combat.refresh_from_db()
    view = combat_cards.combat_view(combat, membership=membership, user=request.user)
    return combat_data(view)


def _combatant(combat: Combat, code: UUID | None, field: str) -> Combatant | None:
    if code is None:
        return None
    found = Combatant.objects.filter(combat=combat, code=code).first()
    if found is None:
        raise ServiceError(COMBATANT_NOT_FOUND, field=field)
    return found


def _action(request, combat: Combat, membership, event) -> dict:
    combat.refresh_from_db()
    view = combat_cards.combat_view(combat, membership=membership, user=request.user)
    return action_data(view, event)


def _maneuver(combat: Combat, payload) -> specs.ManeuverSpec | None:
    """The body's maneuver through the one mapper (``specs.maneuver_spec``); the feint's
    target looked up here."""
    target = _combatant(combat, payload.target, "target")
    return specs.maneuver_spec(payload.dict(), target)


@router.post(
    "",
    response={201: CombatOut, **errors(400, 401, 403, 404, 422)},
    summary="Começa um combate numa cena",
)
def combat_start(request, payload: CombatStartIn, idempotency_key: str = Key):
    scene = get_object_or_404(Scene.objects.select_related("week__campaign"), code=payload.scene)
    membership = membership_for(request.user, scene.week.campaign)
    if membership is None:
        raise Http404  # as for an id that does not exist: it confirms nothing
    characters = None
    if payload.characters is not None:
        present = {c.code: c for c in scene.characters.all()}
        if any(code not in present for code in payload.characters):
            raise ServiceError(log_services.CHARACTER_NOT_IN_SCENE, field="characters")
        characters = [present[code] for code in payload.characters]
    combat = services.combat_start(
        scene=scene, user=request.user, characters=characters, request_key=idempotency_key
    )
    return Status(201, _state(request, combat, membership))


@router.get(
    "/{uuid:code}",
    response={200: CombatOut, **errors(401, 404)},
    summary="O estado do combate",
)
def combat_read(request, code: UUID):
    combat, membership = _combat(request, code, table=False)
    return _state(request, combat, membership)


@router.post(
    "/{uuid:code}/combatants",
    response={201: CombatantAddedOut, **TABLE_WRITE_WITH_BODY},
    summary="Põe um combatente",
)
def combatant_add(request, code: UUID, payload: CombatantIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    character, creature = None, None
    if payload.character is not None:
        character = combat.scene.characters.filter(code=payload.character).first()
        if character is None:
            raise ServiceError(log_services.CHARACTER_NOT_IN_SCENE, field="character")
    else:
        creature = specs.creature_spec(payload.dict())
    added = services.combatant_add(
        combat=combat,
        user=request.user,
        character=character,
        creature=creature,
        surprise=payload.surprise,
        request_key=idempotency_key,
    )
    return Status(201, {"id": added.code, "combat": _state(request, combat, membership)})


@router.post(
    "/{uuid:code}/declarations",
    response={200: CombatOut, **TABLE_WRITE_WITH_BODY},
    summary="Chefe e terreno",
)
def combat_declare(request, code: UUID, payload: CombatDeclareIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    services.combat_declare(
        combat=combat,
        user=request.user,
        terrain=payload.terrain,
        boss=_combatant(combat, payload.boss, "boss"),
        request_key=idempotency_key,
    )
    return _state(request, combat, membership)


@router.post(
    "/{uuid:code}/turns",
    response={200: CombatActionOut, **TABLE_WRITE},
    summary="Passa ao próximo turno (e rola o que o início dele pede)",
)
def combat_turn(request, code: UUID, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    event = combat_turns.combat_next_turn(
        combat=combat, user=request.user, request_key=idempotency_key
    )
    return _action(request, combat, membership, event)


@router.post(
    "/{uuid:code}/act",
    response={201: TurnOut, 200: TurnPreviewOut, **TABLE_WRITE_WITH_BODY},
    summary="O turno de um combatente numa chamada: passa o turno, a manobra, o ataque",
)
def combat_act(request, code: UUID, payload: TurnIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    if payload.dry_run:
        # A dry run does nothing twice: the key it brought is left free for the real call.
        idempotency_release(getattr(request, "idempotency_claim", None))
    attack = payload.attack.dict() if payload.attack else None
    outcome = combat_acting.combat_act(
        combat=combat,
        combatant=_combatant(combat, payload.combatant, "combatant"),
        user=request.user,
        maneuver=_maneuver(combat, payload),
        attack=specs.attack_spec(attack) if attack else None,
        defender=_combatant(combat, payload.attack.defender, "attack.defender") if attack else None,
        defence_choice=specs.defence_spec(attack) if attack else None,
        dry_run=payload.dry_run,
        request_key="" if payload.dry_run else idempotency_key,
    )
    if payload.dry_run:
        return Status(200, preview_data(outcome))
    combat.refresh_from_db()
    view = combat_cards.combat_view(combat, membership=membership, user=request.user)
    return Status(201, turn_data(outcome, view))


@router.post(
    "/{uuid:code}/maneuvers",
    response={200: CombatActionOut, **TABLE_WRITE_WITH_BODY},
    summary="Declara a manobra",
)
def maneuver_declare(request, code: UUID, payload: ManeuverIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    event = combat_maneuvers.maneuver_declare(
        combat=combat,
        combatant=_combatant(combat, payload.combatant, "combatant"),
        user=request.user,
        request_key=idempotency_key,
        **_maneuver(combat, payload).as_kwargs(),
    )
    return _action(request, combat, membership, event)


@router.put(
    "/{uuid:code}/maneuvers",
    response={200: CombatActionOut, **TABLE_WRITE_WITH_BODY},
    summary="Muda a manobra deste turno, antes do primeiro dado",
)
def maneuver_change(request, code: UUID, payload: ManeuverIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    event = combat_maneuvers.maneuver_change(
        combat=combat,
        combatant=_combatant(combat, payload.combatant, "combatant"),
        user=request.user,
        request_key=idempotency_key,
        **_maneuver(combat, payload).as_kwargs(),
    )
    return _action(request, combat, membership, event)


@router.post(
    "/{uuid:code}/combatants/{uuid:combatant}/fled",
    response={200: CombatActionOut, **TABLE_WRITE},
    summary="Marca que o combatente fugiu: sai da ordem do turno, guarda o estado",
)
def combatant_flee(request, code: UUID, combatant: UUID, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    event = services.combatant_flee(
        combat=combat,
        combatant=_combatant(combat, combatant, "combatant"),
        user=request.user,
        request_key=idempotency_key,
    )
    return _action(request, combat, membership, event)


@router.post(
    "/{uuid:code}/adjustments",
    response={201: AdjustmentOut, **TABLE_WRITE_WITH_BODY},
    summary="Ajuste do Mestre: PV que o motor não rola (erro crítico 5/6, §4.8)",
)
def combatant_adjust(request, code: UUID, payload: AdjustIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    event = services.combatant_adjust(
        combat=combat,
        combatant=_combatant(combat, payload.combatant, "combatant"),
        user=request.user,
        hp_lost=payload.hp_lost,
        reason=payload.reason,
        request_key=idempotency_key,
    )
    return Status(201, {"event": event.code, "combat": _state(request, combat, membership)})


@router.post(
    "/{uuid:code}/attacks",
    response={201: AttackOut, **TABLE_WRITE_WITH_BODY},
    summary="Resolve um ataque pela sequência da §4.10: o servidor rola",
)
def attack_resolve(request, code: UUID, payload: AttackIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    outcome = combat_attack.attack_resolve(
        combat=combat,
        attacker=_combatant(combat, payload.attacker, "attacker"),
        defender=_combatant(combat, payload.defender, "defender"),
        user=request.user,
        attack=specs.attack_spec(payload.dict()),
        defence_choice=specs.defence_spec(payload.dict()),
        request_key=idempotency_key,
    )
    event = outcome if not isinstance(outcome, combat_attack.AttackOutcome) else outcome.event
    return Status(
        201,
        {
            "event": event.code,
            "hit": event.data["hit"],
            "awaits_defence": bool(event.data.get("awaits_defence")),
            "hp_lost": event.data["hp_lost"],
            "hp_after": event.data["hp_after"],
            "effective_level": event.data["effective_level"],
            "lines": event.lines,
            "rolls": event_rolls(event),
            "combat": _state(request, combat, membership),
        },
    )


@router.post(
    "/{uuid:code}/combatants/{uuid:combatant}/defence",
    response={200: CombatOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="A defesa que o defensor escolhe (o jogador, para a sua personagem)",
)
def defence_choose(
    request, code: UUID, combatant: UUID, payload: DefenceChoiceIn, idempotency_key: str = Key
):
    combat, membership = _combat(request, code, table=False)
    combat_defending.defence_choose(
        combat=combat,
        combatant=_combatant(combat, combatant, "combatant"),
        user=request.user,
        first=payload.first,
        then=payload.then,
        retreat=payload.retreat,
        parry_weapon=payload.parry_weapon,
        request_key=idempotency_key,
    )
    return _state(request, combat, membership)


@router.post(
    "/{uuid:code}/combatants/{uuid:combatant}/defence/answer",
    response={200: DefenceAnswerOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O jogador responde ao ataque que espera a defesa da sua personagem (§4.6)",
)
def defence_answer(
    request, code: UUID, combatant: UUID, payload: DefenceAnswerIn, idempotency_key: str = Key
):
    combat, membership = _combat(request, code, table=False)
    event = combat_pending.defence_answer(
        combat=combat,
        combatant=_combatant(combat, combatant, "combatant"),
        user=request.user,
        answer=payload.answer,
        parry_weapon=payload.parry_weapon,
        retreat=payload.retreat,
        request_key=idempotency_key,
    )
    return {
        "event": event.code,
        "hit": bool(event.data.get("hit")),
        "hp_lost": event.data.get("hp_lost", 0),
        "hp_after": event.data.get("hp_after", 0),
        "lines": event.lines,
        "rolls": event_rolls(event),
        "combat": _state(request, combat, membership),
    }


@router.put(
    "/{uuid:code}/defence-wait",
    response={200: CombatActionOut, **TABLE_WRITE_WITH_BODY},
    summary="O prazo do Mestre para a defesa de um jogador (§4.6)",
)
def defence_wait(request, code: UUID, payload: DefenceWaitIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    event = combat_pending.defence_wait_set(
        combat=combat, user=request.user, minutes=payload.minutes, request_key=idempotency_key
    )
    return _action(request, combat, membership, event)


@router.post(
    "/{uuid:code}/end",
    response={200: CombatOut, **TABLE_WRITE_WITH_BODY},
    summary="Encerra o combate",
)
def combat_end(request, code: UUID, payload: EndIn, idempotency_key: str = Key):
    combat, membership = _combat(request, code)
    services.combat_end(
        combat=combat, user=request.user, spoils=payload.spoils, request_key=idempotency_key
    )
    return _state(request, combat, membership)
