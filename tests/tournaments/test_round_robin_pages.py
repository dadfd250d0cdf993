"""A round robin's whole schedule from round 1, its player-by-player grid and its default
tie-breaks (FIDE SB, DE, KS)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client

from tests.tournaments.services.factories import Officials, event_make, officials_make
from tournaments import services
from tournaments.audit import Action
from tournaments.event_system_selectors import round_robin_schedule
from tournaments.models import AuditEntry, Game, RoundPlan, Tournament

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bob", "Cid", "Dax", "Eve")


def robin(slug: str = "robin", **settings):  # type: ignore[no-untyped-def]
    settings.setdefault("pairing_system", Tournament.PairingSystem.ROUND_ROBIN)
    return event_make(officials_make(), slug=slug, names=NAMES, **settings)


def test_the_whole_schedule_shows_before_round_2_is_played():
    t, players = robin()
    r1 = services.round_pair(tournament=t)
    services.round_schedule(round=r1, starts_at=datetime(2026, 11, 1, 10, tzinfo=UTC), place="Hall")
    schedule = round_robin_schedule(tournament=t)
    # Five players: five rounds, each with two boards and a free round.
    assert [r.number for r in schedule] == [1, 2, 3, 4, 5]
    assert [r.paired for r in schedule] == [True, False, False, False, False]
    assert schedule[0].starts_at is not None and schedule[0].place == "Hall"
    assert all(len(r.boards) == 3 for r in schedule)
    body = Client().get(f"/t/{t.slug}/").content.decode()
    for number in range(1, 6):
        assert f'id="schedule-{number}"' in body
    assert "Hall" in body
    # What the schedule says of round 2 is what pairing round 2 stores.
    promised = [(b.first, b.second) for b in schedule[1].boards]
    for g in r1.games.filter(kind=Game.Kind.GAME):
        services.game_result_set(game=g, result=Game.Result.FIRST_WIN)
    r2 = services.round_pair(tournament=t)
    stored = [(g.first.name, g.second.name if g.second else "") for g in r2.games.order_by("board")]
    assert stored == promised
    after = round_robin_schedule(tournament=t)
    assert [r.paired for r in after] == [True, True, False, False, False]
    assert [b.marks for b in after[0].boards if b.second] == [("1", "0"), ("1", "0")]
    assert [b.marks for b in after[2].boards] == [("", "")] * 3
    # A player meets every other once over the schedule.
    met = {frozenset((b.first, b.second)) for r in after for b in r.boards if b.second}
    assert len(met) == 10


def test_no_schedule_before_round_1_nor_for_a_swiss():
    t, _ = robin()
    assert round_robin_schedule(tournament=t) == []
    assert 'id="schedule"' not in Client().get(f"/t/{t.slug}/").content.decode()
    swiss, _ = event_make(_others(), slug="swiss", names=NAMES)
    services.round_pair(tournament=swiss)
    assert round_robin_schedule(tournament=swiss) == []


def _others() -> Officials:
    """A second set of officials beside officials_make's (their user names differ)."""
    User = get_user_model()
    return Officials(*(User.objects.create_user(f"other{n}") for n in range(5)))


def _cells(body: str) -> list[list[str]]:
    table = body.split('id="crosstable"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], re.S)
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]


def test_the_crosstable_is_the_player_by_player_grid():
    t, (ann, bob, cid, dax, eve) = robin()
    r1 = services.round_pair(tournament=t)
    for g in r1.games.filter(kind=Game.Kind.GAME):
        services.game_result_set(game=g, result=Game.Result.FIRST_WIN)
    won = {g.first.name: g.second.name for g in r1.games.filter(kind=Game.Kind.GAME)}
    body = Client().get(f"/t/{t.slug}/crosstable/").content.decode()
    assert 'class="rr-grid"' in body
    rows = _cells(body)
    names = [re.sub(r"<[^>]+>", "", r[1]) for r in rows]
    assert len(rows) == 5
    for i, row in enumerate(rows):
        grid = row[4:9]  # rank, name, club, rating, then one cell per player
        assert grid[i] == "×"
        for j, cell in enumerate(grid):
            if won.get(names[i]) == names[j]:
                assert cell == "1"
            elif won.get(names[j]) == names[i]:
                assert cell == "0"
            elif i != j:
                assert cell == ""
    services.registration_withdraw(registration=t.registrations.get(player=eve))
    body = Client().get(f"/t/{t.slug}/crosstable/").content.decode()
    assert 'class="rr-grid"' in body and "withdrawn after round 1" in body


def test_a_swiss_crosstable_keeps_its_rounds():
    t, _ = event_make(officials_make(), slug="swiss", names=NAMES)
    services.round_pair(tournament=t)
    body = Client().get(f"/t/{t.slug}/crosstable/").content.decode()
    assert 'class="rr-grid"' not in body and 'id="crosstable"' in body


@pytest.mark.parametrize(
    ("system", "expected"),
    [
        (Tournament.PairingSystem.ROUND_ROBIN, "SB,DE,KS"),
        (Tournament.PairingSystem.DOUBLE_ROUND_ROBIN, "SB,DE,KS"),
        (Tournament.PairingSystem.SWISS, "BH,SSB,WON"),
        (Tournament.PairingSystem.KNOCKOUT, "BH,SSB,WON"),
    ],
)
def test_default_tiebreaks_follow_the_system(system, expected):
    t, _ = robin(slug=f"tb-{system}".replace("_", "-"), pairing_system=system)
    assert t.tiebreaks == expected


def test_a_chosen_list_is_kept_and_a_default_follows_a_change_of_system():
    chosen, _ = robin(slug="chosen", tiebreaks="BH,WON")
    assert chosen.tiebreaks == "BH,WON"
    officials = _others()
    t, _ = event_make(officials, slug="changes", names=NAMES)
    assert t.tiebreaks == "BH,SSB,WON"
    t = services.tournament_update(
        tournament=t, user=officials.chief, pairing_system=Tournament.PairingSystem.ROUND_ROBIN
    )
    assert t.tiebreaks == "SB,DE,KS"
    entry = AuditEntry.objects.filter(tournament=t, action=Action.SETTINGS).latest("pk")
    assert "tiebreaks" in str(entry.after)
    t = services.tournament_update(tournament=t, user=officials.chief, tiebreaks="DE,SB")
    t = services.tournament_update(
        tournament=t, user=officials.chief, pairing_system=Tournament.PairingSystem.SWISS
    )
    assert t.tiebreaks == "DE,SB"  # the arbiter's own list stays


def test_rounds_scheduled_ahead_show_and_are_copied_when_paired():
    t, _ = robin(slug="dated", rounds_planned=5)
    chief = t.chief_arbiter
    third = datetime(2026, 11, 3, 15, tzinfo=UTC)
    plan = services.round_schedule_ahead(
        tournament=t, number=3, starts_at=third, place="Room B", user=chief
    )
    assert isinstance(plan, RoundPlan)
    entry = AuditEntry.objects.filter(tournament=t, action=Action.ROUND_SCHEDULED).latest("pk")
    assert entry.after["round"] == 3 and entry.after["place"] == "Room B"
    r1 = services.round_pair(tournament=t)
    schedule = round_robin_schedule(tournament=t)
    assert (schedule[2].starts_at, schedule[2].place) == (third, "Room B")
    assert schedule[1].starts_at is None
    body = Client().get(f"/t/{t.slug}/").content.decode()
    assert "Room B" in body and body.count("date to be set") == 4  # rounds 1, 2, 4 and 5
    for number in (1, 2):
        rnd = t.rounds.get(number=number)
        for g in rnd.games.filter(kind=Game.Kind.GAME):
            services.game_result_set(game=g, result=Game.Result.FIRST_WIN)
        services.round_pair(tournament=t)
    r3 = t.rounds.get(number=3)
    assert (r3.starts_at, r3.place) == (third, "Room B")
    assert r1.starts_at is None
    with pytest.raises(ValidationError, match="5 rounds"):
        services.round_schedule_ahead(tournament=t, number=6, starts_at=third, user=chief)


def test_the_api_and_the_console_schedule_a_round_not_yet_paired():
    t, _ = robin(slug="api-dated", rounds_planned=5)
    client = Client()
    client.force_login(t.chief_arbiter)
    answer = client.post(
        f"/api/tournaments/{t.slug}/schedule/",
        {"round": 2, "starts_at": "2026-11-02T10:00:00Z", "place": "Hall"},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"round": 2, "starts_at": "2026-11-02T10:00:00Z", "place": "Hall"}
    refused = client.post(
        f"/api/tournaments/{t.slug}/schedule/",
        {"round": 9, "starts_at": None, "place": ""},
        content_type="application/json",
    )
    assert refused.status_code == 400
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert 'id="plan-1"' in page and 'id="plan-5"' in page and 'value="Hall"' in page
    posted = client.post(
        f"/arbiter/t/{t.slug}/round/4/schedule/",
        {"starts_at": "2026-11-04T09:30", "place": "Annex"},
    )
    assert posted.status_code == 302
    assert RoundPlan.objects.get(tournament=t, number=4).place == "Annex"
