"""Pages of a proposal: the owner's draft (attributes, skills with level and points side by side,
advantages, disadvantages and quirks, items and weapons, the audit), its import from text, its
submission; and "e sem a perícia?" of a sheet.

The draft page computes as the player types: with htmx every change posts the form with
``preview`` and the live region (``sheets/draft.html#live``: the audit, and each skill line's
level or price as out-of-band cells) comes back; without JavaScript the "Conferir" button posts
the same form and the whole page comes back, computed. Nothing is saved until "Salvar".
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.confirm import Confirmation, confirmation_step
from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest
from gurps.skill_costs import format_points
from rulesets.registry import ruleset_for
from sheets import access, data_draft, data_sheet, importing
from sheets.audit import (
    ITEM_AUDIT_FIELDS,
    SkillData,
    character_defaults,
    lines_audit,
    skill_data,
    version_total,
)
from sheets.drafting import follow_attributes, resolve_skill_lines
from sheets.drafts import (
    ITEM_FIELDS,
    NOT_A_DRAFT,
    SKILL_FIELDS,
    TRAIT_FIELDS,
    sheet_draft_create,
    sheet_draft_update,
)
from sheets.forms import DraftForm, DraftSkillFormSet, ImportForm, ItemFormSet, TraitFormSet
from sheets.homologation import sheet_submit, version_audit
from sheets.models import SheetVersion
from sheets.reads import homologated_version

ATTRIBUTES = ("st", "dx", "iq", "ht")
SAVED = "Rascunho salvo."
SUBMITTED = "Versão {number} enviada ao Árbitro para homologação."
IMPORTED = (
    "Importadas {read} linha(s) para o rascunho; {unread} não lida(s), listadas abaixo para "
    "corrigir antes de enviar."
)
IMPORT_ACTION = "Importar o texto para o rascunho"
IMPORT_REPLACES = (
    "o texto substitui estas linhas do rascunho, que ele não traz e que se perdem: {lines}. "
    "Para mantê-las, ponha-as no texto ou volte e acrescente-as depois."
)
FIX_BELOW = "Há o que corrigir nos campos marcados; nada foi salvo."


@dataclass
class DraftForms:
    form: DraftForm
    skills: DraftSkillFormSet
    traits: TraitFormSet | None  # None: the post did not carry them (kept as they are)
    items: ItemFormSet | None

    def all_valid(self) -> bool:
        parts = [self.form, self.skills, self.traits, self.items]
        return all([part.is_valid() for part in parts if part is not None])


def _plain(value: Decimal) -> Decimal:
    """11.500 → 11.5, 7.000 → 7 (never 1E+1): a weight as the player wrote it."""
    return value.quantize(Decimal(1)) if value == value.to_integral() else value.normalize()


def _initial_forms(draft: SheetVersion) -> DraftForms:
    skills = [
        {**{f: getattr(s, f) for f in SKILL_FIELDS}, "points": format_points(s.points)}
        for s in draft.skills.all()
    ]
    items = [
        {**{f: getattr(i, f) for f in ITEM_FIELDS}, "weight_kg": _plain(i.weight_kg)}
        for i in draft.items.all()
    ]
    return DraftForms(
        DraftForm(initial={**draft.attributes(), "notes": draft.notes}),
        DraftSkillFormSet(prefix="skills", initial=skills),
        TraitFormSet(
            prefix="traits",
            initial=[{f: getattr(t, f) for f in TRAIT_FIELDS} for t in draft.traits.all()],
        ),
        ItemFormSet(prefix="items", initial=items),
    )


ROW_PARTS = ("skills", "traits", "items")


def _with_a_blank_row(data, part: str):
    """The posted data with one more form in ``part``'s formset (blank rows are skipped)."""
    data = data.copy()
    key = f"{part}-TOTAL_FORMS"
    try:
        total = int(data.get(key, "0"))
    except ValueError:
        total = 0
    data[key] = str(min(total + 1, 200))
    return data


def _posted_forms(data) -> DraftForms:
    return DraftForms(
        DraftForm(data),
        DraftSkillFormSet(data, prefix="skills"),
        TraitFormSet(data, prefix="traits") if "traits-TOTAL_FORMS" in data else None,
        ItemFormSet(data, prefix="items") if "items-TOTAL_FORMS" in data else None,
    )


def _attributes(form: DraftForm) -> dict[str, int] | None:
    data = getattr(form, "cleaned_data", {})
    if all(key in data for key in ATTRIBUTES):
        return {key: data[key] for key in ATTRIBUTES}
    return None


def _skill_lines(formset) -> list[tuple[object, dict]]:
    """(form, line) of each kept skill row that validated, in the page's order."""
    kept = []
    for form in formset.forms:
        data = getattr(form, "cleaned_data", None)
        if not data or data.get("DELETE") or "name" not in data or form.errors:
            continue
        kept.append((form, {k: v for k, v in data.items() if k != "DELETE"}))
    return kept


def _audit_of(forms: DraftForms, data: SkillData, draft: SheetVersion):
    """The audit of what the page holds (rows that validated), or None without attributes;
    of the draft as saved when nothing was posted."""
    if not forms.form.is_bound:
        return version_audit(draft, data=data)
    attributes = _attributes(forms.form)
    if attributes is None:
        return None
    traits = forms.traits.lines() if forms.traits is not None and forms.traits.is_valid() else None
    if traits is None:
        traits = [{"name": t.name, "kind": t.kind, "points": t.points} for t in draft.traits.all()]
    current = homologated_version(draft.character)
    return lines_audit(
        data=data,
        attributes=attributes,
        skill_lines=follow_attributes(
            lines=[line for _, line in _skill_lines(forms.skills)],
            before=draft.attributes(),
            after=attributes,
            table=data.table,
        )[0],
        trait_lines=traits,
        item_lines=[
            {key: getattr(item, key) for key in ITEM_AUDIT_FIELDS} for item in draft.items.all()
        ],
        unread_lines=len(draft.unread_line_list),
        previous_total=version_total(current),
    )


def _page(request, character, draft, forms, data, *, status=200, import_form=None):
    audit = _audit_of(forms, data, draft)
    rows = [
        (index, form, audit.for_skill(form["name"].value() or "") if audit else None)
        for index, form in enumerate(forms.skills.forms)
    ]
    context = {
        "character": character,
        "draft": draft,
        "forms": forms,
        "form": forms.form,
        "formset": forms.skills,
        "skill_rows": rows,
        "traits": forms.traits or TraitFormSet(prefix="traits"),
        "items": forms.items or ItemFormSet(prefix="items"),
        "audit": audit,
        "import_form": import_form or ImportForm(),
        "catalogue": data.entries,
    }
    template = "sheets/draft.html#live" if request.htmx else "sheets/draft.html"
    return render(request, template, context, status=status)


def _save(request, character, draft, forms, data) -> HttpResponse:
    """Validate, complete the skill lines by the table, save (and submit); or the page again
    with each message beside its field (422), nothing saved."""
    if forms.all_valid():
        attributes = _attributes(forms.form)
        kept = _skill_lines(forms.skills)
        # An attribute changed: the levels follow it by the table, the points stay (§3.2).
        lines, followed = follow_attributes(
            lines=[line for _, line in kept],
            before=draft.attributes(),
            after=attributes,
            table=data.table,
        )
        resolved, errors = resolve_skill_lines(
            attributes=attributes,
            lines=lines,
            table=data.table,
            catalogue=data.catalogue,
        )
        for index, said in errors.items():
            for field, message in said.items():
                kept[index][0].add_error(field, message)
        if not errors and "submit" in request.POST:
            # Sent, the version no longer edits: asked first (a plain save is not).
            back = reverse("draft", kwargs={"code": character.code})
            if step := confirmation_step(request, "draft_submit", back=back):
                return step
        if not errors:
            try:
                sheet_draft_update(
                    version=draft,
                    attributes=attributes,
                    notes=forms.form.cleaned_data["notes"],
                    skills=resolved,
                    traits=forms.traits.lines() if forms.traits is not None else None,
                    items=forms.items.lines() if forms.items is not None else None,
                    unread_lines=request.POST.get("unread_lines")
                    if "unread_lines" in request.POST
                    else None,
                )
                if "submit" in request.POST:
                    sheet_submit(version=draft, user=request.user)
            except ServiceError as error:
                messages.error(request, error.message)
                return redirect("sheet", code=character.code)
            if "submit" in request.POST:
                messages.success(request, SUBMITTED.format(number=draft.number))
                for sentence in followed:
                    messages.info(request, sentence)
                return redirect("sheet", code=character.code)
            messages.success(request, SAVED)
            for sentence in followed:
                messages.info(request, sentence)
            return redirect("draft", code=character.code)
    messages.error(request, FIX_BELOW)
    return _page(request, character, draft, forms, data, status=422)


def _draft_of(character) -> SheetVersion | None:
    return (
        SheetVersion.objects.filter(character=character, status=SheetVersion.Status.DRAFT)
        .prefetch_related("skills", "traits", "items")
        .first()
    )


@login_required
def draft_edit(request: HtmxHttpRequest, code) -> HttpResponse:
    """Create (POST with no draft yet), show, check (``preview``) or save the owner's draft."""
    character, _ = access.character_for_owner(request, code)
    if data_sheet.keeps_json(character):  # the Xuleta's draft (sheets.data_draft)
        return data_draft.data_draft_page(request, character)
    draft = _draft_of(character)
    if draft is None:
        if request.method != "POST":
            context = {"character": character, "draft": None, "import_form": ImportForm()}
            return render(request, "sheets/draft.html", context)
        try:
            sheet_draft_create(character=character, user=request.user)
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect("sheet", code=character.code)
        return redirect("draft", code=character.code)
    data = skill_data(character.campaign)
    if request.method != "POST" or "st" not in request.POST:
        return _page(request, character, draft, _initial_forms(draft), data)
    if request.POST.get("add") in ROW_PARTS:
        # "Mais uma linha": the page again with one blank row more in that part, nothing saved.
        forms = _posted_forms(_with_a_blank_row(request.POST, request.POST["add"]))
        forms.all_valid()
        return _page(request, character, draft, forms, data)
    forms = _posted_forms(request.POST)
    if "preview" in request.POST or request.htmx:
        forms.all_valid()  # the errors show beside their fields; nothing is saved
        return _page(request, character, draft, forms, data)
    return _save(request, character, draft, forms, data)


@require_POST
@login_required
def draft_submit(request: HtmxHttpRequest, code) -> HttpResponse:
    character, _ = access.character_for_owner(request, code)
    draft = SheetVersion.objects.filter(
        character=character, status=SheetVersion.Status.DRAFT
    ).first()
    if draft is None:
        messages.error(request, NOT_A_DRAFT)
        return redirect("sheet", code=character.code)
    try:
        sheet_submit(version=draft, user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, SUBMITTED.format(number=draft.number))
    return redirect("sheet", code=character.code)


@require_POST
@login_required
def draft_import(request: HtmxHttpRequest, code) -> HttpResponse:
    """Paste a 3e character as text: a draft holding every line read, and the list of those not
    read. Refused text (too long, empty, nothing read) comes back beside the field, with the
    draft as it was."""
    character, _ = access.character_for_owner(request, code)
    form = ImportForm(request.POST)
    data = skill_data(character.campaign)
    if form.is_valid():
        losses = importing.import_losses(
            character=character, text=form.cleaned_data["text"], catalogue=data.catalogue
        )
        if losses:
            asked = Confirmation(IMPORT_ACTION, IMPORT_REPLACES.format(lines="; ".join(losses)))
            back = reverse("draft", kwargs={"code": character.code})
            if step := confirmation_step(request, "sheet_import", back=back, confirmation=asked):
                return step
        try:
            _, result = importing.sheet_import(
                character=character,
                user=request.user,
                text=form.cleaned_data["text"],
                table=data.table,
                catalogue=data.catalogue,
            )
        except ServiceError as error:
            form.add_error("text" if error.field == "text" else None, error.message)
        else:
            messages.success(
                request, IMPORTED.format(read=result.read_count, unread=len(result.unread))
            )
            return redirect("draft", code=character.code)
    draft = _draft_of(character)
    if draft is None:
        context = {"character": character, "draft": None, "import_form": form}
        return render(request, "sheets/draft.html", context, status=422)
    return _page(
        request, character, draft, _initial_forms(draft), data, status=422, import_form=form
    )


@login_required
def sheet_defaults(request: HtmxHttpRequest, code) -> HttpResponse:
    """ "E sem a perícia?": what the homologated sheet rolls in every catalogued skill it lacks,
    naming the default used (§3.3), and why there is none where there is none."""
    character, membership = access.character_for_member(request, code)
    if data_sheet.keeps_json(character):  # GURPS's defaults (§3.3): no such page elsewhere
        key = getattr(character, "campaign_ruleset", None) or character.campaign.ruleset
        context = {"character": character, "ruleset": ruleset_for(key).label}
        return render(request, "sheets/no_defaults.html", context, status=404)
    view = character_defaults(character)
    context = {"character": character, "membership": membership, "view": view}
    return render(request, "sheets/defaults.html", context)
