"""Services of the week (canon §8): weeks and the Boletim, the three world actions, the weekly
report with its homologation and corrections, the week's export and the player's folder of
hidden rolls.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from campaigns import doorbell
from campaigns.errors import ServiceError
from campaigns.models import Campaign, Membership
from rulesets.registry import ruleset_for
from sessions import entries
from sessions.entries import (
    ensure_week_accepts_entries,
    entry_replayed,
    require_arbitro,
    require_table,
)
from sessions.log.timeline import LogEntry, roll_data, scene_export
from sessions.models import (
    Combat,
    Exploration,
    ReportCorrection,
    Roll,
    Scene,
    Week,
    WeeklyReport,
    WorldAction,
)
from sheets.models import Character

WORLD_ACTION_EMPTY = "Diga o que a personagem faz no mundo com esta ação."
NOT_YOUR_CHARACTER_WORLD = "Você só gasta ações de mundo das suas próprias personagens."
WORLD_ACTION_RESOLUTION_EMPTY = "Diga o que veio da ação de mundo (resolution)."
WORLD_ACTION_RESOLVED_OTHERWISE = (
    "Esta ação de mundo já foi resolvida ({by}, {at}): «{resolution}». Uma resolução não se "
    "reescreve; o que mudar depois entra no relatório da semana."
)
WORLD_ACTIONS_USED_UP = (
    "{character} já gastou as {limit} ações de mundo da Semana {number}. Elas não acumulam; "
    "cenas livres continuam ilimitadas (§8)."
)
BULLETIN_FIRST = "A Semana {next} só abre depois do Boletim da Semana {number} (§8)."
BULLETIN_EMPTY = "Escreva o Boletim antes de publicar."
BULLETIN_NEEDS_HOMOLOGATION = "O Boletim sai depois que o Árbitro homologa o relatório da semana."
BULLETIN_ALREADY = "O Boletim desta semana já foi publicado; ele não muda."
REPORT_WHILE_RUNNING = (
    "Há {what} em andamento na cena «{scene}» ({url}): encerre-o antes de enviar o relatório, "
    "ou o que ele fez nunca chega às fichas."
)
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
    require_table(user, campaign, what=entries.OPENS_WEEKS)
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
    require_table(user, week.campaign, what=entries.OPENS_WEEKS)
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


# --- world actions ----------------------------------------------------------------------------


def world_actions_limit(campaign) -> int:
    """How many world actions a character spends a week: the campaign's ruleset says
    (``Ruleset.world_actions_per_week``; A Garganta's house rule, §8)."""
    return ruleset_for(campaign.ruleset).world_actions_per_week


def world_actions_left(week: Week, character: Character) -> int:
    used = WorldAction.objects.filter(week=week, character=character).count()
    return max(0, world_actions_limit(character.campaign) - used)


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
    existing = entry_replayed(WorldAction.objects.filter(week=week), request_key, user, **same)
    if existing is not None:
        return existing
    ensure_week_accepts_entries(week)
    if not text:
        raise ServiceError(WORLD_ACTION_EMPTY, field="text")
    limit = world_actions_limit(character.campaign)
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
            existing = entry_replayed(
                WorldAction.objects.filter(week=week), request_key, user, **same
            )
            if existing is not None:
                return existing
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@transaction.atomic
def world_action_resolve(*, action: WorldAction, user, resolution: str) -> WorldAction:
    """The table says what came of a world action (Mestre or Árbitro), once: the same text
    again changes nothing, another is refused (409, ``already_resolved``). Refused once the
    week's report is with the Árbitro, as any entry of the week."""
    require_table(user, action.week.campaign, what=entries.RESOLVES_WORLD_ACTIONS)
    resolution = (resolution or "").strip()
    if not resolution:
        raise ServiceError(WORLD_ACTION_RESOLUTION_EMPTY, field="resolution")
    # Lock the action's row only: PostgreSQL refuses FOR UPDATE on an outer join's nullable side.
    locked = (
        WorldAction.objects.select_for_update(of=("self",))
        .select_related("resolved_by")
        .get(pk=action.pk)
    )
    if locked.resolved_at is not None:
        if locked.resolution == resolution:
            return locked
        raise ServiceError(
            WORLD_ACTION_RESOLVED_OTHERWISE.format(
                by=locked.resolved_by.get_username() if locked.resolved_by else "?",
                at=timezone.localtime(locked.resolved_at).strftime("%d/%m/%Y %H:%M"),
                resolution=locked.resolution,
            ),
            field="resolution",
            code="already_resolved",
        )
    ensure_week_accepts_entries(action.week)
    locked.resolution = resolution
    locked.resolved_by = user
    locked.resolved_at = timezone.now()
    locked.save(update_fields=["resolution", "resolved_by", "resolved_at"])
    return locked


def world_action_data(action: WorldAction) -> dict:
    """A world action as the API and the week's export give it."""
    return {
        "id": action.code,
        "character": {"id": action.character.code, "name": action.character.name},
        "ordinal": action.ordinal,
        "text": action.text,
        "author": action.author.get_username(),
        "created_at": action.created_at,
        "resolution": action.resolution,
        "resolved_by": action.resolved_by.get_username() if action.resolved_by else None,
        "resolved_at": action.resolved_at,
    }


# --- the weekly report ------------------------------------------------------------------------


@transaction.atomic
def report_write(*, week: Week, user, text: str) -> WeeklyReport:
    """Write (or rewrite) the week's report while it is a draft or was returned."""
    require_table(user, week.campaign, what=entries.WRITES_REPORT)
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
    require_table(user, week.campaign, what=entries.WRITES_REPORT)
    Campaign.objects.select_for_update().get(pk=week.campaign_id)
    report = WeeklyReport.objects.select_for_update().filter(week=week).first()
    if report is None:
        raise ServiceError(REPORT_MISSING, field="text", code="report_missing")
    if report.status == WeeklyReport.Status.SUBMITTED:
        return report  # sent twice: it is with the Árbitro once
    if report.is_homologated:
        raise ServiceError(REPORT_HOMOLOGATED_IS_FINAL, code="report_final")
    _ensure_nothing_running(week)
    report.status = WeeklyReport.Status.SUBMITTED
    report.submitted_at = timezone.now()
    report.save(update_fields=["status", "submitted_at"])
    return report


def _ensure_nothing_running(week: Week) -> None:
    """A report closes its week's log: a fight or a descent still running in it would be
    frozen there, its HP and fatigue never reaching the sheets. Refuse, naming it."""
    running = list(Combat.objects.filter(scene__week=week, status=Combat.Status.ACTIVE)) + list(
        Exploration.objects.filter(scene__week=week, status=Exploration.Status.ACTIVE)
    )
    for tracker in running:
        what = "um combate" if isinstance(tracker, Combat) else "uma exploração"
        page = "combate" if isinstance(tracker, Combat) else "exploracao"
        raise ServiceError(
            REPORT_WHILE_RUNNING.format(
                what=what,
                scene=tracker.scene.title,
                url=f"{tracker.scene.get_absolute_url()}{page}/",
            ),
            code="tracker_running",
        )


def _decide_report(week: Week, user, status: str, reason: str = "") -> WeeklyReport:
    require_arbitro(user, week.campaign)
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
    for scene in week.scenes.all():  # homologated: the hidden rolls show on every page
        doorbell.ring_scene(scene)
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
    require_arbitro(user, week.campaign)
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
    limit = world_actions_limit(week.campaign)
    rows = {
        c.pk: CharacterActions(c, limit=limit)
        for c in Character.objects.filter(
            campaign=week.campaign, kind=Character.Kind.PLAYER_CHARACTER
        ).select_related("owner")
    }
    found = WorldAction.objects.filter(week=week).select_related(
        "character", "author", "resolved_by"
    )
    for action in found:
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
            world_action_data(a) for row in week_world_actions(week) for a in row.actions
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
