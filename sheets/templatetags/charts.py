"""Inline SVG drawn on the server: the load against the carga thresholds, the 3d6 curve.

Geometry only; the numbers come from ``gurps`` (thresholds, the 3d6 distribution).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join

from gurps.dice import three_d6_distribution

register = template.Library()

LEVEL_COLOURS = ("#6a994e", "#a7c957", "#f2c14e", "#e76f51", "#9d0208")


def _kg(value: Fraction) -> str:
    text = f"{float(value):.1f}".rstrip("0").rstrip(".")
    return text.replace(".", ",")


@register.simple_tag
def load_bar(bounds, carried_kg, lift_max_kg):
    """A horizontal bar: the five carga bands up to 10×ST, and a marker at the load carried.

    ``bounds`` is ``gurps.encumbrance.encumbrance_bounds(st)``: (level, max kg) pairs.
    """
    width, left, bar_y, bar_h = 640, 10, 18, 22
    top_kg = float(lift_max_kg)
    scale = (width - 2 * left) / top_kg
    carried = float(carried_kg)
    rects, labels = [], []
    start = 0.0
    for (row, max_kg), colour in zip(bounds, LEVEL_COLOURS, strict=False):
        x0, x1 = left + start * scale, left + float(max_kg) * scale
        rects.append(
            (
                f"{x0:.1f}",
                bar_y,
                f"{x1 - x0:.1f}",
                bar_h,
                colour,
                f"{row.name}: até {_kg(max_kg)} kg",
            )
        )
        labels.append((f"{x1:.1f}", _kg(max_kg)))
        start = float(max_kg)
    x_end = left + top_kg * scale
    x_lift = left + start * scale
    rects.append(
        (
            f"{x_lift:.1f}",
            bar_y,
            f"{x_end - x_lift:.1f}",
            bar_h,
            "#ccc",
            f"Só se ergue: até {_kg(lift_max_kg)} kg",
        )
    )
    marker = left + min(carried, top_kg) * scale
    return format_html(
        '<svg class="load-bar" viewBox="0 0 {} 64" role="img" aria-label="Carga: {} kg carregados">'
        "{}{}"
        '<line x1="{}" x2="{}" y1="10" y2="46" stroke="#111" stroke-width="3"/>'
        '<text x="{}" y="9" text-anchor="middle" class="load-now">{} kg</text>'
        "</svg>",
        width,
        _kg(Fraction(str(carried))),
        format_html_join(
            "",
            '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>',
            rects,
        ),
        format_html_join(
            "",
            '<text x="{}" y="58" text-anchor="middle" class="load-tick">{}</text>',
            labels,
        ),
        f"{marker:.1f}",
        f"{marker:.1f}",
        f"{marker:.1f}",
        _kg(Fraction(str(carried))),
    )


@register.simple_tag
@lru_cache(maxsize=64)  # a pure function of the level, drawn once per level per process
def odds_curve(level: int):
    """The 3d6 bell with the results that pass at ``level`` shaded (canon §1.1)."""
    distribution = three_d6_distribution()
    peak = max(distribution.values())
    bar_w, height = 6, 26
    bars = []
    for index, total in enumerate(range(3, 19)):
        ways = distribution[total]
        h = height * ways / peak
        colour = "#2a6f97" if total <= level else "#d9d9d9"
        bars.append(
            (index * (bar_w + 1), f"{height - h:.1f}", bar_w, f"{h:.1f}", colour, total, ways)
        )
    return format_html(
        '<svg class="odds-curve" viewBox="0 0 {} {}" role="img" '
        'aria-label="3d6: passam os resultados até {}">{}</svg>',
        16 * (bar_w + 1),
        height,
        level,
        format_html_join(
            "",
            '<rect x="{}" y="{}" width="{}" height="{}" fill="{}">'
            "<title>{}: {} em 216</title></rect>",
            bars,
        ),
    )
