"""Page audits for the browser tests: axe-core findings (axe-playwright-python ships
axe.min.js in its wheel: nothing is fetched) and tap targets smaller than 44x44 px."""
from __future__ import annotations

from typing import Any

TAP = 44

# Every element a finger can act on, measured as the finger meets it: a radio or checkbox
# by the label that wraps it, a hidden one not at all.
TARGETS_JS = """(tap) => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[tabindex]:not([tabindex="-1"])';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    let target = el;
    if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) {
      target = el.closest('label');
    }
    if (el.matches('input') && el.labels && el.labels.length
        && getComputedStyle(el).opacity === '0') target = el.labels[0];
    const style = getComputedStyle(target);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const r = target.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;           // not rendered (closed details...)
    if (target.closest('.vh')) continue;
    if (Math.round(r.width) < tap || Math.round(r.height) < tap) {
      const said = target.tagName === 'SELECT' ? target.name
        : (target.innerText || target.value || target.getAttribute('aria-label') || target.name || '');
      const cls = typeof target.className === 'string' && target.className.trim()
        ? '.' + target.className.trim().split(/\\s+/).join('.') : '';
      const tag = target.tagName.toLowerCase() + (target.id ? '#' + target.id : '') + cls;
      out.push(`${tag} "${said.trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}"""


def small_targets(page: Any) -> list[str]:
    return list(page.evaluate(TARGETS_JS, TAP))


def axe_findings(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] in impacts:
            for node in v["nodes"]:
                summary = node.get("failureSummary", "")[:160]
                out.append(f'{v["id"]} ({v["impact"]}): {node["target"]} {summary}')
    return out
