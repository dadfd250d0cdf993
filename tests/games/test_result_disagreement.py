"""A result entered against the final signed record (issue 22 item 17): board 1 of the demo
was entered as a draw, then both combatants sign a valid record in which green captures the
Goal. The console, the dashboard, the API and the game page say so; pairing the next round
warns; only an audited ruling (either way) ends it; the players are still asked for the
records of games whose result is entered."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from games.api import views as games_api_views
from games.disagreement_selectors import result_disagreements
from games.models import RecordSubmission
from tests.games.conftest import done
from tests.games.test_signed_final import Battle, battle_make, signed_by_both
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Game

pytestmark = pytest.mark.django_db(transaction=True)

RULE_URL = "/api/games/{pk}/record-disagreement/"


@pytest.fixture
def drawn(setup) -> tuple[Battle, Any]:  # type: ignore[no-untyped-def]
    """The demo's board 1 of round 1, entered as a draw, with its record signed by both."""
    game, arbiter = setup
    assert game.result == Game.Result.DRAW
    b = battle_make(game, arbiter)
    rid = signed_by_both(b)
    sub = done(RecordSubmission.objects.get(pk=rid))
    assert sub.valid and sub.winner == "green" and sub.termination == "capture", sub.error
    return b, arbiter


def console(arbiter: Any, game: Game) -> str:
    c = Client()
    c.force_login(arbiter)
    resp = c.get(f"/arbiter/t/{game.round.tournament.slug}/round/{game.round.number}/")
    assert resp.status_code == 200
    html = resp.content.decode()
    start = html.index(f'<tr id="game-{game.board}">')
    return html[start : html.index("</tr>", start)]


def test_the_arbiter_sees_it_on_the_console_the_dashboard_and_the_api(drawn):
    b, arbiter = drawn
    row = console(arbiter, b.game)
    assert "result entered: Draw; the signed record: green captures the Goal (Art. 5.1.1)" in row
    assert "record-disagreement/" in row  # the ruling's forms
    c = Client()
    c.force_login(arbiter)
    dash = c.get("/arbiter/").content.decode()
    assert 'id="record-disagreements"' in dash and "1 result contradicts its signed record" in dash
    slug = b.game.round.tournament.slug
    assert f'href="/arbiter/t/{slug}/round/1/#game-{b.game.board}"' in dash
    got = b.arbiter.get(f"/api/games/{b.game.pk}/").json()["record_disagreement"]
    assert got["entered"] == "draw" and got["record_result"] == "first_win"
    assert (got["termination"], got["winner"], got["article"]) == ("capture", "green", "5.1.1")
    listed = b.arbiter.get("/api/games/?page_size=500").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [g["record_disagreement"] is not None for g in rows].count(True) == 1


def test_a_list_reads_the_disagreements_of_its_page_once(drawn, monkeypatch):
    b, _ = drawn
    calls: list[list[int]] = []

    def counted(*, games: list[Game]) -> dict[int, Any]:
        calls.append([g.pk for g in games])
        return result_disagreements(games=games)

    monkeypatch.setattr(games_api_views, "result_disagreements", counted)
    listed = b.arbiter.get("/api/games/?limit=500").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert len(rows) > 1 and calls == [[g["id"] for g in rows]]
    assert [g["id"] for g in rows if g["record_disagreement"] is not None] == [b.game.pk]


def test_the_public_page_says_the_result_is_under_review(drawn):
    b, arbiter = drawn
    html = Client().get(f"/g/{b.game.pk}/").content.decode()
    assert "Draw" in html and "The moves decide: capture, green wins" in html
    assert 'id="result-under-review"' in html and "the arbiter is reviewing this result" in html
    c = Client()
    c.force_login(arbiter)
    html = c.get(f"/g/{b.game.pk}/").content.decode()
    assert "result entered: Draw; the signed record: green captures the Goal" in html


def test_pairing_the_next_round_warns_naming_the_board(drawn):
    b, arbiter = drawn
    made = b.arbiter.post(f"/api/tournaments/{b.game.round.tournament.slug}/pair/", {})
    assert made.status_code in (200, 201), made.content
    rnd = b.game.round.tournament.rounds.get(number=2)
    said = [w for w in rnd.warnings if f"round 1, board {b.game.board}" in w]
    assert said and "contradicts the signed record" in said[0], rnd.warnings
    c = Client()
    c.force_login(arbiter)
    html = c.get(f"/arbiter/t/{b.game.round.tournament.slug}/round/2/").content.decode()
    start = html.index('id="pairing-warnings"')
    shown = html[start : html.index("</ul>", start)]
    assert f"round 1, board {b.game.board}" in shown and "contradicts the signed record" in shown


def test_taking_the_records_result_ends_it_and_is_audited(drawn):
    b, arbiter = drawn
    url = RULE_URL.format(pk=b.game.pk)
    assert b.first.api.post(url, {"decision": "record"}, format="json").status_code == 403
    ruled = b.arbiter.post(url, {"decision": "record"}, format="json")
    assert ruled.status_code == 200, ruled.content
    assert ruled.json()["result"] == "first_win" and ruled.json()["record_disagreement"] is None
    entry = AuditEntry.objects.filter(action="game.result_disagreement_ruled").get()
    assert entry.before["result"] == "draw" and entry.after["decision"] == "record"
    assert "record-disagreement/" not in console(arbiter, b.game)
    again = b.arbiter.post(url, {"decision": "record"}, format="json")
    assert again.status_code == 409, again.content


def test_the_entered_result_stands_only_with_a_reason_and_until_a_new_final_record(drawn):
    b, arbiter = drawn
    url = RULE_URL.format(pk=b.game.pk)
    no_reason = b.arbiter.post(url, {"decision": "entered", "reason": " "}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    c = Client()
    c.force_login(arbiter)
    slug = b.game.round.tournament.slug
    resp = c.post(
        f"/arbiter/t/{slug}/game/{b.game.pk}/record-disagreement/",
        {"decision": "entered", "reason": "Art. 12.4: the Goal was moved after the flag fell"},
    )
    assert resp.status_code == 302
    b.game.refresh_from_db()
    assert b.game.result == Game.Result.DRAW
    assert b.arbiter.get(f"/api/games/{b.game.pk}/").json()["record_disagreement"] is None
    assert "result entered" not in console(arbiter, b.game)
    entry = AuditEntry.objects.filter(action="game.result_disagreement_ruled").get()
    assert entry.after["decision"] == "entered" and "12.4" in entry.after["reason"]
    html = c.get(f"/arbiter/t/{slug}/audit/").content.decode()
    assert "result and signed record reconciled" in html
    # Another result entered later is not the one ruled on: reported again.
    tournament_services.game_result_set(game=b.game, result=Game.Result.SECOND_WIN, user=arbiter)
    assert b.arbiter.get(f"/api/games/{b.game.pk}/").json()["record_disagreement"] is not None


def test_a_result_entered_keeps_the_game_in_records_to_submit(setup):
    game, arbiter = setup
    assert game.result  # the demo entered it; nobody submitted a record
    b = battle_make(game, arbiter)
    c = Client()
    c.force_login(b.first.user)
    html = c.get("/me/games/").content.decode()
    start = html.index('<section id="to-submit">')
    assert f'href="/g/{game.pk}/"' in html[start : html.index("</section>", start)]


def test_a_ruling_refuses_a_reason_too_long_or_of_invisible_characters_only(drawn):
    """The console's form takes what the API takes: at most 2000 characters, and a reason a
    reader sees (a direction mark or a zero-width space alone is none); nothing is ruled."""
    b, arbiter = drawn
    c = Client()
    c.force_login(arbiter)
    page = f"/arbiter/t/{b.game.round.tournament.slug}/game/{b.game.pk}/record-disagreement/"
    api = RULE_URL.format(pk=b.game.pk)
    for reason in ("x" * 100_000, "\u200f\u202e", "\u200b \u2060"):
        resp = c.post(page, {"decision": "entered", "reason": reason})
        assert resp.status_code == 302
        errors = [m.message for m in get_messages(resp.wsgi_request) if m.level_tag == "error"]
        assert errors and errors[0].startswith("reason: "), errors
        refused = b.arbiter.post(api, {"decision": "entered", "reason": reason}, format="json")
        assert refused.status_code == 400 and "reason" in refused.json(), refused.content
    assert not AuditEntry.objects.filter(action="game.result_disagreement_ruled").exists()
    assert b.arbiter.get(f"/api/games/{b.game.pk}/").json()["record_disagreement"] is not None


def test_a_ruling_on_a_result_changed_since_it_was_shown_is_refused(drawn):
    """The console's forms say which entered result they rule on; if the other arbiter
    changed it meanwhile the ruling is refused (409, or the console's error) and upholds
    nothing, rather than upholding a result the arbiter never saw."""
    b, arbiter = drawn
    row = console(arbiter, b.game)
    assert row.count('name="entered" value="draw"') == 2  # both forms of the ruling
    changed = b.arbiter.post(f"/api/games/{b.game.pk}/result/", {"result": "second_win"})
    assert changed.status_code == 200, changed.content
    c = Client()
    c.force_login(arbiter)
    page = f"/arbiter/t/{b.game.round.tournament.slug}/game/{b.game.pk}/record-disagreement/"
    resp = c.post(page, {"decision": "entered", "reason": "Art. 12.4", "entered": "draw"})
    errors = [m.message for m in get_messages(resp.wsgi_request) if m.level_tag == "error"]
    assert errors and "the result was changed meanwhile (now Second placer wins)" in errors[0], (
        errors
    )
    body = {"decision": "entered", "reason": "Art. 12.4", "entered": "draw"}
    refused = b.arbiter.post(RULE_URL.format(pk=b.game.pk), body, format="json")
    assert refused.status_code == 409 and "entered" in refused.json(), refused.content
    assert not AuditEntry.objects.filter(action="game.result_disagreement_ruled").exists()
    body["entered"] = "second_win"  # looked again: the ruling is on what stands now
    ruled = b.arbiter.post(RULE_URL.format(pk=b.game.pk), body, format="json")
    assert ruled.status_code == 200 and ruled.json()["result"] == "second_win", ruled.content
    bad = b.arbiter.post(RULE_URL.format(pk=b.game.pk), {**body, "entered": "lost"}, format="json")
    assert bad.status_code == 400 and "entered" in bad.json()
