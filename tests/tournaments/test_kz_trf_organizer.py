"""`kz trf import --organizer USERNAME`: the imported event has that organizer, who may run
it; without the option it has none, as before; an unknown account, or one that may not
organize, is refused with a message and nothing is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command

from tournaments.models import Tournament
from tournaments.roles import Role, role_require

FIXTURE = Path(__file__).parent / "trf_fixtures" / "javafo_xxs.trf"
pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer() -> User:
    user = User.objects.create_user("org", password="pw-organizer-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return User.objects.get(pk=user.pk)  # permissions are cached on the instance


def _import(capsys: pytest.CaptureFixture[str], *extra: str) -> Tournament:
    call_command("kz", "trf", "import", str(FIXTURE), "--json", *extra)
    slug = json.loads(capsys.readouterr().out)["slug"]
    return Tournament.objects.get(slug=slug)


def test_the_organizer_option_makes_that_account_the_organizer(organizer, capsys):
    t = _import(capsys, "--organizer", "org")
    assert t.organizer == organizer
    # The organizer may run the event: the role that pairs rounds and records results.
    role_require(user=organizer, tournament=t, role=Role.ORGANIZER)


def test_without_the_option_the_event_has_no_organizer(organizer, capsys):
    assert _import(capsys).organizer is None


@pytest.mark.parametrize("who", ["nobody", "player"])
def test_an_account_that_cannot_organize_is_refused_and_nothing_stored(who, capsys):
    User.objects.create_user("player", password="pw-player-1")
    with pytest.raises(SystemExit) as exit_:
        call_command("kz", "trf", "import", str(FIXTURE), "--organizer", who)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert who in err
    assert "no active account" in err or "may not organize" in err
    assert not Tournament.objects.exists()


def test_the_check_reads_with_the_organizer_too(organizer, capsys):
    call_command("kz", "trf", "import", str(FIXTURE), "--check", "--organizer", "org")
    assert "nothing stored" in capsys.readouterr().out
    assert not Tournament.objects.exists()
