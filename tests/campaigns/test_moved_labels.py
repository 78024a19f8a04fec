"""An export written before Campaign, Membership, ApiToken and IdempotencyKey moved from sheets
to campaigns reads with today's labels (the tables never moved)."""

import json

from garganta_site import backup


def test_an_old_export_reads_with_the_campaigns_labels(tmp_path):
    old = {
        "format": backup.FORMAT,
        "version": backup.VERSION,
        "campaign": "a-garganta",
        "counts": {"sheets.campaign": 1, "sheets.membership": 2, "sheets.character": 1},
        "roll_chain": {},
        "objects": [
            {"model": "sheets.campaign", "pk": 1, "fields": {}},
            {"model": "sheets.apitoken", "pk": 3, "fields": {}},
            {"model": "sheets.character", "pk": 4, "fields": {}},
        ],
    }
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    document = backup.read(path)
    assert document["counts"] == {
        "campaigns.campaign": 1,
        "campaigns.membership": 2,
        "sheets.character": 1,
    }
    assert [o["model"] for o in document["objects"]] == [
        "campaigns.campaign",
        "campaigns.apitoken",
        "sheets.character",
    ]
