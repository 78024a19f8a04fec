"""What every action of the exploration tracker shares, the dungeon's turns and the journey's
rounds alike: its beginning (who asks, the lock, the replay, an ended descent refused), its
event (written after its rolls, which it names), the server's dice, a roll's reference in the
log, the timers running down, and the pendências of the Árbitro's register that hold a step
of the procedure.

The procedure (``sessao-do-mestre.txt``) was written for another game. Where a step asks for
something of that game (a «teste de CON», «DESV», «dados de vida») or leaves a result unsaid,
the tracker does not translate it: it writes what the text asks and names the pendência that
holds it, with the reading in use — or, once the Árbitro has resolved it, his resolution. The
pendências are ``canon.seed.PROCEDURE_DIVERGENCES``, found in the campaign's register by their
source key.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.models import Campaign
from canon.models import Divergence
from gurps.dice import RandomSource
from sessions import entries
from sessions.models import Exploration, ExplorationEvent, ExplorationTimer, Roll
from sessions.tracker import tracker_begin, tracker_event

EXPLORATION_ENDED = "Esta exploração já terminou; o que está aqui fica como está."
PENDENCY_MISSING = "não está no registro desta campanha"


def dice() -> RandomSource:
    """The server's dice (tests script them through ``entries.dice_source``)."""
    return entries.dice_source()


def action_begin(exploration: Exploration, user, request_key: str, kind: str):
    """Check who asks, lock, replay (``sessions.tracker``): (fresh exploration, earlier event
    or None)."""
    return tracker_begin(
        exploration,
        user=user,
        request_key=request_key,
        kind=kind,
        ended=EXPLORATION_ENDED,
        code="exploration_ended",
    )


def action_event(
    exploration: Exploration,
    user,
    kind: str,
    text: str,
    *,
    lines=(),
    data=None,
    rolls=(),
    request_key="",
) -> ExplorationEvent:
    """The event of one action, written after its rolls; the exploration's revision grows."""
    event = tracker_event(
        exploration,
        user=user,
        kind=kind,
        text=text,
        lines=lines,
        data=data,
        request_key=request_key,
        turn=exploration.turn,
    )
    if rolls:
        event.rolls.set(rolls)
    return event


def roll_ref(roll: Roll) -> str:
    """How the tracker names a roll: its number in the campaign's chain."""
    return f"#{roll.sequence}"


P_DARKNESS = "procedure:darkness-lights"
DARKNESS_FELL = (
    "A última fonte de luz apagou: total escuridão — «Total escuridão sempre torna o nível de "
    "perigo Mortal.»"
)
DARKNESS_LIFTED = "Uma fonte de luz acesa: acaba a total escuridão que a luz apagada trouxe."


def timers_tick(exploration: Exploration, turns: int) -> list[str]:
    """Run every lit timer down by ``turns``; a line for each that goes out. When the last
    lit light goes out, the party is in total darkness (pendência procedure:darkness-lights;
    the line ``DARKNESS_FELL`` says so, and the caller names the pendência)."""
    lines = []
    light_out = False
    lit = exploration.timers.filter(remaining_turns__gt=0).order_by("created_at", "pk")
    for timer in lit:
        timer.remaining_turns = max(0, timer.remaining_turns - turns)
        timer.save(update_fields=["remaining_turns"])
        if timer.is_out:
            what = "apagou" if timer.kind == ExplorationTimer.Kind.LIGHT else "acabou"
            lines.append(f"{timer.name} {what}.")
            light_out = light_out or timer.kind == ExplorationTimer.Kind.LIGHT
        else:
            lines.append(f"{timer.name}: restam {timer.remaining_turns} turno(s).")
    still_lit = exploration.timers.filter(
        kind=ExplorationTimer.Kind.LIGHT, remaining_turns__gt=0
    ).exists()
    if light_out and not still_lit and not exploration.total_darkness:
        exploration.total_darkness = True
        exploration.dark_from_lights = True
        lines.append(DARKNESS_FELL)
    return lines


def darkness_held(lines: list[str]) -> list[str]:
    """The pendência to name when the lines say the last light went out."""
    return [P_DARKNESS] if DARKNESS_FELL in lines else []


# --- the pendências that hold a step ------------------------------------------------------------


@dataclass(frozen=True)
class Pendency:
    """A pendência of the register as a step of the tracker shows it: its title, whether the
    Árbitro has resolved it, and what is in force — the resolution once resolved, the reading
    in use until then (both as corrected)."""

    key: str
    code: str = ""
    title: str = ""
    resolved: bool = False
    in_force: str = ""

    @property
    def status(self) -> str:
        if not self.code:
            return "missing"
        return "resolved" if self.resolved else "open"

    @property
    def line(self) -> str:
        if not self.code:
            return f"Pendência {self.key}: {PENDENCY_MISSING}."
        if self.resolved:
            return f"Pendência «{self.title}», resolvida pelo Árbitro: {self.in_force}"
        return f"Pendência «{self.title}» (aberta). Leitura em uso: {self.in_force}"

    def data(self) -> dict:
        return {
            "key": self.key,
            "code": self.code,
            "title": self.title,
            "status": self.status,
            "in_force": self.in_force,
        }


def _pendency(divergence: Divergence) -> Pendency:
    now = divergence.now
    resolved = not divergence.is_open
    return Pendency(
        key=divergence.source_key,
        code=str(divergence.code),
        title=now["title"],
        resolved=resolved,
        in_force=now["resolution"] if resolved else now["reading"],
    )


def pendencies(campaign: Campaign, keys) -> dict[str, Pendency]:
    """The register's pendências with these source keys, as they stand now (2 queries: the
    divergences, their corrections); a key the register lacks comes back saying so."""
    keys = list(dict.fromkeys(keys))
    if not keys:
        return {}
    found = {
        d.source_key: _pendency(d)
        for d in Divergence.objects.filter(campaign=campaign, source_key__in=keys).prefetch_related(
            "corrections"
        )
    }
    return {key: found.get(key, Pendency(key=key)) for key in keys}


def pendency_data(campaign: Campaign, keys) -> list[dict]:
    """The pendências an event names, as its ``data["pendencies"]`` keeps them."""
    return [p.data() for p in pendencies(campaign, keys).values()]
