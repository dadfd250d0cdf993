"""The garbage collector's pace in the long-lived processes (web, sockets, worker)."""

from __future__ import annotations

import gc

from django.conf import settings

# Python's default pace (a young collection every 700 new containers, a full one every
# hundred of those) is made for small heaps. A published page's standings build tens of
# thousands of tuples and mappings, and a process keeping pages and standings in memory
# has a large old generation: at the default pace its full collections came in the middle
# of renders and took most of a cold crosstable's time (docs/performance.md, "While a round
# is running"). The values build almost no cycles, so collecting less often frees the same.
DEFAULT_THRESHOLDS = (50_000, 20, 10)


def gc_tune() -> tuple[int, int, int]:
    """Set the collector's thresholds (setting KZ_GC_THRESHOLDS) and move everything loaded so
    far (modules, templates, settings) out of its sight for good: they live as long as the
    process, and every full collection would walk them again. The thresholds set."""
    thresholds = tuple(getattr(settings, "KZ_GC_THRESHOLDS", DEFAULT_THRESHOLDS))
    if len(thresholds) != 3 or not all(isinstance(x, int) and x > 0 for x in thresholds):
        raise ValueError(f"KZ_GC_THRESHOLDS must be three positive integers, not {thresholds!r}")
    gc.set_threshold(*thresholds)
    gc.collect()
    gc.freeze()
    return gc.get_threshold()
