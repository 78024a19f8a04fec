"""What the procedure asks of a character in its own game's terms, and how a ruleset answers.

The text was written in a d20 game's mechanics: «teste de CON DC 12», «Teste de DES modificado
pela Tabela G», points of exhaustion, DESV (disadvantage). An ``Ask`` is one such point as the
text writes it; the campaign's ruleset resolves it (``rulesets.base.ProcedurePart.resolve_ask``)
into a ``Resolution``: which roll of its own the Mestre makes, with what modifier, and the line
the log shows. A ruleset that speaks the text's game natively resolves it as written; one that
does not (GURPS) resolves it as the pendência of the Árbitro's register reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

SAVE = "save"  # «teste de CON DC 12», «Teste de DES …»
EXHAUSTION = "exhaustion"  # «1 ponto de exaustão»
DISADVANTAGE = "disadvantage"  # «DESV»
KINDS = (SAVE, EXHAUSTION, DISADVANTAGE)

# «Cada interrupção do descanso necessita um teste de CON DC 12 ou o personagem não recebe os
# benefícios.»
REST_INTERRUPTED_DC = 12
REST_ABILITY = "CON"
# Tabela B: Forçando o Avanço: «Além de 2 rodadas consecutivas — DC do Teste de CON».
FORCED_MARCH_ABILITY = "CON"
CRAFT_ABILITY = "DES"  # «Role um Teste de DES modificado pela Tabela G: Criar Munição.»


@dataclass(frozen=True)
class Ask:
    """One point of the text's game: ``kind`` (SAVE, EXHAUSTION, DISADVANTAGE), the ability
    it names («CON», «DES»; "" for none), its DC (None when the text gives none or a table's
    cell does not read as one), a table's modifier (Tabela G's), the words as the text writes
    them (``text``) and the pendência that holds the point (``procedure.pendencies``), whose
    reading a ruleset that does not speak the text's game follows."""

    kind: str
    pendency: str = ""
    ability: str = ""
    dc: int | None = None
    modifier: int | None = None
    text: str = ""


@dataclass(frozen=True)
class Resolution:
    """How a ruleset answers an ``Ask``: the roll the Mestre makes in the campaign's system
    (``roll``, e.g. «HT»; "" when it is the Mestre's choice), the modifier that roll must carry
    announced (None: none required), the log's line saying so ("" for none), and whether the
    system speaks the text's game natively (False: the answer is a pendência's reading)."""

    roll: str = ""
    modifier: int | None = None
    line: str = ""
    native: bool = False


@dataclass(frozen=True)
class Cost:
    """What running out costs a character in the campaign's system: the log's words and the
    change to his state (``hp`` and ``fatigue``, negative: lost)."""

    text: str
    hp: int = 0
    fatigue: int = 0


@dataclass(frozen=True)
class Texts:
    """The tracker's words that name the campaign's system (Portuguese), filled by its ruleset:

    - ``tests_pending``: ``{asks}``, ``{who}`` — a test asked and not yet resolved;
    - ``roll_decides``: ``{asks}``, ``{ref}``, ``{label}``, ``{outcome}`` — the roll resolving it;
    - ``roll_not_a_test``: ``{roll}`` — a roll that neither passes nor fails;
    - ``exhaustion``: a point of the procedure's exhaustion, and whose its consequence is;
    - ``consequence_empty`` / ``consequence``: ``{text}`` — the Mestre's consequence of a point;
    - ``surprise``: how a surprised side plays;
    - ``hit_dice``: Descansar's step 3 (the text's hit dice);
    - ``craft_waits``: Criar's step 2, waiting for the roll.
    """

    tests_pending: str
    roll_decides: str
    roll_not_a_test: str
    exhaustion: str
    consequence_empty: str
    consequence: str
    surprise: str
    hit_dice: str
    craft_waits: str
