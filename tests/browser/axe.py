"""axe-core in the browser tests: inject ``node_modules/axe-core/axe.min.js`` (``make axe``
installs it from package.json) and list what it finds."""

from __future__ import annotations

from pathlib import Path

import pytest

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def axe_violations(page, impacts=BLOCKING) -> list[dict]:
    """axe-core's violations of ``impacts`` on the page as it is now: dicts with id, impact,
    help and the first nodes' target selectors and failure summaries."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make axe` (npm ci) first")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 6).map(n => ({
                    target: n.target.join(' '), summary: n.failureSummary,
                    html: n.html.slice(0, 160)})),
            }));
        }"""
    )
    return [v for v in found if v["impact"] in impacts]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['impact']} {v['id']}: {v['help']}")
        for node in v["nodes"]:
            lines.append(f"    {node['target']}  {node['html']}")
            lines.append("      " + (node["summary"] or "").replace("\n", " | "))
    return "\n".join(lines)
