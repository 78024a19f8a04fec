"""The exports' shared shape: a file to download, JSON with the project's encoder, and the
Markdown of scenes (a scene's export, or every scene of a week).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, StreamingHttpResponse

# --- exports ----------------------------------------------------------------------------------


def download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def stream_download(chunks: Iterable[str], filename: str, content_type: str):
    """A download written as it is read (``chunks``): what grows is never held whole."""
    response = StreamingHttpResponse(chunks, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def json_with_list(
    fixed: dict, key: str, items: Iterable, tail: Callable[[], dict] | None = None
) -> Iterator[str]:
    """``as_json({**fixed, key: list(items), **tail()})``, as pieces, one item at a time;
    ``tail`` is asked only once the list is written."""
    head = as_json(fixed)
    yield (head[:-2] + ",\n") if fixed else "{\n"
    yield f'  "{key}": ['
    first = True
    for item in items:
        yield ("\n" if first else ",\n") + "    " + as_json(item).replace("\n", "\n    ")
        first = False
    yield "]" if first else "\n  ]"
    rest = tail() if tail is not None else {}
    yield (",\n" + as_json(rest)[2:-2] + "\n}") if rest else "\n}"


def as_json(data) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)


def tidy_markdown(markdown: str) -> str:
    """The template's Markdown without its blank-line runs."""
    lines = markdown.strip().splitlines()
    tidy = [line for i, line in enumerate(lines) if line.strip() or (i and lines[i - 1].strip())]
    return "\n".join(line.rstrip() for line in tidy) + "\n"


def tidy_markdown_stream(chunks: Iterable[str]) -> Iterator[str]:
    """``tidy_markdown`` of the joined ``chunks``, as pieces (a line at a time)."""
    pending, started, gap = "", False, False
    for chunk in chunks:
        pending += chunk
        *lines, pending = pending.split("\n")
        for line in lines:
            if not line.strip():
                gap = started
                continue
            yield ("\n" if gap else "") + (line.rstrip() if started else line.strip()) + "\n"
            started, gap = True, False
    if pending.strip():
        yield ("\n" if gap else "") + (pending.rstrip() if started else pending.strip()) + "\n"
