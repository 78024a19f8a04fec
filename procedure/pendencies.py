"""The points of the procedure a campaign's register holds as pendências (``canon.seed.
PROCEDURE_DIVERGENCES``), by their source key: where the text asks something of another game or
leaves a result unsaid, the tracker names the one that holds the step.
"""

from __future__ import annotations

P_CHANCE = "procedure:chance-notation"
P_WEATHER_SILENT = "procedure:weather-drift-3-6"
P_WEATHER_EDGES = "procedure:weather-drift-edges"
P_UNDEFINED = "procedure:undefined-results"
P_PER_PLAYER = "procedure:activities-per-player"
P_FORCED_MARCH = "procedure:forced-march-con"
P_FORCED_MARCH_COUNT = "procedure:forced-march-count"
P_CRAFT = "procedure:craft-ammunition-des"
P_MAKE_CAMP = "procedure:make-camp-5-6"
P_CAMP_SAFE = "procedure:camp-safe-lasts"
P_FOOD = "procedure:food-water"
P_REST_CON = "procedure:rest-con-dc12"
P_REST_INTERRUPTED = "procedure:rest-interruption"
P_HIT_DICE = "procedure:rest-hit-dice"
P_RECOVERY = "procedure:rest-attributes-sanity"
P_EXHAUSTION = "procedure:exhaustion"
P_MISHAP_8 = "procedure:camp-mishap-8-chance"
P_LOST = "procedure:lost"
P_RUNNING_OUT = "procedure:running-out"
P_DISEASE = "procedure:disease"
P_EXHAUSTION_EFFECTS = "procedure:exhaustion-effects"
P_DARKNESS = "procedure:darkness-lights"
P_SURPRISE = "procedure:surprise-partial-total"
P_DUNGEON_MISHAPS = "procedure:dungeon-mishaps-con-dc12"
P_DUNGEON_SLEEP = "procedure:dungeon-sleep-rest"
