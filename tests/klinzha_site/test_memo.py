"""The process memo keeps at most its size, drops the least recently used first."""

from __future__ import annotations

from klinzha_site.memo import ProcessMemo


def test_the_least_recently_used_goes_first():
    memo: ProcessMemo[str] = ProcessMemo(size=2)
    memo.put("a", "A")
    memo.put("b", "B")
    assert memo.get("a") == "A"  # now "b" is the least recently used
    memo.put("c", "C")
    assert memo.get("b") is None
    assert (memo.get("a"), memo.get("c")) == ("A", "C")


def test_put_again_replaces_and_clear_forgets():
    memo: ProcessMemo[int] = ProcessMemo(size=3)
    memo.put(("t", 1), 1)
    memo.put(("t", 1), 2)
    assert memo.get(("t", 1)) == 2
    memo.clear()
    assert memo.get(("t", 1)) is None
