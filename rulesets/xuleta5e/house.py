"""The Xuleta campaign's house settings: where the session procedure (``sessao-do-mestre.txt``)
and the Xuleta disagree, the Árbitro decides which text wins (issue 22, item 6).

Three questions, each with one house setting per answer, in the shape of
``rulesets.sistema001.house``: the Árbitro answers by registering a decision
(``canon.models.Decision``) that names one of the settings below (``house_key``); the newest
decision among a question's options wins. Until he decides, each question has a stated
default (``DEFAULTS``), shown where it is used and named in the tracker's log. Pure Python.

- ``forced_march``: the procedure's Tabela B (one «teste de CON» a round of Avançar beyond 2,
  DC 12 and +3; a failure owes 2 rounds of rest or 1 point of exhaustion) or the Xuleta's
  «Marxa forçada» (§8.1: a Constitution save per extra hour, DC 10 + 1 per extra hour; each
  failure a level of exhaustion). Default: the Xuleta's.
- ``exhaustion``: the procedure's Tabela I (its 3 levels, the Mestre's consequence) or the
  Xuleta's six levels (§1.16), written to the character's state. Default: the Xuleta's.
- ``rest``: the procedure's Descansar step 3–4 («rola um n° de dados de vida igual ao nível e
  recupera pontos de vida», «Recupera … 1 de exaustão») or the Xuleta's long rest (§6.2: every
  PC, hit dice up to half, spell slots, exhaustion −1 if he ate and drank). Default: the
  Xuleta's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ruletexts import HouseSetting

PROCEDURE, XULETA = "procedure", "xuleta"
FORCED_MARCH, EXHAUSTION, REST = "forced_march", "exhaustion", "rest"
QUESTIONS = MappingProxyType(
    {
        FORCED_MARCH: (
            "Marcha forçada: vale a Tabela B do procedimento (teste de CON DC 12, +3 por rodada "
            "extra; falha: 2 rodadas de descanso ou 1 ponto de exaustão) ou a «Marxa forçada» "
            "da Xuleta (salvação de Constituição CD 10 + 1 por hora extra; cada falha, um nível "
            "de esgotamento)?"
        ),
        EXHAUSTION: (
            "Exaustão: vale a Tabela I do procedimento (3 níveis, a consequência é do Mestre) ou "
            "os seis níveis de esgotamento da Xuleta (§1.16), escritos no estado da personagem?"
        ),
        REST: (
            "Descansar (passos 3 e 4): valem os dados de vida do procedimento (nível × dado de "
            "vida, recupera PV; 1 de exaustão) ou o descanso longo da Xuleta (§6.2: todos os PC, "
            "dados de vida até a metade, espaços de magia, esgotamento −1 se comeu e bebeu)?"
        ),
    }
)
DEFAULTS = MappingProxyType({FORCED_MARCH: XULETA, EXHAUSTION: XULETA, REST: XULETA})
DEFAULT_TEXT = (
    "Padrão até o Árbitro decidir: {title}. No console (Decisões → Registrar uma decisão), o "
    "Árbitro registra uma decisão com a regra da casa {options}."
)
IN_FORCE = "Em vigor: {title} ({decision})."


_MARCH_BOOK = (
    "Procedimento, Tabela B: «Avançar por mais de 2 rodadas de viagem consecutivas requer um "
    "teste de CON»; Xuleta §8.1: «Marxa forçada: per cada hora de més, salvació de Constitució "
    "CD 10 + 1 per hora extra. Si falles, un nivell d'esgotament.»"
)
_EXHAUSTION_BOOK = (
    "Procedimento, Tabela I: Exaustão (1 DESV em todas as rolagens, 2 sem modificadores de "
    "atributo, 3 1d4 de dano de CON por dia); Xuleta §1.16: Nivells d'esgotament (1 a 6)."
)
_REST_BOOK = (
    "Procedimento, Descansar: «3. Cada membro rola um n° de dados de vida igual ao nível e "
    "recupera pontos de vida. 4. Recupera 1 de dano em cada atributo, 1 de sanidade e 1 de "
    "exaustão.»; Xuleta §6.2 Descans llarg."
)

HOUSE_SETTINGS: tuple[HouseSetting, ...] = (
    HouseSetting(
        key="xuleta5e_marcha_forcada_procedimento",
        title="Marcha forçada pela Tabela B do procedimento",
        book=_MARCH_BOOK,
        table=(
            "Na 3ª rodada seguida de Avançar e nas seguintes, cada personagem faz uma salvação "
            "de Constituição (da ficha) contra a DC da Tabela B (12, +3 por rodada); quem falha "
            "deve descansar 2 rodadas ou recebe 1 ponto de exaustão."
        ),
        section="§8.1 Ritme de viatge",
        decided=None,
        decision=None,
        where="Jornada: Avançar",
        reading=FORCED_MARCH,
        answer=PROCEDURE,
    ),
    HouseSetting(
        key="xuleta5e_marcha_forcada_xuleta",
        title="Marcha forçada pela Xuleta",
        book=_MARCH_BOOK,
        table=(
            "Além das 8 horas de viagem do dia (2 rodadas de Avançar), cada hora extra pede a "
            "cada personagem uma salvação de Constituição (da ficha) CD 10 + a hora extra; cada "
            "falha é um nível de esgotamento, escrito no estado."
        ),
        section="§8.1 Ritme de viatge",
        decided=None,
        decision=None,
        where="Jornada: Avançar",
        reading=FORCED_MARCH,
        answer=XULETA,
    ),
    HouseSetting(
        key="xuleta5e_exaustao_procedimento",
        title="Exaustão pela Tabela I do procedimento",
        book=_EXHAUSTION_BOOK,
        table=(
            "O ponto de exaustão do procedimento fica na conta do rastreador; a consequência é "
            "do Mestre (Tabela I); o estado da personagem não muda."
        ),
        section="§1.16 Nivells d'esgotament",
        decided=None,
        decision=None,
        where="Jornada e masmorra",
        reading=EXHAUSTION,
        answer=PROCEDURE,
    ),
    HouseSetting(
        key="xuleta5e_exaustao_xuleta",
        title="Exaustão pelos níveis de esgotamento da Xuleta",
        book=_EXHAUSTION_BOOK,
        table=(
            "Cada ponto de exaustão do procedimento é um nível de esgotamento da Xuleta, escrito "
            "no estado da personagem (os efeitos da §1.16 valem em toda rolagem)."
        ),
        section="§1.16 Nivells d'esgotament",
        decided=None,
        decision=None,
        where="Jornada e masmorra",
        reading=EXHAUSTION,
        answer=XULETA,
    ),
    HouseSetting(
        key="xuleta5e_descanso_procedimento",
        title="Descansar com os dados de vida do procedimento",
        book=_REST_BOOK,
        table=(
            "Cada um rola tantos dados de vida quanto o nível (+ mod. de Constituição cada) e "
            "recupera esses PC; recupera 1 de exaustão."
        ),
        section="§6.2 Descans llarg",
        decided=None,
        decision=None,
        where="Jornada: Descansar; masmorra: dormir",
        reading=REST,
        answer=PROCEDURE,
    ),
    HouseSetting(
        key="xuleta5e_descanso_xuleta",
        title="Descansar é o descanso longo da Xuleta",
        book=_REST_BOOK,
        table=(
            "O Descansar do procedimento é um descanso longo (§6.2): todos os PC, dados de vida "
            "até a metade do total (ao menos 1), os espaços de magia, esgotamento −1 se comeu e "
            "bebeu, os PC temporários se vão; só um a cada 24 h e com ao menos 1 PC."
        ),
        section="§6.2 Descans llarg",
        decided=None,
        decision=None,
        where="Jornada: Descansar; masmorra: dormir",
        reading=REST,
        answer=XULETA,
    ),
)
HOUSE_BY_KEY: Mapping[str, HouseSetting] = MappingProxyType({s.key: s for s in HOUSE_SETTINGS})
OPTIONS: Mapping[str, tuple[HouseSetting, ...]] = MappingProxyType(
    {q: tuple(s for s in HOUSE_SETTINGS if s.reading == q) for q in QUESTIONS}
)


@dataclass(frozen=True)
class Answer:
    """The answer in force for ``question``: its ``value`` ("procedure"/"xuleta"), the setting
    chosen (None: the default), and the log's ``text``."""

    question: str
    value: str
    setting: HouseSetting | None
    decision: str = ""

    @property
    def default(self) -> bool:
        return self.setting is None

    @property
    def text(self) -> str:
        if self.setting is not None:
            title = self.setting.title
            return IN_FORCE.format(title=title[:1].lower() + title[1:], decision=self.decision)
        chosen = next(s for s in OPTIONS[self.question] if s.answer == self.value)
        return DEFAULT_TEXT.format(
            title=chosen.title[:1].lower() + chosen.title[1:], options=options_text(self.question)
        )


def options_text(question: str) -> str:
    """«A» (key_a) ou «B» (key_b)."""
    return " ou ".join(f"«{s.title}» ({s.key})" for s in OPTIONS[question])


def answers(decided: Iterable[Mapping[str, str]]) -> dict[str, Answer]:
    """Every question's answer in force: ``decided`` is the campaign's decisions naming a house
    setting, oldest first (``{"key", "decision"}``); the newest among a question's options
    wins; a question none names keeps its default. Other rulesets' keys are ignored."""
    found = {q: Answer(q, DEFAULTS[q], None) for q in QUESTIONS}
    for item in decided:
        setting = HOUSE_BY_KEY.get(item.get("key", ""))
        if setting is not None:
            found[setting.reading] = Answer(
                setting.reading, setting.answer, setting, item.get("decision", "")
            )
    return found
