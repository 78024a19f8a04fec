"""Homologation: a draft sent to the Árbitro, and his decision on it — homologated or returned.

The one homologation service: the sheets pages and API send (``sheet_submit``), the console
decides (``sheet_homologate``, ``sheet_return``), and all of them read the Árbitro's checks of
a version through ``version_audit``. The envelope (versions, statuses, the decision, the
warnings he read and his words) knows no rule: what does not add up in a version is the
ruleset's, and ``version_audit`` and ``audit_data`` are the only two places that reach it
(today GURPS's, ``sheets.audit``).

A warning is not a refusal: the Árbitro homologates anyway by saying why, and the version keeps
the warnings he read and his words (``SheetVersion.decision_warnings``, ``decision_note``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from campaigns.access import membership_for
from campaigns.errors import ServiceError
from campaigns.models import Campaign
from canon.services import may_write
from rulesets.registry import GURPS3E, ruleset_for
from sheets import audit
from sheets.drafts import NOT_A_DRAFT
from sheets.models import SheetVersion
from sheets.possessions import possessions_sync
from sheets.reads import state_of

if TYPE_CHECKING:
    from gurps.audit import Audit

# Messages are constants so tests import them instead of repeating them.
NOT_SUBMITTED = "Esta versão não está na fila de homologação (já foi decidida?)."
RETURN_NEEDS_REASON = "Diga por que a ficha volta: o jogador precisa saber o que corrigir."
ONLY_THE_ARBITRO_HOMOLOGATES = "Só o Árbitro homologa ou devolve."
WARNINGS_NOT_READ = (
    "Esta versão tem {count} aviso(s): leia-os na fila e diga por que homologa mesmo assim."
)
WARNINGS_CHANGED = (
    "Os avisos mudaram desde que a fila foi aberta (a tabela ou o catálogo mudou): leia-os de "
    "novo antes de homologar."
)
NOTE_REQUIRED = (
    "Diga por que homologa apesar dos avisos: a decisão fica na versão, com os avisos que ela "
    "tinha."
)
NOTE_TOO_LONG = "A nota tem no máximo 2.000 caracteres."
NOTE_MAX_LENGTH = 2000


# --- the Árbitro's checks: the one way to the ruleset's audit ------------------------------------


def audit_data(campaign: Campaign) -> audit.SkillData:
    """What the audit of a campaign's versions reads (its cost table and catalogue, 3 queries),
    read once for a queue of many versions and passed to ``version_audit``."""
    return audit.skill_data(campaign)


def version_audit(
    version: SheetVersion,
    *,
    data: audit.SkillData | None = None,
    current: SheetVersion | None = None,
) -> Audit | DataAudit:
    """What does not add up in a stored version (``Audit``: findings, warnings, digest).
    ``data``: ``audit_data(campaign)`` when already read; ``current``: the version in force
    (its points give the change), by default the character's newest homologated version.
    A version of a ruleset that keeps its sheet as JSON gets its ``SheetsPart.audit`` as a
    ``DataAudit`` (the same attributes the queue reads)."""
    if version.ruleset != GURPS3E:
        return data_audit(version)
    return audit.gurps_version_audit(version, data=data, current=current)


DATA_FINDING = "sheet_data"  # the code of every finding of a JSON sheet's audit


@dataclass(frozen=True)
class DataFinding:
    """One of the ruleset's checks of a JSON sheet, as the queue shows a GURPS finding: every
    one a warning (the Árbitro homologates anyway by saying why)."""

    code: str
    group: str
    what: str
    message: str
    severity: str = "warning"
    severity_label: str = "Aviso"


@dataclass(frozen=True)
class DataTotals:
    """A JSON sheet buys nothing with points: its total is 0."""

    total: int = 0


@dataclass(frozen=True)
class DataAudit:
    """The ruleset's checks of a JSON sheet's ``data`` (``SheetsPart.audit``): ``findings``
    (all warnings), ``lines`` (as ``version_warnings`` gives them) and their ``digest``."""

    findings: tuple[DataFinding, ...]
    lines: tuple[str, ...]
    skills: tuple = ()  # GURPS's skill lines: none in a JSON sheet
    # What the checks were made against, as the queue says it (GURPS's: the cost table).
    intro: str = (
        "Conferida pelas regras do sistema da campanha: o que a ficha diz e o texto não "
        "sustenta, ou que não fecha entre si."
    )

    @property
    def totals(self) -> DataTotals:
        return DataTotals()

    @property
    def warnings(self) -> tuple[DataFinding, ...]:
        return self.findings

    @property
    def notes(self) -> tuple[DataFinding, ...]:
        return ()

    @property
    def digest(self) -> str:
        return hashlib.sha256("\n".join(self.lines).encode()).hexdigest()


def data_audit(version: SheetVersion) -> DataAudit:
    """``SheetsPart.audit`` of a JSON version's ``data``, each check a warning."""
    checks = ruleset_for(version.ruleset).part("sheets").audit(version.data)
    return DataAudit(
        findings=tuple(
            DataFinding(
                code=DATA_FINDING,
                group="Ficha",
                what=check.field or "ficha",
                message=check.message,
            )
            for check in checks
        ),
        lines=tuple(
            f"{check.field}: {check.message}" if check.field else check.message for check in checks
        ),
    )


# --- the envelope: send, decide -------------------------------------------------------------------


def version_warnings(version: SheetVersion) -> tuple[list[str], str]:
    """The Árbitro's checks of ``version`` as the queue shows them, one line each, and their
    digest (what ``seen_digest`` must repeat). A GURPS version runs ``version_audit`` on its
    tables; another ruleset's runs its ``SheetsPart.audit`` on its ``data`` (SHA-256 of the lines,
    as ``Audit.digest`` is for GURPS)."""
    if version.ruleset == GURPS3E:
        found = version_audit(version)
        return [f"{w.group} · {w.what}: {w.message}" for w in found.warnings], found.digest
    found = data_audit(version)
    return list(found.lines), found.digest


@transaction.atomic
def sheet_submit(*, version: SheetVersion, user) -> SheetVersion:
    """Send a draft to the Árbitro's queue; a version that is not a draft is refused
    (``NOT_A_DRAFT``, code ``not_a_draft``)."""
    locked = SheetVersion.objects.select_for_update().get(pk=version.pk)
    if locked.status != SheetVersion.Status.DRAFT:
        raise ServiceError(NOT_A_DRAFT, code="not_a_draft")
    locked.status = SheetVersion.Status.SUBMITTED
    locked.submitted_at = timezone.now()
    locked.save(update_fields=["status", "submitted_at"])
    return locked


def _require_arbitro(version: SheetVersion, user) -> None:
    if not may_write(membership_for(user, version.character.campaign)):
        raise ServiceError(ONLY_THE_ARBITRO_HOMOLOGATES, code="forbidden")


def _decide(
    version: SheetVersion,
    user,
    status: str,
    *,
    reason: str = "",
    warnings: list[str] = (),
    note: str = "",
) -> SheetVersion:
    """The Árbitro's decision on a submitted version, once: a second decision is refused."""
    locked = SheetVersion.objects.select_for_update().get(pk=version.pk)
    if locked.status != SheetVersion.Status.SUBMITTED:
        raise ServiceError(NOT_SUBMITTED, code="not_submitted")
    locked.status = status
    locked.decided_at = timezone.now()
    locked.decided_by = user
    locked.return_reason = reason
    locked.decision_warnings = list(warnings)
    locked.decision_warning_count = len(warnings)
    locked.decision_note = note
    locked.save(
        update_fields=[
            "status",
            "decided_at",
            "decided_by",
            "return_reason",
            "decision_warnings",
            "decision_warning_count",
            "decision_note",
        ]
    )
    return locked


@transaction.atomic
def sheet_homologate(
    *, version: SheetVersion, user, seen_digest: str = "", note: str = ""
) -> SheetVersion:
    """The Árbitro homologates a submitted version; the sheet page shows it from now on.

    With warnings (``version_audit``), he must have read them (``seen_digest`` is
    ``Audit.digest`` as the queue showed it) and say why (``note``, at most 2,000 characters);
    the version keeps the warnings and his words. Without warnings, the note is optional.
    Refused to anyone but the Árbitro (code ``forbidden``) and for a version not submitted
    (code ``not_submitted``). The character's possessions follow the new version."""
    _require_arbitro(version, user)
    note = (note or "").strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise ServiceError(NOTE_TOO_LONG, field="note")
    warnings, digest = version_warnings(version)
    if warnings and not seen_digest:
        raise ServiceError(WARNINGS_NOT_READ.format(count=len(warnings)), field="note")
    if warnings and seen_digest != digest:
        raise ServiceError(WARNINGS_CHANGED, field="note", code="warnings_changed")
    if warnings and not note:
        raise ServiceError(NOTE_REQUIRED, field="note")
    locked = _decide(version, user, SheetVersion.Status.HOMOLOGATED, warnings=warnings, note=note)
    possessions_sync(character=locked.character, version=locked)
    state_of(locked.character)
    return locked


@transaction.atomic
def sheet_return(*, version: SheetVersion, user, reason: str) -> SheetVersion:
    """The Árbitro returns a submitted version to the jogador, saying why (``reason``,
    required: ``RETURN_NEEDS_REASON``); the version stays as it was, the fix is a new one."""
    _require_arbitro(version, user)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(RETURN_NEEDS_REASON, field="reason")
    return _decide(version, user, SheetVersion.Status.RETURNED, reason=reason)
