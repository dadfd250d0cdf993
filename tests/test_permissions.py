"""Every write endpoint (API and pages) against every role: who may, who may not."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import date, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import ClockAdjustment, RecordSubmission
from tournaments import services
from tournaments.check_in_selectors import check_in_token
from tournaments.models import (
    AuditEntry,
    CheckIn,
    CheckInWindow,
    Club,
    ForbiddenPair,
    Game,
    Penalty,
    Player,
    RatingPeriod,
    Round,
    Series,
    SeriesEvent,
)

pytestmark = pytest.mark.django_db
User = get_user_model()

ROLES = [
    "anonymous",
    "stranger",
    "club_official",  # an official of the club of this event's P3 (staff named them)
    "player",
    "other_player",  # a player of another event
    "other_arbiter",  # an arbiter (and the organizer) of another event
    "foreign_arbiter",  # an arbiter (not the organizer) of another event
    "arbiter",
    "chief",
    "organizer",  # organizes this event and made its players (so manages them)
    "staff",
]
ARBITERS = {"arbiter", "chief", "organizer", "staff"}
CHIEFS = {"chief", "organizer", "staff"}
ORGANIZER = {"organizer", "staff"}
OFFICIALS = ARBITERS | {"other_arbiter", "foreign_arbiter"}
# other_arbiter organizes its own event
ORGANIZERS_ANYWHERE = {"organizer", "other_arbiter", "staff"}
SIGNED_IN = set(ROLES) - {"anonymous"}


@dataclass
class World:
    t: Any
    game: Game
    player: Player
    spare: Player
    outsider: Player  # a player of the other event only
    submission: RecordSubmission
    penalty: Penalty
    users: dict[str, Any]
    sessions: dict[int, str] = field(default_factory=dict)  # user pk: a signed-in session


def build_world() -> World:
    users = {name: User.objects.create_user(name, password=f"pw-{name}-123") for name in ROLES[1:]}
    users["staff"].is_staff = True
    users["staff"].save(update_fields=["is_staff"])
    add = Permission.objects.get(codename="add_tournament")
    users["organizer"].user_permissions.add(add)
    users["other_arbiter"].user_permissions.add(add)
    t = services.tournament_create(
        name="Perm Open",
        slug="perm-open",
        start_date=date(2026, 11, 1),
        organizer=users["organizer"],
        rounds_planned=5,
    )
    t.chief_arbiter = users["chief"]
    t.save()
    t.arbiters.add(users["arbiter"])
    other = services.tournament_create(
        name="Other", slug="other", start_date=date(2026, 11, 1), organizer=users["other_arbiter"]
    )
    other.arbiters.add(users["other_arbiter"], users["foreign_arbiter"])
    outsider = services.player_create(name="Outsider", tournament=other)
    services.registration_create(tournament=other, player=outsider)
    outsider.user = users["other_player"]
    outsider.save()
    players = [
        services.player_create(name=f"P{i}", rating=2000 - i, tournament=t) for i in range(4)
    ]
    for p in players:
        services.registration_create(tournament=t, player=p)
    players[0].user = users["player"]
    players[0].save()
    club = services.club_create(name="Perm Club")
    club.officials.add(users["club_official"])
    Player.objects.filter(pk=players[3].pk).update(club=club)
    Player.objects.filter(pk=outsider.pk).update(club=services.club_create(name="Far Club"))
    # A series of this event's organizer, with the other organizer's event invited.
    services.series_create(
        name="Perm GP", slug="perm-gp", user=users["organizer"], events=[t, other]
    )
    spare = services.player_create(name="Spare", user=users["organizer"])  # in no event
    services.round_create(
        tournament=t, pairings=[(players[0].pk, players[1].pk), (players[2].pk, players[3].pk)]
    )
    # Round 2 proposed by hand: pairing refuses while round 1 is pending, as it must, and
    # the world keeps board 1 of round 1 pending for the result endpoints.
    services.round_create(
        tournament=t,
        pairings=[(players[0].pk, players[2].pk), (players[1].pk, players[3].pk)],
        status="draft",
    )
    game = Game.objects.get(round__tournament=t, round__number=1, board=1)
    sub = RecordSubmission.objects.create(
        game=game, raw=b'[Event "x"]\n\n', status=RecordSubmission.Status.DONE, valid=True
    )
    penalty = services.penalty_impose(
        tournament=t, player=players[1], kind="warning", reason="noise", user=None
    )
    # round 3's check-in, open: entrants and arbiters may check in (issue 26)
    now = timezone.now()
    CheckInWindow.objects.create(
        tournament=t,
        round_number=3,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(hours=1),
    )
    # a clock correction to revoke (Art. 6.12)
    ClockAdjustment.objects.create(game=game, side="green", seconds=30, article="6.12")
    return World(t, game, players[0], spare, outsider, sub, penalty, users)


def normalized(state: list[Any]) -> list[Any]:
    """A STATE reading in an order that does not depend on the database."""
    return [sorted(v) if isinstance(v, list) else v for v in state]


@pytest.fixture(scope="module")
def world_once(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """The world, built once for the whole matrix inside a transaction that is rolled back
    when the module is done. Each case runs inside pytest-django's own transaction, a
    savepoint within this one, and is rolled back to it: no case sees another's writes."""
    from django.core.cache import cache
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        w = build_world()
        for user in w.users.values():
            signer = Client()
            signer.force_login(user)
            w.sessions[user.pk] = signer.cookies[settings.SESSION_COOKIE_NAME].value
        pristine = normalized([f(w) for f in STATE])
        cache.clear()
        yield w, pristine
        transaction.set_rollback(True)


@pytest.fixture
def world(world_once, db) -> World:  # type: ignore[no-untyped-def]
    """This case's own copies of the shared world's instances (as setUpTestData gives)."""
    w = world_once[0]
    rows = {f.name: copy.copy(getattr(w, f.name)) for f in fields(w) if f.name != "users"}
    return World(**rows, users={name: copy.copy(u) for name, u in w.users.items()})


@pytest.fixture
def pristine(world_once) -> list[Any]:  # type: ignore[no-untyped-def]
    """STATE as the world was built: what every case must start from."""
    return world_once[1]


Call = Callable[[World, Any, Client], Any]


def sign_in(w: World, user: Any, client: Client) -> None:
    """What client.force_login(user) leaves behind: the cookie of a session signed in as the
    user, here one signed in once for the module (each case's changes to it roll back)."""
    client.cookies[settings.SESSION_COOKIE_NAME] = w.sessions[user.pk]


def api_post(url: str, data: dict[str, Any] | Callable[[World], dict[str, Any]]) -> Call:
    def call(w: World, user: Any, client: Client) -> Any:
        api = APIClient()
        if user is not None:
            api.force_authenticate(user)
        body = data(w) if callable(data) else data
        return api.post(url.format(w=w), body, format="json")

    return call


def api_patch(url: str, data: dict[str, Any]) -> Call:
    def call(w: World, user: Any, client: Client) -> Any:
        api = APIClient()
        if user is not None:
            api.force_authenticate(user)
        return api.patch(url.format(w=w), data, format="json")

    return call


def page_post(url: str, data: dict[str, Any] | Callable[[World], dict[str, Any]] = {}) -> Call:  # noqa: B006
    def call(w: World, user: Any, client: Client) -> Any:
        if user is not None:
            sign_in(w, user, client)
        body = data(w) if callable(data) else data
        return client.post(url.format(w=w), body)

    return call


def page_json(url: str, data: Callable[[World], dict[str, Any]]) -> Call:
    def call(w: World, user: Any, client: Client) -> Any:
        if user is not None:
            sign_in(w, user, client)
        return client.post(url.format(w=w), data(w), content_type="application/json")

    return call


def upload() -> Any:
    import io

    f = io.BytesIO(b'[Round "1"]\n[Green "P0"]\n[Gold "P1"]\n\n')
    f.name = "r.kzr"
    return f


def api_upload(url: str) -> Call:
    def call(w: World, user: Any, client: Client) -> Any:
        api = APIClient()
        if user is not None:
            api.force_authenticate(user)
        return api.post(url.format(w=w), {"file": upload()}, format="multipart")

    return call


def page_upload(url: str) -> Call:
    def call(w: World, user: Any, client: Client) -> Any:
        if user is not None:
            sign_in(w, user, client)
        return client.post(url.format(w=w), {"file": upload()})

    return call


# A TRF file of one round, for the import's rows.
TRF_TEXT = "\n".join(
    [
        "012 Imported Open",
        "001    1      Ann" + " " * 31 + "1800" + " " * 42 + "2 w 1",
        "001    2      Bob" + " " * 31 + "1700" + " " * 42 + "1 b 0",
    ]
)
T = "/api/tournaments/perm-open"
A = "/arbiter/t/perm-open"
OTHER = "/api/tournaments/other"
SELF_OR_STAFF = {"player", "staff"}


def api_as(user: Any) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def takeover(w: World, user: Any) -> Any:
    """Register this event's player into the other event, then link them to oneself."""
    api = api_as(user)
    api.post(OTHER + "/registrations/", {"player": w.player.pk}, format="json")
    name = user.get_username() if user is not None else ""
    return api.post(f"/api/players/{w.player.pk}/account/", {"username": name}, format="json")


def link_after_foreign_registration(w: World, user: Any, client: Client) -> Any:
    """Issue 22 item 2: another event registers this event's account-less player (as its
    arbiter would); linking them stays with those who manage the player."""
    services.registration_create(tournament=w.outsider.registrations.get().tournament, player=p1(w))
    return api_as(user).post(
        f"/api/players/{p1(w).pk}/account/", {"username": "stranger"}, format="json"
    )


def p1(w: World) -> Player:
    """An account-less player of this event (the second of board 1)."""
    return w.game.second


def check_in_by_link(w: World, user: Any, client: Client) -> Any:
    """The private link: whoever holds it, signed in or not, checks its entrant in."""
    if user is not None:
        sign_in(w, user, client)
    reg = w.t.registrations.get(player=w.player)
    return client.post(f"/check-in/{check_in_token(registration=reg)}/")


def foreign_penalty(w: World, user: Any) -> Any:
    """Register this event's player into the other event, then penalize them there on a game
    of this event (it would show on this event's console)."""
    api = api_as(user)
    api.post(OTHER + "/registrations/", {"player": w.player.pk}, format="json")
    body = {"player": w.player.pk, "game": w.game.pk, "kind": "warning", "reason": "x"}
    return api.post(OTHER + "/penalties/", body, format="json")


def clock_revoke(w: World, user: Any, client: Client) -> Any:
    adj = w.game.clock_adjustments.order_by("id").first()
    assert adj is not None
    url = f"/api/games/{w.game.pk}/clock-adjustments/{adj.pk}/revoke/"
    return api_as(user).post(url, {"reason": "x"}, format="json")


def page_clock_revoke(w: World, user: Any, client: Client) -> Any:
    adj = w.game.clock_adjustments.order_by("id").first()
    assert adj is not None
    return page_post(f"/g/{w.game.pk}/clock/{adj.pk}/revoke/", {"reason": "x"})(w, user, client)


def club_officials_post(w: World, user: Any, client: Client) -> Any:
    club = Club.objects.get(name="Perm Club")
    return api_post(f"/api/clubs/{club.pk}/officials/", {"accounts": ["stranger"]})(w, user, client)


def player_patch(name: str) -> Call:
    def call(w: World, user: Any, client: Client) -> Any:
        pk = Player.objects.get(name=name).pk
        return api_patch(f"/api/players/{pk}/", {"federation": "ITA"})(w, user, client)

    return call


def player_edit_page(name: str) -> Call:
    def call(w: World, user: Any, client: Client) -> Any:
        pk = Player.objects.get(name=name).pk
        return page_post(f"/p/{pk}/edit/", {"name": name, "federation": "ITA", "rating": 1500})(
            w, user, client
        )

    return call


ENDPOINTS: list[tuple[str, Call, set[str]]] = [
    # Issue 25: series. Any organizer makes one (another's event is only invited); the
    # series' organizer adds events; the invited event's organizer alone consents.
    (
        "api series create",
        api_post("/api/series/", {"name": "New", "slug": "new-gp", "events": ["perm-open"]}),
        ORGANIZERS_ANYWHERE,
    ),
    (
        "api series add an event",
        api_post("/api/series/perm-gp/events/", {"event": "perm-open"}),
        ORGANIZER,
    ),
    (
        "api series accept an invitation",
        api_post("/api/series/perm-gp/accept/", {"event": "other"}),
        {"other_arbiter", "staff"},
    ),
    (
        "page series accept an invitation",
        page_post("/series/perm-gp/accept/other/"),
        {"other_arbiter", "staff"},
    ),
    # The invited event's organizer alone declines; the series' organizer removes an event.
    (
        "api series decline an invitation",
        api_post("/api/series/perm-gp/decline/", {"event": "other"}),
        {"other_arbiter", "staff"},
    ),
    (
        "page series decline an invitation",
        page_post("/series/perm-gp/decline/other/"),
        {"other_arbiter", "staff"},
    ),
    (
        "api series remove an event",
        api_post("/api/series/perm-gp/remove/", {"event": "perm-open"}),
        ORGANIZER,
    ),
    (
        "page series remove an event",
        page_post("/series/perm-gp/remove/perm-open/"),
        ORGANIZER,
    ),
    # Issue 25: club officials, named by staff, manage their club's members, no other's.
    ("api club officials", club_officials_post, {"staff"}),
    (
        "api player edit: a member of the official's club",
        player_patch("P3"),
        {"organizer", "club_official", "staff"},
    ),
    (
        "api player edit: another club's player",
        player_patch("Outsider"),
        {"other_player", "other_arbiter", "staff"},
    ),
    ("api player edit: oneself", player_patch("P0"), {"player", "organizer", "staff"}),
    (
        "page player edit: a member of the official's club",
        player_edit_page("P3"),
        {"organizer", "club_official", "staff"},
    ),
    (
        "page player edit: another club's player",
        player_edit_page("Outsider"),
        {"other_player", "other_arbiter", "staff"},
    ),
    ("api club create", api_post("/api/clubs/", {"name": "New Club"}), OFFICIALS),
    (
        # Issue 25: pools are site-wide; staff and rating officers close, no event's officials.
        "api rating period close",
        api_post("/api/ratings/laws/close/", {"period": "2025-09"}),
        {"staff"},
    ),
    ("api player create", api_post("/api/players/", {"name": "Newbie"}), OFFICIALS),
    # A player's own requests (a bye, a withdrawal), for an arbiter to confirm: theirs only.
    ("my bye ask", page_post("/me/t/perm-open/bye/", {"round_number": "4"}), {"player"}),
    (
        "my bye take back",
        page_post("/me/t/perm-open/bye/", {"round_number": "4", "cancel": "1"}),
        {"player"},
    ),
    ("my withdrawal ask", page_post("/me/t/perm-open/withdraw/"), {"player"}),
    # Merging two players reaches every event, pool and account of both: staff only.
    (
        "api player merge",
        api_post("/api/players/{w.spare.pk}/merge/", lambda w: {"other": w.outsider.pk}),
        {"staff"},
    ),
    (
        "arbiter players merge",
        page_post(
            "/arbiter/players/merge/",
            lambda w: {"keep": w.spare.pk, "drop": w.outsider.pk, "confirm": "1"},
        ),
        {"staff"},
    ),
    (
        # Issue 22: unlinking an account is the player's own (or staff's), not the organizer's.
        "api player account: unlink oneself",
        api_post("/api/players/{w.player.pk}/account/", {"username": ""}),
        SELF_OR_STAFF,
    ),
    (
        "api player account of another event's player",
        api_post("/api/players/{w.outsider.pk}/account/", {"username": ""}),
        {"other_player", "staff"},
    ),
    (
        "api player account: link an account-less player",
        api_post("/api/players/{w.game.second_id}/account/", {"username": "stranger"}),
        ORGANIZER,  # the organizer who manages them, in their own event
    ),
    (
        "api player account: re-link a player who has an account",
        api_post("/api/players/{w.player.pk}/account/", {"username": "stranger"}),
        {"staff"},
    ),
    (
        "api player account: link a player in no event",
        api_post("/api/players/{w.spare.pk}/account/", {"username": "stranger"}),
        {"staff"},  # not even the organizer who made them
    ),
    (
        "api player account: link after another event registered the player",
        link_after_foreign_registration,
        ORGANIZER,  # the registration gave other_arbiter nothing, took nothing from organizer
    ),
    (
        "api register another event's player",
        api_post(T + "/registrations/", lambda w: {"player": w.outsider.pk}),
        ARBITERS,  # players are shared: registering one stays allowed
    ),
    (
        "api revoke a penalty that does not exist",
        api_post(T + "/revocations/", {"penalty": 999999, "reason": "probe"}),
        ARBITERS,  # they learn it does not exist (400); nobody else may ask (403)
    ),
    (
        "api tournament create",
        api_post("/api/tournaments/", {"name": "N", "slug": "n", "start_date": "2026-12-01"}),
        ORGANIZERS_ANYWHERE,
    ),
    (
        "api trf import",
        api_post("/api/tournaments/import/trf/", {"text": TRF_TEXT}),
        ORGANIZERS_ANYWHERE,
    ),
    ("api settings", api_patch(T + "/", {"venue": "Hall"}), CHIEFS),
    ("api register", api_post(T + "/registrations/", lambda w: {"player": w.spare.pk}), ARBITERS),
    (
        "api register in bulk",
        api_post(
            T + "/registrations/bulk/",
            lambda w: {"rows": [{"player": w.spare.pk}, {"name": "Bulk Newbie", "rating": 1500}]},
        ),
        ARBITERS,
    ),
    (
        "api register in bulk: preview",
        api_post(
            T + "/registrations/bulk/preview/",
            {"match": True, "rows": [{"name": "P1"}, {"name": "Bulk Newbie"}]},
        ),
        ARBITERS,
    ),
    ("api withdraw", api_post(T + "/withdrawals/", lambda w: {"player": w.player.pk}), ARBITERS),
    ("api start ranks", api_post(T + "/start-ranks/", {"sort": True}), ARBITERS),
    (
        "api withdrawal undo",
        api_post(T + "/withdrawal-undo/", lambda w: {"player": w.player.pk}),
        ARBITERS,
    ),
    (
        "api forbidden pair",
        api_post(T + "/forbidden-pairs/", lambda w: {"first": w.player.pk, "second": w.spare.pk}),
        ARBITERS,
    ),
    (
        "api bye cancel",
        api_post(T + "/bye-requests/cancel/", lambda w: {"player": w.player.pk, "round": 4}),
        ARBITERS,
    ),
    (
        "api forbidden pair remove",
        api_post(
            T + "/forbidden-pairs/remove/", lambda w: {"first": w.player.pk, "second": w.spare.pk}
        ),
        ARBITERS,
    ),
    (
        "api schedule",
        api_post(T + "/schedule/", {"round": 1, "starts_at": "2026-11-01T10:00:00Z"}),
        ARBITERS,
    ),
    (
        "api bye request",
        api_post(T + "/bye-requests/", lambda w: {"player": w.player.pk, "round": 4}),
        ARBITERS,
    ),
    ("api pair", api_post(T + "/pair/", {}), ARBITERS),
    # Issue 26: check-in.
    (
        "api check-in window",
        api_post(
            T + "/check-in-windows/",
            {"round": 4, "opens_at": "2026-11-01T09:00:00Z", "closes_at": "2026-11-01T10:00:00Z"},
        ),
        ARBITERS,
    ),
    (
        "api check-in override",
        api_post(T + "/check-in/", lambda w: {"player": w.player.pk, "present": False}),
        ARBITERS,
    ),
    ("api check-in close", api_post(T + "/check-in/close/", {}), ARBITERS),
    ("api check in oneself", api_post("/api/check-in/", {"tournament": "perm-open"}), {"player"}),
    ("page check in by the private link", check_in_by_link, set(ROLES)),
    ("page check in oneself", page_post("/t/perm-open/check-in/"), {"player"}),
    (
        "arbiter check-in window",
        page_post(
            A + "/check-in/window/",
            {"round_number": 4, "opens_at": "2026-11-01 09:00", "closes_at": "2026-11-01 10:00"},
        ),
        ARBITERS,
    ),
    ("arbiter check-in override", page_post(A + "/check-in/{w.player.pk}/"), ARBITERS),
    ("arbiter check-in close", page_post(A + "/check-in/close/", {"confirm": "1"}), ARBITERS),
    (
        "api edit pairings",
        api_post(T + "/edit-pairings/", {"round": 2, "pairings": [[1, 2]]}),
        ARBITERS,
    ),
    ("api publish", api_post(T + "/publish/", {"round": 2}), ARBITERS),
    ("api discard", api_post(T + "/discard/", {"round": 2}), ARBITERS),
    ("api unpublish", api_post(T + "/unpublish/", {"round": 1}), ARBITERS),
    ("api officials", api_post(T + "/officials/", {"arbiters": []}), ORGANIZER),
    (
        "api penalty",
        api_post(
            T + "/penalties/",
            lambda w: {"player": w.player.pk, "kind": "warning", "reason": "late"},
        ),
        ARBITERS,
    ),
    (
        "api expulsion",
        api_post(
            T + "/penalties/",
            lambda w: {"player": w.player.pk, "kind": "expulsion", "reason": "cheating"},
        ),
        CHIEFS,
    ),
    (
        "api revoke",
        api_post(T + "/revocations/", lambda w: {"penalty": w.penalty.pk, "reason": "oops"}),
        ARBITERS,
    ),
    ("api result", api_post("/api/games/{w.game.pk}/result/", {"result": "draw"}), ARBITERS),
    (
        "api round results",
        api_post(
            T + "/rounds/1/results/",
            lambda w: {"rows": [{"board": w.game.board, "result": "draw"}]},
        ),
        ARBITERS,
    ),
    ("api countersign", api_post("/api/games/{w.game.pk}/countersign/", {}), ARBITERS),
    (
        "api spindle choice",
        api_post(
            "/api/games/{w.game.pk}/spindle-choice/",
            lambda w: {"chooser": w.player.pk, "placement": "first"},
        ),
        ARBITERS,
    ),
    ("api timeout", api_post("/api/games/{w.game.pk}/timeout/", {}), ARBITERS),
    (
        "api record disagreement",
        api_post(
            "/api/games/{w.game.pk}/record-disagreement/",
            {"decision": "entered", "reason": "Art. 12.4"},
        ),
        ARBITERS,
    ),
    (
        "api clock adjustment",
        api_post(
            "/api/games/{w.game.pk}/clock-adjustments/",
            {"side": "green", "seconds": 60, "article": "12.5", "from_ply": 3, "reason": "x"},
        ),
        ARBITERS,
    ),
    ("api clock adjustment revoke", clock_revoke, ARBITERS),
    ("page clock revoke", page_clock_revoke, ARBITERS),
    (
        "api latecomers",
        api_post(
            "/api/games/{w.game.pk}/latecomers/",
            {"scheduled": "2026-11-22T10:00:00Z", "green_arrival": "2026-11-22T10:05:00Z"},
        ),
        ARBITERS,
    ),
    (
        "api irregularity",
        api_post("/api/games/{w.game.pk}/irregularities/", {"kind": "draw", "reason": "x"}),
        ARBITERS,
    ),
    (
        "api correction",
        api_post(
            "/api/games/{w.game.pk}/irregularities/",
            {"kind": "correction", "reason": "x", "text": '[Event "y"]\n\n'},
        ),
        ARBITERS,
    ),
    (
        "api sign",
        api_post(
            "/api/records/{w.submission.pk}/signatures/", {"public_key": "k", "signature": "s"}
        ),
        ARBITERS | {"player"},
    ),
    ("api key", api_post("/api/signing-keys/", {"public_key": "nonsense"}), SIGNED_IN),
    (
        "arbiter irregularity",
        page_post(
            A + "/irregularities/", lambda w: {"game": w.game.pk, "kind": "draw", "reason": "x"}
        ),
        ARBITERS,
    ),
    (
        "api record",
        api_post("/api/games/{w.game.pk}/records/", {"text": '[Event "x"]\n\n'}),
        ARBITERS | {"player"},
    ),
    ("page submit", page_post("/g/{w.game.pk}/submit/", {"text": "x"}), ARBITERS | {"player"}),
    (
        "page sign",
        page_json(
            "/g/{w.game.pk}/sign/",
            lambda w: {"submission": w.submission.pk, "public_key": "k", "signature": "s"},
        ),
        ARBITERS | {"player"},
    ),
    ("page confirm", page_post("/g/{w.game.pk}/confirm/", {"result": "draw"}), ARBITERS),
    (
        "page clock",
        page_post("/g/{w.game.pk}/clock/", {"side": "green", "seconds": "60", "reason": "x"}),
        ARBITERS,
    ),
    (
        "page latecomers",
        page_post(
            "/g/{w.game.pk}/latecomers/",
            {"scheduled": "2026-11-22T10:00", "green_arrival": "2026-11-22T10:05"},
        ),
        ARBITERS,
    ),
    (
        "api record upload",
        api_upload(T + "/record-uploads/"),
        ARBITERS,
    ),
    ("arbiter records upload", page_upload(A + "/records/"), ARBITERS),
    ("page key", page_json("/keys/", lambda w: {"public_key": "nonsense"}), SIGNED_IN),
    ("arbiter new", page_post("/arbiter/new/", {"name": "x"}), ORGANIZERS_ANYWHERE),
    (
        "arbiter trf import",
        page_post("/arbiter/import/trf/", {"text": TRF_TEXT, "confirm": "1"}),
        ORGANIZERS_ANYWHERE,
    ),
    ("arbiter settings", page_post(A + "/settings/", {"venue": "x"}), CHIEFS),
    ("arbiter officials", page_post(A + "/officials/", {"arbiters": ""}), ORGANIZER),
    ("arbiter entrant", page_post(A + "/entrants/", {"name": "Zed"}), ARBITERS),
    (
        "arbiter entrants bulk",
        page_post(A + "/entrants/bulk/", {"text": "Zed Bulk, 1500", "register": "1"}),
        ARBITERS,
    ),
    ("arbiter withdraw", page_post(A + "/entrants/{w.player.pk}/withdraw/"), ARBITERS),
    ("arbiter withdraw undo", page_post(A + "/entrants/{w.player.pk}/undo-withdrawal/"), ARBITERS),
    ("arbiter start ranks", page_post(A + "/start-ranks/", {"sort": "1"}), ARBITERS),
    (
        "arbiter bye",
        page_post(A + "/byes/", lambda w: {"player": w.player.pk, "round_number": 4}),
        ARBITERS,
    ),
    # Unlinking the player's account: no longer the organizer's (issue 22).
    ("arbiter account", page_post(A + "/accounts/", lambda w: {"player": w.player.pk}), {"staff"}),
    (
        "arbiter account: link an account-less player",
        page_post(A + "/accounts/", lambda w: {"player": p1(w).pk, "account": "stranger"}),
        ORGANIZER,
    ),
    # Issue 15: an invitation makes and links an account, so the same rule as linking one.
    (
        "page invite",
        page_post("/accounts/invite/{w.game.second_id}/", {"email": "p1@example.org"}),
        ORGANIZER,
    ),
    (
        "page invite a player in no event",
        page_post("/accounts/invite/{w.spare.pk}/", {"email": "spare@example.org"}),
        {"staff"},
    ),
    ("arbiter pair", page_post(A + "/pair/"), ARBITERS),
    ("arbiter edit", page_post(A + "/round/2/edit/", {"board-1-first": "1"}), ARBITERS),
    ("arbiter publish", page_post(A + "/round/2/publish/"), ARBITERS),
    ("arbiter discard", page_post(A + "/round/2/discard/"), ARBITERS),
    ("arbiter unpublish", page_post(A + "/round/1/unpublish/"), ARBITERS),
    (
        "arbiter schedule",
        page_post(A + "/round/1/schedule/", {"starts_at": "2026-11-01 10:00", "place": "Hall"}),
        ARBITERS,
    ),
    ("arbiter result", page_post(A + "/game/{w.game.pk}/result/", {"result": "draw"}), ARBITERS),
    (
        "arbiter results grid",
        page_post(A + "/round/1/results/", lambda w: {f"result-{w.game.board}": "="}),
        ARBITERS,
    ),
    ("arbiter from record", page_post(A + "/game/{w.game.pk}/from-record/"), ARBITERS),
    (
        "arbiter record disagreement",
        page_post(
            A + "/game/{w.game.pk}/record-disagreement/",
            {"decision": "entered", "reason": "Art. 12.4"},
        ),
        ARBITERS,
    ),
    ("arbiter countersign", page_post(A + "/game/{w.game.pk}/countersign/"), ARBITERS),
    ("arbiter timeout", page_post(A + "/game/{w.game.pk}/timeout/"), ARBITERS),
    (
        "arbiter record requeue",
        page_post(A + "/record/{w.submission.pk}/requeue/"),
        ARBITERS,
    ),
    ("api record requeue", api_post("/api/records/{w.submission.pk}/requeue/", {}), ARBITERS),
    (
        "arbiter penalty",
        page_post(
            A + "/penalties/",
            lambda w: {"player": w.player.pk, "kind": "warning", "reason": "late"},
        ),
        ARBITERS,
    ),
    (
        "arbiter revoke",
        page_post(A + "/penalties/revoke/", lambda w: {"penalty": w.penalty.pk, "reason": "x"}),
        ARBITERS,
    ),
    # Issue 14's take-over: register this event's player into one's own event (allowed),
    # then link them to one's own account (refused unless one organizes all their events).
    ("takeover: register elsewhere, then link", lambda w, u, c: takeover(w, u), SELF_OR_STAFF),
    (
        "api penalty in one's own event on this event's game",
        lambda w, u, c: foreign_penalty(w, u),
        {"staff"},  # staff act in every event: there the game is refused as bad input (400)
    ),
]


# Rows whose first request is allowed (and may lock) before the refused one.
TWO_REQUESTS = {
    "takeover: register elsewhere, then link",
    "api penalty in one's own event on this event's game",
    "api player account: link after another event registered the player",
}


def denied(resp: Any) -> bool:
    if resp.status_code in (401, 403):
        return True
    return resp.status_code == 302 and "/accounts/login/" in resp.get("Location", "")


STATE = [
    lambda w: sorted(Game.objects.values_list("id", "result", "result_confirmed_at")),
    lambda w: sorted(Round.objects.values_list("id", "status", "starts_at", "place")),
    lambda w: sorted(ForbiddenPair.objects.values_list("first_id", "second_id")),
    lambda w: Penalty.objects.count(),
    lambda w: sorted(w.t.registrations.values_list("player_id", "status")),
    lambda w: RecordSubmission.objects.count(),
    lambda w: list(Player.objects.values_list("id", "user_id")),
    lambda w: w.t.audit.count(),
    lambda w: AuditEntry.objects.filter(tournament=None).count(),  # the site's chain
    lambda w: w.game.irregularities.count(),
    lambda w: w.game.clock_adjustments.count(),
    lambda w: w.game.clock_adjustments.filter(revoked_at__isnull=False).count(),
    lambda w: RatingPeriod.objects.exclude(closed_at=None).count(),
    lambda w: Series.objects.count(),
    lambda w: sorted(SeriesEvent.objects.values_list("tournament_id", "status")),
    lambda w: sorted(Club.officials.through.objects.values_list("club_id", "user_id")),
    lambda w: sorted(Player.objects.values_list("id", "federation")),
    lambda w: sorted(CheckIn.objects.values_list("registration_id", "present")),
    lambda w: sorted(CheckInWindow.objects.values_list("round_number", "confirmed_at")),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "call", "allowed"), ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_write_endpoint_permissions(
    world, pristine, client, monkeypatch, role, name, call, allowed
):
    user = world.users.get(role)
    before = [f(world) for f in STATE]
    assert normalized(before) == pristine, f"{name} as {role}: an earlier case's writes leaked"
    locks = row_locks_asked(monkeypatch)
    resp = call(world, user, client)
    assert resp.status_code < 500, f"{name} as {role}: {resp.status_code}"
    if role in allowed:
        assert not denied(resp), f"{name} must be allowed to {role}: {resp.status_code}"
    else:
        assert denied(resp), f"{name} must be refused to {role}: {resp.status_code}"
        assert [f(world) for f in STATE] == before, f"{name} as {role} changed something"
        # Issue 22, item 5: the role is checked before any row is locked (a row of two
        # requests may lock in its first, allowed, one).
        assert not locks or name in TWO_REQUESTS, f"{name} as {role} locked {locks} first"


def row_locks_asked(monkeypatch: Any) -> list[str]:
    """The models of every row lock (SELECT ... FOR UPDATE) asked for from now on: SQLite
    takes none, so the request is what shows a lock on every database."""
    from django.db.models.query import QuerySet

    asked: list[str] = []
    original = QuerySet.select_for_update

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(self.model.__name__)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(QuerySet, "select_for_update", spy)
    return asked


@pytest.mark.parametrize("role", ROLES)
def test_a_penalty_page_of_another_event_cannot_reach_this_events_game(
    world, pristine, client, role
):
    """The other event's penalty form with this event's game: refused (403, or the form's
    own error), and nothing is attached to this event's game."""
    user = world.users.get(role)
    api_as(user).post(OTHER + "/registrations/", {"player": world.player.pk}, format="json")
    before = [f(world) for f in STATE]
    resp = page_post(
        "/arbiter/t/other/penalties/",
        lambda w: {"player": w.player.pk, "game": w.game.pk, "kind": "warning", "reason": "x"},
    )(world, user, client)
    assert resp.status_code < 500
    if not denied(resp):
        assert resp.status_code == 302
        from django.contrib.messages import get_messages

        assert any(m.level_tag == "error" for m in get_messages(resp.wsgi_request))
    assert [f(world) for f in STATE] == before
    assert not Penalty.objects.filter(game=world.game).exclude(tournament=world.t).exists()


def test_the_penalty_form_offers_only_the_events_games_and_entrants(world):
    from tournaments.forms import PenaltyForm

    form = PenaltyForm(tournament=world.t)
    games = form.fields["game"].queryset  # type: ignore[attr-defined]
    assert set(games.values_list("round__tournament", flat=True)) == {world.t.pk}
    players = form.fields["player"].queryset  # type: ignore[attr-defined]
    assert world.outsider not in players and world.player in players


@pytest.mark.parametrize("role", ROLES)
def test_an_unpublished_rounds_game_is_seen_by_its_arbiters_only(world, client, role):
    draft = Game.objects.filter(round__tournament=world.t, round__status=Round.Status.DRAFT)
    game = draft.first()
    user = world.users.get(role)
    if user is not None:
        sign_in(world, user, client)
    for path in ("", "status.json", "board.svg"):
        resp = client.get(f"/g/{game.pk}/{path}")
        if role in ARBITERS:
            assert resp.status_code in (200, 404) and b"no such game" not in resp.content
            assert path or resp.status_code == 200
        else:
            assert resp.status_code == 404, (path, resp.status_code)
    before = RecordSubmission.objects.count()
    resp = api_as(user).post(f"/api/games/{game.pk}/records/", {"text": "x"}, format="json")
    if role in ARBITERS:
        assert resp.status_code != 404
    else:
        assert resp.status_code in (401, 403, 404), resp.status_code
        assert RecordSubmission.objects.count() == before
        assert api_as(user).get(f"/api/games/{game.pk}/").status_code == 404


def test_the_table_names_every_api_write_operation(world, client, monkeypatch):
    """Every write operation of the API's schema is called by some row above (a new
    endpoint must be added to the table with its expected status per role)."""
    import re

    from django.test.client import RequestFactory
    from drf_spectacular.generators import SchemaGenerator

    # First: drf-spectacular sends requests of its own through RequestFactory.
    schema = SchemaGenerator().get_schema(request=None, public=True)
    sent: set[tuple[str, str]] = set()
    generic = RequestFactory.generic

    def recording(self: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        sent.add((method.lower(), path.split("?")[0]))
        return generic(self, method, path, *args, **kwargs)

    monkeypatch.setattr(RequestFactory, "generic", recording)
    for _, call, _ in ENDPOINTS:
        call(world, world.users["organizer"], client)
    monkeypatch.undo()
    missing = []
    for path, item in schema["paths"].items():
        for method in item:
            if method not in ("post", "patch", "put", "delete"):
                continue
            pattern = re.compile(re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(path)) + "$")
            if not any(m == method and pattern.match(p) for m, p in sent):
                missing.append(f"{method.upper()} {path}")
    assert not missing, f"write operations no row of the matrix calls: {missing}"


def test_the_table_names_every_write_route():
    """A new write route must be added to the table above."""
    from django.urls import get_resolver

    covered = {
        "arbiter:new",
        "arbiter:trf-import",
        "arbiter:players-merge",
        "arbiter:settings",
        "arbiter:officials",
        "arbiter:entrant-add",
        "arbiter:entrants-bulk",
        "arbiter:withdraw",
        "arbiter:withdraw-undo",
        "arbiter:bye-request",
        "arbiter:start-ranks",
        "arbiter:account",
        "arbiter:pair",
        "arbiter:records-upload",
        "arbiter:round-edit",
        "arbiter:round-publish",
        "arbiter:round-discard",
        "arbiter:round-unpublish",
        "arbiter:round-schedule",
        "arbiter:result",
        "arbiter:results",
        "arbiter:from-record",
        "arbiter:record-disagreement",
        "arbiter:countersign",
        "arbiter:timeout",
        "arbiter:record-requeue",
        "arbiter:penalty",
        "arbiter:revoke",
        "arbiter:irregularity",
        "arbiter:check-in-window",
        "arbiter:check-in-set",
        "arbiter:check-in-close",
        "games:submit",
        "games:sign",
        "games:confirm",
        "games:clock",
        "games:clock-revoke",
        "games:latecomers",
        "games:keys",
    }
    names: set[str] = set()

    def walk(patterns: Any, ns: str = "") -> None:
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, f"{ns}{p.namespace}:" if p.namespace else ns)
            elif p.name:
                names.add(ns + p.name)

    walk(get_resolver().url_patterns)
    pages = {n for n in names if n.startswith(("arbiter:", "games:"))}
    reads = {"arbiter:dashboard", "arbiter:manage", "arbiter:round", "arbiter:audit"}
    reads |= {"arbiter:pairing-job", "arbiter:export-trf", "arbiter:time-control"}
    reads |= {"arbiter:check-in"}
    reads |= {"games:detail", "games:status", "games:board", "games:canonical"}
    reads |= {"games:live-board"}
    assert pages - reads == covered


# Issue 22, item 3: a proposed round's records are its arbiters' own, as its games are.
@pytest.mark.parametrize("role", ROLES)
def test_a_draft_rounds_records_are_seen_by_its_arbiters_only(world, role):
    game = Game.objects.get(round__tournament=world.t, round__number=2, board=1)
    draft = RecordSubmission.objects.create(game=game, raw=b'[Event "draft"]\n\n')
    api = api_as(world.users.get(role))
    listed = api.get("/api/records/?limit=500").json()
    ids = {r["id"] for r in listed.get("results", listed)}
    assert world.submission.pk in ids  # a published round's record stays public
    detail = api.get(f"/api/records/{draft.pk}/")
    signatures = api.get(f"/api/records/{draft.pk}/signatures/")
    game_page = api.get(f"/g/{game.pk}/")
    if role in ARBITERS:
        assert draft.pk in ids
        assert (detail.status_code, signatures.status_code) == (200, 200)
        assert detail.json()["game"] == game.pk
    else:
        assert draft.pk not in ids, role
        assert (detail.status_code, signatures.status_code) == (404, 404), role
        assert game_page.status_code == 404  # exactly whom the game page refuses
        signed = api.post(
            f"/api/records/{draft.pk}/signatures/", {"public_key": "k", "signature": "s"}
        )
        assert signed.status_code in (401, 403, 404), signed.status_code


# A record matched to no game (a stray of a bulk upload) may be of any round, a proposed one
# included: the event's arbiters and its uploader see it, nobody else.
@pytest.mark.parametrize("role", ROLES)
def test_an_unmatched_record_is_seen_by_the_events_arbiters_and_its_uploader(world, role):
    uploader = world.users["player"]
    stray = RecordSubmission.objects.create(
        game=None, tournament=world.t, submitted_by=uploader, raw=b'[Event "stray"]\n\n'
    )
    api = api_as(world.users.get(role))
    listed = api.get("/api/records/?limit=500").json()
    ids = {r["id"] for r in listed.get("results", listed)}
    detail = api.get(f"/api/records/{stray.pk}/")
    if role in ARBITERS or role == "player":
        assert stray.pk in ids, role
        assert detail.status_code == 200, role
    else:
        assert stray.pk not in ids, role
        assert detail.status_code == 404, role


# Issue 22, item 4: an expulsion (Art. 12.4 g) is the chief arbiter's, and only revoking it
# brings the player back; a withdrawal and its undo cannot.
def expel(w: World) -> Penalty:
    return services.penalty_impose(
        tournament=w.t, player=w.player, kind="expulsion", reason="cheating", user=None
    )


def registration_state(w: World) -> Any:
    return (
        w.t.registrations.values_list("status", "last_round").get(player=w.player),
        w.t.audit.count(),
    )


@pytest.mark.parametrize("role", ROLES)
def test_an_expelled_player_is_neither_withdrawn_nor_brought_back_by_an_undo(world, role):
    expel(world)
    before = registration_state(world)
    api = api_as(world.users.get(role))
    body = {"player": world.player.pk}
    withdrawn = api.post(T + "/withdrawals/", body, format="json")
    undone = api.post(T + "/withdrawal-undo/", body, format="json")
    if role in ARBITERS:
        assert (withdrawn.status_code, undone.status_code) == (409, 409)
        for resp in (withdrawn, undone):
            message = str(resp.json())
            assert "expelled (Art. 12.4g)" in message and "revoking the penalty" in message
    else:
        assert denied(withdrawn) and denied(undone), (withdrawn.status_code, undone.status_code)
    assert registration_state(world) == before
    assert before[0] == ("expelled", 2)


@pytest.mark.parametrize("role", sorted(ARBITERS))
def test_the_arbiter_pages_refuse_to_withdraw_an_expelled_player(world, client, role):
    expel(world)
    before = registration_state(world)
    for path in ("withdraw/", "undo-withdrawal/"):
        resp = page_post(A + "/entrants/{w.player.pk}/" + path)(world, world.users[role], client)
        assert resp.status_code == 302
        from django.contrib.messages import get_messages

        errors = [m.message for m in get_messages(resp.wsgi_request) if m.level_tag == "error"]
        assert any("only revoking the penalty" in m for m in errors), errors
    assert registration_state(world) == before


@pytest.mark.parametrize("role", ROLES)
def test_an_expulsion_is_revoked_by_the_role_that_imposes_it(world, client, role):
    penalty = expel(world)
    user = world.users.get(role)
    resp = api_as(user).post(
        T + "/revocations/", {"penalty": penalty.pk, "reason": "appeal"}, format="json"
    )
    page = page_post(A + "/penalties/revoke/", {"penalty": penalty.pk, "reason": "appeal"})
    if role in CHIEFS:
        assert resp.status_code == 201, resp.content
        assert registration_state(world)[0] == ("active", None)
    else:
        assert denied(resp), resp.status_code
        assert denied(page(world, user, client))
        assert not Penalty.objects.filter(revokes=penalty).exists()
        assert registration_state(world)[0] == ("expelled", 2)


@pytest.mark.parametrize("role", ROLES)
def test_expelling_through_the_withdrawals_takes_the_chief_arbiters_role(world, role):
    before = registration_state(world)
    resp = api_as(world.users.get(role)).post(
        T + "/withdrawals/", {"player": world.player.pk, "expelled": True}, format="json"
    )
    if role in CHIEFS:
        assert resp.status_code == 200 and resp.json()["status"] == "expelled"
    else:
        assert denied(resp), resp.status_code
        assert registration_state(world) == before


# An outsider's refusal says nothing about what the body names: whether a proposed round, an
# entrant or a penalty exists is for the event's arbiters to learn (the role is asked of the
# tournament before the body is read).
def _entrant(w: World) -> dict[str, Any]:
    return {"player": w.player.pk}


BODY_PROBES: list[tuple[str, Callable[[World], dict[str, Any]], dict[str, Any]]] = [
    ("publish", lambda w: {"round": 2}, {"round": 9}),
    ("discard", lambda w: {"round": 2}, {"round": 9}),
    ("unpublish", lambda w: {"round": 2}, {"round": 9}),
    (
        "schedule",
        lambda w: {"round": 2, "starts_at": "2026-11-02T10:00:00Z"},
        {"round": 9, "starts_at": "2026-11-02T10:00:00Z"},
    ),
    ("edit-pairings", lambda w: {"round": 2, "pairings": [[1, 2]]}, {"round": 9, "pairings": []}),
    ("withdrawals", _entrant, {"player": 999999}),
    ("withdrawal-undo", _entrant, {"player": 999999}),
    ("bye-requests/cancel", lambda w: {**_entrant(w), "round": 4}, {"player": 999999, "round": 4}),
    ("start-ranks", lambda w: {**_entrant(w), "rank": 1}, {"player": 999999, "rank": 1}),
    (
        "penalties",
        lambda w: {"player": w.player.pk, "kind": "warning", "reason": "x"},
        {"player": 999999, "kind": "warning", "reason": "x"},
    ),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("action", "named", "missing"), BODY_PROBES, ids=[p[0] for p in BODY_PROBES]
)
def test_an_outsider_is_refused_alike_whatever_the_body_names(
    world, pristine, role, action, named, missing
):
    api = api_as(world.users.get(role))
    url = f"{T}/{action}/"
    absent = api.post(url, missing, format="json")
    if role in ARBITERS:
        assert absent.status_code == 400, (absent.status_code, absent.content)
        return
    present = api.post(url, named(world), format="json")
    assert denied(absent) and denied(present), (absent.status_code, present.status_code)
    assert (absent.status_code, absent.content) == (present.status_code, present.content)
    assert normalized([f(world) for f in STATE]) == pristine


def _draft_game(w: World) -> Game:
    return Game.objects.get(round__tournament=w.t, round__number=2, board=1)


GAME_ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("result/", {"result": "draw"}),
    ("countersign/", {}),
    ("spindle-choice/", {"chooser": 1, "placement": "first"}),
    ("timeout/", {}),
    ("record-disagreement/", {"decision": "record"}),
    ("records/", {"text": '[Event "x"]\n\n'}),
    ("irregularities/", {"kind": "draw", "reason": "x"}),
    ("clock-adjustments/", {"side": "green", "seconds": 60, "article": "6.12", "from_ply": 1}),
    ("clock-adjustments/{adj}/revoke/", {"reason": "x"}),
    ("latecomers/", {"green_arrival": "2026-11-22T10:05:00Z"}),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("action", "body"), GAME_ACTIONS, ids=[a for a, _ in GAME_ACTIONS])
def test_a_draft_rounds_game_is_refused_as_one_that_does_not_exist(world, role, action, body):
    """Every action on a game of a proposed round answers its event's arbiters, and anyone
    else exactly as for a game id nobody has (404, the same words): the API shows no more
    of a draft than the game page does."""
    game = _draft_game(world)
    adj = ClockAdjustment.objects.create(game=game, side="gold", seconds=10, article="6.12")
    api = api_as(world.users.get(role))
    before = [f(world) for f in STATE], game.clock_adjustments.count()
    draft = api.post(f"/api/games/{game.pk}/{action.format(adj=adj.pk)}", body, format="json")
    assert draft.status_code < 500, draft.content
    if role in ARBITERS:
        assert draft.status_code != 404, (draft.status_code, draft.content)
        return
    nobody = api.post(f"/api/games/999999/{action.format(adj=adj.pk)}", body, format="json")
    assert draft.status_code in (401, 403, 404), draft.status_code
    assert (draft.status_code, draft.content) == (nobody.status_code, nobody.content)
    assert ([f(world) for f in STATE], game.clock_adjustments.count()) == before


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("whose", ["account-less", "linked", "another event's"])
def test_only_who_may_link_an_account_learns_which_usernames_exist(world, pristine, role, whose):
    """Linking names the account by username: whoever may not link one to the player is
    refused alike for a name nobody has and for a name someone has (else any signed-in user
    could list the site's usernames); whoever may is told there is no such user (400)."""
    player = {"account-less": p1(world), "linked": world.player, "another event's": world.outsider}
    url = f"/api/players/{player[whose].pk}/account/"
    api = api_as(world.users.get(role))
    unknown = api.post(url, {"username": "nobody-has-this-name"}, format="json")
    may = role == "staff" or (whose == "account-less" and role == "organizer")
    if may:
        assert unknown.status_code == 400 and "username" in unknown.json(), unknown.content
        return
    known = api.post(url, {"username": "chief"}, format="json")
    assert denied(unknown) and denied(known), (unknown.status_code, known.status_code)
    assert unknown.json() == known.json()
    assert normalized([f(world) for f in STATE]) == pristine
