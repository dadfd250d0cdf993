"""Issue 26 item 7: the print rules that put the wall chart on one landscape page (title,
table and legend together) and page it cleanly beyond; the browser's page count is in
tests/e2e/test_wall_chart_print.py."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSS = (ROOT / "static/klinzha/site.css").read_text()
TEMPLATE = (ROOT / "templates/tournaments/crosstable.html").read_text()


def print_rules() -> str:
    """The text of the stylesheet's @media print blocks."""
    out, i = [], 0
    while (i := CSS.find("@media print", i)) != -1:
        depth, j = 0, CSS.index("{", i)
        for k in range(j, len(CSS)):
            depth += {"{": 1, "}": -1}.get(CSS[k], 0)
            if depth == 0:
                out.append(CSS[j : k + 1])
                break
        i = k
    return "\n".join(out)


def test_the_wall_page_is_a4_landscape():
    assert re.search(r"@page wall\s*\{[^}]*size:\s*A4 landscape", CSS)


def test_the_whole_crosstable_page_is_on_the_wall_page():
    assert "{% block body_class %}wall-chart{% endblock %}" in TEMPLATE
    rules = print_rules()
    assert re.search(r"body\.wall-chart\s*\{[^}]*page:\s*wall", rules)
    # Not the table alone: that left the title and the legend on portrait pages.
    assert ".tablewrap:has(> #crosstable) { page: wall" not in CSS
    assert re.search(r"body\.wall-chart > header\s*\{[^}]*display:\s*none", rules)


def test_beyond_one_page_rows_stay_whole_and_the_header_repeats():
    rules = print_rules()
    assert re.search(r"thead\s*\{[^}]*display:\s*table-header-group", rules)
    assert re.search(r"\btr\s*\{[^}]*break-inside:\s*avoid", rules)
    assert re.search(r"#crosstable\s*\{[^}]*font-size:\s*6\.5pt", rules)
