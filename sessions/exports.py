"""The exports' shared shape: a file to download, JSON with the project's encoder, and the
Markdown of scenes (a scene's export, or every scene of a week).
"""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse

# --- exports ----------------------------------------------------------------------------------


def download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def as_json(data) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)


def tidy_markdown(markdown: str) -> str:
    """The template's Markdown without its blank-line runs."""
    lines = markdown.strip().splitlines()
    tidy = [line for i, line in enumerate(lines) if line.strip() or (i and lines[i - 1].strip())]
    return "\n".join(line.rstrip() for line in tidy) + "\n"
