"""The procedure's exhaustion, counted per character: one count, the journey's and the
dungeon's alike. What a point costs is the ruleset's (``rulesets.base.ProcedurePart``); the
text's Tabela I names its effects for another game.

Where the text gives and takes a point (``sessao-do-mestre.txt``):

- «A cada 1 hora de exploração, os personagens precisam descansar por um turno de exploração
  ou sofrer 1 ponto de exaustão.» (the dungeon)
- «Cada dia sem realizar essa ação acarreta em 1 ponto de exaustão.» (Descansar, the journey)
- «Em caso de falha, o personagem deve descansar por 2 rodadas antes de realizar qualquer outra
  atividade ou receber 1 ponto de exaustão.» (Forçando o Avanço)
- «4. Recupera 1 de dano em cada atributo, 1 de sanidade e 1 de exaustão.» (Descansar)

A member is the dict a descent keeps per character (``fresh_member``); these functions change
it in place.
"""

from __future__ import annotations


def fresh_member() -> dict:
    """A character's journey as the tracker counts it: rested today, rounds of rest owed,
    exhaustion level."""
    return {"rested_today": False, "rest_owed": 0, "exhaustion": 0}


def gain(member: dict) -> int:
    """One point of exhaustion; returns the new level."""
    member["exhaustion"] = member.get("exhaustion", 0) + 1
    return member["exhaustion"]


def recover(member: dict) -> tuple[int, int]:
    """«Recupera … 1 de exaustão»: the level goes down one, not below 0; (before, after)."""
    before = member.get("exhaustion", 0)
    member["exhaustion"] = max(0, before - 1)
    return before, member["exhaustion"]
