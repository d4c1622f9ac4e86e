"""axe-core (from the npm registry: package.json, installed into node_modules/ by .ci/setup) run inside a
page Playwright opened. The script is evaluated through the DevTools protocol, which the page's
Content-Security-Policy does not govern, so the page itself stays as the site serves it."""

from __future__ import annotations

import functools

from tests.support import ROOT, skip_or_fail

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@functools.cache
def _source() -> str:
    return AXE.read_text(encoding="utf-8")


def require_axe() -> None:
    """Skip with the reason when axe-core is not installed (fail under CI=true)."""
    if not AXE.exists():
        skip_or_fail(f"axe-core is not installed at {AXE.relative_to(ROOT)} (run `npm ci` or .ci/setup)")


def violations(page) -> list[str]:
    """axe-core's violations of the page as it is now (every rule axe runs by default: WCAG 2.0-2.2 A
    and AA and its best practices), one line per rule and element: rule, what it says, where."""
    require_axe()
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_source())
    results = page.evaluate(
        """async () => {
            const result = await window.axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map((rule) => ({
                id: rule.id,
                help: rule.help,
                nodes: rule.nodes.map((node) => ({
                    target: node.target.join(" "),
                    summary: node.failureSummary,
                })),
            }));
        }"""
    )
    lines = []
    for rule in results:
        for node in rule["nodes"]:
            summary = " ".join(node["summary"].split())
            lines.append(f"{rule['id']} ({rule['help']}): {node['target']} — {summary}")
    return lines
