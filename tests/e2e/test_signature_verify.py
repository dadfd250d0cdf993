"""The game page checks the record's signatures in the browser (WebCrypto Ed25519) against
the text that was signed, and says which hold: the combatants' do, a forged one does not."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import RecordSignature
from games.signing import generate_key, sign_record
from tests.games.conftest import CAPTURE, done
from tournaments.demo import demo_load
from tournaments.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
User = get_user_model()


def test_the_page_says_which_signatures_hold(live_server, browser_page, worker):
    tournament, login, _, _ = demo_load(rounds_played=1)
    game = Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).first()
    assert game is not None and game.second is not None
    sub = done(services.submission_create(game=game, raw=CAPTURE, user=None))
    for player, name in ((game.first, "green-player"), (game.second, "gold-player")):
        player.user = User.objects.create_user(name, password=f"pw-{name}-123")
        player.save()
        pem, pub = generate_key()
        services.signing_key_register(user=player.user, public_key=pub)
        signature = sign_record(sub.text, pem).signature
        services.signature_add(
            submission=sub, user=player.user, public_key=pub, signature=signature
        )
    # What a tampered store would hold: the arbiter's "signature" made over another text.
    # The service refuses such a signature, so it is written to the table directly.
    pem, pub = generate_key()
    forged = sign_record(sub.text.replace('[Gold "Kang"]', '[Gold "Kong"]'), pem).signature
    RecordSignature.objects.create(
        submission=sub,
        role=RecordSignature.Role.ARBITER,
        signer=User.objects.get(username=login),
        public_key=pub,
        signature=forged,
    )

    page = browser_page
    page.goto(f"{live_server.url}/g/{game.pk}/")  # the public page: nobody signed in
    page.wait_for_selector("#signatures[data-checked='3']", timeout=30_000)
    verdicts = {
        li.get_attribute("data-role"): (li.get_attribute("data-verified"), li.inner_text())
        for li in page.locator("#signatures li.signature").all()
    }
    assert verdicts["first"][0] == "valid" and "✓ holds" in verdicts["first"][1]
    assert verdicts["second"][0] == "valid" and "✓ holds" in verdicts["second"][1]
    assert verdicts["arbiter"][0] == "invalid" and "✗ does not hold" in verdicts["arbiter"][1]
    assert page.locator("#signatures[data-held='2']").count() == 1
    assert page.locator("#record-final").count() == 1  # both combatants signed
    assert "2 / 3" in page.locator("#signature-summary").inner_text()
