"""The scene page's panel of a fight its ruleset plays whole (the sistema001's): read-only — the
order with each Iniciativa, PV, the conditions and when each ends, the objects, the readings in
use and the log. The fight itself is run through the API and the MCP tools (``fight_*``)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from sessions.models import Scene
from sessions.native_combat import services

RECENT = 3  # the fight's events the panel shows unfolded


def fight_panel(request, scene: Scene, membership) -> HttpResponse:
    """The panel (the region alone for htmx, 204 when the poller already has this revision)."""
    combat = services.fight_current(scene)
    if request.htmx:
        seen = request.GET.get("v")
        if seen and (seen == f"{combat.code}.{combat.revision}" if combat else seen == "none"):
            return HttpResponse(status=204)
    view = _shown(services.fight_view(combat)) if combat is not None else None
    context = {
        "scene": scene,
        "combat": combat,
        "fight": view,
        "can_run": membership.runs_the_table,
        "label": services.ruleset_label(scene.week.campaign.ruleset),
        # the hit points' name in the system's words: the Xuleta's «punts de cop» (PC)
        "hp_word": "PC" if view is not None and view["ruleset"] == "xuleta5e" else "PV",
    }
    template = "native_combat/panel.html#panel" if request.htmx else "native_combat/panel.html"
    return render(request, template, context)


def _shown(view: dict) -> dict:
    """The fight's view as the panel draws it: each row with its PV bar (the share of PV left,
    low at half or less), how many of the rules that depend on the Árbitro still await him,
    and the log newest first, as the scene's log reads — the last
    ``RECENT`` events shown, the older ones folded (a long fight stays short on a phone)."""
    for row in view["order"]:
        row.setdefault("ac", None)
        top = max(row["pv_max"], 1)
        row["pv_percent"] = max(0, min(100, round(100 * row["pv"] / top)))
        row["pv_low"] = 2 * row["pv"] <= row["pv_max"]
    view["arbitro_awaiting"] = sum(1 for a in view.get("arbitro", ()) if a["awaits_arbitro"])
    log = list(reversed(view["log"]))
    view["log_recent"], view["log_older"] = log[:RECENT], log[RECENT:]
    return view
