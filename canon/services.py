"""Services of the Árbitro's console: the registers of divergences, decisions and
corrections, the corrections of homologated sheets, the console's summary and the seed.

Everything that writes is here, named ``<thing>_<action>``, with keyword-only arguments, in
one transaction, and idempotent when given a ``request_key`` (the same form posted twice,
or the same ``Idempotency-Key``, makes one row). Refusals are ``ServiceError`` with a
Portuguese message and the field at fault; ``code="forbidden"`` when the role may not.

Who may do what (docs/DESIGN.md, «Who sees what»): every member reads; the Mestre de Cena also
proposes (opens a divergence); only the Árbitro resolves, decides and corrects.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.apps import apps
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from campaigns.access import (
    campaign_role_required,
    memberships_of,
)
from campaigns.errors import ServiceError
from campaigns.models import Campaign, Membership
from canon import seed
from canon.models import Correction, Decision, Divergence
from rulesets.registry import GURPS3E, house_setting, ruleset_for

# Messages are constants so tests import them instead of repeating them.
ONLY_TABLE_OPENS = (
    "Só o Mestre de Cena ou o Árbitro abrem uma pendência. Se você achou uma, peça a um deles."
)
ONLY_ARBITRO = "Só o Árbitro resolve pendências, registra decisões e faz correções."
TITLE_REQUIRED = "Dê um título: o que diverge, em uma linha."
TITLE_TOO_LONG = "Título de até 200 caracteres; o resto vai na descrição."
DESCRIPTION_REQUIRED = "Diga o que diverge e onde: é o que o Árbitro vai ler."
RESOLUTION_REQUIRED = "Diga como a pendência se resolveu: a resolução fica no registro."
ALREADY_RESOLVED = (
    "Esta pendência já foi resolvida; a resolução não muda. Para mudá-la, faça uma correção."
)
DECISION_TITLE_REQUIRED = "Dê um título à decisão: a regra, em uma linha."
DECISION_TEXT_REQUIRED = "Escreva o texto da decisão: o que vale a partir dela."
DECISION_NUMBER_TAKEN = "Já existe a Decisão {number} nesta campanha."
DECISION_NUMBER_INVALID = "O número da decisão é um inteiro de 1 para cima (ou em branco)."
UNKNOWN_HOUSE_KEY = "Regra da casa desconhecida: escolha uma das regras de /regras/casa/."
OTHER_CAMPAIGN = "Isto é de outra campanha."
NOT_OPEN = "A pendência «{title}» já está resolvida."
REASON_REQUIRED = "Diga por que a linha muda: a correção guarda o motivo."
UNKNOWN_FIELD = "Escolha a linha que se corrige."
NOTHING_CHANGES = "O texto novo é igual ao que a linha já diz: nada a corrigir."
LINE_CANNOT_BE_EMPTY = "Esta linha não pode ficar vazia."
NOT_RESOLVED_YET = "A pendência ainda está aberta: resolva-a em vez de corrigir a resolução."
SKILL_REPEATED = "Perícia repetida nesta ficha: «{name}»."
CAMPAIGN_REQUIRED = "Diga de que campanha (o slug): você está em mais de uma."

TABLE_ROLES = (Membership.Role.MESTRE, Membership.Role.ARBITRO)
ARBITRO_ONLY = (Membership.Role.ARBITRO,)

DECISION_FIELDS = Decision.CORRECTABLE
DIVERGENCE_FIELDS = Divergence.CORRECTABLE
REQUIRED_FIELDS = {"title", "text", "description", "resolution"}


# --- who may --------------------------------------------------------------------------------


def may_propose(membership: Membership | None) -> bool:
    """Mestre and Árbitro open divergences."""
    return membership is not None and membership.role in TABLE_ROLES


def may_write(membership: Membership | None) -> bool:
    """Only the Árbitro resolves, decides and corrects."""
    return membership is not None and membership.role == Membership.Role.ARBITRO


def _require(user, campaign: Campaign, roles, message: str) -> Membership:
    return campaign_role_required(user, campaign, *roles, message=message)


# --- reads ----------------------------------------------------------------------------------


def divergences_for(user, *, status: str | None = None) -> QuerySet[Divergence]:
    campaign_ids = [m.campaign_id for m in memberships_of(user)]
    found = Divergence.objects.filter(campaign_id__in=campaign_ids)
    if status:
        found = found.filter(status=status)
    return found.select_related(
        "campaign", "opened_by", "resolved_by", "decision"
    ).prefetch_related("corrections")


def decisions_for(user) -> QuerySet[Decision]:
    campaign_ids = [m.campaign_id for m in memberships_of(user)]
    return (
        Decision.objects.filter(campaign_id__in=campaign_ids)
        .select_related("campaign", "replaces", "created_by")
        .prefetch_related("corrections", "divergences", "replaced_by")
    )


def corrections_for(user, *, target: str | None = None) -> QuerySet[Correction]:
    campaign_ids = [m.campaign_id for m in memberships_of(user)]
    found = Correction.objects.filter(campaign_id__in=campaign_ids)
    if target:
        found = found.filter(target=target)
    return found.select_related(
        "campaign",
        "character",
        "version_before",
        "version_after",
        "decision",
        "divergence",
        "created_by",
    )


@dataclass(frozen=True)
class ReportCorrectionRow:
    """A correction of a homologated weekly report (``mesa.ReportCorrection``, written by the
    sessions app), shaped like a Correction so one list shows both. Read-only here."""

    code: object
    campaign: Campaign
    target_id: object  # the report's code
    target_label: str
    before: str
    after: str
    reason: str
    corrected_on: dt.date
    created_at: dt.datetime
    created_by: object
    url: str
    target: str = "report"
    field: str = "text"
    line: str = "Texto do relatório"
    version_before = None
    version_after = None

    def get_target_display(self) -> str:
        return "Relatório"


def report_corrections_for(user) -> list[ReportCorrectionRow]:
    """The corrections of weekly reports in the user's campaigns ([] while there are none)."""
    try:
        model = apps.get_model("mesa", "ReportCorrection")
    except LookupError:
        return []
    campaign_ids = [m.campaign_id for m in memberships_of(user)]
    rows = []
    for found in model.objects.filter(report__week__campaign_id__in=campaign_ids).select_related(
        "report__week__campaign", "by"
    ):
        week = found.report.week
        rows.append(
            ReportCorrectionRow(
                code=found.code,
                campaign=week.campaign,
                target_id=found.report.code,
                target_label=f"Relatório da Semana {week.number}",
                before=found.old_text,
                after=found.new_text,
                reason=found.reason,
                corrected_on=timezone.localdate(found.at),
                created_at=found.at,
                created_by=found.by,
                url=report_url(found.report),
            )
        )
    return rows


def corrections_listed(user, *, target: str | None = None) -> list:
    """Every correction the user may read, newest first: the registers' own and, when the
    target is unfiltered or "report", the weekly reports' (sessions app)."""
    rows: list = []
    if target != "report":
        rows += list(corrections_for(user, target=target))
    if target in (None, "report"):
        rows += report_corrections_for(user)
    rows.sort(key=lambda c: (c.corrected_on, c.created_at), reverse=True)
    return rows


def house_decisions(campaign: Campaign, *, with_corrections: bool = True) -> dict[str, Decision]:
    """The decision behind each house setting of ``gurps.house`` (key → the newest one), for
    the rules pages. With its corrections prefetched, ``decision.now["text"]`` is current."""
    found: dict[str, Decision] = {}
    decisions = Decision.objects.filter(campaign=campaign).exclude(house_key="").order_by("pk")
    if with_corrections:
        decisions = decisions.prefetch_related("corrections")
    for decision in decisions:
        found[decision.house_key] = decision
    return found


def house_decisions_in_order(campaign: Campaign) -> list[Decision]:
    """Every decision of ``campaign`` that names a house setting, in the order the Árbitro
    registered them (oldest first): for a ruleset whose house settings are alternative answers
    to one question, the newest among them is the one in force."""
    return list(Decision.objects.filter(campaign=campaign).exclude(house_key="").order_by("pk"))


def next_free_number(campaign: Campaign) -> int | None:
    """The largest decision number in the register (a hint for the form; never assumed)."""
    numbers = Decision.objects.filter(campaign=campaign, number__isnull=False)
    return max(numbers.values_list("number", flat=True), default=None)


def report_url(report) -> str:
    """The report's week page (or the report's own), as the sessions app names it; "" if
    the sessions app has no such page."""
    week = report.week
    candidates = [
        ("week", {"campaign": week.campaign.slug, "number": week.number}),
        ("week-report", {"campaign": week.campaign.slug, "number": week.number}),
    ]
    for name, kwargs in candidates:
        try:
            return reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            continue
    return ""


# --- writes: divergences ---------------------------------------------------------------------


def text_cleaned(value, limit: int | None = None) -> str:
    text = (value or "").strip()
    return text[:limit] if limit else text


def existing_by_key(model, campaign: Campaign, request_key: str):
    if not request_key:
        return None
    return model.objects.filter(campaign=campaign, request_key=request_key).first()


def create_once(model, campaign: Campaign, request_key: str, **fields):
    """Create the row; a concurrent twin with the same request_key returns the first."""
    try:
        with transaction.atomic():
            return model.objects.create(campaign=campaign, request_key=request_key, **fields)
    except IntegrityError:
        existing = existing_by_key(model, campaign, request_key)
        if existing is None:
            raise
        return existing


@transaction.atomic
def divergence_create(
    *,
    campaign: Campaign,
    user,
    title: str,
    description: str,
    document: str = "",
    section: str = "",
    page: str = "",
    side_a_label: str = "",
    side_a: str = "",
    side_b_label: str = "",
    side_b: str = "",
    reading: str = "",
    request_key: str = "",
) -> Divergence:
    """Open a pendência (Mestre or Árbitro). The same ``request_key`` twice opens one."""
    _require(user, campaign, TABLE_ROLES, ONLY_TABLE_OPENS)
    request_key = text_cleaned(request_key, 64)
    existing = existing_by_key(Divergence, campaign, request_key)
    if existing is not None:
        return existing
    title = text_cleaned(title)
    if not title:
        raise ServiceError(TITLE_REQUIRED, field="title")
    if len(title) > 200:
        raise ServiceError(TITLE_TOO_LONG, field="title")
    description = text_cleaned(description)
    if not description:
        raise ServiceError(DESCRIPTION_REQUIRED, field="description")
    return create_once(
        Divergence,
        campaign,
        request_key,
        title=title,
        description=description,
        document=text_cleaned(document, 100),
        section=text_cleaned(section, 40).lstrip("§"),
        page=text_cleaned(page, 300),
        side_a_label=text_cleaned(side_a_label, 120),
        side_a=text_cleaned(side_a),
        side_b_label=text_cleaned(side_b_label, 120),
        side_b=text_cleaned(side_b),
        reading=text_cleaned(reading),
        opened_on=timezone.localdate(),
        opened_by=user,
    )


def _resolve(divergence: Divergence, user, resolution: str, decision: Decision | None) -> int:
    return Divergence.objects.filter(pk=divergence.pk, status=Divergence.Status.OPEN).update(
        status=Divergence.Status.RESOLVED,
        resolved_on=timezone.localdate(),
        resolved_by=user,
        resolution=resolution,
        decision=decision,
    )


@transaction.atomic
def divergence_resolve(
    *, divergence: Divergence, user, resolution: str, decision: Decision | None = None
) -> Divergence:
    """The Árbitro resolves a pendência, once, often by a decision. Its text stays as it was;
    the same resolution posted twice by the same Árbitro is not an error."""
    _require(user, divergence.campaign, ARBITRO_ONLY, ONLY_ARBITRO)
    resolution = text_cleaned(resolution)
    if not resolution:
        raise ServiceError(RESOLUTION_REQUIRED, field="resolution")
    if decision is not None and decision.campaign_id != divergence.campaign_id:
        raise ServiceError(OTHER_CAMPAIGN, field="decision")
    if not _resolve(divergence, user, resolution, decision):
        current = Divergence.objects.get(pk=divergence.pk)
        same = (
            current.resolved_by_id == user.pk
            and current.resolution == resolution
            and current.decision_id == (decision.pk if decision else None)
        )
        if not same:
            raise ServiceError(ALREADY_RESOLVED, field="resolution", code="already_resolved")
    return Divergence.objects.select_related("decision", "resolved_by").get(pk=divergence.pk)


# --- writes: decisions -----------------------------------------------------------------------


@transaction.atomic
def decision_create(
    *,
    campaign: Campaign,
    user,
    title: str,
    text: str,
    number: int | None = None,
    decided_on: dt.date | None = None,
    section: str = "",
    source: str = "",
    fixes: str = "",
    replaces: Decision | None = None,
    house_key: str = "",
    resolves: Iterable[Divergence] = (),
    request_key: str = "",
) -> Decision:
    """The Árbitro registers a decision; it may resolve open pendências at once.

    ``number`` only if the decision has one (never assumed); ``decided_on`` defaults to today.
    """
    _require(user, campaign, ARBITRO_ONLY, ONLY_ARBITRO)
    request_key = text_cleaned(request_key, 64)
    existing = existing_by_key(Decision, campaign, request_key)
    if existing is not None:
        return existing
    title = text_cleaned(title)
    if not title:
        raise ServiceError(DECISION_TITLE_REQUIRED, field="title")
    if len(title) > 200:
        raise ServiceError(TITLE_TOO_LONG, field="title")
    text = text_cleaned(text)
    if not text:
        raise ServiceError(DECISION_TEXT_REQUIRED, field="text")
    if number is not None:
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ServiceError(DECISION_NUMBER_INVALID, field="number")
        if Decision.objects.filter(campaign=campaign, number=number).exists():
            raise ServiceError(DECISION_NUMBER_TAKEN.format(number=number), field="number")
    house_key = text_cleaned(house_key)
    if house_key and house_setting(house_key, campaign.ruleset) is None:
        raise ServiceError(UNKNOWN_HOUSE_KEY, field="house_key")
    if replaces is not None and replaces.campaign_id != campaign.pk:
        raise ServiceError(OTHER_CAMPAIGN, field="replaces")
    resolves = list(resolves)
    for divergence in resolves:
        if divergence.campaign_id != campaign.pk:
            raise ServiceError(OTHER_CAMPAIGN, field="resolves")
    decision = create_once(
        Decision,
        campaign,
        request_key,
        number=number,
        decided_on=decided_on or timezone.localdate(),
        title=title,
        text=text,
        section=text_cleaned(section, 40).lstrip("§"),
        source=text_cleaned(source, 200),
        fixes=text_cleaned(fixes),
        replaces=replaces,
        house_key=house_key,
        created_by=user,
    )
    for divergence in resolves:
        if not _resolve(divergence, user, f"Resolvida pela {decision.label}: {title}.", decision):
            raise ServiceError(NOT_OPEN.format(title=divergence.title), field="resolves")
    return decision


# --- writes: corrections of register entries -------------------------------------------------


@transaction.atomic
def correction_create(
    *, entry: Decision | Divergence, field: str, after: str, reason: str, user, request_key=""
) -> Correction:
    """Correct one line of a decision or a divergence: a new row that keeps what the line
    said (read here, not trusted from the caller), what it says now, why, when and by whom.
    The entry itself is never touched."""
    campaign = entry.campaign
    _require(user, campaign, ARBITRO_ONLY, ONLY_ARBITRO)
    request_key = text_cleaned(request_key, 64)
    existing = existing_by_key(Correction, campaign, request_key)
    if existing is not None:
        return existing
    if isinstance(entry, Decision):
        fields, target = DECISION_FIELDS, Correction.Target.DECISION
        fresh = Decision.objects.prefetch_related("corrections").get(pk=entry.pk)
        links = {"decision": fresh}
    else:
        fields, target = DIVERGENCE_FIELDS, Correction.Target.DIVERGENCE
        fresh = Divergence.objects.prefetch_related("corrections").get(pk=entry.pk)
        links = {"divergence": fresh}
        if field == "resolution" and fresh.is_open:
            raise ServiceError(NOT_RESOLVED_YET, field="field")
    if field not in fields:
        raise ServiceError(UNKNOWN_FIELD, field="field")
    reason = text_cleaned(reason)
    if not reason:
        raise ServiceError(REASON_REQUIRED, field="reason")
    after = text_cleaned(after)
    if field == "title" and len(after) > 200:
        raise ServiceError(TITLE_TOO_LONG, field="after")
    if field in REQUIRED_FIELDS and not after:
        raise ServiceError(LINE_CANNOT_BE_EMPTY, field="after")
    before = fresh.now[field]
    if after == before:
        raise ServiceError(NOTHING_CHANGES, field="after")
    return create_once(
        Correction,
        campaign,
        request_key,
        target=target,
        field=field,
        line=fields[field],
        before=before,
        after=after,
        reason=reason,
        corrected_on=timezone.localdate(),
        created_by=user,
        **links,
    )


# --- the seed ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeedCount:
    decisions: int
    corrections: int
    divergences: int


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def reading_source_key(ruleset: str, key: str) -> str:
    """The ``Divergence.source_key`` of the pendência seeded for the stated reading ``key`` of
    the ruleset keyed ``ruleset``: ``reading:<key>`` for the canon's, ``reading:<ruleset>:<key>``
    for a system whose text is not the canon (its keys are its own: one may be GURPS's too)."""
    if _document(ruleset_for(ruleset).pages) == seed.CANON:
        return f"{seed.READING_KEY_PREFIX}{key}"
    return f"{seed.READING_KEY_PREFIX}{ruleset}:{key}"


def _document(pages) -> str:
    """The text a ruleset's readings answer to: its pages part's own document, or the canon."""
    return (getattr(pages, "document", "") if pages is not None else "") or seed.CANON


def reading_pendencias(campaign_id: int, ruleset: str, keys) -> dict[str, tuple]:
    """reading key → (the pendência's code, its status), for those of ``keys`` (stated readings
    of ``ruleset``) the campaign has a pendência for (1 query, two columns: every sheet read
    asks it)."""
    source_keys = {reading_source_key(ruleset, key): key for key in keys}
    rows = (
        Divergence.objects.filter(campaign_id=campaign_id, source_key__in=source_keys)
        .order_by()
        .values_list("source_key", "code", "status")
    )
    return {source_keys[source]: (code, status) for source, code, status in rows}


def readings_resolved(campaign_id: int, ruleset: str) -> set[str]:
    """The keys of the stated readings of ``ruleset`` whose pendência the Árbitro of the
    campaign resolved (1 query): a page says of the others that their pendência is open."""
    prefix = reading_source_key(ruleset, "")
    keys = Divergence.objects.filter(
        campaign_id=campaign_id,
        source_key__startswith=prefix,
        status=Divergence.Status.RESOLVED,
    ).values_list("source_key", flat=True)
    return {key.removeprefix(prefix) for key in keys}


def _reading_seeds(campaign: Campaign) -> list[seed.DivergenceSeed]:
    """A pendência for each stated reading of the campaign's ruleset (its pages part), read at
    run time: the engine's modules keep adding readings as they load; and one divergence for
    each of its text's own slips (``PagesPart.slips``, where the ruleset has them). A ruleset
    whose text is not the canon names its own (``PagesPart.document``)."""
    pages = ruleset_for(campaign.ruleset).pages
    if pages is None:
        return []
    document = _document(pages)
    own = document != seed.CANON
    found = []
    for reading in pages.readings():
        where = f"§{reading.section}" if not own else reading.section
        found.append(
            seed.DivergenceSeed(
                reading_source_key(campaign.ruleset, reading.key),
                _cut(reading.section, 40),
                _cut(reading.question, 200),
                reading.question,
                side_a_label=_cut(f"{document}, {where}", 120),
                side_a="Não responde a esta pergunta.",
                reading=reading.answer,
                document=document if own else "",
            )
        )
    for slip in getattr(pages, "slips", lambda: ())():
        found.append(
            seed.DivergenceSeed(
                f"slip:{campaign.ruleset}:{slip.key}",
                _cut(slip.section, 40),
                _cut(f"O capítulo se contradiz: {slip.section}", 200),
                f"{slip.text} — {slip.against}",
                side_a_label=_cut(f"{document}, {slip.section}", 120),
                side_a=slip.text,
                side_b_label="Contra",
                side_b=slip.against,
                reading=slip.followed,
                document=document,
            )
        )
    return found


def _canon_seeds(campaign: Campaign) -> tuple:
    """The canon's own items (*Como se joga*'s decisions, corrections, divergences, slips and
    skill pendências) belong to a GURPS campaign's registers only; the procedure's serve every
    campaign."""
    if campaign.ruleset != GURPS3E:
        return (), (), ()
    return (
        seed.DECISIONS,
        seed.CORRECTIONS,
        (
            *seed.CANON_DIVERGENCES,
            *seed.SLIPS,
        ),
    )


@transaction.atomic
def registers_seed(*, campaign: Campaign) -> SeedCount:
    """Put the canon's own items in ``campaign``'s registers; idempotent by ``source_key``.

    An item already there is left as it is (the Árbitro may have resolved it since)."""
    today = timezone.localdate()
    created = {"decisions": 0, "corrections": 0, "divergences": 0}
    decisions: dict[str, Decision] = {}
    canon_decisions, canon_corrections, canon_divergences = _canon_seeds(campaign)
    for item in canon_decisions:
        decision, new = Decision.objects.get_or_create(
            campaign=campaign,
            source_key=item.source_key,
            defaults={
                "number": item.number,
                "decided_on": item.decided_on,
                "title": item.title,
                "text": item.text,
                "section": item.section,
                "source": item.source,
                "fixes": item.fixes,
                "house_key": item.house_key,
            },
        )
        decisions[item.source_key] = decision
        created["decisions"] += new
    for item in canon_corrections:
        _, new = Correction.objects.get_or_create(
            campaign=campaign,
            source_key=item.source_key,
            defaults={
                "target": Correction.Target.DECISION,
                "decision": decisions[item.decision_key],
                "field": item.field,
                "line": item.line,
                "before": item.before,
                "after": item.after,
                "reason": item.reason,
                "corrected_on": item.corrected_on,
            },
        )
        created["corrections"] += new
    skills = seed.SKILL_DIVERGENCES if campaign.ruleset == GURPS3E else ()
    for item in (
        *canon_divergences,
        *_reading_seeds(campaign),
        *seed.PROCEDURE_DIVERGENCES,
        *skills,
    ):
        resolved = item.resolved_on is not None
        _, new = Divergence.objects.get_or_create(
            campaign=campaign,
            source_key=item.source_key,
            defaults={
                "title": item.title,
                "description": item.description,
                "document": item.document or seed.CANON,
                "section": item.section,
                "side_a_label": item.side_a_label,
                "side_a": item.side_a,
                "side_b_label": item.side_b_label,
                "side_b": item.side_b,
                "reading": item.reading,
                "opened_on": item.opened_on or today,
                "status": Divergence.Status.RESOLVED if resolved else Divergence.Status.OPEN,
                "resolved_on": item.resolved_on,
                "resolution": item.resolution,
                "decision": decisions.get(item.decision_key) if item.decision_key else None,
            },
        )
        created["divergences"] += new
    created["corrections"] += _divergence_corrections_seed(campaign, today)
    return SeedCount(**created)


def _divergence_corrections_seed(campaign: Campaign, today: dt.date) -> int:
    """Correct a seeded pendência's line where it still says what an earlier seed said
    (``seed.DIVERGENCE_CORRECTIONS``); once, by ``source_key``; a line changed since is left."""
    made = 0
    for item in seed.DIVERGENCE_CORRECTIONS:
        if Correction.objects.filter(campaign=campaign, source_key=item.source_key).exists():
            continue
        divergence = (
            Divergence.objects.filter(campaign=campaign, source_key=item.divergence_key)
            .prefetch_related("corrections")
            .first()
        )
        if divergence is None or divergence.now[item.field] != item.before:
            continue
        Correction.objects.create(
            campaign=campaign,
            source_key=item.source_key,
            target=Correction.Target.DIVERGENCE,
            divergence=divergence,
            field=item.field,
            line=DIVERGENCE_FIELDS[item.field],
            before=item.before,
            after=item.after,
            reason=item.reason,
            corrected_on=today,
        )
        made += 1
    return made


def registers_seed_all() -> dict[str, SeedCount]:
    return {c.slug: registers_seed(campaign=c) for c in Campaign.objects.order_by("pk")}
