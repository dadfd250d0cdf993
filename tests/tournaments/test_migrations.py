"""Migrations carry existing events over: Game's move from the games app to tournaments
keeps every game, its records, rulings and penalties, and its content type."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.migrating import migrate as _migrate
from tests.tournaments.audit_entries import audit_entry_v1_append

BEFORE = [("games", "0007_italian_society"), ("tournaments", "0006_italian_society")]
AFTER = [("games", "0008_game_moved_to_tournaments")]
# Not an ancestor of the nodes above, but applied all along: its state is needed too.
CONTENT_TYPES = [("contenttypes", "0002_remove_content_type_name")]


@pytest.mark.django_db(transaction=True)
def test_game_moves_to_tournaments_with_everything_pointing_at_it() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE + CONTENT_TYPES).apps
    ContentType = old.get_model("contenttypes", "ContentType")
    ContentType.objects.get_or_create(app_label="games", model="game")
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", start_date=date(2026, 1, 1)
    )
    Player = old.get_model("tournaments", "Player")
    kor, worf = Player.objects.create(name="Kor"), Player.objects.create(name="Worf")
    rnd = old.get_model("tournaments", "Round").objects.create(tournament=t, number=1)
    game = old.get_model("games", "Game").objects.create(
        round=rnd, board=1, first=kor, second=worf, result="draw", first_color="gold"
    )
    sub = old.get_model("games", "RecordSubmission").objects.create(
        game=game, tournament=t, raw=b'[Round "1"]'
    )
    old.get_model("games", "ClockAdjustment").objects.create(
        game=game, side="green", seconds=-60, article="12.4c"
    )
    old.get_model("tournaments", "Penalty").objects.create(
        tournament=t, player=kor, game=game, kind="warning", article="12.4a", reason="noise"
    )

    new = _migrate(AFTER).loader.project_state(AFTER + CONTENT_TYPES).apps
    moved = new.get_model("tournaments", "Game").objects.get(pk=game.pk)
    assert (moved.round_id, moved.first_id, moved.second_id) == (rnd.pk, kor.pk, worf.pk)
    assert (moved.result, moved.first_color) == ("draw", "gold")
    assert new.get_model("games", "RecordSubmission").objects.get(pk=sub.pk).game_id == game.pk
    assert new.get_model("games", "ClockAdjustment").objects.get().game_id == game.pk
    assert new.get_model("tournaments", "Penalty").objects.get().game_id == game.pk
    types = new.get_model("contenttypes", "ContentType").objects
    assert types.filter(app_label="tournaments", model="game").count() == 1
    assert not types.filter(app_label="games", model="game").exists()

    # and back: the move undoes cleanly; then forward to the latest state for later tests
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    assert back.get_model("games", "Game").objects.get(pk=game.pk).result == "draw"
    executor = MigrationExecutor(connection)
    _migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_existing_clock_adjustments_are_linked_to_their_penalties() -> None:
    before = [
        ("games", "0008_game_moved_to_tournaments"),
        ("tournaments", "0007_game_moved_from_games"),
    ]
    old = _migrate(before).loader.project_state(before).apps
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Clock Open", slug="clock-open", start_date=date(2026, 1, 1)
    )
    Player = old.get_model("tournaments", "Player")
    kor, worf = Player.objects.create(name="Kor"), Player.objects.create(name="Worf")
    rnd = old.get_model("tournaments", "Round").objects.create(tournament=t, number=1)
    game = old.get_model("tournaments", "Game").objects.create(
        round=rnd, board=1, first=kor, second=worf
    )
    Penalty = old.get_model("tournaments", "Penalty")
    Adjustment = old.get_model("games", "ClockAdjustment")
    fine = Penalty.objects.create(
        tournament=t, player=kor, game=game, kind="offender_time", article="12.4c",
        reason="phone rang", amount=60,
    )  # fmt: skip
    charged = Adjustment.objects.create(
        game=game, side="green", seconds=-60, article="12.4c", reason="phone rang"
    )
    Penalty.objects.create(
        tournament=t, player=kor, game=game, kind="revocation", article="12.4c",
        reason="it was the hall's", revokes=fine,
    )  # fmt: skip
    given_back = Adjustment.objects.create(
        game=game, side="green", seconds=60, article="12.4c", reason="phone rang"
    )
    own = Adjustment.objects.create(
        game=game, side="gold", seconds=30, article="6.12", reason="clock set wrong"
    )

    after = [("games", "0009_clockadjustment_penalty")]
    new = _migrate(after).loader.project_state(after).apps
    rows = new.get_model("games", "ClockAdjustment").objects
    assert rows.get(pk=charged.pk).penalty_id == fine.pk
    assert rows.get(pk=given_back.pk).penalty_id == fine.pk
    assert rows.get(pk=own.pk).penalty_id is None
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_registrations_keep_their_rating_and_unpaired_events_are_seeded_by_it() -> None:
    before = [("tournaments", "0007_game_moved_from_games")]
    old = _migrate(before).loader.project_state(before).apps
    Tournament = old.get_model("tournaments", "Tournament")
    Player = old.get_model("tournaments", "Player")
    Registration = old.get_model("tournaments", "Registration")
    waiting = Tournament.objects.create(name="W", slug="waiting", start_date=date(2026, 1, 1))
    running = Tournament.objects.create(name="R", slug="running", start_date=date(2026, 1, 1))
    old.get_model("tournaments", "Round").objects.create(tournament=running, number=1)
    low, high = (
        Player.objects.create(name="Low", rating=1500),
        Player.objects.create(name="High", rating=2100),
    )
    for t in (waiting, running):
        Registration.objects.create(tournament=t, player=low, start_rank=1)
        Registration.objects.create(tournament=t, player=high, start_rank=2)

    after = [("tournaments", "0008_registration_rating")]
    new = _migrate(after).loader.project_state(after).apps
    regs = new.get_model("tournaments", "Registration").objects
    assert {r.player.name: r.rating for r in regs.filter(tournament__slug="waiting")} == {
        "Low": 1500,
        "High": 2100,
    }
    seeded = regs.filter(tournament__slug="waiting").order_by("start_rank")
    assert [r.player.name for r in seeded] == ["High", "Low"]
    kept = regs.filter(tournament__slug="running").order_by("start_rank")
    assert [r.player.name for r in kept] == ["Low", "High"]
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_audit_chains_are_carried_over_to_keyed_hashes() -> None:
    """Intact plain SHA-256 chains are hashed again with the audit key and verify; a chain
    broken before the migration stays broken where it was; and back."""
    from datetime import UTC, datetime

    from tournaments.audit import GENESIS, audit_verify, entry_hash
    from tournaments.models import Tournament as CurrentTournament

    before = [("tournaments", "0011_italian_spindle")]
    old = _migrate(before).loader.project_state(before).apps
    Tournament = old.get_model("tournaments", "Tournament")
    Entry = old.get_model("tournaments", "AuditEntry")
    intact = Tournament.objects.create(name="I", slug="intact", start_date=date(2026, 1, 1))
    broken = Tournament.objects.create(name="B", slug="broken", start_date=date(2026, 1, 1))
    at = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
    for t in (intact, broken):
        prev = GENESIS
        for seq in (1, 2, 3):
            fields = {
                "seq": seq,
                "actor": "arbiter",
                "action": "result",
                "object_type": "Game",
                "object_id": str(seq),
                "before": None,
                "after": {"n": seq},
            }
            digest = entry_hash(prev_hash=prev, created_at=at.isoformat(), **fields)
            Entry.objects.create(tournament=t, created_at=at, prev_hash=prev, hash=digest, **fields)
            prev = digest
    Entry.objects.filter(tournament=broken, seq=2).update(after={"n": 99})
    old_hashes = dict(Entry.objects.values_list("pk", "hash"))

    after = [("tournaments", "0012_audit_chain")]
    new = _migrate(after).loader.project_state(after).apps
    rows = new.get_model("tournaments", "AuditEntry").objects
    assert all(
        r.key_id == "dev" and r.hash != old_hashes[r.pk]
        for r in rows.filter(tournament_id=intact.pk)
    )
    assert [r.key_id for r in rows.filter(tournament_id=broken.pk).order_by("seq")] == [
        "dev",
        "",
        "",
    ]

    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert audit_verify(tournament=CurrentTournament.objects.get(pk=intact.pk)) == (True, 3, "")
    assert audit_verify(tournament=CurrentTournament.objects.get(pk=broken.pk)) == (
        False,
        2,
        "entry 2 does not follow entry 1",
    )

    back = _migrate(before).loader.project_state(before).apps
    restored = back.get_model("tournaments", "AuditEntry").objects.filter(tournament_id=intact.pk)
    assert {r.pk: r.hash for r in restored} == {
        pk: h for pk, h in old_hashes.items() if pk in {r.pk for r in restored}
    }
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_italian_societys_unpaired_events_get_the_battles_twenty_minutes() -> None:
    """600 (ten minutes a side) becomes 1200 (the battle's twenty, both clocks together) for
    the society's events not yet paired; events under way and other rulesets keep theirs."""
    before = [("tournaments", "0010_event_rules")]
    old = _migrate(before).loader.project_state(before).apps
    Tournament = old.get_model("tournaments", "Tournament")
    made = {
        slug: Tournament.objects.create(
            name=slug, slug=slug, start_date=date(2026, 1, 1), ruleset=ruleset, time_control="600"
        )
        for slug, ruleset in (
            ("waiting", "italian-society"),
            ("running", "italian-society"),
            ("laws", "laws"),
        )
    }
    old.get_model("tournaments", "Round").objects.create(tournament=made["running"], number=1)

    after = [("tournaments", "0011_italian_spindle")]
    new = _migrate(after).loader.project_state(after).apps
    controls = dict(
        new.get_model("tournaments", "Tournament").objects.values_list("slug", "time_control")
    )
    assert controls == {"waiting": "1200", "running": "600", "laws": "600"}
    back = _migrate(before).loader.project_state(before).apps
    assert (
        back.get_model("tournaments", "Tournament").objects.get(slug="waiting").time_control
        == "600"
    )
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_clock_adjustments_are_carried_over_in_time() -> None:
    """A penalty's adjustment applies from the moment it was imposed (the ply after the record
    the game had then where readings cannot tell; 1 with none); a latecomer's 6.8 charge is in
    the readings; a 6.9 pair becomes the running clock's charge (the first placer's) and the
    other's adjustment by the lesser lateness; the arbiter's own keep their ply; and back."""
    from datetime import UTC, datetime

    before = [("games", "0009_clockadjustment_penalty")]
    executor = _migrate(before)
    # the tournaments app stays as far on as games at 0009 lets it (a later rename of its
    # own waits for games 0010): its state is the latest of its applied migrations
    graph = executor.loader.graph
    applied = [n for n in executor.loader.applied_migrations if n[0] == "tournaments"]
    tournaments = [max(applied, key=lambda n: len(graph.forwards_plan(n)))]
    old = executor.loader.project_state(before + tournaments).apps
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Time Open", slug="time-open", start_date=date(2026, 1, 1)
    )
    Player = old.get_model("tournaments", "Player")
    kor, worf = Player.objects.create(name="Kor"), Player.objects.create(name="Worf")
    rnd = old.get_model("tournaments", "Round").objects.create(tournament=t, number=1)
    Game = old.get_model("tournaments", "Game")
    played, late, both, bare = (
        Game.objects.create(round=rnd, board=n, first=kor, second=worf, first_color=colour)
        for n, colour in ((1, ""), (2, ""), (3, "gold"), (4, ""))
    )
    Sub = old.get_model("games", "RecordSubmission")
    Adjustment = old.get_model("games", "ClockAdjustment")
    Penalty = old.get_model("tournaments", "Penalty")
    sub = Sub.objects.create(game=played, tournament=t, raw=b"x", plies=30)
    Sub.objects.filter(pk=sub.pk).update(created_at=datetime(2026, 1, 1, 10, tzinfo=UTC))
    fine = Penalty.objects.create(
        tournament=t, player=kor, game=played, kind="offender_time", article="12.4c",
        reason="noise", amount=10,
    )  # fmt: skip
    charged = Adjustment.objects.create(
        game=played, side="green", seconds=-10, article="12.4c", penalty=fine
    )
    given_back = Adjustment.objects.create(
        game=played, side="green", seconds=10, article="12.4c", penalty=fine
    )
    Adjustment.objects.filter(game=played).update(created_at=datetime(2026, 1, 1, 11, tzinfo=UTC))
    early = Penalty.objects.create(
        tournament=t, player=kor, game=bare, kind="extra_time", article="12.5",
        reason="hall", amount=60,
    )  # fmt: skip
    unplaced = Adjustment.objects.create(
        game=bare, side="green", seconds=60, article="12.5", penalty=early
    )
    own = Adjustment.objects.create(game=played, side="gold", seconds=30, article="6.12")
    alone = Adjustment.objects.create(game=late, side="gold", seconds=-180, article="6.8")
    ran = Adjustment.objects.create(game=both, side="gold", seconds=-120, article="6.9")
    other = Adjustment.objects.create(game=both, side="green", seconds=-450, article="6.9")

    after = [("games", "0010_adjustments_in_time")]
    new = _migrate(after).loader.project_state(after + tournaments).apps
    rows = new.get_model("games", "ClockAdjustment").objects
    fields = ("from_ply", "seconds", "in_readings")
    for pk, seconds in ((charged.pk, -10), (given_back.pk, 10)):
        row = rows.get(pk=pk)
        assert (row.from_ply, row.seconds, row.at) == (31, seconds, row.created_at)
    assert rows.get(pk=unplaced.pk).from_ply == 1
    assert rows.filter(pk=own.pk).values_list(*fields).get() == (1, 30, False)
    assert rows.filter(pk=alone.pk).values_list(*fields).get() == (1, -180, True)
    assert rows.filter(pk=ran.pk).values_list(*fields).get() == (1, -120, True)
    assert rows.filter(pk=other.pk).values_list(*fields).get() == (1, -120, False)
    rest = rows.filter(game_id=both.pk, article="6.8")
    assert list(rest.values_list("side", *fields)) == [("green", 1, -330, True)]

    back = _migrate(before).loader.project_state(before + tournaments).apps
    rows = back.get_model("games", "ClockAdjustment").objects
    assert rows.get(pk=charged.pk).from_ply == 1
    assert rows.get(pk=other.pk).seconds == -450
    assert not rows.filter(game_id=both.pk, article="6.8").exists()
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_players_carry_over_with_the_default_language_of_mails() -> None:
    before = [("tournaments", "0013_input_bounds")]
    old = _migrate(before).loader.project_state(before).apps
    kor = old.get_model("tournaments", "Player").objects.create(name="Kor", rating=1850)
    after = [("tournaments", "0014_player_language")]
    new = _migrate(after).loader.project_state(after).apps
    moved = new.get_model("tournaments", "Player").objects.get(pk=kor.pk)
    assert (moved.name, moved.rating, moved.language) == ("Kor", 1850, "")
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_players_get_the_organizer_who_manages_them_and_old_chains_keep_verifying() -> None:
    """Issue 22: a player is managed by the one organizer of the events they entered (today's
    rule), else by nobody (staff); audit entries written before keep hash version 1 and
    still verify, with the head saved before."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tournaments.audit import audit_verify

    before = [("tournaments", "0014_player_language")]
    old = _migrate(before).loader.project_state(before).apps
    User = old.get_model(*settings.AUTH_USER_MODEL.split("."))
    org, rival = User.objects.create(username="org"), User.objects.create(username="rival")
    Tournament = old.get_model("tournaments", "Tournament")
    mine, mine2, theirs, nobodys = (
        Tournament.objects.create(name=s, slug=s, start_date=date(2026, 1, 1), organizer=o)
        for s, o in (("mine", org), ("mine2", org), ("theirs", rival), ("nobodys", None))
    )
    Player = old.get_model("tournaments", "Player")
    Registration = old.get_model("tournaments", "Registration")
    entered = {
        "only-mine": [mine, mine2],
        "shared": [mine, theirs],
        "in-an-event-without-organizer": [mine, nobodys],
        "in-none": [],
    }
    players = {}
    for name, events in entered.items():
        players[name] = Player.objects.create(name=name)
        for rank, t in enumerate(events, start=1):
            Registration.objects.create(tournament=t, player=players[name], start_rank=rank)
    Entry = old.get_model("tournaments", "AuditEntry")
    for n in (1, 2):
        last = audit_entry_v1_append(entries=Entry, tournament=mine, n=n, actor="org")

    after = [("tournaments", "0015_player_manager_site_audit")]
    new = _migrate(after).loader.project_state(after).apps
    managed = dict(new.get_model("tournaments", "Player").objects.values_list("name", "managed_by"))
    assert managed == {
        "only-mine": org.pk,
        "shared": None,
        "in-an-event-without-organizer": None,
        "in-none": None,
    }
    entries = new.get_model("tournaments", "AuditEntry").objects.order_by("seq")
    assert list(entries.values_list("hash_version", flat=True)) == [1, 1]
    assert new.get_model("tournaments", "SiteAudit").objects.filter(pk=1).exists()
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    from tournaments.models import Tournament as CurrentTournament

    current = CurrentTournament.objects.get(pk=mine.pk)
    assert audit_verify(tournament=current, head=(2, last.hash)) == (True, 2, "")
    assert get_user_model().objects.filter(username="org").exists()


@pytest.mark.django_db(transaction=True)
def test_renamed_fields_keep_their_values_both_ways() -> None:
    """Issue 23 item 4: a game's recorded first colour and the tournament's published
    version keep every value under their new names, and again under the old ones."""
    before = [("tournaments", "0016_pairing_job_heartbeat")]
    old = _migrate(before).loader.project_state(before).apps
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Named Open", slug="named-open", start_date=date(2026, 1, 1), standings_version=7
    )
    Player = old.get_model("tournaments", "Player")
    kor, worf = Player.objects.create(name="Kor"), Player.objects.create(name="Worf")
    rnd = old.get_model("tournaments", "Round").objects.create(tournament=t, number=1)
    Game = old.get_model("tournaments", "Game")
    gold, unread = (
        Game.objects.create(round=rnd, board=n, first=kor, second=worf, first_color=colour)
        for n, colour in ((1, "gold"), (2, ""))
    )

    after = [("tournaments", "0017_names_that_say_what_they_hold")]
    new = _migrate(after).loader.project_state(after).apps
    assert new.get_model("tournaments", "Tournament").objects.get(pk=t.pk).published_version == 7
    games = new.get_model("tournaments", "Game").objects
    assert dict(games.values_list("pk", "first_colour_recorded")) == {
        gold.pk: "gold",
        unread.pk: "",
    }

    back = _migrate(before).loader.project_state(before).apps
    assert back.get_model("tournaments", "Tournament").objects.get(pk=t.pk).standings_version == 7
    games = back.get_model("tournaments", "Game").objects
    assert dict(games.values_list("pk", "first_color")) == {gold.pk: "gold", unread.pk: ""}
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_expelled_players_who_had_withdrawn_are_known_from_their_trail() -> None:
    """A player withdrawn and then expelled before the field existed gets the withdrawal
    back when the expulsion is revoked; one expelled while playing comes back active."""
    before = [("tournaments", "0017_names_that_say_what_they_hold")]
    old = _migrate(before).loader.project_state(before).apps
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Trail Open", slug="trail-open", start_date=date(2026, 1, 1)
    )
    Player = old.get_model("tournaments", "Player")
    Registration = old.get_model("tournaments", "Registration")
    Entry = old.get_model("tournaments", "AuditEntry")
    regs = {
        name: Registration.objects.create(
            tournament=t, player=Player.objects.create(name=name), status="expelled"
        )
        for name in ("Kor", "Worf", "Gowron")
    }
    trails = {
        "Kor": [{"status": "withdrawn"}, {"status": "expelled"}],
        "Worf": [{"status": "expelled"}],
        # Withdrew, came back (the undo), then was expelled while playing.
        "Gowron": [{"status": "withdrawn"}, {"status": "active"}, {"status": "expelled"}],
    }
    seq = 0
    for name, afters in trails.items():
        for after in afters:
            seq += 1
            Entry.objects.create(
                tournament=t,
                seq=seq,
                action="withdrawal",
                object_type="Registration",
                object_id=str(regs[name].pk),
                after=after,
                created_at=timezone.now(),
                prev_hash="0" * 64,
                hash=f"{seq:064d}",
            )

    after = [("tournaments", "0018_registration_withdrew_before_expulsion")]
    new = _migrate(after).loader.project_state(after).apps
    flags = new.get_model("tournaments", "Registration").objects.values_list(
        "player__name", "withdrew_before_expulsion"
    )
    assert dict(flags) == {"Kor": True, "Worf": False, "Gowron": False}
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_events_keep_their_tiebreaks_named_by_fide_code() -> None:
    """Each event's list of today's names becomes their FIDE codes in the same order, and
    back; the events follow the 2026 regulation."""
    before = [("tournaments", "0018_registration_withdrew_before_expulsion")]
    old = _migrate(before).loader.project_state(before).apps
    Tournament = old.get_model("tournaments", "Tournament")
    lists = {
        "plain": "buchholz,sonneborn_berger,wins",
        "all": "direct_encounter, koya,progressive,median_buchholz,buchholz_cut1",
        "none": "",
    }
    for slug, value in lists.items():
        Tournament.objects.create(
            name=slug, slug=slug, start_date=date(2026, 1, 1), tiebreaks=value
        )

    after = [("tournaments", "0020_tiebreaks_by_fide_code")]
    new = _migrate(after).loader.project_state(after).apps
    rows = new.get_model("tournaments", "Tournament").objects
    assert {t.slug: (t.tiebreaks, t.tiebreak_rules) for t in rows.all()} == {
        "plain": ("BH,SSB,WON", "2026"),
        "all": ("DE,KS,PS,BH-M1,BH-C1", "2026"),
        "none": ("", "2026"),
    }
    back = _migrate(before).loader.project_state(before).apps
    assert {
        t.slug: t.tiebreaks for t in back.get_model("tournaments", "Tournament").objects.all()
    } == {
        "plain": "buchholz,sonneborn_berger,wins",
        "all": "direct_encounter,koya,progressive,median_buchholz,buchholz_cut1",
        "none": "",
    }
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
