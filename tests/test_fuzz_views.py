"""Property-based fuzz of the HTML form views and the JSON views (issue 14): ids, numbers,
Unicode digits, NUL and control characters, huge values and deeply nested bodies, sent to
every page route as the event's chief arbiter, a player and an anonymous visitor; no request
may answer with a server error. Each route gets KZ_FUZZ_EXAMPLES examples (default 25)."""

from __future__ import annotations

import io
import json
import os
from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import RecordSubmission
from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Game, Penalty, Round

pytestmark = pytest.mark.django_db
User = get_user_model()
EXAMPLES = int(os.environ.get("KZ_FUZZ_EXAMPLES", "25"))
TRIED: Counter[str] = Counter()  # requests sent, per route
SERVER_ERRORS: list[str] = []

SPECIAL = [
    "",
    " ",
    "0",
    "1",
    "2",
    "-1",
    "²",
    "١٢",
    "𝟙",
    "1²",
    "½",
    "32767",
    "32768",
    "99999999",
    "9" * 30,
    "1e12",
    "1E3",
    "NaN",
    "inf",
    "-0",
    "0x10",
    "1.5",
    "1,5",
    "+1",
    " 1 ",
    "2026-02-30",
    "2026-02-30T10:00",
    "2026-13-01 25:61",
    "9999-12-31T23:59",
    "0001-01-01",
    "\x00",
    "a\x00b",
    "\x1b[31m",
    "\u2028",
    "\ufeff",
    "\ud7ff",
    "null",
    "true",
    "[]",
    "{}",
    "draw",
    "first",
    "second",
    "green",
    "gold",
    "warning",
    "expulsion",
    "offender_time",
    "correction",
    "12.5",
    "6.8",
]
UNICODE_DIGITS = st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=6)
INTS = st.integers(-(2**70), 2**70).map(str)
HUGE = st.integers(1000, 300_000).map(lambda n: "7" * n)
TEXT = st.text(max_size=40)


def values(ids: list[int]) -> st.SearchStrategy[str]:
    """A field's value: the world's real ids among everything odd."""
    return st.one_of(
        st.sampled_from(SPECIAL),
        st.sampled_from([str(i) for i in ids]),
        UNICODE_DIGITS,
        INTS,
        TEXT,
        HUGE,
    )


JSON_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**80), 2**80), st.floats(), st.text(max_size=20)
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3),
    max_leaves=12,
)


@dataclass
class World:
    slug: str
    game: int
    draft_game: int
    players: list[int]
    penalty: int
    submission: int
    users: dict[str, Any]
    sessions: dict[str, str]

    @property
    def ids(self) -> list[int]:
        return [self.game, self.draft_game, *self.players, self.penalty, self.submission, 1, 2]


@pytest.fixture(scope="module")
def world_once(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """One event for the module (rolled back at its end): round 1 published with a record,
    round 2 proposed, a penalty; the chief arbiter's and a player's sessions."""
    with django_db_blocker.unblock(), transaction.atomic():
        organizer = User.objects.create_user("fuzz-org", password="pw-fuzz-org-1")
        organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
        chief = User.objects.create_user("fuzz-chief", password="pw-fuzz-chief-1")
        player_user = User.objects.create_user("fuzz-player", password="pw-fuzz-player-1")
        t = services.tournament_create(
            name="Fuzz Open", slug="fuzz", start_date=date(2026, 11, 1), organizer=organizer
        )
        t.chief_arbiter = chief
        t.save()
        club = services.club_create(name="Fuzz Club")
        players = [
            services.player_create(name=f"F{i}", rating=2000 - i, club=club) for i in range(4)
        ]
        for p in players:
            services.registration_create(tournament=t, player=p)
        players[0].user = player_user
        players[0].save()
        ids = [p.pk for p in players]
        services.round_create(tournament=t, pairings=[(ids[0], ids[1]), (ids[2], ids[3])])
        services.round_create(
            tournament=t, pairings=[(ids[0], ids[2]), (ids[1], ids[3])], status="draft"
        )
        game = Game.objects.get(round__tournament=t, round__number=1, board=1)
        draft = Game.objects.get(round__tournament=t, round__number=2, board=1)
        sub = RecordSubmission.objects.create(
            game=game, raw=b'[Event "x"]\n\n', status=RecordSubmission.Status.DONE, valid=True
        )
        penalty = services.penalty_impose(
            tournament=t, player=players[1], kind="warning", reason="noise", user=None
        )
        services.series_create(name="Fuzz GP", slug="fuzz-gp", user=organizer, events=[t])
        users = {"chief": chief, "player": player_user, "organizer": organizer}
        sessions = {}
        for name, user in users.items():
            c = Client()
            c.force_login(user)
            sessions[name] = c.cookies[django_settings.SESSION_COOKIE_NAME].value
        w = World(t.slug, game.pk, draft.pk, ids, penalty.pk, sub.pk, users, sessions)
        yield w
        transaction.set_rollback(True)
        print(
            f"\nfuzz of the views: {sum(TRIED.values())} requests on {len(TRIED)} routes, "
            f"{len(SERVER_ERRORS)} server errors"
        )


@pytest.fixture
def world(world_once, db) -> World:  # type: ignore[no-untyped-def]
    return world_once


A = "/arbiter/t/{slug}"
SETTINGS_FIELDS = list(TournamentForm.base_fields)
# (route, method, path template, the fields its form reads)
FORMS: list[tuple[str, str, list[str]]] = [
    ("arbiter new", "/arbiter/new/", SETTINGS_FIELDS),
    ("arbiter trf import", "/arbiter/import/trf/", ["text", "preview", "confirm"]),
    ("arbiter settings", A + "/settings/", SETTINGS_FIELDS),
    ("arbiter officials", A + "/officials/", ["chief_arbiter", "arbiters"]),
    ("arbiter entrant", A + "/entrants/", ["player", "name", "club", "rating"]),
    ("arbiter withdraw", A + "/entrants/{id}/withdraw/", []),
    ("arbiter withdraw undo", A + "/entrants/{id}/undo-withdrawal/", []),
    ("arbiter entrants bulk", A + "/entrants/bulk/", ["text", "preview", "register", "choice-1"]),
    ("arbiter players merge", "/arbiter/players/merge/", ["keep", "drop", "confirm"]),
    ("arbiter start ranks", A + "/start-ranks/", ["sort", "player", "rank"]),
    ("arbiter bye", A + "/byes/", ["player", "round_number"]),
    ("arbiter account", A + "/accounts/", ["player", "account"]),
    ("arbiter pair", A + "/pair/", ["background"]),
    (
        "arbiter edit",
        A + "/round/{n}/edit/",
        ["board-1-first", "board-1-second", "board-2-first", "board-2-second", "board-9-first"],
    ),
    ("arbiter results", A + "/round/{n}/results/", ["result-1", "result-2", "result-99999"]),
    ("arbiter publish", A + "/round/{n}/publish/", []),
    ("arbiter discard", A + "/round/{n}/discard/", []),
    ("arbiter unpublish", A + "/round/{n}/unpublish/", []),
    ("arbiter schedule", A + "/round/{n}/schedule/", ["starts_at", "place"]),
    ("arbiter result", A + "/game/{id}/result/", ["result"]),
    ("arbiter from record", A + "/game/{id}/from-record/", []),
    ("arbiter record disagreement", A + "/game/{id}/record-disagreement/", ["decision", "reason"]),
    ("arbiter record requeue", A + "/record/{id}/requeue/", []),
    ("arbiter countersign", A + "/game/{id}/countersign/", []),
    ("arbiter timeout", A + "/game/{id}/timeout/", []),
    ("arbiter irregularity", A + "/irregularities/", ["game", "kind", "reason", "text"]),
    (
        "arbiter penalty",
        A + "/penalties/",
        ["player", "kind", "game", "amount", "reason", "round_number"],
    ),
    ("arbiter revoke", A + "/penalties/revoke/", ["penalty", "reason"]),
    ("arbiter check-in window", A + "/check-in/window/", ["round_number", "opens_at", "closes_at"]),
    ("arbiter check-in set", A + "/check-in/{id}/", ["present"]),
    ("arbiter check-in close", A + "/check-in/close/", ["confirm"]),
    ("page check in", "/t/{slug}/check-in/", []),
    ("page check in by link", "/check-in/{id}/", []),
    ("page submit", "/g/{id}/submit/", ["text"]),
    ("page confirm", "/g/{id}/confirm/", ["result"]),
    ("page clock", "/g/{id}/clock/", ["side", "seconds", "article", "from_ply", "reason"]),
    ("page latecomers", "/g/{id}/latecomers/", ["scheduled", "green_arrival", "gold_arrival"]),
    ("page clock revoke", "/g/{id}/clock/{n}/revoke/", ["reason"]),
    ("account invite", "/accounts/invite/{id}/", ["email"]),
    ("page series accept", "/series/fuzz-gp/accept/{slug}/", []),
    ("page series decline", "/series/fuzz-gp/decline/{slug}/", []),
    ("page series remove", "/series/fuzz-gp/remove/{slug}/", []),
    (
        "page player edit",
        "/p/{id}/edit/",
        ["name", "club", "federation", "rating", "rating_source"],
    ),
    (
        "page series new",
        "/series/new/",
        ["name", "slug", "events", "scoring", "points_table", "best_of"],
    ),
    ("my bye", "/me/t/{slug}/bye/", ["round_number", "cancel"]),
    ("my withdrawal", "/me/t/{slug}/withdraw/", []),
    ("password reset", "/accounts/password-reset/", ["email"]),
    ("password set", "/accounts/reset/{n}/set-password/", ["new_password1", "new_password2"]),
]
READS: list[tuple[str, str, list[str]]] = [
    ("arbiter manage", A + "/", []),
    ("arbiter round", A + "/round/{n}/", []),
    ("arbiter audit", A + "/audit/", ["player"]),
    ("arbiter withdraw confirm", A + "/entrants/{id}/withdraw/", []),
    ("arbiter export trf", A + "/export.trf", ["shift"]),
    ("arbiter pairing job", A + "/pairing/{id}/", []),
    ("arbiter time control", "/arbiter/time-control/", ["time_control", "id"]),
    ("page game", "/g/{id}/", []),
    ("page status", "/g/{id}/status.json", []),
    ("page board", "/g/{id}/board.svg", ["submission", "ply"]),
    ("page canonical", "/g/{id}/canonical.txt", ["submission"]),
    ("page live board", "/g/{id}/live.svg", []),
    ("public tournament", "/t/{slug}/", []),
    ("public round", "/t/{slug}/round/{n}/", []),
    ("public standings", "/t/{slug}/standings/", ["format", "page", "round"]),
    ("public crosstable", "/t/{slug}/crosstable/", []),
    ("public crosstable csv", "/t/{slug}/crosstable.csv", []),
    ("public crosstable json", "/t/{slug}/crosstable.json", []),
    ("public bracket", "/t/{slug}/bracket/", []),
    ("public player", "/p/{id}/", []),
    ("public player calendar", "/p/{id}/calendar.ics", []),
    ("public calendar", "/t/{slug}/calendar.ics", []),
    ("public rating pools", "/ratings/", []),
    ("public rating list", "/ratings/laws/", ["club", "federation", "page"]),
    ("public rating list csv", "/ratings/laws.csv", ["club", "federation"]),
    ("public rating list json", "/ratings/laws.json", ["club", "federation"]),
    ("public series list", "/series/", []),
    ("public series", "/series/fuzz-gp/", []),
    ("public series csv", "/series/fuzz-gp.csv", []),
    ("public series json", "/series/fuzz-gp.json", []),
    ("public club", "/clubs/{id}/", []),
    ("public club list", "/clubs/", []),
    ("my games", "/me/games/", []),
    ("arbiter check-in", A + "/check-in/", ["close", "slips"]),
    ("public display", "/t/{slug}/display/", ["rows"]),
    ("public live", "/t/{slug}/live/", []),
    ("account invite page", "/accounts/invite/{id}/", []),
    ("after login", "/accounts/home/", []),
]
JSON_VIEWS = [
    ("page sign", "/g/{id}/sign/", ["submission", "public_key", "signature"]),
    ("page key", "/keys/", ["public_key", "label"]),
]
# Mostly the chief arbiter, who reaches the deepest code; the others for the refusals.
WHO = st.sampled_from(["chief", "chief", "chief", "organizer", "player", None])


def baseline(w: World) -> dict[str, str]:
    """A valid value for each field the forms read: a fuzzed form is this with one or more
    fields replaced by something hostile, so that the hostile value gets past the others and
    reaches the code that reads it."""
    return {
        "player": str(w.players[0]),
        "game": str(w.game),
        "penalty": str(w.penalty),
        "submission": str(w.submission),
        "kind": "warning",
        "reason": "fuzz",
        "round_number": "3",
        "rank": "2",
        "result": "draw",
        "side": "green",
        "seconds": "60",
        "article": "12.5",
        "from_ply": "1",
        "scheduled": "2026-11-22T10:00",
        "green_arrival": "2026-11-22T10:05",
        "gold_arrival": "",
        "starts_at": "2026-11-22 10:00",
        "place": "Hall",
        "opens_at": "2026-11-22 09:00",
        "closes_at": "2026-11-22 10:00",
        "present": "1",
        "confirm": "1",
        "name": "Fuzz",
        "rating": "1500",
        "club": "Fuzz Club",
        "federation": "ITA",
        "account": "fuzz-player",
        "chief_arbiter": "fuzz-chief",
        "arbiters": "fuzz-chief",
        "board-1-first": str(w.players[0]),
        "board-1-second": str(w.players[2]),
        "board-2-first": str(w.players[1]),
        "board-2-second": str(w.players[3]),
        "amount": "30",
        "text": '[Event "x"]\n\n',
        "public_key": "k",
        "signature": "s",
        "ply": "1",
        "email": "fuzz-invite@example.org",
        "new_password1": "a-long-pass-phrase-1",
        "new_password2": "a-long-pass-phrase-1",
    }


def hostile_form(w: World, fields: list[str], draw: Any) -> dict[str, str]:
    base = baseline(w)
    form = {f: base[f] for f in fields if f in base}
    if fields:
        bad = draw(st.lists(st.sampled_from(fields), min_size=1, max_size=3, unique=True))
        for f in bad:
            form[f] = draw(HOSTILE, label=f)
    return form


HOSTILE = st.one_of(
    st.sampled_from(SPECIAL),
    st.sampled_from(["²", "³", "¹", "1²", "٣", "𝟙", "\x00", "a\x00b", "2026-02-30T10:00"]),
    UNICODE_DIGITS,
    INTS,
    TEXT,
    HUGE,
)


def path_of(template: str, w: World, draw: Any) -> str:
    """The route's path with the world's ids, or odd ones the converters still accept."""
    real = st.sampled_from([w.game, w.game, w.draft_game, *w.players, w.penalty, w.submission])
    ids = st.one_of(real, real, real, st.integers(0, 2**70))
    return template.format(
        slug=w.slug,
        id=draw(ids),
        n=draw(st.one_of(st.sampled_from([1, 2, 3]), st.integers(0, 2**70))),
    )


# One client for every request: each new client loads the middleware again, and
# WhiteNoise's start-up reads every static file's metadata (a fifth of this file's time).
_CLIENT = Client(raise_request_exception=False)


def send(w: World, route: str, who: str | None, call: Any) -> None:
    """One request inside a savepoint rolled back after it: every example starts from the
    same world."""
    client = _CLIENT
    client.cookies.clear()
    if who is not None:
        client.cookies[django_settings.SESSION_COOKIE_NAME] = w.sessions[who]
    TRIED[route] += 1
    with transaction.atomic():
        resp = call(client)
        transaction.set_rollback(True)
    if resp.status_code >= 500:
        SERVER_ERRORS.append(route)
    assert resp.status_code < 500, f"{route} as {who}: {resp.status_code}"


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


@pytest.mark.parametrize(("route", "template", "fields"), FORMS, ids=[f[0] for f in FORMS])
@FUZZ
@given(data=st.data())
def test_form_views_never_answer_500(world, route, template, fields, data) -> None:
    path = path_of(template, world, data.draw)
    if data.draw(st.booleans(), label="one field at a time"):
        form = hostile_form(world, fields, data.draw)
    else:
        optional = {f: values(world.ids) for f in fields}
        form = data.draw(st.fixed_dictionaries({}, optional=optional), label="form")
    upload = data.draw(st.one_of(st.none(), st.binary(max_size=300)), label="file")
    who = data.draw(WHO, label="who")

    def call(client: Client) -> Any:
        body: dict[str, Any] = dict(form)
        if upload is not None:
            body["file"] = io.BytesIO(upload)
            body["file"].name = "fuzz.kzr"
        return client.post(path, body)

    send(world, route, who, call)


# Every class of the probes, each sent in every field of every form (as the chief
# arbiter, the others left valid): the random search above explores, this sweep guarantees.
TARGETED = [
    "²",
    "1²",
    "١",
    "-1",
    "0",
    "32768",
    "99999999",
    "9" * 30,
    "1e12",
    "NaN",
    "\x00",
    "a\x00b",
    "\x1b",
    "2026-02-30T10:00",
    "2026-02-30",
    "x" * 5000,
    "",
]


@pytest.mark.slow  # about a minute and a half: out of `make test-fast`
@pytest.mark.parametrize(("route", "template", "fields"), FORMS, ids=[f[0] for f in FORMS])
def test_every_field_of_every_form_with_every_probe(world, route, template, fields) -> None:
    base = baseline(world)
    valid = {f: base[f] for f in fields if f in base}
    ids = {"slug": world.slug, "id": world.game, "n": 2 if "round" in template else 1}
    path = template.format(**ids)
    for field in fields or ["-"]:
        for value in TARGETED:
            form = {**valid, field: value} if fields else {}
            send(world, route, "chief", lambda client, form=form: client.post(path, form))
        if not fields:
            break


def test_records_upload_page_never_answers_500(world) -> None:
    """The bulk upload's form (a file only) with records whose tags are odd."""

    @FUZZ
    @given(
        tags=st.dictionaries(
            st.sampled_from(["Round", "Green", "Gold", "FirstPlacement", "Event"]),
            values(world.ids),
            max_size=4,
        ),
        who=WHO,
    )
    def run(tags: dict[str, str], who: str | None) -> None:
        text = "".join(f'[{k} "{v[:200]}"]\n' for k, v in tags.items()) + "\n"

        def call(client: Client) -> Any:
            f = io.BytesIO(text.encode("utf-8", "surrogatepass"))
            f.name = "r.kzr"
            return client.post(A.format(slug=world.slug) + "/records/", {"file": f})

        send(world, "arbiter records upload", who, call)

    run()


@pytest.mark.parametrize(("route", "template", "fields"), READS, ids=[r[0] for r in READS])
@FUZZ
@given(data=st.data())
def test_read_views_never_answer_500(world, route, template, fields, data) -> None:
    path = path_of(template, world, data.draw)
    value = values(world.ids)
    query = data.draw(st.fixed_dictionaries({}, optional={f: value for f in fields}))
    if fields and data.draw(st.booleans()):
        query = hostile_form(world, fields, data.draw)
    who = data.draw(WHO, label="who")
    send(world, route, who, lambda client: client.get(path, query))


def json_bodies(fields: list[str], ids: list[int]) -> st.SearchStrategy[bytes]:
    obj = st.fixed_dictionaries(
        {}, optional={f: st.one_of(values(ids), HOSTILE, JSON_VALUE) for f in fields}
    ).map(lambda d: json.dumps(d).encode())
    deep = st.integers(20, 200_000).map(lambda n: ("[" * n + "]" * n).encode())
    deep_objects = st.integers(20, 50_000).map(
        lambda n: ('{"submission":' * n + "1" + "}" * n).encode()
    )
    other = JSON_VALUE.map(lambda v: json.dumps(v).encode())
    return st.one_of(obj, deep, deep_objects, other, st.binary(max_size=200))


@pytest.mark.parametrize(
    ("route", "template", "fields"), JSON_VIEWS, ids=[j[0] for j in JSON_VIEWS]
)
@FUZZ
@given(data=st.data())
def test_json_views_never_answer_500(world, route, template, fields, data) -> None:
    path = path_of(template, world, data.draw)
    body = data.draw(json_bodies(fields, world.ids), label="body")
    who = data.draw(WHO, label="who")
    send(
        world,
        route,
        who,
        lambda client: client.post(path, body, content_type="application/json"),
    )


def test_the_fuzz_reaches_every_page_route() -> None:
    """A new page route must be fuzzed too: every name under arbiter: and games: and the
    public pages is in one of the tables above."""
    from django.urls import get_resolver

    names: set[str] = set()

    def walk(patterns: Any, ns: str = "") -> None:
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, f"{ns}{p.namespace}:" if p.namespace else ns)
            elif p.name:
                names.add(ns + p.name)

    walk(get_resolver().url_patterns)
    pages = {n for n in names if n.startswith(("arbiter:", "games:", "tournaments:"))}
    pages |= {
        "my-games",
        "my-bye",
        "my-withdrawal",
        "player-invite",
        "password_reset",
        "password_reset_confirm",
        "after-login",
    }
    fuzzed = {r for r, _, _ in FORMS + READS + JSON_VIEWS} | {"arbiter records upload"}
    by_name = {
        "arbiter:new": "arbiter new",
        "arbiter:trf-import": "arbiter trf import",
        "arbiter:settings": "arbiter settings",
        "arbiter:officials": "arbiter officials",
        "arbiter:entrant-add": "arbiter entrant",
        "arbiter:withdraw": "arbiter withdraw",
        "arbiter:withdraw-undo": "arbiter withdraw undo",
        "arbiter:entrants-bulk": "arbiter entrants bulk",
        "arbiter:players-merge": "arbiter players merge",
        "arbiter:export-trf": "arbiter export trf",
        "arbiter:start-ranks": "arbiter start ranks",
        "arbiter:bye-request": "arbiter bye",
        "arbiter:account": "arbiter account",
        "arbiter:records-upload": "arbiter records upload",
        "arbiter:pair": "arbiter pair",
        "arbiter:pairing-job": "arbiter pairing job",
        "arbiter:time-control": "arbiter time control",
        "arbiter:round": "arbiter round",
        "arbiter:round-edit": "arbiter edit",
        "arbiter:results": "arbiter results",
        "arbiter:round-publish": "arbiter publish",
        "arbiter:round-discard": "arbiter discard",
        "arbiter:round-unpublish": "arbiter unpublish",
        "arbiter:round-schedule": "arbiter schedule",
        "arbiter:result": "arbiter result",
        "arbiter:from-record": "arbiter from record",
        "arbiter:record-disagreement": "arbiter record disagreement",
        "arbiter:record-requeue": "arbiter record requeue",
        "arbiter:countersign": "arbiter countersign",
        "arbiter:timeout": "arbiter timeout",
        "arbiter:irregularity": "arbiter irregularity",
        "arbiter:penalty": "arbiter penalty",
        "arbiter:revoke": "arbiter revoke",
        "arbiter:audit": "arbiter audit",
        "arbiter:manage": "arbiter manage",
        "arbiter:dashboard": "arbiter manage",
        "games:detail": "page game",
        "games:submit": "page submit",
        "games:status": "page status",
        "games:board": "page board",
        "games:canonical": "page canonical",
        "games:live-board": "page live board",
        "games:sign": "page sign",
        "games:confirm": "page confirm",
        "games:clock": "page clock",
        "games:latecomers": "page latecomers",
        "games:clock-revoke": "page clock revoke",
        "games:keys": "page key",
        "tournaments:home": "public tournament",
        "tournaments:detail": "public tournament",
        "tournaments:round": "public round",
        "tournaments:standings": "public standings",
        "tournaments:crosstable": "public crosstable",
        "tournaments:crosstable-csv": "public crosstable csv",
        "tournaments:crosstable-json": "public crosstable json",
        "tournaments:bracket": "public bracket",
        "tournaments:player": "public player",
        "tournaments:ratings": "public rating pools",
        "tournaments:rating-list": "public rating list",
        "tournaments:rating-list-csv": "public rating list csv",
        "tournaments:rating-list-json": "public rating list json",
        "tournaments:series-list": "public series list",
        "tournaments:series": "public series",
        "tournaments:series-csv": "public series csv",
        "tournaments:series-json": "public series json",
        "tournaments:series-accept": "page series accept",
        "tournaments:series-decline": "page series decline",
        "tournaments:series-remove": "page series remove",
        "tournaments:club-list": "public club list",
        "tournaments:series-new": "page series new",
        "tournaments:player-edit": "page player edit",
        "tournaments:club": "public club",
        "my-games": "my games",
        "arbiter:check-in": "arbiter check-in",
        "arbiter:check-in-window": "arbiter check-in window",
        "arbiter:check-in-set": "arbiter check-in set",
        "arbiter:check-in-close": "arbiter check-in close",
        "tournaments:check-in": "page check in by link",
        "tournaments:check-in-mine": "page check in",
        "tournaments:display": "public display",
        "tournaments:live": "public live",
        "my-bye": "my bye",
        "my-withdrawal": "my withdrawal",
        "tournaments:calendar": "public calendar",
        "tournaments:player-calendar": "public player calendar",
        "player-invite": "account invite",
        "password_reset": "password reset",
        "password_reset_confirm": "password set",
        "after-login": "after login",
    }
    missing = sorted(n for n in pages if by_name.get(n) not in fuzzed)
    assert not missing, f"page routes the fuzz does not reach: {missing}"


def test_a_fuzzed_request_leaves_the_world_as_it_was(world) -> None:
    """The savepoint around each request really rolls back (else later examples would see
    earlier ones' writes and the fuzz would drift)."""
    before = (Penalty.objects.count(), Round.objects.count(), RecordSubmission.objects.count())

    def call(client: Client) -> Any:
        return client.post(
            A.format(slug=world.slug) + "/penalties/",
            {"player": world.players[0], "kind": "warning", "reason": "fuzz"},
        )

    send(world, "arbiter penalty", "chief", call)
    after = (Penalty.objects.count(), Round.objects.count(), RecordSubmission.objects.count())
    assert after == before
