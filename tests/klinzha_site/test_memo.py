"""The process memo keeps at most its size, drops the least recently used first; a
transaction is open inside an atomic block only."""

from __future__ import annotations

import pytest
from django.db import transaction

from klinzha_site.memo import ProcessMemo, transaction_open


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


@pytest.mark.django_db(transaction=True)
def test_a_transaction_is_open_inside_atomic_blocks_only():
    assert not transaction_open()
    with transaction.atomic():
        assert transaction_open()
        with transaction.atomic():
            assert transaction_open()
        assert transaction_open()
    assert not transaction_open()


def test_a_test_cases_own_transaction_counts_as_open(db):
    """It rolls back at the test's end: what was read in it must not outlive it."""
    assert transaction_open()
