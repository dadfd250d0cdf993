"""The demo event `make run` loads: clubs, players, an arbiter and four played rounds."""

from __future__ import annotations

import random
from datetime import date

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments import services
from tournaments.models import Game, Tournament

DEMO_SLUG = "klinzhai-open-2026"
ARBITER = ("arbiter", "arbiter-demo-2026")
# A combatant's account, so that "my games" can be tried: Kor, the top seed.
PLAYER_LOGIN = ("kor", "kor-demo-2026", "Kor")
PLAYERS = [
    ("Kor", "Qo'noS Warriors", 1850),
    ("Kang", "Qo'noS Warriors", 1810),
    ("Koloth", "Ty'Gokor Club", 1790),
    ("Kahless", "Ty'Gokor Club", 1760),
    ("Martok", "Boreth Circle", 1720),
    ("Worf", "Boreth Circle", 1700),
    ("Grilka", "Qo'noS Warriors", 1650),
    ("Azetbur", "Ty'Gokor Club", 1620),
    ("B'Elanna", "Boreth Circle", 1580),
    ("K'Ehleyr", "Qo'noS Warriors", 1540),
]
RESULTS = [Game.Result.FIRST_WIN, Game.Result.SECOND_WIN, Game.Result.DRAW]


@transaction.atomic
def demo_load(*, rounds_played: int = 4) -> tuple[Tournament, str, str, bool]:
    """Create the demo event once; returns (tournament, login, password, created)."""
    User = get_user_model()
    user, made = User.objects.get_or_create(username=ARBITER[0], defaults={"is_staff": True})
    if made:
        user.set_password(ARBITER[1])
        user.save()
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        _player_account(existing)
        return existing, ARBITER[0], ARBITER[1], False
    tournament = services.tournament_create(
        name="Klinzhai Open 2026",
        slug=DEMO_SLUG,
        start_date=date(2026, 11, 21),
        venue="Great Hall of the High Council",
        time_control="20/1800:1200",
        rounds_planned=7,
        local_rules="Resignation is not allowed (Art. 9.2). Records in geometric notation.",
        notation="geometric",
        organizer=user,
    )
    tournament.arbiters.add(user)
    clubs = {}
    for name, club_name, rating in PLAYERS:
        if club_name not in clubs:
            clubs[club_name] = services.club_create(name=club_name)
        player = services.player_create(
            name=name, club=clubs[club_name], rating=rating, federation="KLI", tournament=tournament
        )
        services.registration_create(tournament=tournament, player=player)
    rng = random.Random(2026)
    for rnd in range(1, rounds_played + 1):
        round_ = services.round_pair(tournament=tournament)
        for game in round_.games.all():
            result = rng.choices(RESULTS, weights=[4, 3, 2])[0]
            if rnd == 1 and game.board == 1:
                result = Game.Result.DRAW  # a draw: -1/2 each, so negative scores show
            services.game_result_set(game=game, result=result)
    _player_account(tournament)
    return tournament, ARBITER[0], ARBITER[1], True


def _player_account(tournament: Tournament) -> None:
    """The demo player's account, linked to their player once (an earlier demo had none)."""
    username, password, name = PLAYER_LOGIN
    player = tournament.registrations.filter(player__name=name).select_related("player").first()
    if player is None or player.player.user_id is not None:
        return
    User = get_user_model()
    account, made = User.objects.get_or_create(username=username)
    if made:
        account.set_password(password)
        account.save()
    services.player_link_user(player=player.player, account=account)
