"""A sheet's history: every step of its versions, who may read which version, and the
Árbitro's correction of a homologated sheet (a new homologated version).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from campaigns.errors import ServiceError
from campaigns.models import Membership
from rulesets.registry import GURPS3E
from sheets.diff import version_changes
from sheets.drafts import version_lines_copy
from sheets.models import Character, SheetVersion, Skill
from sheets.possessions import possessions_sync
from sheets.reads import homologated_version
from sheets.ruleset_data import data_validated

# Messages are constants so tests import them instead of repeating them.
NO_HOMOLOGATED_VERSION = "Esta ficha ainda não tem versão homologada: não há o que corrigir."
PENDING_BLOCKS_CORRECTION = (
    "Há uma versão enviada esperando decisão: homologue-a ou devolva-a antes de corrigir a ficha."
)
NOTHING_CHANGED = (
    "Nada mudou em relação à versão homologada: a correção precisa mudar alguma linha."
)
GURPS_PARTS_ON_DATA = (
    "«{field}» é de uma ficha de GURPS: a ficha desta personagem é um documento (data), e a "
    "correção manda a ficha inteira corrigida em data."
)
DATA_ON_GURPS = (
    "«data» é de uma ficha guardada como documento (a Xuleta): a desta personagem é de GURPS; "
    "corrija attributes, skills ou notes."
)
HISTORY_PICK_VERSION = "Escolha uma versão desta ficha."
HISTORY_PICK_TWO = "Escolha duas versões diferentes para comparar."


@transaction.atomic
def sheet_correction_issue(
    *,
    character: Character,
    user,
    attributes: dict[str, int] | None = None,
    notes: str | None = None,
    skills: list[dict] | None = None,
    data: dict | None = None,
) -> tuple[SheetVersion, SheetVersion]:
    """Issue the Árbitro's correction of a homologated sheet as a new homologated version.

    Returns (the version corrected, the new version). The corrected version is not touched.
    ``None`` keeps that part as it is; traits and items are copied. A jogador's open draft
    was copied before the correction: it moves to the next number, so that homologating it
    later still makes it the newest version (and its diff shows the correction undone).
    Refused while a submitted version waits (decide it first), or when nothing changes.
    A sheet its ruleset keeps as JSON (the Xuleta): ``data`` is the whole corrected sheet,
    validated by the ruleset (ServiceError naming ``data.<field>``); ``attributes`` and
    ``skills`` are GURPS's and refused there, as ``data`` is on a GURPS sheet.
    Call it through ``canon.services.sheet_correct``, which records the Correction.
    """
    Character.objects.select_for_update().get(pk=character.pk)
    current = homologated_version(character)
    if current is None:
        raise ServiceError(NO_HOMOLOGATED_VERSION, code="no_homologated_version")
    keeps_data = current.ruleset != GURPS3E
    if keeps_data:
        for field, value in (("attributes", attributes), ("skills", skills)):
            if value is not None:
                raise ServiceError(GURPS_PARTS_ON_DATA.format(field=field), field=field)
        data = data_validated(character, current.data if data is None else data)
    elif data is not None:
        raise ServiceError(DATA_ON_GURPS, field="data")
    versions = SheetVersion.objects.filter(character=character)
    if versions.filter(status=SheetVersion.Status.SUBMITTED).exists():
        raise ServiceError(PENDING_BLOCKS_CORRECTION, code="pending_exists")
    top = max(versions.values_list("number", flat=True))
    number = top + 1
    draft = versions.filter(status=SheetVersion.Status.DRAFT, number=top).first()
    if draft is not None:
        SheetVersion.objects.filter(pk=draft.pk).update(number=top + 1)
        number = top
    if keeps_data:
        corrected = SheetVersion.objects.create(
            character=character,
            number=number,
            status=SheetVersion.Status.HOMOLOGATED,
            data=data,
            notes=current.notes if notes is None else notes,
            created_by=user,
            decided_at=timezone.now(),
            decided_by=user,
        )
        if not version_changes(current, corrected):
            raise ServiceError(NOTHING_CHANGED, code="nothing_changed")
        return current, corrected
    attributes = attributes or current.attributes()
    corrected = SheetVersion.objects.create(
        character=character,
        number=number,
        status=SheetVersion.Status.HOMOLOGATED,
        st=attributes["st"],
        dx=attributes["dx"],
        iq=attributes["iq"],
        ht=attributes["ht"],
        notes=current.notes if notes is None else notes,
        created_by=user,
        decided_at=timezone.now(),
        decided_by=user,
    )
    version_lines_copy(current, corrected)
    if skills is not None:
        corrected.skills.all().delete()
        Skill.objects.bulk_create(Skill(version=corrected, **line) for line in skills)
    corrected = SheetVersion.objects.prefetch_related("traits", "skills", "items").get(
        pk=corrected.pk
    )
    if not version_changes(current, corrected):
        raise ServiceError(NOTHING_CHANGED, code="nothing_changed")
    possessions_sync(character=character, version=corrected)
    return current, corrected


def versions_visible(character: Character, user, membership: Membership) -> list[SheetVersion]:
    """The versions of a sheet a member may read: all of them for the owner, the Mestre and
    the Árbitro; only the homologated ones for another jogador (docs/DESIGN.md, «Who sees what»)."""
    versions = (
        SheetVersion.objects.filter(character=character)
        .select_related("created_by", "decided_by", "issued_by_correction__created_by")
        .prefetch_related("traits", "skills", "items")
        .order_by("number")
    )
    if not (membership.runs_the_table or character.is_owned_by(user)):
        versions = versions.filter(status=SheetVersion.Status.HOMOLOGATED)
    return list(versions)


@dataclass(frozen=True)
class HistoryEvent:
    """One step in the life of a sheet: a version created, submitted, returned, homologated,
    or issued by the Árbitro as a correction."""

    when: object  # datetime
    version: SheetVersion
    what: str
    who: str
    reason: str = ""
    kind: str = ""


def _who(user) -> str:
    return user.get_username() if user is not None else "—"


def homologated_label(version: SheetVersion) -> str:
    """ "Homologada", or "Homologada apesar de 2 avisos" when the Árbitro homologated it with
    the audit's warnings (they are kept on the version)."""
    count = version.decision_warning_count
    if not count:
        return "Homologada"
    return f"Homologada apesar de {count} aviso{'s' if count > 1 else ''}"


def sheet_history(versions: list[SheetVersion]) -> list[HistoryEvent]:
    """Every step of the given versions, newest first."""
    events = []
    for version in versions:
        correction = getattr(version, "issued_by_correction", None)
        if correction is not None:
            events.append(
                HistoryEvent(
                    version.decided_at or version.created_at,
                    version,
                    "Corrigida pelo Árbitro: nova versão homologada",
                    _who(version.decided_by),
                    correction.reason,
                    "corrected",
                )
            )
            continue
        events.append(
            HistoryEvent(
                version.created_at,
                version,
                "Rascunho criado",
                _who(version.created_by),
                "",
                "draft",
            )
        )
        if version.submitted_at:
            events.append(
                HistoryEvent(
                    version.submitted_at,
                    version,
                    "Enviada ao Árbitro",
                    _who(version.created_by),
                    "",
                    "submitted",
                )
            )
        if version.decided_at and version.status == SheetVersion.Status.RETURNED:
            events.append(
                HistoryEvent(
                    version.decided_at,
                    version,
                    "Devolvida ao jogador",
                    _who(version.decided_by),
                    version.return_reason,
                    "returned",
                )
            )
        elif version.decided_at and version.status == SheetVersion.Status.HOMOLOGATED:
            events.append(
                HistoryEvent(
                    version.decided_at,
                    version,
                    homologated_label(version),
                    _who(version.decided_by),
                    version.decision_note,
                    "homologated",
                )
            )
    # Steps of one version at the same instant keep their order (created, sent, decided).
    order = {"draft": 0, "submitted": 1, "returned": 2, "homologated": 2, "corrected": 2}
    events.sort(key=lambda e: (e.when, e.version.number, order[e.kind]), reverse=True)
    return events
