"""The Árbitro's console: the homologation queue (sheet versions, homologate or return), the
console's home, the registers of divergences, decisions and corrections, and the Árbitro's
correction of a homologated sheet.

Views read the request, call ``canon.services`` (or the sheets app's services), render. Every
member reads; the Mestre also opens divergences; only the Árbitro writes. A refused role sees
a 403 page that says who can; an outsider gets 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import campaigns_where, membership_for, memberships_of
from campaigns.confirm import confirmation_step
from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest
from campaigns.models import Membership
from canon import services
from canon.models import Correction, Decision, Divergence
from console import services as console_services
from console.forms import (
    CorrectionForm,
    DataCorrectionForm,
    DecisionForm,
    DivergenceForm,
    HomologateForm,
    ResolveForm,
    SheetCorrectionForm,
)
from sheets.data_sheet import keeps_json
from sheets.diff import version_changes
from sheets.forms import ReturnForm, SkillFormSet
from sheets.history import NO_HOMOLOGATED_VERSION
from sheets.homologation import (
    RETURN_NEEDS_REASON,
    audit_data,
    sheet_homologate,
    sheet_return,
    version_audit,
)
from sheets.models import Character, SheetVersion
from sheets.reads import homologated_version

# --- helpers ----------------------------------------------------------------------------------


def _forbidden(request, message: str) -> HttpResponse:
    """A 403 page that says who can do this, instead of the bare one."""
    return render(request, "canon/forbidden.html", {"message": message}, status=403)


def _get_entry(request, model, code):
    """A register entry of one of the user's campaigns (404 to outsiders), with its
    corrections prefetched, and the user's membership there."""
    queryset = model.objects.select_related("campaign").prefetch_related("corrections")
    entry = get_object_or_404(queryset, code=code)
    membership = membership_for(request.user, entry.campaign)
    if membership is None:
        raise Http404
    return entry, membership


def _form_errors_from(form, error: ServiceError) -> None:
    """The service's refusal beside the form's field it names (``data.abilities.str`` beside
    ``data``), or above the form when no field of it is named."""
    field = error.field.split(".")[0] if error.field else None
    form.add_error(field if field in form.fields else None, error.message)


# --- the homologation queue ---------------------------------------------------------------------


def _get_version_for_arbitro(request, code) -> SheetVersion:
    version = get_object_or_404(
        SheetVersion.objects.select_related("character__campaign"), code=code
    )
    membership = membership_for(request.user, version.character.campaign)
    if membership is None:
        raise Http404
    if membership.role != Membership.Role.ARBITRO:
        raise PermissionDenied
    return version


def _queue_rows(pending, bound: dict | None = None) -> list[dict]:
    """Each submitted version with its diff and its audit (one table and catalogue read per
    campaign), and its forms (``bound``: the form just posted, by version code)."""
    bound = bound or {}
    data = {}  # the audit's tables, read once per campaign
    rows = []
    for version in pending:
        campaign = version.character.campaign
        if campaign.pk not in data:
            data[campaign.pk] = audit_data(campaign)
        current = homologated_version(version.character)
        audit = version_audit(version, data=data[campaign.pk], current=current)
        code = str(version.code)
        rows.append(
            {
                "version": version,
                "current": current,
                "changes": version_changes(current, version),
                "before_label": f"Versão {current.number} (homologada)" if current else "—",
                "after_label": f"Versão {version.number} (proposta)",
                "audit": audit,
                "form": bound.get(("return", code)) or ReturnForm(prefix=code),
                "homologate_form": bound.get(("homologate", code))
                or HomologateForm(prefix=code, initial={"digest": audit.digest}),
            }
        )
    return rows


def _queue_response(request, *, bound: dict | None = None, status: int = 200) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user)
    campaign_ids = [m.campaign_id for m in memberships]
    is_arbitro = any(m.role == Membership.Role.ARBITRO for m in memberships)
    # A jogador sees their own versions in the queue; the table's roles see all of them.
    visible = SheetVersion.objects.filter(character__campaign_id__in=campaign_ids)
    if not any(m.runs_the_table for m in memberships):
        visible = visible.filter(character__owner=request.user)
    pending = (
        visible.filter(status=SheetVersion.Status.SUBMITTED)
        .select_related("character__campaign", "created_by")
        .prefetch_related("skills", "traits", "items")
        .order_by("submitted_at")
    )
    recent = (
        visible.filter(
            status__in=[SheetVersion.Status.HOMOLOGATED, SheetVersion.Status.RETURNED],
            decided_at__isnull=False,
        )
        .select_related("character", "decided_by")
        .order_by("-decided_at")[:10]
    )
    context = {"rows": _queue_rows(pending, bound), "recent": recent, "is_arbitro": is_arbitro}
    return render(request, "canon/queue.html", context, status=status)


@login_required
def queue(request: HtmxHttpRequest) -> HttpResponse:
    return _queue_response(request)


@require_POST
@login_required
def homologate(request: HtmxHttpRequest, code) -> HttpResponse:
    """Homologate a submitted version; with the audit's warnings, the Árbitro says why (the
    form carries the fingerprint of the warnings he read), else the queue comes back with the
    message beside the note and what he typed (422)."""
    version = _get_version_for_arbitro(request, code)
    form = HomologateForm(request.POST, prefix=str(version.code))
    form.is_valid()
    if step := confirmation_step(request, "version_homologate", back=reverse("queue")):
        return step
    try:
        sheet_homologate(
            version=version,
            user=request.user,
            seen_digest=form.cleaned_data.get("digest", ""),
            note=form.cleaned_data.get("note", ""),
        )
    except ServiceError as error:
        if error.code == "not_submitted":
            messages.error(request, error.message)
            return redirect("queue")
        _form_errors_from(form, error)
        return _queue_response(request, bound={("homologate", str(version.code)): form}, status=422)
    messages.success(request, f"{version.character.name}: versão {version.number} homologada.")
    return redirect("queue")


@require_POST
@login_required
def return_version(request: HtmxHttpRequest, code) -> HttpResponse:
    version = _get_version_for_arbitro(request, code)
    form = ReturnForm(request.POST, prefix=str(version.code))
    if not form.is_valid():
        messages.error(request, RETURN_NEEDS_REASON)
        return redirect("queue")
    if step := confirmation_step(request, "version_return", back=reverse("queue")):
        return step
    try:
        sheet_return(version=version, user=request.user, reason=form.cleaned_data["reason"])
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, f"{version.character.name}: versão {version.number} devolvida ao jogador."
        )
    return redirect("queue")


# --- the console's home -----------------------------------------------------------------------


@login_required
def console(request: HtmxHttpRequest) -> HttpResponse:
    memberships = memberships_of(request.user)
    if not memberships:
        raise Http404
    return render(
        request,
        "canon/console.html",
        {
            "summary": console_services.console_summary(request.user),
            "is_arbitro": any(services.may_write(m) for m in memberships),
            "may_propose": any(services.may_propose(m) for m in memberships),
        },
    )


# --- divergences ------------------------------------------------------------------------------

STATUS_FILTERS = {
    "abertas": Divergence.Status.OPEN,
    "resolvidas": Divergence.Status.RESOLVED,
    "todas": None,
}


@login_required
def divergence_list(request: HtmxHttpRequest) -> HttpResponse:
    memberships = memberships_of(request.user)
    if not memberships:
        raise Http404
    chosen = request.GET.get("estado", "abertas")
    if chosen not in STATUS_FILTERS:
        chosen = "abertas"
    divergences = services.divergences_for(request.user, status=STATUS_FILTERS[chosen])
    counts = {
        "abertas": services.divergences_for(request.user, status="open").count(),
        "resolvidas": services.divergences_for(request.user, status="resolved").count(),
    }
    return render(
        request,
        "canon/divergence_list.html",
        {
            "divergences": divergences,
            "chosen": chosen,
            "counts": counts,
            "many_campaigns": len(memberships) > 1,
            "may_propose": any(services.may_propose(m) for m in memberships),
        },
    )


DIVERGENCE_FIELDS = (
    "title",
    "description",
    "section",
    "page",
    "side_a_label",
    "side_a",
    "side_b_label",
    "side_b",
    "reading",
)


@login_required
def divergence_new(request: HtmxHttpRequest) -> HttpResponse:
    """Open a pendência. GET ``?secao=4.9&contexto=…`` (and ``pagina``, ``titulo``,
    ``campanha``) fills the form in; the Mestre and the Árbitro may submit it."""
    campaigns = campaigns_where(request.user, services.TABLE_ROLES)
    if not campaigns:
        return _forbidden(request, services.ONLY_TABLE_OPENS)
    status = 200
    if request.method == "POST":
        form = DivergenceForm(request.POST, campaigns=campaigns)
        if form.is_valid():
            try:
                divergence = services.divergence_create(
                    campaign=form.chosen_campaign(),
                    user=request.user,
                    document=services.seed.CANON if form.cleaned_data["section"] else "",
                    request_key=form.cleaned_data["request_key"],
                    **{name: form.cleaned_data[name] for name in DIVERGENCE_FIELDS},
                )
            except ServiceError as error:
                if error.code == "forbidden":
                    return _forbidden(request, error.message)
                _form_errors_from(form, error)
            else:
                messages.success(request, "Pendência aberta; o Árbitro a vê no console.")
                return redirect("divergence", code=divergence.code)
        status = 422
    else:
        get = request.GET
        initial = {
            "section": get.get("secao", "").strip().lstrip("§")[:40],
            "description": get.get("contexto", "")[:4000],
            "page": get.get("pagina", "")[:300],
            "title": get.get("titulo", "")[:200],
        }
        if get.get("campanha") in {c.slug for c in campaigns}:
            initial["campaign"] = get["campanha"]
        form = DivergenceForm(initial=initial, campaigns=campaigns)
    return render(request, "canon/divergence_form.html", {"form": form}, status=status)


def _divergence_page(request, divergence, membership, *, resolve_form=None, correct_form=None):
    decisions = (
        Decision.objects.filter(campaign=divergence.campaign).prefetch_related("corrections")
        if services.may_write(membership)
        else []
    )
    return {
        "divergence": divergence,
        "corrections": list(divergence.corrections.select_related("created_by")),
        "is_arbitro": services.may_write(membership),
        "resolve_form": resolve_form or ResolveForm(decisions=decisions),
        "correct_form": correct_form or CorrectionForm(fields=Divergence.CORRECTABLE),
    }


@login_required
def divergence_detail(request: HtmxHttpRequest, code) -> HttpResponse:
    divergence, membership = _get_entry(request, Divergence, code)
    context = _divergence_page(request, divergence, membership)
    return render(request, "canon/divergence_detail.html", context)


@require_POST
@login_required
def divergence_resolve(request: HtmxHttpRequest, code) -> HttpResponse:
    divergence, membership = _get_entry(request, Divergence, code)
    if not services.may_write(membership):
        return _forbidden(request, services.ONLY_ARBITRO)
    decisions = Decision.objects.filter(campaign=divergence.campaign).prefetch_related(
        "corrections"
    )
    form = ResolveForm(request.POST, decisions=decisions)
    if form.is_valid():
        back = reverse("divergence", kwargs={"code": divergence.code})
        if step := confirmation_step(request, "divergence_resolve", back=back):
            return step
        try:
            services.divergence_resolve(
                divergence=divergence,
                user=request.user,
                resolution=form.cleaned_data["resolution"],
                decision=form.chosen_decision(),
            )
        except ServiceError as error:
            _form_errors_from(form, error)
        else:
            messages.success(request, "Pendência resolvida.")
            return redirect("divergence", code=divergence.code)
    context = _divergence_page(request, divergence, membership, resolve_form=form)
    return render(request, "canon/divergence_detail.html", context, status=422)


@require_POST
@login_required
def divergence_correct(request: HtmxHttpRequest, code) -> HttpResponse:
    divergence, membership = _get_entry(request, Divergence, code)
    if not services.may_write(membership):
        return _forbidden(request, services.ONLY_ARBITRO)
    form = CorrectionForm(request.POST, fields=Divergence.CORRECTABLE)
    if form.is_valid():
        back = reverse("divergence", kwargs={"code": divergence.code})
        if step := confirmation_step(request, "correction", back=back):
            return step
        try:
            services.correction_create(
                entry=divergence,
                user=request.user,
                field=form.cleaned_data["field"],
                after=form.cleaned_data["after"],
                reason=form.cleaned_data["reason"],
                request_key=form.cleaned_data["request_key"],
            )
        except ServiceError as error:
            _form_errors_from(form, error)
        else:
            messages.success(request, "Correção registrada; a linha antiga fica no registro.")
            return redirect("divergence", code=divergence.code)
    context = _divergence_page(request, divergence, membership, correct_form=form)
    return render(request, "canon/divergence_detail.html", context, status=422)


# --- decisions --------------------------------------------------------------------------------


@login_required
def decision_list(request: HtmxHttpRequest) -> HttpResponse:
    memberships = memberships_of(request.user)
    if not memberships:
        raise Http404
    return render(
        request,
        "canon/decision_list.html",
        {
            "decisions": services.decisions_for(request.user),
            "many_campaigns": len(memberships) > 1,
            "is_arbitro": any(services.may_write(m) for m in memberships),
        },
    )


def _decision_form(campaigns, data=None, initial=None) -> DecisionForm:
    campaign_ids = [c.pk for c in campaigns]
    return DecisionForm(
        data,
        initial=initial,
        campaigns=campaigns,
        decisions=Decision.objects.filter(campaign_id__in=campaign_ids).prefetch_related(
            "corrections"
        ),
        open_divergences=Divergence.objects.filter(
            campaign_id__in=campaign_ids, status=Divergence.Status.OPEN
        ).prefetch_related("corrections"),
    )


DECISION_FIELDS = ("title", "text", "number", "decided_on", "section", "fixes", "house_key")


@login_required
def decision_new(request: HtmxHttpRequest) -> HttpResponse:
    campaigns = campaigns_where(request.user, services.ARBITRO_ONLY)
    if not campaigns:
        return _forbidden(request, services.ONLY_ARBITRO)
    status = 200
    if request.method == "POST":
        form = _decision_form(campaigns, data=request.POST)
        if form.is_valid():
            if step := confirmation_step(request, "decision_create", back=reverse("decisions")):
                return step
            try:
                decision = services.decision_create(
                    campaign=form.chosen_campaign(),
                    user=request.user,
                    replaces=form.chosen_replaces(),
                    resolves=form.chosen_resolves(),
                    request_key=form.cleaned_data["request_key"],
                    **{name: form.cleaned_data[name] for name in DECISION_FIELDS},
                )
            except ServiceError as error:
                _form_errors_from(form, error)
            else:
                messages.success(request, f"{decision.label} registrada.")
                return redirect("decision", code=decision.code)
        status = 422
    else:
        initial = {"resolves": [request.GET["pendencia"]]} if request.GET.get("pendencia") else {}
        form = _decision_form(campaigns, initial=initial)
    largest = max(
        (n for c in campaigns if (n := services.next_free_number(c)) is not None), default=None
    )
    return render(
        request,
        "canon/decision_form.html",
        {"form": form, "largest_number": largest},
        status=status,
    )


def _decision_page(decision, membership, *, correct_form=None) -> dict:
    return {
        "decision": decision,
        "corrections": list(decision.corrections.select_related("created_by")),
        "divergences": list(decision.divergences.all()),
        "replaced_by": list(decision.replaced_by.all()),
        "is_arbitro": services.may_write(membership),
        "correct_form": correct_form or CorrectionForm(fields=Decision.CORRECTABLE),
    }


@login_required
def decision_detail(request: HtmxHttpRequest, code) -> HttpResponse:
    decision, membership = _get_entry(request, Decision, code)
    return render(request, "canon/decision_detail.html", _decision_page(decision, membership))


@require_POST
@login_required
def decision_correct(request: HtmxHttpRequest, code) -> HttpResponse:
    decision, membership = _get_entry(request, Decision, code)
    if not services.may_write(membership):
        return _forbidden(request, services.ONLY_ARBITRO)
    form = CorrectionForm(request.POST, fields=Decision.CORRECTABLE)
    if form.is_valid():
        back = reverse("decision", kwargs={"code": decision.code})
        if step := confirmation_step(request, "correction", back=back):
            return step
        try:
            services.correction_create(
                entry=decision,
                user=request.user,
                field=form.cleaned_data["field"],
                after=form.cleaned_data["after"],
                reason=form.cleaned_data["reason"],
                request_key=form.cleaned_data["request_key"],
            )
        except ServiceError as error:
            _form_errors_from(form, error)
        else:
            messages.success(request, "Correção registrada; a linha antiga fica no registro.")
            return redirect("decision", code=decision.code)
    context = _decision_page(decision, membership, correct_form=form)
    return render(request, "canon/decision_detail.html", context, status=422)


# --- corrections ------------------------------------------------------------------------------

TARGET_FILTERS = {
    "fichas": Correction.Target.SHEET,
    "relatorios": "report",
    "decisoes": Correction.Target.DECISION,
    "pendencias": Correction.Target.DIVERGENCE,
}


@login_required
def correction_list(request: HtmxHttpRequest) -> HttpResponse:
    memberships = memberships_of(request.user)
    if not memberships:
        raise Http404
    chosen = request.GET.get("alvo", "")
    if chosen not in TARGET_FILTERS:
        chosen = ""
    corrections = services.corrections_listed(request.user, target=TARGET_FILTERS.get(chosen))
    return render(
        request,
        "canon/correction_list.html",
        {
            "corrections": corrections,
            "chosen": chosen,
            "filters": [
                ("", "Todas"),
                ("fichas", "Fichas"),
                ("relatorios", "Relatórios"),
                ("decisoes", "Decisões"),
                ("pendencias", "Pendências"),
            ],
            "many_campaigns": len(memberships) > 1,
        },
    )


# --- the Árbitro's correction of a homologated sheet ---------------------------------------------


def _skill_initial(version: SheetVersion) -> list[dict]:
    return [
        {
            "name": s.name,
            "attribute": s.attribute,
            "difficulty": s.difficulty,
            "level": s.level,
            # 8, not the column's 8.0; ½ stays 0.5, which the field reads.
            "points": s.points.quantize(1) if s.points == s.points.to_integral() else s.points,
        }
        for s in version.skills.all()
    ]


@login_required
def sheet_correct(request: HtmxHttpRequest, code) -> HttpResponse:
    """The Árbitro corrects a homologated sheet: a new homologated version with its reason."""
    character = get_object_or_404(Character.objects.select_related("campaign"), code=code)
    membership = membership_for(request.user, character.campaign)
    if membership is None:
        raise Http404
    if not services.may_write(membership):
        return _forbidden(request, services.ONLY_ARBITRO)
    current = homologated_version(character)
    if current is None:
        messages.error(request, NO_HOMOLOGATED_VERSION)
        return redirect("sheet-history", code=character.code)
    if keeps_json(character):
        return _data_sheet_correct(request, character, current)
    status = 200
    if request.method == "POST":
        form = SheetCorrectionForm(request.POST)
        formset = SkillFormSet(request.POST, prefix="skills")
        if form.is_valid() and formset.is_valid():
            back = reverse("sheet-history", kwargs={"code": character.code})
            if step := confirmation_step(request, "sheet_correct", back=back):
                return step
            skills = [
                {k: v for k, v in f.cleaned_data.items() if k != "DELETE"}
                for f in formset.forms
                if f.cleaned_data and not f.cleaned_data.get("DELETE")
            ]
            try:
                correction = console_services.sheet_correct(
                    character=character,
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                    attributes={k: form.cleaned_data[k] for k in ("st", "dx", "iq", "ht")},
                    notes=form.cleaned_data["notes"],
                    skills=skills,
                    request_key=form.cleaned_data["request_key"],
                )
            except ServiceError as error:
                _form_errors_from(form, error)
            else:
                return _corrected(request, character, correction)
        status = 422
    else:
        form = SheetCorrectionForm(initial={**current.attributes(), "notes": current.notes})
        formset = SkillFormSet(prefix="skills", initial=_skill_initial(current))
    context = {
        "character": character,
        "current": current,
        "form": form,
        "attribute_fields": [form[name] for name in ("st", "dx", "iq", "ht")],
        "formset": formset,
    }
    return render(request, "canon/sheet_correct.html", context, status=status)


def _corrected(request, character: Character, correction) -> HttpResponse:
    """After a correction: say so, and show the history's diff between the two versions."""
    messages.success(
        request,
        f"{character.name}: versão {correction.version_after.number} homologada "
        "como correção; a anterior fica como estava.",
    )
    url = reverse("sheet-history", kwargs={"code": character.code})
    before, after = correction.version_before.number, correction.version_after.number
    return redirect(f"{url}?de={before}&para={after}#diferencas")


def _data_sheet_correct(request, character: Character, current: SheetVersion) -> HttpResponse:
    """The correction of a sheet kept as JSON (the Xuleta): the whole sheet in a JSON field,
    validated by the ruleset (its refusal beside the field, naming it); the diff is the
    history's, as for GURPS."""
    status = 200
    if request.method == "POST":
        form = DataCorrectionForm(request.POST)
        if form.is_valid():
            back = reverse("sheet-history", kwargs={"code": character.code})
            if step := confirmation_step(request, "sheet_correct", back=back):
                return step
            try:
                correction = console_services.sheet_correct(
                    character=character,
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                    notes=form.cleaned_data["notes"],
                    data=form.cleaned_data["data"],
                    request_key=form.cleaned_data["request_key"],
                )
            except ServiceError as error:
                _form_errors_from(form, error)
            else:
                return _corrected(request, character, correction)
        status = 422
    else:
        form = DataCorrectionForm(initial={"data": current.data, "notes": current.notes})
    context = {"character": character, "current": current, "form": form, "data_sheet": True}
    return render(request, "canon/sheet_correct.html", context, status=status)
