"""«Manobras de Combate»: effects applied through an attack roll, replacing its damage.

Chapter «4. Combate». The player declares the maneuver before rolling (``declare``), makes a
melee attack (with a weapon or unarmed); on a hit the damage is replaced by the maneuver's
effect (``resolve``), on a miss the maneuver fails. The effect lasts «até o início do próximo
turno do alvo» (``target_turns=1`` for ``timing.TimedEffect``); to keep it, repeat the maneuver.

Readings (keys of ``sistema001.readings``): ``maneuver_graze_hits`` (a graze «acerta de
raspão»: it is a hit for a maneuver; Desarmar still needs the margin 5), ``grapple_nd_attack_total``
(«esse vira o novo ND para o alvo Contido tentar superar»: the grappler's attack total is the
ND), ``grapple_escape_test`` (which test the Contido rolls to escape: the Mestre's input).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from sistema001.attributes import attribute_bonus
from sistema001.errors import Sistema001Error
from sistema001.rolls import beats

# «O efeito dura até o início do próximo turno do alvo.»
MANEUVER_TARGET_TURNS = 1
PUSH_METRES = 2  # «o alvo é empurrado até 2 metros para trás»
DISARM_MARGIN = 5  # «superar a Defesa por 5 ou mais»
ALLY_MISS_MARGIN = 5  # «se um ataque falhar por margem 5 ou mais»
DISTRACT_PENALTY = -1
DISTRACT_CRITICAL_PENALTY = -2


@dataclass(frozen=True)
class Maneuver:
    """One maneuver: ``key``, ``label``, ``text`` (the chapter's paragraph), ``condition``
    it applies (a condition key or None), ``replaces_damage`` (False only for Dano Não
    Letal), ``needs_free_hand``."""

    key: str
    label: str
    text: str
    condition: str | None = None
    replaces_damage: bool = True
    needs_free_hand: bool = False


MANEUVERS = MappingProxyType(
    {
        m.key: m
        for m in (
            Maneuver(
                "agarrar",
                "Agarrar",
                "O atacante tenta restringir fisicamente o alvo com mãos, braços ou corpo. Ao "
                "atacar, deve ter ao menos uma mão livre e o alvo fica Contido. Enquanto estiver "
                "agarrando, o atacante pode atacar o alvo contido normalmente, mas não utiliza o "
                "dano da arma, causando apenas dano mínimo 1 + Bônus de Força, representando "
                "esmagamento, torção, socos ou sufocamento. Além disso, esse vira o novo ND para "
                "o alvo Contido tentar superar. O atacante também pode arrastar o alvo, como "
                "Terreno Difícil, ou soltá-lo como Ação Livre. Aliados podem atacar o alvo "
                "agarrado, mas se um ataque falhar por margem 5 ou mais, ou resultar em falha "
                "crítica, o ataque atinge quem está agarrando, causando dano total, metade do "
                "dano ou dano mínimo 1, a critério do Mestre.",
                condition="contido",
                needs_free_hand=True,
            ),
            Maneuver(
                "dano_nao_letal",
                "Dano Não Letal",
                "O atacante declara que deseja nocautear sem matar. O ataque é resolvido "
                "normalmente, mas todo dano causado é não letal. Se reduzir o alvo a 0 PV, ele "
                "fica inconsciente, sem risco imediato de morte.",
                replaces_damage=False,
            ),
            Maneuver(
                "derrubar",
                "Derrubar",
                "O atacante tenta desequilibrar o inimigo. Se acertar, o alvo fica Caído.",
                condition="caido",
            ),
            Maneuver(
                "desarmar",
                "Desarmar",
                "O atacante tenta fazer o alvo soltar a arma. Se acertar e superar a Defesa por "
                "5 ou mais, o alvo deixa a arma cair no chão.",
            ),
            Maneuver(
                "distrair",
                "Distrair",
                "O atacante tenta quebrar o foco do alvo. Se acertar, o alvo sofre -1 em seu "
                "próximo teste de ataque ou defesa contra um atacante diferente. Se acerto "
                "crítico, a penalidade é -2.",
            ),
            Maneuver(
                "empurrar",
                "Empurrar",
                "O atacante tenta deslocar o inimigo. Se acertar, o alvo é empurrado até 2 "
                "metros para trás. Se houver obstáculo, o movimento é bloqueado. Empurrar não "
                "aplica condição, apenas reposiciona o alvo.",
            ),
        )
    }
)

# «Manobras de Combate»: the general rules, as the chapter lists them.
GENERAL_RULES: tuple[str, ...] = (
    "O jogador declara a manobra antes de rolar o ataque.",
    "Faz um ataque corpo a corpo com arma ou ataque desarmado, a depender da manobra.",
    "Se o ataque acertar, o dano é substituído pelo efeito da manobra.",
    "Se o ataque errar, a manobra falha.",
    "O efeito dura até o início do próximo turno do alvo.",
    "Para manter o efeito por mais tempo, a manobra deve ser repetida no turno seguinte.",
)

UNKNOWN = (
    "Manobra desconhecida «{key}»: use Agarrar, Dano Não Letal, Derrubar, Desarmar, Distrair "
    "ou Empurrar."
)
MELEE_ONLY = "Manobras de Combate são feitas com ataque corpo a corpo, com arma ou desarmado."
NEEDS_FREE_HAND = "Para Agarrar, o atacante deve ter ao menos uma mão livre."
UNKNOWN_OUTCOME = "Resultado desconhecido «{outcome}»: use acerto, raspão ou falha."
UNKNOWN_SHARE = "A critério do Mestre: dano total, metade do dano ou dano mínimo 1."


@dataclass(frozen=True)
class ManeuverResult:
    """What a maneuver did.

    ``key``; ``succeeded`` (its effect applies); ``condition`` to apply to the target (a
    condition key, with ``target_turns``=1) or None; ``replaces_damage`` (the attack deals
    no damage — False for Dano Não Letal, whose damage is resolved normally and is
    ``nonlethal``); ``penalty`` (Distrair: on the target's next attack or defence against a
    different attacker); ``push_m`` (Empurrar: up to, blocked by an obstacle); ``drops_weapon``
    (Desarmar); ``grapple_nd`` (Agarrar: the ND the Contido must «superar»); ``text``: the
    result in Portuguese; ``readings``.
    """

    key: str
    succeeded: bool
    condition: str | None
    replaces_damage: bool
    text: str
    target_turns: int = MANEUVER_TARGET_TURNS
    nonlethal: bool = False
    penalty: int = 0
    push_m: int = 0
    drops_weapon: bool = False
    grapple_nd: int | None = None
    readings: tuple[str, ...] = ()


def maneuver(key: str) -> Maneuver:
    """The maneuver ``key``; raises ``Sistema001Error`` (field ``maneuver``)."""
    try:
        return MANEUVERS[key]
    except KeyError:
        raise Sistema001Error(UNKNOWN.format(key=key), "maneuver") from None


def declare(key: str, attack_kind: str, free_hand: bool = True) -> Maneuver:
    """Check a maneuver declared «antes de rolar o ataque»: it is made with «um ataque corpo a
    corpo com arma ou ataque desarmado», and Agarrar needs «ao menos uma mão livre». Raises
    ``Sistema001Error``; returns the ``Maneuver``."""
    found = maneuver(key)
    if attack_kind != "corpo_a_corpo":
        raise Sistema001Error(MELEE_ONLY, "kind")
    if found.needs_free_hand and not free_hand:
        raise Sistema001Error(NEEDS_FREE_HAND, "free_hand")
    return found


def resolve(
    key: str,
    outcome: str,
    margin: int,
    critical: bool,
    *,
    attack_total: int | None = None,
) -> ManeuverResult:
    """The maneuver ``key`` after its attack: ``outcome`` (``attacks.outcome``), ``margin``
    (attack − Defesa), ``critical`` (the attack's highest face), ``attack_total`` (Agarrar:
    the new ND for the Contido, reading ``grapple_nd_attack_total``; required for it).

    «Se o ataque acertar, o dano é substituído pelo efeito da manobra. Se o ataque errar, a
    manobra falha.» A graze is a hit (reading ``maneuver_graze_hits``). Raises
    ``Sistema001Error``.
    """
    found = maneuver(key)
    if outcome not in ("acerto", "raspao", "falha"):
        raise Sistema001Error(UNKNOWN_OUTCOME.format(outcome=outcome), "outcome")
    readings = ("maneuver_graze_hits",) if outcome == "raspao" else ()
    if outcome == "falha":
        return ManeuverResult(key, False, None, found.replaces_damage,
                              f"{found.label}: o ataque errou, a manobra falha.")  # fmt: skip
    if key == "dano_nao_letal":
        return ManeuverResult(
            key, True, None, False,
            "Dano Não Letal: o dano é resolvido normalmente, mas é não letal; a 0 PV o alvo "
            "fica inconsciente, sem risco imediato de morte.",
            nonlethal=True, readings=readings,
        )  # fmt: skip
    if key == "agarrar":
        if attack_total is None:
            raise Sistema001Error(
                "Agarrar: informe o total do ataque (vira o ND para o alvo Contido superar).",
                "attack_total",
            )
        return ManeuverResult(
            key, True, "contido", True,
            f"Agarrar: o alvo fica Contido; para se soltar precisa superar ND {attack_total}. "
            "Enquanto agarra, os ataques do atacante contra ele causam 1 + Bônus de Força.",
            grapple_nd=attack_total,
            readings=readings + ("grapple_nd_attack_total",),
        )  # fmt: skip
    if key == "derrubar":
        return ManeuverResult(key, True, "caido", True, "Derrubar: o alvo fica Caído.",
                              readings=readings)  # fmt: skip
    if key == "desarmar":
        if margin >= DISARM_MARGIN:
            return ManeuverResult(
                key, True, None, True,
                f"Desarmar: superou a Defesa por {margin}; o alvo deixa a arma cair no chão.",
                drops_weapon=True, readings=readings,
            )  # fmt: skip
        return ManeuverResult(
            key, False, None, True,
            f"Desarmar: acertou, mas superou a Defesa só por {margin} (precisa de 5 ou mais); "
            "o alvo mantém a arma.",
            readings=readings,
        )  # fmt: skip
    if key == "distrair":
        penalty = DISTRACT_CRITICAL_PENALTY if critical else DISTRACT_PENALTY
        return ManeuverResult(
            key, True, None, True,
            f"Distrair: o alvo sofre {penalty} em seu próximo teste de ataque ou defesa contra "
            "um atacante diferente.",
            penalty=penalty, readings=readings,
        )  # fmt: skip
    return ManeuverResult(
        key, True, None, True,
        "Empurrar: o alvo é empurrado até 2 metros para trás (um obstáculo bloqueia o "
        "movimento); nenhuma condição.",
        push_m=PUSH_METRES, readings=readings,
    )  # fmt: skip


def grapple_damage(forca: int) -> int:
    """Agarrar: while grappling, the grappler's attacks against the Contido «não utiliza o
    dano da arma, causando apenas dano mínimo 1 + Bônus de Força»."""
    return 1 + attribute_bonus(forca)


def grapple_escape(total: int, grapple_nd: int) -> bool:
    """Whether the Contido's test ``total`` escapes: «esse vira o novo ND para o alvo Contido
    tentar superar» — strictly greater. Which test it rolls is the Mestre's (reading
    ``grapple_escape_test``)."""
    return beats(total, grapple_nd)


def ally_hits_grappler(outcome: str, margin: int, critical_failure: bool) -> bool:
    """Whether an ally's attack on the grappled target hits the grappler instead: «se um
    ataque falhar por margem 5 ou mais, ou resultar em falha crítica, o ataque atinge quem está
    agarrando». ``margin``: attack − Defesa (−5 or less); ``critical_failure``: the attack's
    lowest face."""
    if critical_failure:
        return True
    return outcome == "falha" and margin <= -ALLY_MISS_MARGIN


GRAPPLER_SHARES = ("total", "metade", "minimo")


def grappler_damage(damage: int, share: str) -> int:
    """The damage the grappler takes from the ally's stray attack, «dano total, metade do dano
    ou dano mínimo 1, a critério do Mestre» (``share``: ``"total"``, ``"metade"`` — rounded
    down, at least 1 — or ``"minimo"``)."""
    if share == "total":
        return damage
    if share == "metade":
        return max(1, damage // 2)
    if share == "minimo":
        return 1
    raise Sistema001Error(UNKNOWN_SHARE, "share")
