import json
import pytest
from decimal import Decimal
from django.db import connection
from django.test.utils import CaptureQueriesContext
from sheets.models import Possession

def test_probe(demo, mestre, scene, rastreador, jogador, jurado, client):
    client.force_login(jogador)
    url = f"/fichas/{jurado.code}/"
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(url)
    print(r.status_code, len(ctx.captured_queries))
    for q in ctx.captured_queries: print("  ", q["sql"][:150])
    for i in range(30):
        Possession.objects.create(character=jurado, loot_name=f"x{i}", loot_weight_kg=Decimal("0.1"), carried=False)
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(url)
    print(r.status_code, len(ctx.captured_queries))
    client.force_login(mestre)
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(f"/cenas/{scene.code}/")
    print(r.status_code, len(ctx.captured_queries))
    r = client.post(f"/fichas/{jurado.code}/espolio/", {"name": "a", "weight_kg": "2,5", "quantity": "1"})
    print(r.status_code, [l for l in r.content.decode().splitlines() if "error" in l][:5])
