"""Services of the scene log: scenes, players' declarations, the Mestre's announced modifiers,
the server's rolls (tests of success, damage, tables, quick contests) and narration.

No die comes from a client (docs/DESIGN.md, invariant 1 (The server rolls)): every ``*_create`` that
rolls takes levels, modifiers, an expression or a table's key, never a dice value, and asks the
campaign's ruleset (``rulesets.registry.ruleset_for(campaign.ruleset)``: ``gurps`` for GURPS) to
roll with the server's source (``sessions.entries.dice_source``). The rules themselves (what a
roll's outcome is, who wins a contest, what a table says) come from the ruleset only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from campaigns import doorbell
from campaigns.errors import ServiceError
from rulesets.base import CheckResult, RandomSource
from rulesets.registry import GURPS3E, rule_errors, ruleset_for
from sessions import entries
from sessions.entries import (
    SCENE_CLOSED,
    ensure_scene_accepts_entries,
    ensure_week_accepts_entries,
    entry_replayed,
    require_table,
)
from sessions.log import levels
from sessions.log.chain import append_with_retries
from sessions.models import (
    Declaration,
    ModifierAnnouncement,
    Narration,
    Roll,
    Scene,
    Week,
)
from sheets.models import Character

CHARACTER_NOT_IN_SCENE = "Esta personagem não está na cena."
NOT_YOUR_CHARACTER = "Você só declara ações das suas próprias personagens."
DECLARATION_EMPTY = "Diga o que a personagem faz, e com quê."
LABEL_EMPTY = "Diga contra o quê se rola (a perícia, o atributo ou a defesa)."
MODIFIER_LABEL_EMPTY = "Todo modificador precisa de um nome (o que ele cobra ou dá)."
LEVEL_OUT_OF_RANGE = "Nível fora do intervalo aceito (−50 a 50)."
NO_SHEET = "Esta personagem não tem ficha homologada."
HIDDEN_NEEDS_CHARACTER = (
    "Rolagem escondida é de uma personagem: ela vai para a pasta do jogador (§1.6)."
)
IDEMPOTENCY_CONFLICT = (
    "Esta chave de idempotência já foi usada por outra rolagem, com outro pedido."
)
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
CONTEST_NEEDS_CHARACTER = (
    "Cada lado da Disputa Rápida é uma personagem da cena (character), ou uma criatura ou NPC "
    "sem ficha com o seu nome (name) e o seu nível (base_level)."
)
CONTEST_SAME_CHARACTER = "A Disputa Rápida é entre duas personagens diferentes."
CONTEST_KIND = "Numa Disputa Rápida cada lado testa uma perícia ou um atributo (§1.5)."
UNKNOWN_TABLE = "Tabela desconhecida."
CONTEST_ALREADY_ANSWERED = (
    "A declaração já foi respondida pela Disputa Rápida nº {sequence} ({label}), com os "
    "modificadores anunciados no lado A: outra disputa para ela rolaria de novo o mesmo lance. "
    "Para outro lance, o jogador declara de novo; para repetir o mesmo pedido sem rolar, mande a "
    "mesma chave de idempotência."
)
FOLLOWED_ROLL_UNKNOWN = "A rolagem seguida (follows) não é desta cena."
FOLLOWED_ROLL_NOT_A_TEST = (
    "A rolagem seguida (follows) é {kind}: a tabela segue um teste de sucesso (3d contra um NH)."
)
FOLLOWED_ROLL_PASSED = (
    "A rolagem seguida (follows), {label}, passou (margem {margin}): não se rola o Pânico (§5b: "
    "só quem falha a Verificação rola na tabela)."
)
FOLLOWED_MARGIN_DISAGREES = (
    "margin_of_failure {given} não confere com a rolagem seguida: {label} falhou por {margin}. "
    "Omita a margem e ela vem da rolagem."
)
DC_NEEDED = (
    "Diga a CD (dc) contra a qual se rola: a de um teste ou salvação, ou a CA do alvo num ataque."
)
D20_ONLY = (
    "«{field}» é de um sistema de d20 (a Xuleta): o sistema desta campanha, «{label}», não o usa."
)
FOLLOWED_CHARACTER_DISAGREES = "A rolagem seguida (follows) é de {name}, não desta personagem."

MAX_MODIFIERS = 20
MAX_DAMAGE_DICE = 30
MAX_DAMAGE_ADDS = 200


@dataclass(frozen=True)
class Modifier:
    label: str
    value: int


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
    require_table(user, week.campaign, what=entries.OPENS_SCENES)
    title = (title or "").strip()
    existing = entry_replayed(Scene.objects.filter(week=week), request_key, user, title=title[:200])
    if existing is not None:
        return existing
    ensure_week_accepts_entries(week)
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
        return entry_replayed(Scene.objects.filter(week=week), request_key, user, title=title[:200])
    scene.characters.set(characters)
    return scene


# --- the scene log: declarations, announced modifiers, narration -------------------------------


def declaration_create(
    *, scene: Scene, character: Character, user, text: str, request_key: str = ""
) -> Declaration:
    """Record what a jogador's character does. The same ``request_key`` twice records once."""
    text = (text or "").strip()
    if not character.is_owned_by(user):
        raise ServiceError(NOT_YOUR_CHARACTER, field="character", code="forbidden")
    same = {"character_id": character.pk, "text": text}
    existing = entry_replayed(Declaration.objects.filter(scene=scene), request_key, user, **same)
    if existing is not None:
        return existing
    if not scene.is_open:
        raise ServiceError(SCENE_CLOSED, code="scene_closed")
    if not text:
        raise ServiceError(DECLARATION_EMPTY, field="text")
    if not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    ensure_week_accepts_entries(scene.week)
    try:
        with transaction.atomic():
            doorbell.ring_scene(scene)
            return Declaration.objects.create(
                scene=scene, character=character, author=user, text=text, request_key=request_key
            )
    except IntegrityError:
        return entry_replayed(Declaration.objects.filter(scene=scene), request_key, user, **same)


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
    require_table(user, scene.week.campaign)
    same = {"declaration_id": declaration.pk if declaration else None}
    existing = entry_replayed(
        ModifierAnnouncement.objects.filter(scene=scene), request_key, user, **same
    )
    if existing is not None:
        return existing
    ensure_scene_accepts_entries(scene)
    if declaration is None:
        raise ServiceError(ANNOUNCEMENT_NEEDS_DECLARATION, field="declaration")
    if declaration.scene_id != scene.pk:
        raise ServiceError(DECLARATION_OTHER_SCENE, field="declaration")
    modifiers = clean_modifiers(modifiers)
    try:
        with transaction.atomic():
            doorbell.ring_scene(scene)
            return ModifierAnnouncement.objects.create(
                scene=scene,
                declaration=declaration,
                modifiers=_modifier_dicts(modifiers),
                note=(note or "").strip()[:300],
                author=user,
                request_key=request_key,
            )
    except IntegrityError:
        return entry_replayed(
            ModifierAnnouncement.objects.filter(scene=scene), request_key, user, **same
        )


def narration_create(*, scene: Scene, user, text: str, request_key: str = "") -> Narration:
    """The Mestre narrates what the dice made happen."""
    request_key = (request_key or "")[:64]
    require_table(user, scene.week.campaign)
    text = (text or "").strip()
    existing = entry_replayed(Narration.objects.filter(scene=scene), request_key, user, text=text)
    if existing is not None:
        return existing
    ensure_scene_accepts_entries(scene)
    if not text:
        raise ServiceError(NARRATION_EMPTY, field="text")
    try:
        with transaction.atomic():
            doorbell.ring_scene(scene)
            return Narration.objects.create(
                scene=scene, author=user, text=text, request_key=request_key
            )
    except IntegrityError:
        return entry_replayed(Narration.objects.filter(scene=scene), request_key, user, text=text)


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
    label: str = "",
    base_level: int | None = None,
    kind: str = "",
    skill: str = "",
    attribute: str = "",
    difficulty: str = "",
    new_skill: bool = False,
    modifiers: Iterable[Modifier] = (),
    character: Character | None = None,
    declaration: Declaration | None = None,
    hidden: bool = False,
    source: RandomSource | None = None,
    request_key: str = "",
    dc: int | None = None,
    edge: str = "",
    light: str = "",
) -> Roll:
    """Roll 3d6 on the server against a level plus ``modifiers`` and append it.

    ``light`` (a d20 ruleset's, the Xuleta's «Llum»): the light the Mestre says a check by
    sight is made in; without it, a Percepció check in a scene whose exploration is in total
    darkness is made in the dark (``scene_light``). Refused elsewhere (field named).

    In a campaign of a d20 ruleset (the Xuleta, whose checks part ``needs_dc``): d20 + the
    bonus against ``dc`` (a DC, or the target's AC for an attack; required), under ``edge``
    (the Mestre's advantage or disadvantage) and the one the character's state gives; the
    bonus, the edge and its reasons in ``details["level"]``. Elsewhere ``dc`` and ``edge``
    are refused (field named).

    The level (docs/DESIGN.md, invariant 10 (Levels from the sheet)): for a character with a
    homologated sheet, the named ``skill`` or ``attribute`` read from the sheet and state, or the
    skill's best default (§3.3; ``attribute`` and ``difficulty`` give the book's general rule for a
    skill the Árbitro's catalogue lacks, only with ``new_skill``: an unknown name is refused with
    the nearest names) — ``base_level`` may be sent only if it agrees; for a creature
    or NPC without a sheet, or a roll of nobody's, the Mestre's ``base_level``
    (``sessions.log.levels.level_for``). The roll's ``details["level"]`` says which, with what
    was asked. A roll answering a declaration is its character's.

    The modifiers are fixed before the dice (canon §1.4): a roll that answers a declaration
    takes exactly the modifiers announced for it and no others. The roll is refused at
    effective level 3 or less unless it is a defence (§1.1; raises
    ``gurps.errors.NoRollAtThreeOrLess``; another ruleset, its own refusal). Rolls are numbered per campaign without gaps and
    chained (docs/DESIGN.md, invariant 2 (Rolls are append-only)). The same ``request_key`` twice (a
    form posted twice) returns the first roll, unrolled.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    label = (label or "").strip()
    modifiers = list(modifiers)
    if character is None and declaration is not None:
        character = declaration.character
    asked = levels.Asked(
        skill=(skill or "").strip(),
        attribute=(attribute or "").strip(),
        difficulty=(difficulty or "").strip(),
        base_level=base_level,
        kind=str(kind or ""),
        label=label,
        new_skill=bool(new_skill),
        dc=dc,
        edge=str(edge or ""),
        light=str(light or ""),
        scene_light="" if light else scene_light(scene),
    )
    same = {"label": label, "asked": asked, "modifiers": modifiers}
    same |= {"character": character, "hidden": hidden}
    require_table(user, campaign)
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _same_request(existing, **same)
    ensure_scene_accepts_entries(scene)
    if base_level is not None and not -50 <= base_level <= 50:
        raise ServiceError(LEVEL_OUT_OF_RANGE, field="base_level")
    if character is not None and not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    if hidden and character is None:
        raise ServiceError(HIDDEN_NEEDS_CHARACTER, field="hidden")
    modifiers = clean_modifiers(modifiers)
    announcement, modifiers = _answering(scene, declaration, character, modifiers)
    ensure_d20_fields(campaign, dc=dc, edge=edge, needs_dc=True, light=light)
    level = levels.level_for(character, asked, campaign=campaign)
    label = label or level.name
    if not label:
        raise ServiceError(LABEL_EMPTY, field="label")
    checks = ruleset_for(campaign.ruleset).part("checks")
    result = checks.roll(source or entries.dice_source(), level, [m.value for m in modifiers])
    fields = {
        "scene": scene,
        "user": user,
        "label": label[:200],
        "kind": level.kind,
        "base_level": level.level,
        "modifiers": modifiers,
        "character": character,
        "declaration": declaration,
        "announcement": announcement,
        "hidden": hidden,
        "result": result,
        "details": {"level": level_record(level, asked)},
    }
    same["modifiers"] = modifiers
    return append_with_retries(
        campaign,
        request_key,
        _test_fields(**fields),
        lambda existing: _same_request(existing, **same),
    )


def scene_light(scene: Scene) -> str:
    """The scene's own light for a d20 ruleset's checks: "darkness" while an exploration of
    the scene in total darkness runs, "" otherwise (the Mestre says the rest)."""
    checks = ruleset_for(scene.week.campaign.ruleset).part("checks")
    if not getattr(checks, "lights", ()):
        return ""
    dark = scene.explorations.filter(status="active", total_darkness=True).exists()
    return "darkness" if dark else ""


def rolls_d20(campaign) -> bool:
    """Whether the campaign's checks roll a d20 against a DC or an AC (the Xuleta's): its forms
    and answers then say a DC, an edge and a bonus, not a GURPS skill level. False for a
    ruleset without checks."""
    checks = ruleset_for(campaign.ruleset).checks
    return bool(getattr(checks, "needs_dc", False))


def ensure_d20_fields(
    campaign, *, dc=None, edge: str = "", needs_dc: bool = False, prefix="", light: str = ""
):
    """Refuse a ``dc``, an ``edge`` or a ``light`` in a campaign whose ruleset does not roll a
    d20 against one, and (``needs_dc``) a d20 roll without its DC; the field named
    (``prefix``.dc …)."""
    ruleset = ruleset_for(campaign.ruleset)
    d20 = rolls_d20(campaign)
    where = f"{prefix}." if prefix else ""
    if not d20:
        for name, value in (("dc", dc), ("edge", edge), ("light", light)):
            if value not in (None, ""):
                message = D20_ONLY.format(field=name, label=ruleset.label)
                raise ServiceError(message, field=f"{where}{name}")
    elif needs_dc and dc is None:
        raise ServiceError(DC_NEEDED, field=f"{where}dc")


def level_record(level, asked: levels.Asked) -> dict:
    """What a roll keeps of its level: where it came from, in the log's words, and what the
    request named (``asked``), so a replayed request is recognised by what it asked."""
    return {**level.as_dict(), "asked": asked.as_dict()}


def _test_fields(*, result: CheckResult, user, kind, modifiers, **fields) -> dict:
    return {
        **fields,
        "kind": str(kind),
        "modifiers": _modifier_dicts(modifiers),
        "effective_level": result.target,
        "dice": list(result.dice),
        "total": result.total,
        "outcome": str(result.outcome),
        "margin": result.margin,
        "rolled_by": user,
    }


def _same_request(roll: Roll, *, label, asked, modifiers, character, hidden) -> Roll:
    """The roll already made for this request key, if the request is the same one: the same
    character, hidden or not, the same skill or attribute named; the label, level and kind
    only where the request said them (the level it read may have changed since)."""
    record = (roll.details or {}).get("level", {})
    wanted = {
        "character": character.pk if character else None,
        "hidden": hidden,
        "asked": asked.as_dict(),
    }
    made = {
        "character": roll.character_id,
        "hidden": roll.hidden,
        "asked": record.get("asked", {}),
    }
    for key, value in (
        ("label", label[:200]),
        ("base_level", asked.base_level),
        ("kind", str(asked.kind)),
    ):
        if value not in ("", None):
            wanted[key], made[key] = value, getattr(roll, key)
    # Modifiers typed in must match; a roll answering a declaration took the announced ones.
    if roll.announcement_id is None:
        wanted["modifiers"] = [{"label": m.label.strip(), "value": m.value} for m in modifiers]
        made["modifiers"] = roll.modifiers
    if wanted != made:
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
    Raises the ruleset's error (``gurps.errors.InvalidDiceExpression``) for an unreadable
    expression.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    try:
        parsed = ruleset_for(campaign.ruleset).dice.parse(expression)
    except rule_errors() as error:
        # Another registered ruleset may read it (the form's first check): this campaign's
        # does not, and says so next to the field.
        raise ServiceError(error.message, field="expression") from None
    label = (label or "").strip()[:200] or f"Dano {parsed.display}"
    asked = {"kind": Roll.Kind.DAMAGE.value, "label": label, "details": {"expression": str(parsed)}}
    require_table(user, campaign)
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _conflict_unless(existing, asked)
    ensure_scene_accepts_entries(scene)
    if parsed.count > MAX_DAMAGE_DICE:
        raise ServiceError(TOO_MANY_DICE.format(limit=MAX_DAMAGE_DICE), field="expression")
    if abs(parsed.modifier) > MAX_DAMAGE_ADDS:
        raise ServiceError(DAMAGE_ADDS_TOO_LARGE.format(limit=MAX_DAMAGE_ADDS), field="expression")
    if character is not None and not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    announcement, _ = _answering(scene, declaration, character, [])
    faces, total = parsed.roll(source or entries.dice_source())
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
    return append_with_retries(
        campaign, request_key, fields, lambda existing: _conflict_unless(existing, asked)
    )


def table_choices(campaign=None) -> list[tuple[str, str]]:
    """The tables of the campaign's ruleset the Mestre can roll on: (key, title). Without a
    campaign, the canon's (GURPS's)."""
    key = campaign.ruleset if campaign is not None else GURPS3E
    checks = ruleset_for(key).checks
    return list(checks.tables.items()) if checks is not None else []


def _follows_character(follows: Roll, character: Character | None) -> Character | None:
    if follows.kind not in Roll.SUCCESS_KINDS or follows.margin is None:
        raise ServiceError(
            FOLLOWED_ROLL_NOT_A_TEST.format(kind=follows.kind_label.lower()),
            field="follows",
        )
    if character is not None and follows.character_id not in (None, character.pk):
        raise ServiceError(
            FOLLOWED_CHARACTER_DISAGREES.format(name=follows.character.name), field="character"
        )
    return character or follows.character


def _margin_of_failure(follows: Roll, options: dict) -> int:
    """The margin by which the followed roll failed (§5b), checked against one given."""
    if follows.margin >= 0:
        raise ServiceError(
            FOLLOWED_ROLL_PASSED.format(label=follows.label, margin=follows.margin),
            field="follows",
        )
    given = options.get("margin_of_failure")
    if given is not None and given != -follows.margin:
        raise ServiceError(
            FOLLOWED_MARGIN_DISAGREES.format(
                given=given, label=follows.label, margin=-follows.margin
            ),
            field="options.margin_of_failure",
        )
    return -follows.margin


def table_roll_create(
    *,
    scene: Scene,
    user,
    table_key: str,
    options: dict | None = None,
    follows: Roll | None = None,
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

    ``follows``: the success roll of the scene the table roll comes after (issue 27). The table
    roll takes its character and its number (``details["follows"]``); the fright check reads
    from it the margin by which it failed (§5b: "soma-se a margem pela qual a Verificação
    falhou"), and is refused after a roll that passed or with a margin that disagrees.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    options = dict(options or {})
    checks = ruleset_for(campaign.ruleset).part("checks")
    if table_key not in checks.tables:
        raise ServiceError(UNKNOWN_TABLE, field="table")
    if follows is not None:
        character = _follows_character(follows, character)
        if table_key == "fright_check":
            options["margin_of_failure"] = _margin_of_failure(follows, options)
    asked = {"kind": Roll.Kind.TABLE.value, "label": checks.tables[table_key][:200]}
    require_table(user, campaign)
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _conflict_unless(existing, asked)
    ensure_scene_accepts_entries(scene)
    if character is not None and not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    announcement, _ = _answering(scene, declaration, character, [])
    result = checks.roll_table(table_key, source or entries.dice_source(), options)
    details = {
        "table": result.table_key,
        "title": result.title,
        "rolls": list(result.rolls),
        "faces": [list(faces) for faces in result.faces],
        "row": result.row,
        "effect": result.effect,
        "text": result.text,
        "readings": list(result.readings),
        **({"follows": follows.sequence} if follows is not None else {}),
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
    return append_with_retries(
        campaign, request_key, fields, lambda existing: _conflict_unless(existing, asked)
    )


@dataclass(frozen=True)
class ContestSide:
    """One side of a quick contest: a character of the scene (its level from its sheet: the
    ``skill`` or ``attribute`` named, as in ``roll_create``), or a creature or NPC without a
    sheet (``name`` and ``base_level`` the Mestre's); ``label`` what it tests, and its
    modifiers."""

    character: Character | None
    label: str = ""
    base_level: int | None = None
    kind: str = ""
    modifiers: tuple[Modifier, ...] = ()
    skill: str = ""
    attribute: str = ""
    difficulty: str = ""
    name: str = ""
    new_skill: bool = False
    edge: str = ""  # a d20 ruleset's: the Mestre's advantage or disadvantage for this side
    light: str = ""  # a d20 ruleset's: the light this side's check by sight is made in
    scene_light: str = ""  # the scene's own light (``scene_light``), when the Mestre says none

    @property
    def asked(self) -> levels.Asked:
        return levels.Asked(
            skill=(self.skill or "").strip(),
            attribute=(self.attribute or "").strip(),
            difficulty=(self.difficulty or "").strip(),
            base_level=self.base_level,
            kind=str(self.kind or ""),
            label=(self.label or "").strip(),
            new_skill=bool(self.new_skill),
            edge=str(self.edge or ""),
            light=str(self.light or ""),
            scene_light="" if self.light else str(self.scene_light or ""),
        )

    @property
    def who(self) -> str:
        return self.character.name if self.character is not None else " ".join(self.name.split())


def _contest_side_dict(side: ContestSide, level, modifiers, result: CheckResult) -> dict:
    return {
        "character": str(side.character.code) if side.character is not None else None,
        "name": side.who,
        "label": side.label,
        "kind": str(level.kind),
        "base_level": level.level,
        "level": level_record(level, side.asked),
        "modifiers": _modifier_dicts(modifiers),
        "effective_level": result.target,
        "dice": list(result.dice),
        "total": result.total,
        "outcome": str(result.outcome),
        "margin": result.margin,
    }


def _contest_sides(
    scene: Scene, a: ContestSide, b: ContestSide, labels: list[str]
) -> tuple[list, list[list[Modifier]], list[str]]:
    """Each side checked (a character of the scene, or a creature named with its level; a
    level from the sheet or the Mestre; a kind of test) and its modifiers cleaned; the levels,
    the modifiers and the labels (the skill's or attribute's name where none was given).
    ServiceError naming the side's field ("a.base_level" …) otherwise."""
    in_scene = set(scene.characters.values_list("pk", flat=True))
    campaign = scene.week.campaign
    checks = ruleset_for(campaign.ruleset).part("checks")
    if a.character is not None and b.character is not None and a.character.pk == b.character.pk:
        raise ServiceError(CONTEST_SAME_CHARACTER, field="b.character")
    found, cleaned, named = [], [], []
    for prefix, side, side_label in (("a", a, labels[0]), ("b", b, labels[1])):
        if side.character is not None and side.character.pk not in in_scene:
            raise ServiceError(CHARACTER_NOT_IN_SCENE, field=f"{prefix}.character")
        if side.character is None and not side.who:
            raise ServiceError(CONTEST_NEEDS_CHARACTER, field=f"{prefix}.name")
        if side.base_level is not None and not -50 <= side.base_level <= 50:
            raise ServiceError(LEVEL_OUT_OF_RANGE, field=f"{prefix}.base_level")
        if side.kind and side.kind not in checks.contest_kinds:
            raise ServiceError(CONTEST_KIND, field=f"{prefix}.kind")
        ensure_d20_fields(campaign, edge=side.edge, prefix=prefix, light=side.light)
        level = levels.level_for(
            side.character,
            side.asked,
            prefix=prefix,
            default_kind=checks.contest_kinds[0],
            campaign=campaign,
        )
        side_label = side_label or level.name
        if not side_label:
            raise ServiceError(LABEL_EMPTY, field=f"{prefix}.label")
        try:
            cleaned.append(clean_modifiers(side.modifiers))
        except ServiceError as error:
            raise ServiceError(error.message, field=f"{prefix}.modifiers") from None
        found.append(level)
        named.append(side_label[:90])
    return found, cleaned, named


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

    Each side rolls against its own level plus its modifiers (3d6 in GURPS); the ruleset's
    contest (``gurps.checks.quick_contest``) says who won (or nobody). Side A's roll fills the roll's own fields;
    both sides and the winner are in ``details``. A contest answering a declaration is side
    A's, with the modifiers announced for it (``details["announced_side"]`` says "a"); the
    declaration is answered once: another contest for it is refused (409,
    ``already_answered``: the same lance rolled again), unless it is the same request replayed
    with its key.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    labels = [(side.label or "").strip()[:90] for side in (a, b)]
    require_table(user, campaign)
    if request_key:
        existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
        if existing is not None:
            return _same_contest(existing, (a, b), labels)
    ensure_scene_accepts_entries(scene)
    if declaration is not None:
        _ensure_contest_unanswered(declaration)
    found, cleaned, labels = _contest_sides(scene, a, b, labels)
    announcement, cleaned[0] = _answering(scene, declaration, a.character, cleaned[0])
    source = source or entries.dice_source()
    checks = ruleset_for(campaign.ruleset).part("checks")
    checks.ensure_rollable(found[0], [m.value for m in cleaned[0]])
    checks.ensure_rollable(found[1], [m.value for m in cleaned[1]])
    rolled = [
        checks.roll(source, level, [m.value for m in modifiers])
        for level, modifiers in zip(found, cleaned, strict=True)
    ]
    winner = checks.contest(rolled[0], rolled[1])
    details = {
        "a": _contest_side_dict(a, found[0], cleaned[0], rolled[0]),
        "b": _contest_side_dict(b, found[1], cleaned[1], rolled[1]),
        "winner": winner,
    }
    if announcement is not None:
        details["announced_side"] = "a"
    details["a"]["label"], details["b"]["label"] = labels
    label = f"{labels[0]} × {labels[1]}"
    first = rolled[0]
    fields = {
        "scene": scene,
        "character": a.character,
        "declaration": declaration,
        "announcement": announcement,
        "label": label,
        "kind": Roll.Kind.CONTEST.value,
        "base_level": found[0].level,
        "modifiers": _modifier_dicts(cleaned[0]),
        "effective_level": first.target,
        "dice": list(first.dice),
        "total": first.total,
        "outcome": str(first.outcome),
        "margin": first.margin,
        "details": details,
        "rolled_by": user,
    }
    return append_with_retries(
        campaign, request_key, fields, lambda existing: _same_contest(existing, (a, b), labels)
    )


def _ensure_contest_unanswered(declaration: Declaration) -> None:
    earlier = (
        Roll.objects.filter(declaration=declaration, kind=Roll.Kind.CONTEST)
        .order_by("sequence")
        .first()
    )
    if earlier is not None:
        raise ServiceError(
            CONTEST_ALREADY_ANSWERED.format(sequence=earlier.sequence, label=earlier.label),
            field="declaration",
            code="already_answered",
        )


def _same_contest(roll: Roll, sides, labels: list[str]) -> Roll:
    """The contest already made for this request key, if the request is the same one: each
    side the same character (or creature's name), the same skill or attribute named, and the
    label and level where the request said them."""
    if roll.kind != Roll.Kind.CONTEST:
        raise ServiceError(IDEMPOTENCY_CONFLICT, code="idempotency_conflict")
    for key, side, label in zip(("a", "b"), sides, labels, strict=True):
        made = roll.details[key]
        code = str(side.character.code) if side.character is not None else None
        wanted = {"character": code, "asked": side.asked.as_dict()}
        stored = {"character": made["character"], "asked": made.get("level", {}).get("asked", {})}
        if code is None:
            wanted["name"], stored["name"] = side.who, made["name"]
        if label:
            wanted["label"], stored["label"] = label, made["label"]
        if side.base_level is not None:
            wanted["base_level"], stored["base_level"] = side.base_level, made["base_level"]
        if wanted != stored:
            raise ServiceError(IDEMPOTENCY_CONFLICT, code="idempotency_conflict")
    return roll


# --- who sees what of a roll ------------------------------------------------------------------
