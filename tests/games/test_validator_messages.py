"""Validator messages on the pages: a stored verdict keeps each message's code and parameters,
English pages show exactly the English the API and `kz` give, and a page in another language
shows the message translated from its code (games.message_render)."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext

from games import services
from games.message_render import message_render
from rules.messages import MESSAGES, WORD_PARAMS, message, template_fields
from tests.games.conftest import BAD, done
from tests.games.test_game_page import own_record, verdict_text


def italian(code: str, params: dict[str, str]) -> str:
    """The catalogue's template under Italian filled with the parameters, game words
    translated: what an Italian page must show."""
    with translation.override("it"):
        words = {k: gettext(v) if k in WORD_PARAMS and v else v for k, v in params.items()}
        return gettext(MESSAGES[code]).format(**words)


def sample(code: str) -> dict[str, str]:
    """Parameters for a template: game words where it takes them, else placeholders."""
    words = {"kind": "Flier", "claimed": "Swift", "owner": "the enemy Blockader's"}
    words |= {"termination": "capture", "winner": "gold", "expected": "green"}
    words |= {"colour": "gold", "why": "the three-level board has its own squads and setup"}
    return {f: words.get(f, f"<{f}>") for f in template_fields(MESSAGES[code])}


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_english_renders_exactly_the_stored_reason(code):
    text = message(code, **sample(code))
    entry = {"reason": str(text), "code": code, "params": text.params}
    with translation.override("en"):
        assert message_render(entry=entry) == text


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_italian_renders_the_translated_template_with_translated_words(code):
    text = message(code, **sample(code))
    entry = {"reason": str(text), "code": code, "params": text.params}
    with translation.override("it"):
        assert message_render(entry=entry) == italian(code, text.params)


def test_a_message_without_a_known_code_shows_its_english():
    with translation.override("it"):
        assert message_render(entry=None) == ""
        assert message_render(entry={"reason": "old words", "article": "3.3"}) == "old words"
        entry = {"reason": "old words", "code": "no_such_code", "params": {}}
        assert message_render(entry=entry) == "old words"
        entry = {"reason": "old words", "code": "no_warrior_on", "params": "C29"}
        assert message_render(entry=entry) == "old words"


@pytest.mark.parametrize("language", ["it", "fr", "de"])
def test_every_validator_message_is_translated_and_fills(language):
    """Each catalogued message has its translation in each language, and that translation
    fills with the template's own parameters (a translation naming another placeholder would
    fall back to English on the page)."""
    untranslated = []
    for code in sorted(MESSAGES):
        text = message(code, **sample(code))
        entry = {"reason": str(text), "code": code, "params": text.params}
        with translation.override(language):
            if gettext(MESSAGES[code]) == MESSAGES[code] or message_render(entry=entry) == text:
                untranslated.append(code)
    assert not untranslated


@pytest.mark.django_db(transaction=True)
def test_a_stored_verdict_keeps_the_code_and_the_page_translates_it(client, setup):
    game, arbiter = setup
    sub = done(services.submission_create(game=game, raw=own_record(game, BAD), user=arbiter))
    reason = "destination holds a warrior of the mover's side"
    assert sub.error == {
        "ply": 21,
        "text": "Fe@C29 → D28",
        "reason": reason,
        "article": "3.3",
        "code": "destination_friend",
        "params": {},
    }
    english = html.unescape(verdict_text(client.get(f"/g/{game.pk}/").content.decode()))
    assert f": {reason} (Art. 3.3)" in english
    page = client.get(f"/it/g/{game.pk}/").content.decode()
    assert '<html lang="it"' in page
    shown = html.unescape(verdict_text(page))
    assert f": {italian('destination_friend', {})} (Art. 3.3)" in shown
    assert reason not in shown


@pytest.mark.django_db(transaction=True)
def test_warnings_are_stored_with_codes_and_rendered(client, setup):
    game, arbiter = setup
    raw = own_record(game).replace(b'[FirstPlacement "green"]\n', b"")
    sub = done(services.submission_create(game=game, raw=raw, user=arbiter))
    assert {"code": "no_first_placement", "params": {}}.items() <= sub.warnings[0].items()
    page = html.unescape(client.get(f"/it/g/{game.pk}/").content.decode())
    text = re.sub(r"\s+", " ", page)
    assert italian("no_first_placement", {}) + " (Art. 2.4)" in text


def test_kz_validate_json_stays_as_records_md_says(tmp_path, capsys):
    """`kz validate`'s JSON is an interface (records.md §3): no code or params in it."""
    bad = tmp_path / "bad.kzr"
    bad.write_bytes(BAD.replace(b'[FirstPlacement "green"]\n', b""))
    with pytest.raises(SystemExit) as ended:
        call_command("kz", "validate", str(bad), "--json")
    assert ended.value.code == 1
    obj = json.loads(capsys.readouterr().out)
    assert obj["error"] == {
        "ply": 21,
        "text": "Fe@C29 → D28",
        "reason": "destination holds a warrior of the mover's side",
        "article": "3.3",
    }
    assert obj["warnings"][0] == {
        "ply": None,
        "reason": "no FirstPlacement tag: green is taken to place first",
        "article": "2.4",
    }
    assert all(set(w) == {"ply", "reason", "article"} for w in obj["warnings"])
