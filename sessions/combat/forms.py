"""The combat tracker's forms. No form takes a die: the server rolls."""

from __future__ import annotations

from django import forms

from campaigns.forms import request_key_field
from gurps import combat as engine
from gurps.hit_locations import HitLocation, Limb
from sessions.combat.messages import MANEUVER_NAMES, OPTION_WITHOUT_MANEUVER, TERRAIN_NAMES
from sessions.models import Combatant

MANEUVER_CHOICES = [("", "— escolha —")] + list(MANEUVER_NAMES.items())
ALL_OUT_CHOICES = [("", "—")] + [
    (row.option.value, f"({row.letter}) {row.text}") for row in engine.ALL_OUT_ATTACK_OPTIONS
]
DEFENCE_CHOICES = [
    ("", "a do defensor (a escolha dele, ou a de maior total)"),
    ("dodge", "Esquiva (só bicho ou NPC sem jogador)"),
    ("block", "Bloquear (só bicho ou NPC sem jogador)"),
    ("parry", "Aparar (só bicho ou NPC sem jogador)"),
]
OWN_DEFENCE_CHOICES = [("dodge", "Esquiva"), ("block", "Bloquear"), ("parry", "Aparar")]
# A limb is chosen with its side (each has its own §5.5 limit): "leg_left", "arm_weapon".
LOCATION_CHOICES = [
    choice
    for loc in HitLocation
    for choice in (
        [(limb.value, limb.label) for limb in Limb if limb.sided and limb.location is loc]
        or [(loc.value, loc.label)]
    )
]


def location_parts(value: str) -> dict:
    """A location choice as the attack takes it: ``location``, ``arm_side``, ``side``."""
    try:
        limb = Limb(value)
    except ValueError:
        return {"location": value}
    side = value.partition("_")[2]
    if limb.location is HitLocation.ARM:
        return {"location": limb.location.value, "arm_side": side}
    return {"location": limb.location.value, "side": side}


class _Form(forms.Form):
    request_key = request_key_field()

    def __init__(self, *args, **kwargs):
        # Ids of their own: the scene page holds these forms beside the log's.
        kwargs.setdefault("auto_id", f"combat-{type(self).__name__.lower()}-%s")
        super().__init__(*args, **kwargs)


class StartForm(_Form):
    characters = forms.MultipleChoiceField(
        choices=[], widget=forms.CheckboxSelectMultiple, label="Quem da cena entra na luta"
    )

    def __init__(self, *args, character_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = list(character_choices)
        self.fields["characters"].initial = [value for value, _ in character_choices]


class TurnForm(_Form):
    pass


class CreatureForm(_Form):
    name = forms.CharField(max_length=200, label="Nome")
    kind = forms.ChoiceField(
        choices=[
            (Combatant.Kind.CREATURE.value, "Bicho de bestiário"),
            (Combatant.Kind.NAMED_NPC.value, "NPC nomeado"),
        ],
        label="Tipo",
    )
    st = forms.IntegerField(min_value=1, max_value=40, label="ST")
    dx = forms.IntegerField(min_value=1, max_value=40, label="DX")
    iq = forms.IntegerField(min_value=1, max_value=40, label="IQ")
    ht = forms.IntegerField(min_value=1, max_value=40, label="HT")
    hp = forms.IntegerField(min_value=1, max_value=400, required=False, label="PV")
    move = forms.IntegerField(min_value=0, max_value=40, label="Deslocamento")
    dodge = forms.IntegerField(min_value=-10, max_value=30, label="Esquiva")
    block = forms.IntegerField(min_value=-10, max_value=30, required=False, label="Bloquear")
    passive_defense = forms.IntegerField(min_value=0, max_value=20, initial=0, label="PD")
    damage_resistance = forms.IntegerField(min_value=0, max_value=100, initial=0, label="RD")
    weapon_name = forms.CharField(max_length=100, required=False, label="Ataque")
    weapon_skill = forms.IntegerField(min_value=-10, max_value=40, required=False, label="NH")
    weapon_damage = forms.CharField(max_length=40, required=False, label="Dano (ex.: 2d cort)")
    weapon_parry = forms.IntegerField(min_value=-10, max_value=30, required=False, label="Aparar")
    weapon_weight = forms.CharField(
        max_length=12, required=False, label="Peso da arma (kg, para a quebra ao aparar)"
    )
    weapon_unarmed = forms.BooleanField(required=False, label="Ataque de mão limpa")
    flees = forms.BooleanField(required=False, label="A espécie foge (o documento 06 diz)")
    combat_reflexes = forms.BooleanField(required=False, label="Reflexos em Combate")
    surprise = forms.ChoiceField(
        choices=Combatant.Surprise.choices, required=False, label="Surpresa (§5e)"
    )


class DeclareForm(_Form):
    terrain = forms.MultipleChoiceField(
        choices=list(TERRAIN_NAMES.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Terreno (§5d)",
    )
    boss = forms.ChoiceField(choices=[], required=False, label="Chefe de encontro (§5.4.1)")

    def __init__(self, *args, boss_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["boss"].choices = [("", "nenhum")] + list(boss_choices)


class ManeuverForm(_Form):
    maneuver = forms.ChoiceField(choices=MANEUVER_CHOICES, label="Manobra (§4.3)")
    all_out_option = forms.ChoiceField(
        choices=ALL_OUT_CHOICES, required=False, label="Ataque Total: opção"
    )
    posture = forms.ChoiceField(
        choices=[("", "—")] + list(Combatant.Posture.choices),
        required=False,
        label="Nova posição",
    )
    weapon = forms.TypedChoiceField(
        choices=[], required=False, coerce=int, empty_value=None, label="Arma"
    )
    reloading = forms.BooleanField(required=False, label="Recarregando arma de projétil")
    target = forms.ChoiceField(choices=[], required=False, label="Finta contra")
    target_blind = forms.BooleanField(
        required=False, label="O alvo da finta não vê o atacante (a finta não vale)"
    )

    def __init__(self, *args, weapon_choices=(), target_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["weapon"].choices = [("", "—")] + list(weapon_choices)
        self.fields["target"].choices = [("", "—")] + list(target_choices)


PARRY_NOT_THE_DEFENDERS = "Essa arma não é do alvo: ele apara só com as armas dele."


def _clean_parry_weapon(form: forms.Form, data: dict) -> None:
    """``parry_weapon`` is posted as ``<defender code>:<line index>`` (the choices are grouped
    by combatant, so each lists only his own weapons): the index, if the weapon is the
    defender's."""
    code, _, index = (data.get("parry_weapon") or "").partition(":")
    data["parry_weapon"] = None
    if not code:
        return
    if code != data.get("defender"):
        form.add_error("parry_weapon", PARRY_NOT_THE_DEFENDERS)
        return
    data["parry_weapon"] = int(index)


class AttackForm(_Form):
    attacker = forms.ChoiceField(
        choices=[], required=False, label="Quem ataca (o do turno, ou quem Aguarda)"
    )
    weapon = forms.TypedChoiceField(choices=[], coerce=int, label="Arma")
    defender = forms.ChoiceField(choices=[], label="Alvo")
    location = forms.ChoiceField(choices=LOCATION_CHOICES, initial="torso", label="Onde")
    lighting = forms.IntegerField(
        min_value=-9, max_value=0, required=False, label="Iluminação ruim (−1 a −9)"
    )
    total_darkness = forms.BooleanField(required=False, label="Escuridão total (−10)")
    bad_footing = forms.IntegerField(
        max_value=0, min_value=-20, required=False, label="Apoio ruim (−2 ou pior)"
    )
    awkward_position = forms.IntegerField(
        max_value=0, min_value=-20, required=False, label="Posição estranha (−2 ou pior)"
    )
    distance_m = forms.IntegerField(
        min_value=0, max_value=100_000, required=False, label="Distância (m), tiro"
    )
    mod_label = forms.CharField(max_length=200, required=False, label="Outro modificador")
    mod_value = forms.IntegerField(min_value=-50, max_value=50, required=False, label="Valor")
    defence = forms.ChoiceField(choices=DEFENCE_CHOICES, required=False, label="Defesa")
    second_defence = forms.ChoiceField(
        choices=DEFENCE_CHOICES, required=False, label="Segunda defesa (Defesa Total)"
    )
    parry_weapon = forms.ChoiceField(choices=[], required=False, label="Apara com")
    retreat = forms.BooleanField(required=False, label="Recua (+3, uma vez por rodada)")
    dagger = forms.BooleanField(required=False, label="Apara com a adaga (§4.14)")

    def __init__(
        self,
        *args,
        weapon_choices=(),
        defender_choices=(),
        parry_choices=(),
        attacker_choices=(),
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.fields["attacker"].choices = list(attacker_choices)
        self.fields["weapon"].choices = list(weapon_choices)
        self.fields["defender"].choices = [("", "— escolha o alvo —")] + list(defender_choices)
        self.fields["parry_weapon"].choices = [("", "a primeira que apara")] + list(parry_choices)
        self.fields["parry_weapon"].widget.attrs["data-follows"] = self["defender"].auto_id

    def clean(self):
        data = super().clean()
        if data.get("mod_label") and data.get("mod_value") is None:
            self.add_error("mod_value", "Diga o valor do modificador (ex.: −2).")
        if data.get("mod_value") not in (None, 0) and not (data.get("mod_label") or "").strip():
            # A value without its reason would be dropped; say so before any die (§1.4).
            self.add_error("mod_label", "Diga o motivo do modificador, antes dos dados (§1.4).")
        _clean_parry_weapon(self, data)
        return data


class DefenceChoiceForm(_Form):
    """The defender's own choice (§4.1, §4.6): what he uses, and if that cannot be used."""

    combatant = forms.CharField(widget=forms.HiddenInput)
    # «Decidir por mim» is an opt-in: the first choice, "" (the default), is to be asked at the
    # moment of each attack (§4.6).
    first = forms.ChoiceField(
        choices=[("", "eu escolho na hora de cada ataque"), ("best", "a de maior total")]
        + OWN_DEFENCE_CHOICES,
        required=False,
        label="Decidir por mim: defendo com",
    )
    then = forms.ChoiceField(
        choices=[("", "a de maior total")] + OWN_DEFENCE_CHOICES,
        required=False,
        label="Se não der",
    )
    retreat = forms.BooleanField(required=False, label="Recuo (+3, uma vez por rodada)")


class AdjustForm(_Form):
    combatant = forms.ChoiceField(choices=[], label="Combatente")
    hp_lost = forms.IntegerField(
        min_value=-400, max_value=400, label="PV perdidos (negativo devolve)"
    )
    reason = forms.CharField(
        max_length=500, label="Motivo (ex.: erro crítico 5, atingiu a si mesmo na perna)"
    )

    def __init__(self, *args, combatant_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["combatant"].choices = list(combatant_choices)


class EndForm(_Form):
    spoils = forms.CharField(
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Espólio de carcaça (anotação)",
    )


KEEP_MANEUVER = [("", "— a declarada neste turno (ou nenhuma: só passa o turno) —")]


class TurnActForm(_Form):
    """A combatant's whole turn in one form (``sessions.combat.acting.combat_act``): the turn
    passed to him, his maneuver and options, his attack; «Prévia» rolls nothing. Its fields
    carry the prefix ``act-`` (the page holds the step-by-step forms beside it)."""

    combatant = forms.ChoiceField(choices=[], label="Quem age")
    maneuver = forms.ChoiceField(
        choices=KEEP_MANEUVER + MANEUVER_CHOICES[1:], required=False, label="Manobra do turno"
    )
    all_out_option = forms.ChoiceField(
        choices=ALL_OUT_CHOICES, required=False, label="Opção do Ataque Total"
    )
    posture = forms.ChoiceField(
        choices=[("", "—")] + list(Combatant.Posture.choices),
        required=False,
        label="Posição nova (Mudança de Posição)",
    )
    weapon = forms.TypedChoiceField(
        choices=[],
        required=False,
        coerce=int,
        empty_value=None,
        label="Arma da manobra (Apontar, Preparar, Finta)",
    )
    reloading = forms.BooleanField(required=False, label="Recarrega arma de projétil")
    target = forms.ChoiceField(choices=[], required=False, label="Finta contra (Finta, Total b)")
    target_blind = forms.BooleanField(
        required=False, label="Quem recebe a finta não vê quem finta (não vale)"
    )
    defender = forms.ChoiceField(choices=[], required=False, label="Ataca quem (vazio: não ataca)")
    attack_weapon = forms.TypedChoiceField(
        choices=[], required=False, coerce=int, empty_value=0, label="Com qual arma"
    )
    location = forms.ChoiceField(choices=LOCATION_CHOICES, initial="torso", label="Onde bate")
    lighting = forms.IntegerField(
        min_value=-9, max_value=0, required=False, label="Luz ruim, de −1 a −9"
    )
    total_darkness = forms.BooleanField(required=False, label="Breu total (−10)")
    bad_footing = forms.IntegerField(
        max_value=0, min_value=-20, required=False, label="Chão ruim (−2 ou pior)"
    )
    awkward_position = forms.IntegerField(
        max_value=0, min_value=-20, required=False, label="Posição desajeitada (−2 ou pior)"
    )
    distance_m = forms.IntegerField(
        min_value=0, max_value=100_000, required=False, label="Metros até o alvo (tiro)"
    )
    mod_label = forms.CharField(max_length=200, required=False, label="Mais um modificador")
    mod_value = forms.IntegerField(min_value=-50, max_value=50, required=False, label="Quanto")
    defence = forms.ChoiceField(choices=DEFENCE_CHOICES, required=False, label="Defesa do alvo")
    second_defence = forms.ChoiceField(
        choices=DEFENCE_CHOICES, required=False, label="Segunda defesa do alvo (Defesa Total)"
    )
    parry_weapon = forms.ChoiceField(choices=[], required=False, label="O alvo apara com")
    retreat = forms.BooleanField(required=False, label="O alvo recua (+3)")
    dagger = forms.BooleanField(required=False, label="O alvo apara com a adaga (§4.14)")
    dry_run = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        combatant_choices=(),
        weapon_choices=(),
        target_choices=(),
        parry_choices=(),
        **kwargs,
    ):
        kwargs.setdefault("prefix", "act")
        super().__init__(*args, **kwargs)
        self.fields["combatant"].choices = list(combatant_choices)
        weapons = [(str(i), name) for i, name in weapon_choices]
        self.fields["weapon"].choices = [("", "—")] + weapons
        self.fields["attack_weapon"].choices = weapons or [("0", "—")]
        self.fields["target"].choices = [("", "—")] + list(target_choices)
        self.fields["defender"].choices = [("", "— não ataca —")] + list(target_choices)
        self.fields["parry_weapon"].choices = [("", "a primeira que apara")] + list(parry_choices)
        self.fields["parry_weapon"].widget.attrs["data-follows"] = self["defender"].auto_id

    def clean(self):
        data = super().clean()
        if data.get("mod_label") and data.get("mod_value") is None:
            self.add_error("mod_value", "Diga o valor do modificador (ex.: −2).")
        if data.get("mod_value") not in (None, 0) and not (data.get("mod_label") or "").strip():
            self.add_error("mod_label", "Diga o motivo do modificador, antes dos dados (§1.4).")
        if not data.get("maneuver"):
            for name in ("all_out_option", "posture", "weapon", "reloading", "target"):
                if data.get(name) not in (None, "", False):
                    self.add_error(name, OPTION_WITHOUT_MANEUVER)
        _clean_parry_weapon(self, data)
        return data


class FledForm(_Form):
    """The Mestre confirms that a combatant fled (the page asked first, without JavaScript)."""

    combatant = forms.ChoiceField(choices=[], label="Quem fugiu")

    def __init__(self, *args, combatant_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["combatant"].choices = list(combatant_choices)
