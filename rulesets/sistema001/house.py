"""The Árbitro's answers to the sistema001's refusing readings, as house settings.

A reading with ``refuses=True`` (``sistema001.readings``) names a rule the engine will not run
until the Árbitro answers (``AwaitsArbitro``). The Árbitro answers with the register he already
has: a decision (``canon.models.Decision``) that names one of the house settings below
(``house_key``). Each refusing reading has one house setting per possible answer; the site hands
the campaign's decisions that name a house setting to the combat part (``state["house"]``, oldest
first), and the **newest decision among a reading's options wins** (the last one the Árbitro
registered). Without any, the rule keeps refusing, saying in Portuguese which decision the
Árbitro records in the console.

Today the one refusing reading is ``test_pass_comparison`` (does a test against an ND pass on
equal, or only above?): the engine's ``comparison`` argument, ``"maior"`` or
``"maior_ou_igual"`` (``sistema001.rolls.passes``), used by the Ataque Furtivo's Mobilidade test
and the Ataque Interno's resistance test. Pure Python.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ruletexts import HouseSetting
from sistema001.errors import AwaitsArbitro
from sistema001.readings import READINGS_BY_KEY
from sistema001.rolls import MAIOR, MAIOR_OU_IGUAL

# What the chapter says where the Árbitro's answer is missing (the house page's «O livro»).
CHAPTER_SILENT = (
    "O capítulo manda fazer o teste contra um ND («teste de Mobilidade contra metade do Dado de "
    "Acuidade + Acuidade do alvo»; «teste de resistência, com ND e efeito de acordo com a "
    "descrição») e remete à seção de Testes, que não contém: não diz se empatar com o ND passa."
)
WHERE = "Ataque Furtivo; Ataque Interno"

AWAITS = (
    "{question} O site não adivinha: aguarda a decisão do Árbitro. No console (Decisões → "
    "Registrar uma decisão), o Árbitro registra uma decisão com a regra da casa {options}; ela "
    "pode resolver a pendência desta leitura."
)
IN_FORCE = "Em vigor: {title} ({decision})."
AWAITING = "Aguarda o Árbitro: {question}"


SUPERA = HouseSetting(
    key="sistema001_teste_supera_nd",
    title="O teste passa só quando supera o ND",
    book=CHAPTER_SILENT,
    table=(
        "Um teste contra ND passa só quando o total é maior que o ND; empatar falha. Vale para o "
        "teste de Mobilidade do Ataque Furtivo e para o teste de resistência do Ataque Interno "
        "(onde o capítulo diz «superar», como no Teste de Força contra o ND Estrutural, já é "
        "assim)."
    ),
    section=WHERE,
    decided=None,
    decision=None,
    reading="test_pass_comparison",
    answer=MAIOR,
)
IGUALA = HouseSetting(
    key="sistema001_teste_iguala_nd",
    title="O teste passa quando iguala ou supera o ND",
    book=CHAPTER_SILENT,
    table=(
        "Um teste contra ND passa quando o total é igual ou maior que o ND; empatar passa. Vale "
        "para o teste de Mobilidade do Ataque Furtivo e para o teste de resistência do Ataque "
        "Interno (onde o capítulo diz «superar», como no Teste de Força contra o ND Estrutural, "
        "o total continua tendo de ser maior)."
    ),
    section=WHERE,
    decided=None,
    decision=None,
    reading="test_pass_comparison",
    answer=MAIOR_OU_IGUAL,
)

HOUSE_SETTINGS: tuple[HouseSetting, ...] = (SUPERA, IGUALA)
HOUSE_BY_KEY: Mapping[str, HouseSetting] = MappingProxyType({s.key: s for s in HOUSE_SETTINGS})
# Each refusing reading → its options, in order.
OPTIONS: Mapping[str, tuple[HouseSetting, ...]] = MappingProxyType(
    {
        reading: tuple(s for s in HOUSE_SETTINGS if s.reading == reading)
        for reading in dict.fromkeys(s.reading for s in HOUSE_SETTINGS)
    }
)


@dataclass(frozen=True)
class Answer:
    """The Árbitro's answer in force for ``reading``: the house setting chosen and the decision
    that chose it (its label, "Decisão 3")."""

    reading: str
    setting: HouseSetting
    decision: str

    @property
    def value(self) -> str:
        return self.setting.answer

    @property
    def text(self) -> str:
        title = self.setting.title
        return IN_FORCE.format(title=title[:1].lower() + title[1:], decision=self.decision)


def answers(decided: Iterable[Mapping[str, str]]) -> dict[str, Answer]:
    """The answers in force: ``decided`` is the campaign's decisions that name a house setting,
    oldest first, each ``{"key": house_key, "decision": label}``; for each refusing reading the
    newest among its options wins. Keys of no option here (another ruleset's, or none) are
    ignored."""
    found: dict[str, Answer] = {}
    for item in decided:
        setting = HOUSE_BY_KEY.get(item.get("key", ""))
        if setting is not None:
            found[setting.reading] = Answer(setting.reading, setting, item.get("decision", ""))
    return found


def options_text(reading: str) -> str:
    """«A» (key_a) ou «B» (key_b): the options of ``reading``, as the console names them."""
    return " ou ".join(f"«{s.title}» ({s.key})" for s in OPTIONS[reading])


def awaits(reading: str, field: str = "") -> AwaitsArbitro:
    """The refusal of a rule waiting on ``reading``: its question and what the Árbitro records
    in the console (the decision's house rule options)."""
    question = READINGS_BY_KEY[reading].question
    return AwaitsArbitro(
        AWAITS.format(question=question, options=options_text(reading)), field, reading
    )


def status(decided: Iterable[Mapping[str, str]]) -> list[dict]:
    """For the fight's read: each refusing reading with the answer in force or ``None`` (then
    ``text`` says it awaits the Árbitro) and the options the Árbitro has."""
    found = answers(decided)
    shown = []
    for reading, options in OPTIONS.items():
        answer = found.get(reading)
        question = READINGS_BY_KEY[reading].question
        shown.append(
            {
                "reading": reading,
                "question": question,
                "awaits_arbitro": answer is None,
                "house_key": answer.setting.key if answer else None,
                "answer": answer.value if answer else None,
                "decision": answer.decision if answer else None,
                "text": answer.text if answer else AWAITING.format(question=question),
                "options": [{"house_key": s.key, "title": s.title} for s in options],
            }
        )
    return shown
