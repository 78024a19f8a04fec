"""The Xuleta's headings, numbered by the site (the text numbers none): chapter → title and
section → heading, in the text's order. Every rule, reading and table of the engine names its
section by this number and heading (``docs/canon/xuleta-5e-ca.txt``)."""

from __future__ import annotations

from types import MappingProxyType

_OUTLINE: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Estats",
        (
            "Encegat",
            "Encantat",
            "Ensordit",
            "Esgotament",
            "Espantat",
            "Agafat",
            "Incapacitat",
            "Invisible",
            "Paralitzat",
            "Petrificat",
            "Enverinat",
            "Tombat",
            "Immobilitzat",
            "Atordit",
            "Inconscient",
            "Nivells d'esgotament",
        ),
    ),
    (
        "El teu torn",
        (
            "Iniciativa",
            "Sorpresa",
            "Moviment",
            "Acció",
            "Acció addicional",
            "Reacció",
            "Interactuar amb un objecte",
        ),
    ),
    (
        "Accions en combat",
        (
            "Atacar",
            "Llançar un encanteri",
            "Córrer",
            "Desenganxar-se",
            "Esquivar",
            "Ajudar",
            "Amagar-se",
            "Preparar",
            "Cercar",
            "Fer servir un objecte",
            "Agafar",
            "Empènyer",
            "Atac d'oportunitat",
            "Combat amb dues armes",
            "Cobertura",
        ),
    ),
    (
        "Proves i tirades",
        (
            "Prova de característica",
            "Tirada d'atac",
            "Tirada de salvació",
            "Avantatge i desavantatge",
            "20 natural i 1 natural",
            "Proves enfrontades",
            "Proves de grup",
            "Proves passives",
            "Bonificació per competència",
            "Classe de dificultat (CD)",
            "Habilitats",
        ),
    ),
    (
        "Dany i curació",
        (
            "Tirades de dany",
            "Cop crític",
            "Tipus de dany",
            "Resistència, vulnerabilitat i immunitat",
            "Curació",
            "Punts de cop temporals",
            "Caure a 0 PC",
            "Salvacions contra la mort",
            "Estabilitzar",
            "Mort instantània",
        ),
    ),
    ("Descansar", ("Descans curt", "Descans llarg")),
    (
        "Llançar encanteris",
        (
            "Espais d'encanteri",
            "Trucs",
            "Temps de llançament",
            "Concentració",
            "Components",
            "Rituals",
            "CD i atac d'encanteri",
        ),
    ),
    (
        "Viatge i entorn",
        (
            "Ritme de viatge",
            "Terreny difícil",
            "Enfilar-se, nedar i arrossegar-se",
            "Saltar",
            "Caigudes",
            "Llum",
            "Visió a les fosques",
            "Asfíxia",
        ),
    ),
)

# "1" → "Estats" …
CHAPTERS = MappingProxyType({str(n): title for n, (title, _) in enumerate(_OUTLINE, start=1)})
# "1.1" → "Encegat" …, every heading under its chapter.
SECTIONS = MappingProxyType(
    {
        f"{n}.{m}": heading
        for n, (_, headings) in enumerate(_OUTLINE, start=1)
        for m, heading in enumerate(headings, start=1)
    }
)


def section_of(heading: str) -> str:
    """The number of the section (or chapter) headed ``heading`` as the text prints it; raises
    ``KeyError`` for a heading the text does not have."""
    for number, title in (*SECTIONS.items(), *CHAPTERS.items()):
        if title == heading:
            return number
    raise KeyError(heading)


def cite(heading: str) -> str:
    """«§4.2 Tirada d'atac»: the section's number and heading, as the pages cite it."""
    return f"§{section_of(heading)} {heading}"
