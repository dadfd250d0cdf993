"""The one rule that keeps a CSV text cell from running as a formula (issue 22, item 7)."""

from __future__ import annotations

import pytest

from klinzha_site.csv_cells import csv_text


@pytest.mark.parametrize(
    ("raw", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1+1", "'\t'=1+1"),
        ("\rx", "'\rx"),
        ("  =1+1", "'  =1+1"),
        ("A;=1+1", "A;'=1+1"),
        ("A, -1", "A, '-1"),
        ("A|@x", "A|'@x"),
        ("A\n+1", "A\n'+1"),
        # ordinary names and clubs stay as they are
        ("Jean-Paul", "Jean-Paul"),
        ("K'Tar", "K'Tar"),
        ("Club 2+2", "Club 2+2"),
        ("", ""),
        (None, ""),
    ],
)
def test_a_text_cell_never_starts_a_formula(raw, written):
    assert csv_text(raw) == written
