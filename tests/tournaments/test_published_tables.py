"""The long published tables built in Python (tournaments/templatetags/published_tables.py) are
byte for byte what their templates made (kept in reference_templates/): names to escape, byes,
requested byes, forfeits, penalties, the spindle's cell, every language."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game
from tournaments.selectors import game_spindle

pytestmark = pytest.mark.django_db

REFERENCE = Path(__file__).parent / "reference_templates"


def _with_reference_templates() -> list[dict[str, object]]:
    """The site's template settings, the reference folder searched first."""
    engine = dict(settings.TEMPLATES[0])
    engine["DIRS"] = [REFERENCE, *engine.get("DIRS", [])]
    return [engine, *settings.TEMPLATES[1:]]


def test_the_tables_built_in_python_are_the_templates_bytes():
    officials = officials_make()
    names = ("Ann <b>", "O'Brien & Co", 'Cid "the" Third', "Dax", "Eve", "Fay", "Gus")
    t, (a, b, c, d, e, f, g) = event_make(
        officials, slug="tables", names=names, placement_order="spindle"
    )
    r1 = round_make(t, [(a, b), (c, d), (e, f), (g, None)])
    results = [Game.Result.FIRST_WIN, Game.Result.DRAW, Game.Result.SECOND_FORFEIT_WIN]
    for game, result in zip(r1.games.order_by("board"), results, strict=False):
        services.game_result_set(game=game, result=result, user=officials.arbiter)
    r2 = round_make(t, [(b, a), (d, g), (f, None)], requested=(c, e))
    spun = r2.games.get(board=1)
    summary = game_spindle(spun)
    assert summary is not None
    services.game_spindle_choose(
        game=spun, chooser=summary["option"], placement="first", user=officials.chief
    )
    services.penalty_impose(
        tournament=t,
        player=d,
        kind="battle_lost",
        reason="a second phone",
        user=officials.chief,
        game=r2.games.get(board=2),
    )
    paths = [
        f"{lang}/t/{t.slug}/{page}"
        for lang in ("", "/it", "/fr", "/de")
        for page in ("", "standings/", "standings/?round=1", "crosstable/", "round/1/", "round/2/")
    ]
    client = Client()
    built = {path: client.get(path) for path in paths}
    # Another template folder is another build: nothing of the first pass is served again.
    with override_settings(TEMPLATES=_with_reference_templates()):
        for path, response in built.items():
            reference = client.get(path)
            assert response.status_code == reference.status_code == 200, path
            assert response.content == reference.content, path
    page = built[f"/t/{t.slug}/round/2/"].content.decode()
    assert "Ann &lt;b&gt;" in page and "O&#x27;Brien &amp; Co" in page and "chose first" in page
