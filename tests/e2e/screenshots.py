"""Screenshots for docs/screenshots/: a test's page as shown, saved only when
KZ_SCREENSHOTS_DIR names a folder (the window only, never the whole scrolled page)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def screenshot(page: Any, name: str) -> None:
    """`name`.png in KZ_SCREENSHOTS_DIR, when it is set; nothing otherwise."""
    folder = os.environ.get("KZ_SCREENSHOTS_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=Path(folder) / f"{name}.png")
