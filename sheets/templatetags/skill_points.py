"""Skill points as a sheet writes them: ``{{ value|points }}`` → "½ ponto", "8 pontos"."""

from __future__ import annotations

from django import template

from gurps.skill_costs import format_points, points_text

register = template.Library()


@register.filter
def points(value) -> str:
    """ "½ ponto", "1 ponto", "8 pontos"; "" for None."""
    return "" if value is None else points_text(value)


@register.filter
def bare_points(value) -> str:
    """ "½", "8"; "" for None."""
    return "" if value is None else format_points(value)
