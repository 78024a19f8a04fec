"""Presentation filters for the canon's numbers (formatting only; no rule computed here)."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeData, mark_safe

from gurps.checks import OUTCOME_NAMES, Outcome
from gurps.derived import format_number
from gurps.readings import READINGS

register = template.Library()

_READINGS = {reading.key: reading for reading in READINGS}


@register.filter
def number(value) -> str:
    """6,75 for 27/4; −3 with the canon's minus sign."""
    if value is None:
        return "—"
    return format_number(value)


@register.filter
def reading(key: str):
    """The open question and the reading the engine uses for it (gurps.readings)."""
    return _READINGS.get(key)


@register.filter
def signed(value: int) -> str:
    return f"{value:+d}".replace("-", "\u2212")


_MINUS = re.compile(r"(?<![\w.,/-])-(?=\d)")
_CODE_SPAN = re.compile(r"`([^`]+)`")


@register.filter
def minus(text) -> str:
    """ "Montanha -10" → "Montanha −10": a hyphen before a number, where it is the minus
    (not in a date, a name like semana-01 or a range like 3-5)."""
    return _MINUS.sub("\u2212", str(text))


@register.filter
def prose(text) -> str:
    """Text written for people, as the canon writes it: `06` (a canon document, in the
    canon's Markdown) shown as code, not as raw backticks; the minus sign for a hyphen."""
    if isinstance(text, SafeData):  # already HTML (its code already marked): as it is
        return text
    html = _CODE_SPAN.sub(r"<code>\1</code>", str(escape(minus(text or ""))))
    return mark_safe(html)  # noqa: S308 - escaped above; only <code> is added


@register.filter
def outcome_name(code: str) -> str:
    """ "critical_success" → "Sucesso decisivo" (§1.2): a roll's outcome as people read it."""
    try:
        return OUTCOME_NAMES[Outcome(code)]
    except ValueError:
        return code or ""


@register.filter
def dice_text(expression: str) -> str:
    """1d-1 as the canon writes it, 1d−1."""
    return (expression or "").replace("-", "\u2212")


@register.filter
def section_anchor(section: str) -> str:
    """The rules page's anchor of a canon section: ``secao-4-11`` for "4.11"; of several
    ("5.4, 6.2") the anchor of them all, ``secao-5-4-6-2``."""
    return "secao-" + re.sub(r"[^0-9a-z]+", "-", str(section).lower()).strip("-")


@register.filter
def first_section(sections: str) -> str:
    """The first of "5.3, 5.4": the section a link goes to."""
    return str(sections).split(",")[0].strip()
