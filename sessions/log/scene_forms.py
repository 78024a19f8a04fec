"""The Mestre's forms of the scene as a whole: PV and fatigue changed outside a fight
(``sessions.log.scene_ops.state_change_create``)."""

from __future__ import annotations

from django import forms

from campaigns.forms import request_key_field
from sessions.log import scene_ops

_POINTS = {
    "min_value": -scene_ops.CHANGE_LIMIT,
    "max_value": scene_ops.CHANGE_LIMIT,
    "required": False,
    "initial": 0,
}
_POINTS_ERRORS = {
    "invalid": scene_ops.CHANGE_NOT_AN_INTEGER,
    "min_value": scene_ops.CHANGE_OUT_OF_RANGE.format(limit=scene_ops.CHANGE_LIMIT),
    "max_value": scene_ops.CHANGE_OUT_OF_RANGE.format(limit=scene_ops.CHANGE_LIMIT),
}


class StateChangeForm(forms.Form):
    """PV and fatigue: negative lost, positive recovered; the reason is required. With
    ``d20`` (the Xuleta) the points are PC and there is no fatigue field."""

    request_key = request_key_field()
    character = forms.ChoiceField(label="Personagem")
    hp = forms.IntegerField(
        label="PV (−perde, +recupera)", error_messages=_POINTS_ERRORS, **_POINTS
    )
    fatigue = forms.IntegerField(
        label="Fadiga (−perde, +recupera)", error_messages=_POINTS_ERRORS, **_POINTS
    )
    reason = forms.CharField(
        label="Motivo",
        max_length=300,
        error_messages={"required": scene_ops.REASON_NEEDED},
    )

    def __init__(self, *args, characters=(), d20=False, **kwargs):
        kwargs.setdefault("prefix", "state")
        super().__init__(*args, **kwargs)
        if d20:  # the Xuleta has PC and no fatigue (its exhaustion is a condition)
            del self.fields["fatigue"]
            self.fields["hp"].label = "PC (−perde, +recupera)"
        self.fields["character"].choices = [(str(c.code), c.name) for c in characters]
