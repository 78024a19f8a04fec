"""«Resolução de Dano»: a weapon's damage and the order damage is resolved in.

Chapter «4. Combate», sections «Resolução de Dano», «Regras Gerais de Dano», «Dano por Tipo
de Arma», «Tipos de Dano», «Tipo de Dano e Natureza do Efeito», «Resistência / Vulnerabilidade
/ Imunidade ao tipo de dano», «Ataques com Múltiplos Tipos de Dano», «Críticos em Combate».

``weapon_damage`` gives a weapon's damage; ``resolve`` takes the attack's parts (one per
damage type: ``DamagePart``) and the outcome against the Defesa and goes, in the text's
order: the comparison (a graze deals only the minimum 1, a miss nothing), the critical
(doubles), the area defence (halves), the mitigation per type (immunity → 0, resistance →
half rounded down and cancels the minimum, vulnerability → double), the reduction (after
resistances and immunities), then the minimum 1 unless cancelled. Each step is a Portuguese
line in ``DamageResult.steps``. ``resolve_effect`` does the same for damage that is not an
attack (a condition's «2 PV de dano de fogo»): mitigation per type, no minimum.

Readings (keys of ``sistema001.readings``): ``graze_minimum_only`` (a graze deals 1 whatever
the critical or vulnerability; resistance or immunity to every type still cancels it),
``area_half_rounding`` (the area defence halves each part rounded down, then the minimum 1),
``resistance_and_vulnerability`` (both on the same type: half rounded down, then double),
``minimum_after_reduction`` (the minimum 1 still holds after a reduction, unless cancelled),
``multi_type_minimum`` (the minimum is cancelled only when every part is resisted or immune),
``mundane_immune_is_immunity`` (``Fighter.mundane_immune`` nullifies every non-magical part),
``multi_type_split`` (how a multi-type weapon's damage divides among its types: the Mestre's).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from sistema001.attributes import attribute_bonus
from sistema001.errors import Sistema001Error
from sistema001.fighters import DAMAGE_TYPE_LABELS, Fighter, Weapon

OUTCOMES: tuple[str, ...] = ("acerto", "raspao", "falha")
OUTCOME_LABELS = MappingProxyType({"acerto": "Acerto", "raspao": "Raspão", "falha": "Falha"})

# «Tipos de Dano»: each type's sentence, as the chapter prints it.
DAMAGE_TYPE_TEXTS = MappingProxyType(
    {
        "corte": "Dano causado por lâminas, garras ou superfícies afiadas que dilaceram "
        "tecidos. Espadas, machados, facas, foices, garras, lâminas energéticas, sabres de "
        "plasma e armas de campo cortante causam dano de corte.",
        "perfuracao": "Dano concentrado em um ponto específico, atravessando tecidos ou "
        "armaduras. Lanças, flechas, projéteis, balas, estocadas, presas, armas de fogo, "
        "rifles de precisão, canhões de agulha e disparadores cinéticos causam dano de "
        "perfuração.",
        "contusao": "Dano causado por impacto bruto, esmagamento ou deslocamento de força. "
        "Socos, quedas, colisões, martelos, explosões, ondas de choque, granadas de impacto, "
        "armas gravitacionais e projéteis de massa causam dano de contusão.",
        "fogo": "Dano causado por calor intenso, chamas ou combustão. Incêndios, explosões "
        "térmicas, lava, armas incendiárias, lança-chamas, armas laser, feixes térmicos e "
        "canhões de plasma causam dano de fogo.",
        "frio": "Dano causado por congelamento, temperaturas extremas ou extração térmica. "
        "Gelo, climas severos, armas criogênicas, granadas de gelo, feixes de congelamento e "
        "tecnologia de anulação térmica causam dano de frio.",
        "eletrico": "Dano causado por descargas elétricas ou campos energéticos instáveis. "
        "Relâmpagos, choques, tempestades, armas elétricas, tasers militares, canhões de íons "
        "e armas de pulso eletromagnético causam dano elétrico.",
        "quimico": "Dano causado por substâncias corrosivas, tóxicas ou reações químicas "
        "agressivas. Ácidos, venenos, gases, toxinas, poluentes, armas químicas, sprays "
        "corrosivos, nanovenenos e munições químicas causam dano químico.",
        "sonico": "Dano causado por ondas de pressão, vibração ou som concentrado. Estrondos, "
        "explosões sônicas, impactos acústicos, canhões sônicos, armas de ressonância e "
        "dispositivos de vibração destrutiva causam dano sônico.",
        "psiquico": "Dano causado diretamente à mente, consciência ou estrutura mental do "
        "alvo. Ataques mentais, sobrecarga cognitiva, ilusões destrutivas, rupturas "
        "psíquicas, interfaces neurais hostis e armas de ataque mental causam dano psíquico.",
        "magico": "Dano que causa Efeito Mágico. Magias, poderes místicos, efeitos arcanos, "
        "divinos ou sobrenaturais causam dano mágico.",
    }
)

# «Dano por Tipo de Arma»: the formula of each weapon kind, as printed.
WEAPON_DAMAGE_FORMULAS = MappingProxyType(
    {
        "corpo_a_corpo": "1 + Aumento de Dano da arma + Bônus de Força",
        "arremesso": "1 + Aumento de Dano da arma + Bônus de Força",
        "disparo": "1 + Aumento de Dano da arma",
        "improvisada": "1 + Bônus de Força (contusão)",
    }
)

UNKNOWN_OUTCOME = "Resultado desconhecido «{outcome}»: use acerto, raspão ou falha."
BAD_AMOUNT = "O dano de cada tipo deve ser um número inteiro de 0 ou mais."
BAD_REDUCTION = "A redução de dano deve ser um número inteiro de 0 ou mais."
NO_PARTS = "Dê ao menos uma parte de dano (tipo e valor)."
SPLIT_NEEDED = (
    "A arma causa mais de um tipo de dano: informe quanto dos {amount} de dano é de cada tipo "
    "(um número para cada tipo, somando {amount})."
)
AREA_ONLY_ON_HIT = (
    "A defesa bem-sucedida contra ataque em área reduz o dano à metade: passe o resultado "
    "«acerto» (o ataque em área atinge) com a defesa marcada."
)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class DamagePart:
    """One damage type of an attack: ``type`` a damage type key, ``amount`` an int ≥ 0,
    ``magical`` whether it is a magical effect (``"magico"`` always is: «Toda magia gera
    efeitos mágicos»). Raises ``Sistema001Error``."""

    type: str
    amount: int
    magical: bool = False

    def __post_init__(self) -> None:
        if self.type not in DAMAGE_TYPE_LABELS:
            raise Sistema001Error(f"Tipo de dano desconhecido «{self.type}».", "type")
        if not _int(self.amount) or self.amount < 0:
            raise Sistema001Error(BAD_AMOUNT, "amount")
        object.__setattr__(self, "magical", bool(self.magical) or self.type == "magico")


@dataclass(frozen=True)
class PartResult:
    """What became of one part: ``before`` (after the critical and the area halving),
    ``mitigation`` («imune», «resistente», «vulnerável», «resistente e vulnerável» or ""),
    ``after`` (after the mitigation, before the reduction)."""

    type: str
    magical: bool
    rolled: int
    before: int
    mitigation: str
    after: int


@dataclass(frozen=True)
class DamageResult:
    """``total``: the PV the target loses (int ≥ 0); ``steps``: the resolution in Portuguese,
    in order; ``per_type``: one ``PartResult`` per part; ``minimum_cancelled``: whether the
    minimum 1 did not apply; ``readings``: the reading keys the result depends on."""

    total: int
    steps: tuple[str, ...]
    per_type: tuple[PartResult, ...]
    minimum_cancelled: bool = False
    readings: tuple[str, ...] = ()


def weapon_damage(weapon: Weapon, forca: int) -> int:
    """A weapon's damage before the outcome and mitigation, an int ≥ 1 («Dano por Tipo de
    Arma»): corpo a corpo and arremesso: 1 + Aumento de Dano + Bônus de Força; disparo (and
    arma de fogo): 1 + Aumento de Dano («Essas armas não recebem bônus natural de atributo no
    dano»); improvisada/desarmado: 1 + Bônus de Força (contusão). ``forca`` the attribute
    Força (int ≥ 0)."""
    return sum(value for _, value in weapon_damage_terms(weapon, forca))


def weapon_damage_terms(weapon: Weapon, forca: int) -> tuple[tuple[str, int], ...]:
    """The terms ``weapon_damage`` adds, as ``(name, value)`` in the chapter's words («Dano por
    Tipo de Arma»): ``("", 1)`` the base, ``("Aumento", n)`` the weapon's Aumento de Dano (not
    for an improvised weapon), ``("Bônus de Força", n)`` (not for a disparo). A zero Aumento is
    left out."""
    terms: list[tuple[str, int]] = [("", 1)]
    if weapon.kind != "improvisada" and weapon.damage_increase:
        terms.append(("Aumento", weapon.damage_increase))
    if weapon.kind != "disparo":
        terms.append(("Bônus de Força", attribute_bonus(forca)))
    return tuple(terms)


def weapon_damage_formula(weapon: Weapon, forca: int) -> str:
    """``weapon_damage`` said whole, for the log: «1 + Aumento 1 + Bônus de Força 2 = 4»
    (a disparo: «1 + Aumento 2 = 3»; improvised/unarmed: «1 + Bônus de Força 1 = 2»)."""
    terms = weapon_damage_terms(weapon, forca)
    said = " + ".join(f"{name} {value}".strip() for name, value in terms)
    return f"{said} = {sum(value for _, value in terms)}"


def weapon_parts(
    weapon: Weapon, forca: int, split: Sequence[int] | None = None
) -> tuple[DamagePart, ...]:
    """The weapon's damage (``weapon_damage``) as ``DamagePart``s, magical if the weapon is.

    One damage type: one part. Several («um Sabre de Luz causa dano tipo Corte e Fogo»): the
    chapter says each type is «essa parte do dano» and not how the damage is divided, so the
    Mestre gives ``split``, one int ≥ 0 per type in ``weapon.damage_types`` order, adding up to
    the weapon's damage (reading ``multi_type_split``). Raises ``Sistema001Error`` (field
    ``split``) when it is missing or does not add up.
    """
    amount = weapon_damage(weapon, forca)
    types = weapon.damage_types
    if len(types) == 1 and split is None:
        return (DamagePart(types[0], amount, weapon.magical),)
    if split is None:
        raise Sistema001Error(SPLIT_NEEDED.format(amount=amount), "split")
    values = tuple(split)
    if (
        len(values) != len(types)
        or any(not _int(v) or v < 0 for v in values)
        or sum(values) != amount
    ):
        raise Sistema001Error(SPLIT_NEEDED.format(amount=amount), "split")
    return tuple(DamagePart(t, v, weapon.magical) for t, v in zip(types, values, strict=True))


def _mitigate(part: DamagePart, amount: int, target: Fighter) -> tuple[int, str, bool]:
    """(amount after, mitigation label, whether the part cancels the minimum)."""
    if part.type in target.immunities:
        return 0, "imune", True
    if target.mundane_immune and not part.magical:
        return 0, "imune a efeitos mundanos", True
    resistant = part.type in target.resistances
    vulnerable = part.type in target.vulnerabilities
    if resistant and vulnerable:
        return (amount // 2) * 2, "resistente e vulnerável", True
    if resistant:
        return amount // 2, "resistente", True
    if vulnerable:
        return amount * 2, "vulnerável", False
    return amount, "", False


def _check_parts(parts: Sequence[DamagePart]) -> tuple[DamagePart, ...]:
    found = tuple(parts)
    if not found:
        raise Sistema001Error(NO_PARTS, "parts")
    for part in found:
        if not isinstance(part, DamagePart):
            raise Sistema001Error(NO_PARTS, "parts")
    return found


def _label(part: DamagePart) -> str:
    name = DAMAGE_TYPE_LABELS[part.type].lower()
    return f"{name} (mágico)" if part.magical and part.type != "magico" else name


def resolve(
    parts: Sequence[DamagePart],
    target: Fighter,
    *,
    outcome: str,
    critical: bool,
    area_defended: bool = False,
    reduction: int = 0,
    cancel_minimum: bool = False,
) -> DamageResult:
    """Resolve an attack's damage against ``target`` («Resolução de Dano»).

    ``parts``: one ``DamagePart`` per damage type (amounts as rolled/computed, before the
    critical). ``outcome``: ``"acerto"`` (Ataque maior que a Defesa), ``"raspao"`` (igual) or
    ``"falha"`` (menor) — ``attacks.outcome``; for an area attack pass ``"acerto"`` and
    ``area_defended`` when the target's Defesa succeeded. ``critical``: the attack's die
    showed its highest face («Dobra o atributo (mínimo 5) e o dano»). ``reduction``: a
    reduction an Vantagem, Magia or equipment states (int ≥ 0), applied after resistances
    and immunities. ``cancel_minimum``: «Um efeito específico anula explicitamente o dano
    mínimo» (or «Armaduras especiais podem negar dano mínimo»).

    Returns ``DamageResult``; raises ``Sistema001Error`` for an unknown outcome, no parts or
    a bad reduction.
    """
    found = _check_parts(parts)
    if outcome not in OUTCOMES:
        raise Sistema001Error(UNKNOWN_OUTCOME.format(outcome=outcome), "outcome")
    if not _int(reduction) or reduction < 0:
        raise Sistema001Error(BAD_REDUCTION, "reduction")
    if area_defended and outcome != "acerto":
        raise Sistema001Error(AREA_ONLY_ON_HIT, "area_defended")
    steps: list[str] = []
    readings: list[str] = []
    if outcome == "falha":
        steps.append("Ataque menor que a Defesa: o ataque falha e não causa efeito.")
        results = tuple(PartResult(p.type, p.magical, p.amount, 0, "", 0) for p in found)
        return DamageResult(0, tuple(steps), results, True, ())
    if outcome == "raspao":
        return _graze(found, target, cancel_minimum)
    steps.append("Ataque maior que a Defesa: o ataque acerta e causa dano total.")
    amounts = [p.amount for p in found]
    if critical:
        amounts = [a * 2 for a in amounts]
        steps.append(
            "Acerto crítico: o dano é dobrado ("
            + ", ".join(
                f"{p.amount} → {a} de {_label(p)}" for p, a in zip(found, amounts, strict=True)
            )
            + ")."
        )
    if area_defended:
        amounts = [a // 2 for a in amounts]
        readings.append("area_half_rounding")
        steps.append(
            "Defesa bem-sucedida contra ataque em área: o dano cai à metade, arredondado "
            "para baixo ("
            + ", ".join(f"{a} de {_label(p)}" for p, a in zip(found, amounts, strict=True))
            + "), mínimo 1."
        )
    results: list[PartResult] = []
    cancels: list[bool] = []
    for part, amount in zip(found, amounts, strict=True):
        after, mitigation, cancel = _mitigate(part, amount, target)
        cancels.append(cancel)
        results.append(PartResult(part.type, part.magical, part.amount, amount, mitigation,
                                  after))  # fmt: skip
        if mitigation:
            steps.append(_mitigation_line(part, amount, mitigation, after))
            if mitigation == "resistente e vulnerável":
                readings.append("resistance_and_vulnerability")
            if mitigation == "imune a efeitos mundanos":
                readings.append("mundane_immune_is_immunity")
    subtotal = sum(r.after for r in results)
    if len(found) > 1:
        readings.append("multi_type_minimum")
    total = subtotal
    if reduction:
        total = max(0, subtotal - reduction)
        steps.append(
            f"Redução de dano {reduction}, aplicada após resistências e imunidades: "
            f"{subtotal} → {total}."
        )
    minimum_cancelled = cancel_minimum or all(cancels)
    if minimum_cancelled:
        if cancel_minimum:
            steps.append("Um efeito anula explicitamente o dano mínimo.")
        elif total == 0:
            steps.append(_cancel_line(cancels, results))
    elif total < 1:
        if reduction:
            readings.append("minimum_after_reduction")
        total = 1
        steps.append(
            "Todo ataque bem-sucedido causa pelo menos 1 de dano mínimo: o dano final é 1."
        )
    steps.append(f"Dano final: {total} PV.")
    return DamageResult(total, tuple(steps), tuple(results), minimum_cancelled,
                        tuple(dict.fromkeys(readings)))  # fmt: skip


def _mitigation_line(part: DamagePart, amount: int, mitigation: str, after: int) -> str:
    name = _label(part)
    if mitigation == "imune":
        return f"Imunidade a {name}: o dano de {name} ({amount}) é anulado."
    if mitigation == "imune a efeitos mundanos":
        return (
            f"Imune a efeitos mundanos: o dano de {name} ({amount}), mundano, é anulado "
            "(efeitos mágicos atingem normalmente)."
        )
    if mitigation == "resistente":
        return (
            f"Resistência a {name}: {amount} → {after} (metade, arredondado para baixo; "
            "cancela o dano mínimo)."
        )
    if mitigation == "vulnerável":
        return f"Vulnerabilidade a {name}: o dano dobra, {amount} → {after}."
    return (
        f"Resistência e vulnerabilidade a {name}: metade arredondada para baixo e depois "
        f"o dobro, {amount} → {after}."
    )


def _cancel_line(cancels: list[bool], results: list[PartResult]) -> str:
    if all(r.mitigation.startswith("imune") for r in results):
        return "O alvo é imune ao tipo de dano recebido: o dano mínimo não se aplica."
    return "O alvo possui resistência que cancela o dano mínimo."


def _graze(found: tuple[DamagePart, ...], target: Fighter, cancel_minimum: bool) -> DamageResult:
    steps = ["Ataque igual à Defesa: o ataque acerta de raspão e causa apenas o dano mínimo 1."]
    results: list[PartResult] = []
    cancels: list[bool] = []
    for part in found:
        _, mitigation, cancel = _mitigate(part, 1, target)
        cancels.append(cancel)
        results.append(PartResult(part.type, part.magical, part.amount, 1, mitigation,
                                  0 if cancel else 1))  # fmt: skip
    cancelled = cancel_minimum or all(cancels)
    if cancelled:
        steps.append(
            "Um efeito anula explicitamente o dano mínimo."
            if cancel_minimum
            else _cancel_line(cancels, results)
        )
    total = 0 if cancelled else 1
    steps.append(f"Dano final: {total} PV.")
    readings = ("graze_minimum_only",) + (("multi_type_minimum",) if len(found) > 1 else ())
    return DamageResult(total, tuple(steps), tuple(results), cancelled, readings)


def resolve_effect(
    parts: Iterable[DamagePart], target: Fighter, *, reduction: int = 0
) -> DamageResult:
    """Damage that is not an attack (a condition's start-of-turn damage, a trap's effect
    without a roll): «o dano causado possui um tipo de dano definido em sua descrição, e
    qualquer regra, resistência ou imunidade relacionada a esse tipo de dano aplica-se
    normalmente». Mitigation per type, then the reduction; no minimum 1 (that rule is for
    «Todo ataque bem-sucedido»). Returns ``DamageResult``."""
    found = _check_parts(tuple(parts))
    if not _int(reduction) or reduction < 0:
        raise Sistema001Error(BAD_REDUCTION, "reduction")
    steps: list[str] = []
    results: list[PartResult] = []
    for part in found:
        after, mitigation, _ = _mitigate(part, part.amount, target)
        results.append(PartResult(part.type, part.magical, part.amount, part.amount,
                                  mitigation, after))  # fmt: skip
        steps.append(
            _mitigation_line(part, part.amount, mitigation, after)
            if mitigation
            else f"{part.amount} de dano de {_label(part)}."
        )
    subtotal = sum(r.after for r in results)
    total = max(0, subtotal - reduction)
    if reduction:
        steps.append(f"Redução de dano {reduction}: {subtotal} → {total}.")
    steps.append(f"Dano final: {total} PV.")
    return DamageResult(total, tuple(steps), tuple(results), True, ())
