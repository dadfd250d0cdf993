"""Bulk entry matches known players (ids, name, club, federation): a known one is registered,
not made again; several that could be are refused until the arbiter chooses; the page's
preview says which lines are new, which match whom and which are ambiguous."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from klinzha_site.errors import RowsRefused
from tests.tournaments.services.factories import Officials
from tournaments import services
from tournaments.entrant_lines import entrant_lines_read
from tournaments.models import Player, Registration, Tournament
from tournaments.player_labels import player_label
from tournaments.services import EntrantRow
from tournaments.services.entrants_match import Match, entrant_rows_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():  # type: ignore[no-untyped-def]
    """Two Worfs of different clubs, one Martok, one Kurn known by his FIDE id."""
    mogh = services.club_create(name="House of Mogh")
    rozhenko = services.club_create(name="Rozhenko Club")
    return {
        "worf_mogh": services.player_create(name="Worf", club=mogh, rating=1850),
        "worf_roz": services.player_create(name="Worf", club=rozhenko, rating=1700),
        "martok": services.player_create(name="Martok", rating=1900, federation="KLI"),
        "kurn": Player.objects.create(name="Kurn", fide_id="4100018"),
    }


def cup(officials: Officials, slug: str) -> Tournament:
    t = services.tournament_create(
        name=slug.title(), slug=slug, start_date=date(2026, 11, 1), rounds_planned=3
    )
    t.chief_arbiter = officials.chief
    t.save(update_fields=["chief_arbiter"])
    return t


def kinds(lines: str) -> dict[int, tuple[str, int | None, tuple[int, ...]]]:
    rows = services.entrant_line_rows(entrant_lines_read(lines))
    return {
        key: (m.kind, m.player.pk if m.player else None, tuple(p.pk for p in m.candidates))
        for key, m in entrant_rows_match(rows).items()
    }


def test_a_unique_name_matches_its_player_case_aside(people):
    assert kinds("martok, 1900") == {1: (Match.KNOWN, people["martok"].pk, ())}


def test_a_club_picks_one_namesake_and_without_it_both_are_offered(people):
    found = kinds("Worf, 1850, House of Mogh\nWorf, 1850\nGowron, 2000")
    assert found[1] == (Match.KNOWN, people["worf_mogh"].pk, ())
    assert found[2] == (Match.AMBIGUOUS, None, (people["worf_mogh"].pk, people["worf_roz"].pk))
    assert found[3] == (Match.NEW, None, ())


def test_a_contradicting_federation_makes_the_namesake_a_question_not_a_match(people):
    assert kinds("Martok, 1900, , FED") == {1: (Match.AMBIGUOUS, None, (people["martok"].pk,))}


def test_a_known_fide_id_names_its_player_whatever_the_name(people):
    rows = [EntrantRow(key=0, name="Kurn, son of Mogh", fide_id="4100018", known_by_name=True)]
    assert entrant_rows_match(rows)[0].player == people["kurn"]


def test_bulk_entry_registers_the_known_players_instead_of_making_new_ones(officials, people):
    t = cup(officials, "cup")
    before = Player.objects.count()
    regs = services.entrants_bulk_register(
        tournament=t,
        lines=entrant_lines_read("Martok\nWorf, 1850, House of Mogh\nGowron, 2000"),
        user=officials.chief,
    )
    assert [r.player_id for r in regs[:2]] == [people["martok"].pk, people["worf_mogh"].pk]
    assert Player.objects.count() == before + 1  # Gowron only


def test_an_ambiguous_line_is_refused_until_chosen_then_registers_the_choice(officials, people):
    t = cup(officials, "cup")
    lines = entrant_lines_read("Worf, 1850")
    with pytest.raises(ValidationError) as refused:
        services.entrants_bulk_register(tournament=t, lines=lines, user=officials.chief)
    assert f"#{people['worf_roz'].pk}" in str(refused.value)
    assert not Registration.objects.filter(tournament=t).exists()
    regs = services.entrants_bulk_register(
        tournament=t, lines=lines, user=officials.chief, choices={1: people["worf_roz"].pk}
    )
    assert regs[0].player_id == people["worf_roz"].pk
    count = Player.objects.count()
    t2 = cup(officials, "cup-2")
    regs = services.entrants_bulk_register(
        tournament=t2, lines=lines, user=officials.chief, choices={1: None}
    )
    assert Player.objects.count() == count + 1
    assert regs[0].player.name == "Worf"


def test_the_apis_rows_match_when_asked_and_refuse_an_ambiguous_row(officials, people):
    t = cup(officials, "cup")
    with pytest.raises(RowsRefused):
        services.entrants_register(
            tournament=t,
            rows=[EntrantRow(key=0, name="Worf", known_by_name=True)],
            user=officials.chief,
        )
    regs = services.entrants_register(
        tournament=t,
        rows=[EntrantRow(key=0, name="MARTOK", known_by_name=True)],
        user=officials.chief,
    )
    assert regs[0].player_id == people["martok"].pk


def test_a_players_label_tells_namesakes_apart(people):
    mogh, roz = player_label(people["worf_mogh"]), player_label(people["worf_roz"])
    assert mogh != roz
    assert "House of Mogh" in mogh and f"#{people['worf_mogh'].pk}" in mogh
    assert "KLI" in player_label(people["martok"])
    assert "4100018" in player_label(people["kurn"])


def test_the_preview_says_new_known_and_ambiguous(client: Client, officials: Officials, people):
    t = cup(officials, "cup")
    client.force_login(officials.chief)
    page = client.post(
        reverse("arbiter:entrants-bulk", args=[t.slug]),
        {"text": "Martok\nWorf, 1850\nGowron, 2000", "preview": "1"},
    )
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="line-1" data-match="known"' in html
    assert 'id="line-2" data-match="ambiguous"' in html
    assert 'id="line-3" data-match="new"' in html
    assert player_label(people["worf_roz"]) in html
    assert 'name="choice-2"' in html
    assert not Registration.objects.filter(tournament=t).exists()
    done = client.post(
        reverse("arbiter:entrants-bulk", args=[t.slug]),
        {
            "text": "Martok\nWorf, 1850\nGowron, 2000",
            "register": "1",
            "choice-2": str(people["worf_mogh"].pk),
        },
    )
    assert done.status_code == 302
    assert set(Registration.objects.filter(tournament=t).values_list("player_id", flat=True)) >= {
        people["martok"].pk,
        people["worf_mogh"].pk,
    }


def test_the_desks_player_menus_tell_namesakes_apart(client: Client, officials, people):  # type: ignore[no-untyped-def]
    t = cup(officials, "cup")
    services.registration_create(tournament=t, player=people["worf_mogh"])
    client.force_login(officials.chief)
    page = client.get(reverse("arbiter:manage", args=[t.slug])).content.decode()
    # The known-player menu of the entrant form lists every player; the entrants' menus
    # (start rank, bye, account) list this event's.
    assert player_label(people["worf_roz"]) in page
    assert page.count(player_label(people["worf_mogh"])) >= 3


def test_the_api_batch_matches_with_match_true_and_names_an_ambiguous_rows_candidates(
    officials, people
):  # type: ignore[no-untyped-def]
    t = cup(officials, "cup")
    api = APIClient()
    api.force_authenticate(officials.chief)
    url = f"/api/tournaments/{t.slug}/registrations/bulk/"
    refused = api.post(url, {"match": True, "rows": [{"name": "Worf"}]}, format="json")
    assert refused.status_code == 400
    assert f"#{people['worf_roz'].pk}" in str(refused.json())
    done = api.post(
        url,
        {"match": True, "rows": [{"name": "Martok"}, {"name": "Kurn", "fide_id": "4100018"}]},
        format="json",
    )
    assert done.status_code == 201, done.content
    assert [r["player"] for r in done.json()["registrations"]] == [
        people["martok"].pk,
        people["kurn"].pk,
    ]


def test_a_line_reads_federation_and_fide_id_and_refuses_what_is_not_one():
    good, bad, many = entrant_lines_read(
        "Kurn, 1700, House of Mogh, kli, 4100018\nKurn, 1700, , KLI, 41²\na,1,b,c,d,e"
    )
    assert (good.club, good.federation, good.fide_id) == ("House of Mogh", "KLI", "4100018")
    assert bad.error and not bad.fide_id
    assert "too many columns" in many.error


def test_the_apis_preview_reads_each_row_and_stores_nothing(officials, people):  # type: ignore[no-untyped-def]
    t = cup(officials, "cup")
    api = APIClient()
    api.force_authenticate(officials.chief)
    rows = [
        {"name": "Worf"},
        {"name": "martok"},
        {"name": "Gowron"},
        {"player": people["kurn"].pk},
    ]
    url = f"/api/tournaments/{t.slug}/registrations/bulk/preview/"
    answer = api.post(url, {"match": True, "rows": rows}, format="json")
    assert answer.status_code == 200, answer.content
    read = answer.json()["rows"]
    assert [(r["match"], r["player"]) for r in read] == [
        ("ambiguous", None),
        ("known", people["martok"].pk),
        ("new", None),
        ("given", people["kurn"].pk),
    ]
    assert {c["id"] for c in read[0]["candidates"]} == {
        people["worf_mogh"].pk,
        people["worf_roz"].pk,
    }
    assert {c["club"] for c in read[0]["candidates"]} == {"House of Mogh", "Rozhenko Club"}
    assert not Registration.objects.filter(tournament=t).exists()
    stranger = APIClient()
    stranger.force_authenticate(officials.stranger)
    assert stranger.post(url, {"match": True, "rows": rows}, format="json").status_code == 403
