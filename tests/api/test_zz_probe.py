import json
import pytest
from django.test import Client
from sheets.services import api_token_create

def test_probe(demo, mestre, scene, rastreador, jogador, client):
    c = Client()
    for url in ["/api/v1/rules/odds?level=9", "/api/v1/rules/odds?level=abc", "/api/v1/rules/damage?st=4",
                "/api/v1/rules/damage?st=21", "/api/v1/rules/damage?st=0", "/api/v1/sheets"]:
        r = c.get(url); print(url, r.status_code, r.content[:300])
    for body in [{"st":13,"dx":12,"iq":10,"ht":12,"carried_kg":-1},{"st":0,"dx":12,"iq":10,"ht":12},
                 {"st":13,"dx":12,"iq":10,"ht":12,"weapons":[{"name":"a","skill":12,"parry":"zz"}]},
                 {"st":13,"dx":12,"iq":10,"ht":12,"foo":1},
                 {"st":13,"dx":12,"iq":10,"ht":12,"carried_kg":22.5,"armour_pd":3,"shield":{"skill":14,"pd":2},"weapons":[{"name":"Gládio","skill":13}]}]:
        r = c.post("/api/v1/rules/derived", json.dumps(body), content_type="application/json")
        print(r.status_code, r.content[:600])
    tok = api_token_create(user=mestre)
    h = {"HTTP_AUTHORIZATION": f"Bearer {tok}"}
    url = f"/api/v1/scenes/{scene.code}/rolls"
    for i in range(2):
        r = c.post(url, json.dumps({"label":"x","base_level":12,"kind":"skill","character":str(rastreador.code)}), content_type="application/json", HTTP_IDEMPOTENCY_KEY="k1", **h)
        print(r.status_code, r.content)
    r = c.post(url, json.dumps({"label":"x","base_level":12,"kind":"skill","dice":[1,1,1]}), content_type="application/json", **h)
    print(r.status_code, r.content)
    r = c.post(url, json.dumps({"label":"x","base_level":3,"kind":"skill"}), content_type="application/json", **h)
    print(r.status_code, r.content)
    r = c.get("/api/v1/scenes", **h); print(r.status_code, r.content)
    r = c.get(f"/api/v1/sheets/{jogador.characters.first().code}", **h); print(r.status_code, r.content)
    c.force_login(jogador)
    r = c.post(url, json.dumps({"label":"x","base_level":12,"kind":"skill"}), content_type="application/json")
    print(r.status_code, r.content)
