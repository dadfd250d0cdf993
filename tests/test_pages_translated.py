"""Every text a page shows is translated: the demo event's public, arbiter and player pages
in Italian, French and German share no sentence with their English form beyond names,
numbers and words that are the same in both languages (found by walking the pages)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tournaments.models import Club, Game, Player, Tournament
from tournaments.player_labels import player_label
from tournaments.tiebreaks import CODES

pytestmark = pytest.mark.django_db

SKIPPED_TAGS = {"script", "style", "svg", "pre", "code"}
# The same in the language as in English, or a name: language names, tie-break names,
# formats, and words these languages borrow.
SAME = {
    "Account",
    "Deutsch",
    "English",
    "Français",
    "Italiano",
    "Rating",
    "Password",
    "Buchholz",
    "Sonneborn-Berger",
    "CSV",
    "JSON",
    "TRF",
    "TRF (FIDE TRF-16)",
    "TRF (FIDE TRF16)",  # the dialect the export writes, by its name
    "TRF (FIDE TRF-2025)",
    "Club",
    "Name",
    "Name:",
    "Dates",
    "Notation (8.3)",
    "Gold:",
    "gold",
    "PDF",
    "Audit",
    "Article",
    "Descriptive",
    "Sections",
    "Downloads",
    "Status",
    "rating:",
    "second",
    "Klin Zha",
    "Site",  # the header's site links, by their French names
    "Clubs",
    # FIDE's tie-break codes (C.07) head the columns in every language; the arbiter's list
    # pairs each with its name, two of them names of people.
    *CODES,
    "BH – Buchholz",
    # The FIDE regulations a setting of the event form follows, by their Handbook codes.
    "FIDE C.04",
    "FIDE C.07",
    # A variant's name in the Laws (Art. 13.9), the same in every language.
    "Klin Zha Kinta (Art. 13.9)",
    "SB – Sonneborn-Berger",
}
NOT_WORDS = re.compile(
    r"^.* · [A-Z]{3} · Rating \d+$|"
    r"^~?[\d\s.,:;()/+\-–—=½*#%|·•…→←⏮⏭▶◀?]+$|^\d+[fs][01=+\-BH]?$|^Art\. [\d.]+$|^[\d.]+[a-f]$"
)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED_TAGS:
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder", "alt") and value:
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED_TAGS:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def texts(client: Client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    parser = _Text()
    parser.feed(response.content.decode())
    return parser.texts


@pytest.fixture
def demo() -> Tournament:
    call_command("kz", "demo", verbosity=0)
    return Tournament.objects.get(slug="klinzhai-open-2026")


def untranslated(client: Client, urls: list[str], known: set[str]) -> list[str]:
    found = []
    for url in urls:
        english = set(texts(client, url))
        for language in ("it", "fr", "de"):
            for text in texts(client, f"/{language}{url}"):
                if (
                    text in english
                    and text not in SAME
                    and text not in known
                    and len(text) > 2
                    and not NOT_WORDS.match(text)
                ):
                    found.append(f"{language}{url}: {text}")
    return found


def test_pages_show_nothing_left_in_english(demo):
    game = Game.objects.filter(round__tournament=demo, kind=Game.Kind.GAME).first()
    assert game is not None
    known = set(Player.objects.values_list("name", flat=True))
    known |= {f": {name}" for name in known}
    # The trail names each entrant with their start rank (data, in no language).
    known |= {f": {r.player.name} (#{r.start_rank})" for r in demo.registrations.all()}
    known |= set(Club.objects.values_list("name", flat=True)) | {demo.name, demo.local_rules}
    known |= {f"{game.first.name} – {game.second.name}", '[Event "…"]'}
    pairs = Game.objects.filter(round__tournament=demo, second__isnull=False)
    known |= {
        f": {g.first.name} – {g.second.name}" for g in pairs.select_related("first", "second")
    }
    known |= {f"{c.name} {p.rating}" for p in Player.objects.all() for c in Club.objects.all()}
    known |= {demo.venue} | set(get_user_model().objects.values_list("username", flat=True))
    # The menus name each player with their id, club and federation (data, in no language).
    known |= {player_label(p) for p in Player.objects.select_related("club")}
    slug = demo.slug
    public = [
        "/",
        f"/t/{slug}/",
        f"/t/{slug}/round/1/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/crosstable/",
        f"/p/{game.first_id}/",
        f"/g/{game.pk}/",
        "/accounts/login/",
    ]
    found = untranslated(Client(), public, known)
    users = get_user_model().objects
    arbiter = Client()
    arbiter.force_login(users.get(username="arbiter"))
    found += untranslated(
        arbiter,
        [
            "/arbiter/",
            f"/arbiter/t/{slug}/",
            "/arbiter/new/",
            f"/arbiter/t/{slug}/audit/",
            f"/g/{game.pk}/",
        ],
        known,
    )
    player = Client()
    player.force_login(users.get(username="kor"))
    found += untranslated(player, ["/me/games/", f"/g/{game.pk}/"], known)
    assert not found, "\n".join(found)
