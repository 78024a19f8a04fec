"""A fight its ruleset plays whole (the sistema001's) through the API, for the Mestre's AI
client: start it with everyone's numbers (the server rolls the initiative), a late entrant, one
call per combatant's turn (the server rolls the attack, the defence, every test), a condition
applied or removed, an object put in the fight, the end, the state. No body takes a die; every
closed set (conditions, maneuvers, situations, damage types, attack kinds, turn plans…) is an
enum of the ruleset's keys with their Portuguese labels (docs/DESIGN.md, invariant 13 (Closed sets
are published)). ``Idempotency-Key`` makes the same request twice one action."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Field, Header, Router, Schema, Status
from ninja.errors import HttpError
from pydantic import Discriminator, StrictBool, StrictFloat, StrictInt, Tag, field_validator

from campaigns.access import membership_for
from campaigns.api_errors import errors
from campaigns.auth import gated, runs_a_table
from campaigns.errors import ServiceError
from campaigns.vocabulary import Vocabulary
from rulesets.registry import ruleset_for
from sessions.models import Combat, Scene
from sessions.native_combat import services
from sessions.native_combat.services import combatant_of
from sessions.vocabularies import vocabularies

# The ruleset whose closed sets these bodies publish: the one registered ruleset whose combat
# part plays a fight whole (rulesets.sistema001). Its key, not its engine (import-linter).
NATIVE_RULESET = "sistema001"
_SETS = vocabularies(NATIVE_RULESET)

AttributeKey = _SETS["attribute"].annotated()
DamageTypeKey = _SETS["damage_type"].annotated()
ConditionKey = _SETS["condition"].annotated()
ManeuverKey = _SETS["maneuver"].annotated(blank=True)
SituationKey = _SETS["situation"].annotated()
AttackKindKey = _SETS["attack_kind"].annotated()
WeaponKindKey = _SETS["weapon_kind"].annotated()
TurnPlanKey = _SETS["turn_plan"].annotated(blank=True)
SideKey = _SETS["side"].annotated()
EdgeKey = _SETS["edge"].annotated(blank=True)
ActionKindKey = _SETS["action_kind"].annotated()
SizeKey = _SETS["object_size"].annotated()
StructureKey = _SETS["object_structure"].annotated()
HardnessKey = _SETS["object_hardness"].annotated()
RangedPenaltyKey = _SETS["ranged_penalty"].annotated()

# The Xuleta's fight (rulesets.xuleta5e.combat) plays whole too: its closed sets, asked of its
# combat part through the registry, published beside the sistema001's. A body is one system's
# or the other's (their keys do not overlap); the fight's ruleset refuses the other's.
XULETA_RULESET = "xuleta5e"
_X = {
    s.name: Vocabulary(s.name, s.title, s.section, s.terms)
    for s in ruleset_for(XULETA_RULESET).combat.closed_sets()
}
XActionKey = _X["xuleta_action"].annotated()
XConditionKey = _X["xuleta_condition"].annotated()
XCoverKey = _X["xuleta_cover"].annotated()
XEdgeKey = _X["xuleta_edge"].annotated(blank=True)
XDamageTypeKey = _X["xuleta_damage_type"].annotated()
XSideKey = _X["xuleta_side"].annotated()
XSizeKey = _X["xuleta_size"].annotated()
XAbilityKey = _X["xuleta_ability"].annotated()
XSkillKey = _X["xuleta_skill"].annotated()
XResistKey = _X["xuleta_resist_with"].annotated(blank=True)
XShoveKey = _X["xuleta_shove_result"].annotated(blank=True)
XSearchSkill = Literal["Percepció", "Investigació"]

# A save's or a skill's bonus as the Mestre gives it (a monster's), the attack bonus's range.
Bonus = Annotated[StrictInt, Field(ge=-10, le=30)]
RANGE_ORDER = "o alcance é [normal, longo], o normal até o longo; veio [{normal:g}, {long:g}]."
OTHER_SYSTEMS_ACTION = "Esta ação é de outro sistema de regras: o combate é do {label}."
ONLY_THE_TABLE_RUNS_COMBAT = "Só o Mestre de Cena ou o Árbitro conduzem o combate."
Key = Header("", alias="Idempotency-Key")
TABLE_WRITE = errors(400, 401, 403, 404, 409, 422)

router = Router(auth=gated(lambda request, user: _table_first(request, user)))

ATTRIBUTE = (0, 100)
MODIFIER = (-50, 50)
PV = (1, 10_000)


class FightAttributesIn(Schema, extra="forbid"):
    """Os seis atributos (os números do Mestre)."""

    mobilidade: int = Field(ge=ATTRIBUTE[0], le=ATTRIBUTE[1])
    acuidade: int = Field(ge=ATTRIBUTE[0], le=ATTRIBUTE[1])
    forca: int = Field(ge=ATTRIBUTE[0], le=ATTRIBUTE[1], description="Força")
    resistencia: int = Field(
        ge=ATTRIBUTE[0], le=ATTRIBUTE[1], description="Resistência, o atributo"
    )
    espirito: int = Field(ge=ATTRIBUTE[0], le=ATTRIBUTE[1], description="Espírito")
    astucia: int = Field(ge=ATTRIBUTE[0], le=ATTRIBUTE[1], description="Astúcia")


class FightDiceIn(Schema, extra="forbid"):
    """O tamanho (faces) do dado de cada atributo: o capítulo cita «Dado de Mobilidade» sem dar
    o tamanho — é o Mestre quem diz."""

    mobilidade: int = Field(ge=2, le=100)
    acuidade: int = Field(ge=2, le=100)
    forca: int = Field(ge=2, le=100)
    resistencia: int = Field(ge=2, le=100)
    espirito: int = Field(ge=2, le=100)
    astucia: int = Field(ge=2, le=100)


class FightWeaponIn(Schema, extra="forbid"):
    name: str = Field(min_length=1, max_length=100)
    kind: WeaponKindKey
    damage_increase: int = Field(default=0, ge=0, le=100, description="Aumento de Dano")
    damage_types: list[DamageTypeKey] = Field(default=[], max_length=10)
    magical: StrictBool = False
    reach_m: int = Field(default=1, ge=1, le=100, description="Alcance corpo a corpo, metros")
    ammunition: int | None = Field(
        default=None, ge=0, le=1000, description="Munição (armas de disparo e arremesso)"
    )


class FightNumbersIn(Schema, extra="forbid"):
    """Os números do combatente, como o Mestre os dá (sem ficha)."""

    attributes: FightAttributesIn
    dice: FightDiceIn
    pv_max: int = Field(ge=PV[0], le=PV[1], description="PV máximos (o Mestre os dá)")
    pv: int | None = Field(default=None, ge=0, le=PV[1], description="PV agora (sem: os máximos)")
    side: SideKey = "inimigos"
    resistances: list[DamageTypeKey] = Field(default=[], max_length=10)
    vulnerabilities: list[DamageTypeKey] = Field(default=[], max_length=10)
    immunities: list[DamageTypeKey] = Field(default=[], max_length=10)
    condition_resistances: list[ConditionKey] = Field(default=[], max_length=16)
    condition_vulnerabilities: list[ConditionKey] = Field(default=[], max_length=16)
    condition_immunities: list[ConditionKey] = Field(default=[], max_length=16)
    mundane_immune: StrictBool = Field(
        default=False, description="Resistente/imune a efeitos mundanos (sofre os mágicos)"
    )
    damage_reduction: int = Field(
        default=0, ge=0, le=100, description="Redução de dano que um equipamento ou Vantagem dá"
    )
    weapons: list[FightWeaponIn] = Field(default=[], max_length=10)


class XuletaAttackIn(Schema, extra="forbid"):
    """Um ataque (Xuleta, «Tirada d'atac»): d20 + bonus contra a CA; o dano (NdM) + o mesmo
    modificador do ataque, do tipo dito."""

    name: str = Field(min_length=1, max_length=100)
    bonus: StrictInt = Field(
        ge=-10, le=30, description="Bônus de ataque (modificador + competência)"
    )
    damage: str = Field(pattern=r"^\s*\d{1,2}\s*d\s*(4|6|8|10|12|20)\s*$", description="Dados, 1d8")
    damage_modifier: StrictInt = Field(default=0, ge=-10, le=30, description="O mesmo do ataque")
    damage_type: XDamageTypeKey
    ability: XAbilityKey | None = None
    ranged: StrictBool = False
    finesse: StrictBool = False
    light: StrictBool = Field(default=False, description="Lleugera (combate com duas armas)")
    thrown: StrictBool = False
    reach_m: StrictFloat = Field(default=1.5, ge=0, le=30)
    range_m: list[Annotated[StrictFloat, Field(gt=0, le=2000)]] | None = Field(
        default=None, min_length=2, max_length=2, description="[normal, longo], metros"
    )

    @field_validator("range_m")
    @classmethod
    def _range_order(cls, value: list[float] | None) -> list[float] | None:
        if value is not None and value[0] > value[1]:
            raise ValueError(RANGE_ORDER.format(normal=value[0], long=value[1]))
        return value


class XuletaNumbersIn(Schema, extra="forbid"):
    """Os números de um combatente da Xuleta como o Mestre os dá (um monstro, um PNJ; uma
    personagem sem eles vem da ficha homologada): as seis características (1–30), salvações e
    habilidades onde diferem do modificador, CA, PC, velocidade, tamanho, ataques, defesas."""

    side: XSideKey = "inimigos"
    abilities: dict[XAbilityKey, StrictInt] = Field(
        description="As seis: str, dex, con, int, wis, cha"
    )
    saves: dict[XAbilityKey, Bonus] = Field(default={}, description="Bônus de salvação")
    skills: dict[XSkillKey, Bonus] = Field(default={}, description="Bônus de habilidade")
    ac: StrictInt = Field(ge=0, le=40, description="Classe d'armadura (CA)")
    max_hp: StrictInt = Field(ge=1, le=10_000, description="PC máximos")
    hp: StrictInt | None = Field(
        default=None, ge=0, le=10_000, description="PC agora (sem: máximos)"
    )
    temp_hp: StrictInt = Field(default=0, ge=0, le=10_000, description="PC temporários")
    speed_m: StrictFloat = Field(default=9, ge=0, le=100, description="Velocidade em metros")
    size: XSizeKey = "medium"
    attacks: list[XuletaAttackIn] = Field(default=[], max_length=10)
    attacks_per_action: StrictInt = Field(default=1, ge=1, le=4, description="Atac Extra: ataques")
    resistances: list[XDamageTypeKey] = Field(default=[], max_length=13)
    vulnerabilities: list[XDamageTypeKey] = Field(default=[], max_length=13)
    immunities: list[XDamageTypeKey] = Field(default=[], max_length=13)
    spell_save_dc: StrictInt | None = Field(default=None, ge=1, le=40)
    spell_attack_bonus: StrictInt | None = Field(default=None, ge=-10, le=30)
    slots: dict[Literal["1", "2", "3", "4", "5", "6", "7", "8", "9"], StrictInt] = Field(
        default={}, description="Espaços de magia por nível (sem: o Mestre conta)"
    )
    group: StrictInt = Field(
        default=0,
        ge=0,
        le=30,
        description="Grupo de monstros iguais (mesmo número: uma só iniciativa)",
    )
    surprised: StrictBool = Field(default=False, description="Surpreso (o Mestre decide)")
    dies_at_zero: StrictBool = Field(
        default=False, description="Morre a 0 PC («si el DM vol»); sem: inconsciente"
    )
    player_character: StrictBool = Field(default=False, description="Faz salvações contra a morte")
    conditions: list[XConditionKey] = Field(default=[], max_length=15)
    exhaustion: StrictInt = Field(default=0, ge=0, le=6)


def _numbers_system(value: Any) -> str:
    """Which system's numbers a body is: the Xuleta's name its six ``abilities``, the
    sistema001's its ``attributes`` (so a refusal names the fields of the one it is, not both)."""
    given = value if isinstance(value, dict) else getattr(value, "__dict__", {})
    return f"tag:{XULETA_RULESET if 'abilities' in given else NATIVE_RULESET}"


FighterNumbersIn = Annotated[
    Annotated[FightNumbersIn, Tag(f"tag:{NATIVE_RULESET}")]
    | Annotated[XuletaNumbersIn, Tag(f"tag:{XULETA_RULESET}")],
    Discriminator(_numbers_system),
]


class FighterIn(Schema, extra="forbid"):
    name: str = Field(min_length=1, max_length=200)
    character: UUID | None = Field(default=None, description="Uma personagem da cena, se for")
    numbers: FighterNumbersIn | None = Field(
        default=None,
        description="Os números do Mestre (Sistema 001 ou Xuleta); numa campanha da Xuleta, uma "
        "personagem (character) sem eles vem da ficha homologada",
    )
    initiative_modifier: int = Field(default=0, ge=MODIFIER[0], le=MODIFIER[1])
    note: str = Field(default="", max_length=1000)


class FightStartIn(Schema, extra="forbid"):
    scene: UUID
    combatants: list[FighterIn] = Field(min_length=2, max_length=services.MAX_COMBATANTS)
    tie_order: list[int] = Field(
        default=[],
        max_length=services.MAX_COMBATANTS,
        description="Xuleta: a ordem do Mestre para empates de iniciativa (posições em "
        "combatants, 0 primeiro); sem ela, os empatados rolam de novo",
    )


class FightDamagePartIn(Schema, extra="forbid"):
    type: DamageTypeKey
    amount: int = Field(ge=0, le=1000)
    magical: StrictBool = False


class FightActionIn(Schema, extra="forbid"):
    """Uma ação do turno. ``kind``: ataque (com arma, manobra, situações; o servidor rola o
    ataque e a defesa), quebrar (golpe num objeto), teste_de_forca (contra o ND de um objeto),
    condicao (uma Vantagem ou magia que impõe uma condição), movimento, execucao, completa ou
    livre (ditas pelo Mestre, sem dados).

    Ataque em Área (attack_kind=area): ``attribute`` é o atributo do ataque que a descrição
    diz. Ataque Interno (attack_kind=interno): sem ataque nem Defesa — o alvo faz um teste de
    resistência com ``resisted_with`` (resistencia ou espirito) contra ``nd``; se falha, sofre
    ``damage`` e/ou ``condition`` (com ``rounds``), o efeito da descrição. O teste do Ataque
    Interno e o do Ataque Furtivo (situations: ataque_furtivo) dependem da decisão do Árbitro
    sobre empatar com o ND (fight_read, ``arbitro``): sem ela, a resposta é 422
    ``awaits_arbitro``."""

    kind: ActionKindKey
    target: UUID | None = Field(default=None, description="O combatente alvo")
    object: str = Field(default="", max_length=40, description="A chave do objeto (fight_object)")
    weapon: str = Field(default="", max_length=100, description="Nome da arma; vazio: desarmado")
    attack_kind: AttackKindKey = "corpo_a_corpo"
    maneuver: ManeuverKey = ""
    situations: list[SituationKey] = Field(default=[], max_length=8)
    ranged_penalties: list[RangedPenaltyKey] = Field(default=[], max_length=3)
    modifiers: int = Field(default=0, ge=MODIFIER[0], le=MODIFIER[1], description="No ataque")
    defence_modifiers: int = Field(
        default=0,
        ge=MODIFIER[0],
        le=MODIFIER[1],
        description="Na Defesa do alvo (no Ataque Interno: no teste de resistência dele)",
    )
    edge: EdgeKey = Field(default="", description="Vantagem ou desvantagem no ataque")
    damage: list[FightDamagePartIn] = Field(
        default=[], max_length=10, description="O dano que a magia ou Vantagem diz (sem: o da arma)"
    )
    condition: ConditionKey | None = Field(
        default=None, description="condicao; no Ataque Interno, a condição de quem falha o teste"
    )
    rounds: int | None = Field(default=None, ge=1, le=100, description="Duração em rodadas")
    attribute: AttributeKey | None = Field(
        default=None, description="Ataque em Área: o atributo do ataque, o que a descrição diz"
    )
    resisted_with: Literal["resistencia", "espirito"] | None = Field(
        default=None,
        description="Ataque Interno: o atributo com que o alvo resiste — resistencia (veneno, "
        "doença, exaustão, paralisia) ou espirito (medo, ilusão, confusão, possessão)",
    )
    nd: int | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="Ataque Interno: o ND do teste de resistência (o da descrição da vantagem "
        "ou magia)",
    )
    text: str = Field(default="", max_length=1000)


class XuletaActionIn(Schema, extra="forbid"):
    """Uma parte do turno na Xuleta, na ordem: move (metres; leaves_reach_of: quem tem reação
    para o atac d'oportunitat), uma ação (attack — cada ataque da ação Atacar é um item, até
    attacks_per_action; grapple e shove substituem um; cast_spell, dash, disengage, dodge, help,
    hide, ready, search, use_object, stabilize, escape_grapple, other_action), uma ação
    adicional só se algo a dá (offhand_attack, ou bonus_action com source), a interação livre
    (interact), stand_up, drop_prone, release, end_concentration; reaction (by: quem reage
    no turno deste — a ação preparada ou uma magia de reação). O servidor rola tudo."""

    kind: XActionKey
    target: UUID | None = Field(default=None, description="O combatente alvo")
    targets: list[UUID] = Field(default=[], max_length=30, description="Magia: os alvos (área)")
    by: UUID | None = Field(default=None, description="reaction: quem reage, no turno deste")
    weapon: str = Field(default="", max_length=100, description="Nome do ataque; vazio: o 1º")
    metres: StrictFloat = Field(default=0, ge=0, le=200, description="move: metros")
    difficult: StrictBool = Field(default=False, description="Terreno difícil (custa o dobro)")
    leaves_reach_of: list[UUID] = Field(default=[], max_length=30)
    within_1_5_m: StrictBool | None = Field(
        default=None, description="A 1,5 m ou menos do alvo (sem: corpo a corpo sim, distância não)"
    )
    enemy_within_1_5_m: StrictBool = Field(
        default=False, description="Distância com inimigo a 1,5 m"
    )
    target_sees: StrictBool = Field(default=True, description="O alvo vê quem ataca (Esquivar)")
    sees_fear_source: StrictBool = Field(default=True, description="Espantat: vê o que o espanta")
    thrown: StrictBool = Field(default=False, description="Arma llancívola: lançada")
    cover: XCoverKey = "none"
    edge: XEdgeKey = Field(default="", description="Outra fonte de vantagem/desvantagem")
    spell: str = Field(default="", max_length=100, description="O nome da magia")
    spell_level: StrictInt = Field(default=0, ge=0, le=9, description="Nível da magia (0: truque)")
    slot_level: StrictInt = Field(
        default=0, ge=0, le=9, description="Espaço gasto (sem: o da magia)"
    )
    spell_attack: StrictBool = Field(default=False, description="Ataque de magia")
    ranged: StrictBool = Field(default=True, description="Ataque de magia à distância")
    save: XAbilityKey | None = Field(default=None, description="Salvação que a magia pede")
    dc: StrictInt | None = Field(default=None, ge=1, le=40, description="CD (sem: a do conjurador)")
    damage: str = Field(default="", max_length=10, description="Dados de dano ou cura, NdM")
    damage_modifier: StrictInt = Field(default=0, ge=-10, le=30)
    damage_type: XDamageTypeKey | None = None
    half_on_save: StrictBool = Field(default=False, description="Metade se passa na salvação")
    heal: StrictBool = Field(default=False, description="damage é cura")
    condition: XConditionKey | None = Field(default=None, description="Estado de quem falha")
    rounds: StrictInt | None = Field(default=None, ge=1, le=100)
    concentration: StrictBool = Field(default=False, description="Magia de concentração")
    resist_with: XResistKey = Field(default="", description="Agafar/Empènyer: como o alvo resiste")
    shove_result: XShoveKey = Field(default="", description="Empènyer: tombat ou afastar")
    skill: XSearchSkill | None = Field(default=None, description="Cercar: a habilidade")
    source: str = Field(default="", max_length=100, description="O que dá a ação adicional")
    text: str = Field(default="", max_length=1000)


def _action_system(value: Any) -> str:
    """Which system's action a body is, by its ``kind`` (a key or a label): the sistema001's
    when it names one of its kinds, the Xuleta's otherwise (an unknown kind is refused listing
    the Xuleta's, the sistema001's being named when one of its own is sent)."""
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    if _SETS["action_kind"].key_of(kind) in _SETS["action_kind"].keys:
        return f"tag:{NATIVE_RULESET}"
    return f"tag:{XULETA_RULESET}"


TurnActionIn = Annotated[
    Annotated[FightActionIn, Tag(f"tag:{NATIVE_RULESET}")]
    | Annotated[XuletaActionIn, Tag(f"tag:{XULETA_RULESET}")],
    Discriminator(_action_system),
]


class FightTurnIn(Schema, extra="forbid"):
    combatant: UUID
    plan: TurnPlanKey = Field(
        default="",
        description="Sistema 001: Movimento + Execução, dois Movimentos ou Completa; vazio: passa",
    )
    actions: list[TurnActionIn] = Field(default=[], max_length=12)


class FightConditionIn(Schema, extra="forbid"):
    target: UUID
    condition: ConditionKey | XConditionKey = Field(
        description="A condição (Sistema 001) ou o estado (Xuleta; exhaustion com level)"
    )
    level: StrictInt | None = Field(
        default=None, ge=1, le=6, description="Xuleta, esgotamento: níveis a subir (ou descer)"
    )
    rounds: StrictInt | None = Field(
        default=None, ge=1, le=100, description="Duração em rodadas (sem: a do capítulo)"
    )
    remove: StrictBool = False
    source: UUID | None = Field(default=None, description="Quem aplicou (a fonte do efeito)")
    turn_damage: StrictInt | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="Envenenado: o dano por turno que o veneno diz (com turn_damage_type)",
    )
    turn_damage_type: DamageTypeKey | None = Field(
        default=None, description="O tipo desse dano (Sangrando: o físico do ferimento)"
    )


class FightObjectIn(Schema, extra="forbid"):
    name: str = Field(min_length=1, max_length=100)
    size: SizeKey
    structure: StructureKey
    hardness: HardnessKey
    size_value: int | None = Field(default=None, ge=30, le=1000, description="Colossal: 30+")
    structure_value: int | None = Field(default=None, ge=30, le=1000, description="Militar: 30+")
    adjustment: int = Field(default=0, ge=-1000, le=1000, description="Ajuste do Mestre ao ND")


class FightOut(Schema):
    id: UUID
    scene: UUID
    ruleset: str
    status: str
    round: int
    turn: dict[str, Any] | None = None
    order: list[dict[str, Any]]
    objects: list[dict[str, Any]] = []
    readings: list[dict[str, Any]] = []
    arbitro: list[dict[str, Any]] = Field(
        default=[],
        description="Cada regra que depende de uma decisão do Árbitro: a resposta em vigor "
        "(house_key, answer, decision) ou awaits_arbitro, e as regras da casa que a decidem",
    )
    log: list[dict[str, Any]]


class FightEventOut(Schema):
    text: str
    lines: list[str]
    fight: FightOut


class FightJoinedOut(Schema):
    id: UUID
    fight: FightOut


def _table_first(request, user) -> None:
    code = request.resolver_match.kwargs.get("code")
    if code is None:
        if not runs_a_table(user):
            raise HttpError(403, ONLY_THE_TABLE_RUNS_COMBAT)
        return
    _fight(request, code)


def _fight(request, code: UUID, *, table: bool = True) -> Combat:
    combat = get_object_or_404(Combat.objects.select_related("scene__week__campaign"), code=code)
    membership = membership_for(request.user, combat.scene.week.campaign)
    if membership is None or not services.plays_whole(combat.ruleset):
        # An outsider's, or a GURPS fight (its API is /combats): as for an id that does not
        # exist — it confirms nothing.
        raise Http404
    if table and not membership.runs_the_table:
        raise HttpError(403, ONLY_THE_TABLE_RUNS_COMBAT)
    return combat


def _view(combat: Combat) -> dict:
    combat.refresh_from_db()
    return services.fight_view(combat)


def _character(scene: Scene, code: UUID | None, field: str):
    if code is None:
        return None
    found = scene.characters.filter(code=code).first()
    if found is None:
        raise ServiceError(services.CHARACTER_NOT_IN_SCENE, field=field)
    return found


def _fighter(scene: Scene, payload: FighterIn, field: str) -> dict:
    return {
        "name": payload.name,
        "character": _character(scene, payload.character, f"{field}.character"),
        "numbers": payload.numbers.dict() if payload.numbers is not None else {},
        "initiative_modifier": payload.initiative_modifier,
        "note": payload.note,
    }


def _event_out(combat: Combat, event) -> dict:
    return {"text": event.text, "lines": list(event.lines), "fight": _view(combat)}


@router.post(
    "",
    response={201: FightOut, **TABLE_WRITE},
    summary="Começa um combate (sistema de regras que o conduz inteiro: o sistema001)",
)
def fight_start(request, payload: FightStartIn, idempotency_key: str = Key):
    scene = get_object_or_404(Scene.objects.select_related("week__campaign"), code=payload.scene)
    if membership_for(request.user, scene.week.campaign) is None:
        raise Http404
    combatants = [
        _fighter(scene, fighter, f"combatants.{index}")
        for index, fighter in enumerate(payload.combatants)
    ]
    combat = services.fight_start(
        scene=scene,
        user=request.user,
        combatants=combatants,
        request_key=idempotency_key,
        tie_order=payload.tie_order,
    )
    return Status(201, _view(combat))


@router.get("/{uuid:code}", response={200: FightOut, **errors(401, 404)}, summary="O combate")
def fight_read(request, code: UUID):
    return _view(_fight(request, code, table=False))


@router.post(
    "/{uuid:code}/combatants",
    response={201: FightJoinedOut, **TABLE_WRITE},
    summary=(
        "Entra no combate e rola a Iniciativa (Sistema 001: age a partir da rodada seguinte; "
        "Xuleta: ainda nesta rodada se o seu lugar na ordem não passou)"
    ),
)
def fight_join(request, code: UUID, payload: FighterIn, idempotency_key: str = Key):
    combat = _fight(request, code)
    added = services.fight_join(
        combat=combat,
        user=request.user,
        combatant=_fighter(combat.scene, payload, "combatant"),
        request_key=idempotency_key,
    )
    return Status(201, {"id": added.code, "fight": _view(combat)})


@router.post(
    "/{uuid:code}/turns",
    response={201: FightEventOut, **TABLE_WRITE},
    summary="O turno inteiro de um combatente numa chamada",
)
def fight_turn(request, code: UUID, payload: FightTurnIn, idempotency_key: str = Key):
    combat = _fight(request, code)
    combatant = combatant_of(combat, payload.combatant, "combatant")
    actions = []
    expected = XuletaActionIn if combat.ruleset == XULETA_RULESET else FightActionIn
    for index, action in enumerate(payload.actions):
        if not isinstance(action, expected):
            raise ServiceError(
                OTHER_SYSTEMS_ACTION.format(label=services.ruleset_label(combat.ruleset)),
                field=f"actions.{index}.kind",
            )
        data = action.dict()
        if action.target is not None:
            data["target"] = str(
                combatant_of(combat, action.target, f"actions.{index}.target").code
            )
        if data.get("by") is not None:
            data["by"] = str(combatant_of(combat, data["by"], f"actions.{index}.by").code)
        for many in ("targets", "leaves_reach_of"):
            if many in data:
                data[many] = [
                    str(combatant_of(combat, code, f"actions.{index}.{many}.{n}").code)
                    for n, code in enumerate(data[many])
                ]
        actions.append(data)
    event = services.fight_turn(
        combat=combat,
        user=request.user,
        combatant=combatant,
        plan=payload.plan or None,
        actions=actions,
        request_key=idempotency_key,
    )
    return Status(201, _event_out(combat, event))


@router.post(
    "/{uuid:code}/conditions",
    response={201: FightEventOut, **TABLE_WRITE},
    summary="Aplica ou remove uma condição",
)
def fight_condition(request, code: UUID, payload: FightConditionIn, idempotency_key: str = Key):
    combat = _fight(request, code)
    event = services.fight_condition(
        combat=combat,
        user=request.user,
        target=combatant_of(combat, payload.target, "target"),
        condition=payload.condition,
        rounds=payload.rounds,
        remove=payload.remove,
        source_fighter=combatant_of(combat, payload.source, "source") if payload.source else None,
        turn_damage=(payload.turn_damage, payload.turn_damage_type)
        if payload.turn_damage is not None or payload.turn_damage_type is not None
        else None,
        level=payload.level,
        request_key=idempotency_key,
    )
    return Status(201, _event_out(combat, event))


@router.post(
    "/{uuid:code}/objects",
    response={201: FightEventOut, **TABLE_WRITE},
    summary="Põe um objeto ou estrutura no combate (o ND Estrutural)",
)
def fight_object(request, code: UUID, payload: FightObjectIn, idempotency_key: str = Key):
    combat = _fight(request, code)
    event = services.fight_object(
        combat=combat, user=request.user, spec=payload.dict(), request_key=idempotency_key
    )
    return Status(201, _event_out(combat, event))


@router.post(
    "/{uuid:code}/end",
    response={200: FightOut, **TABLE_WRITE},
    summary="Encerra o combate (as condições terminam com ele)",
)
def fight_end(request, code: UUID, idempotency_key: str = Key):
    combat = _fight(request, code)
    services.fight_end(combat=combat, user=request.user, request_key=idempotency_key)
    return _view(combat)
