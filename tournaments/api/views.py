"""Views of the tournaments' REST API: clubs, players, tournaments (settings, entrants,
rounds, pairing, officials, penalties, audit) and games' results. The games app adds the
record actions to the same resources."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseBase
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from klinzha_site.page_cache import page_serve
from klinzha_site.parsing import ascii_int_or_none
from tournaments import page_selectors, pairing_selectors, selectors, services
from tournaments.api.serializers import (
    AccountSerializer,
    AuditSerializer,
    ByeRequestSerializer,
    ClubSerializer,
    EntrantSerializer,
    ForbiddenPairSerializer,
    GameSerializer,
    OfficialsSerializer,
    PairingEditSerializer,
    PairSerializer,
    PenaltySerializer,
    PlayerPairSerializer,
    PlayerSerializer,
    RegistrationSerializer,
    ResultSerializer,
    RevocationSerializer,
    RoundNumberSerializer,
    RoundSerializer,
    ScheduleSerializer,
    SpindleChoiceSerializer,
    StartRankSerializer,
    TournamentSerializer,
    WithdrawalSerializer,
)
from tournaments.models import (
    Club,
    Game,
    PairingJob,
    Penalty,
    Player,
    Registration,
    Round,
    Tournament,
)
from tournaments.permissions import (
    OfficialWriteOrReadOnly,
    OrganizerWriteOrReadOnly,
    game_visible_get,
)
from tournaments.roles import Role, role_require, user_can_arbitrate
from tournaments.standings import standings_json

User = get_user_model()

# The rounds list's opt-in paging: without these parameters it is every round, as always.
ROUNDS_PAGING = [
    OpenApiParameter(
        "round",
        OpenApiTypes.INT,
        description="only this round (a list of one round, or empty when it is not published)",
    ),
    OpenApiParameter(
        "limit",
        OpenApiTypes.INT,
        description=f"at most this many rounds (1 to {100}), in order; when more follow, the "
        'response\'s `Link` header names the next page (rel="next")',
    ),
    OpenApiParameter(
        "cursor",
        OpenApiTypes.INT,
        description="the rounds after this round number (from the `Link` header of the page "
        "before)",
    ),
]
ROUNDS_LIMIT_MAX = 100


def _query_key(request: Request, params: Sequence[str]) -> str:
    text = "&".join(f"{p}={request.query_params.get(p, '')}" for p in params)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest() if text else "-"


def _published(
    view: Any,
    request: Request,
    page: str,
    body: Callable[[Tournament], Response],
    params: Sequence[str] = (),
    audited: bool = False,
) -> Response | HttpResponseBase:
    """A tournament's published JSON from the cache while its version stands (reading the
    version is the one query of a hit; the tournament itself is read on a miss). The
    browsable API's HTML carries the user and a CSRF token: it is rendered each time."""
    known = {*params, "format"}
    if request.accepted_renderer.format != "json" or not set(request.query_params) <= known:
        return body(view.get_object())
    version = page_selectors.tournament_page_version_get(slug=view.kwargs["slug"], audited=audited)
    if version is None:
        raise NotFound("No Tournament matches the given query.")
    stamp, validator = version

    def render() -> Response:
        response = body(view.get_object())
        response.accepted_renderer = request.accepted_renderer
        response.accepted_media_type = request.accepted_media_type
        response.renderer_context = view.get_renderer_context()
        return response.render()

    key = f"{stamp}:api-{page}:{_query_key(request, sorted(known))}"
    return page_serve(request._request, key=key, render=render, validator=validator)


class ClubViewSet(viewsets.ModelViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [OfficialWriteOrReadOnly]
    http_method_names = ["get", "post", "head", "options"]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.club_create(
            user=self.request.user, **serializer.validated_data
        )


class PlayerViewSet(viewsets.ModelViewSet):
    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    permission_classes = [OfficialWriteOrReadOnly]
    http_method_names = ["get", "post", "head", "options"]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.player_create(
            user=self.request.user, **serializer.validated_data
        )

    @extend_schema(request=AccountSerializer, responses={200: None})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def account(self, request: Request, pk: str | None = None) -> Response:
        """Link the player to a user account by username (blank unlinks)."""
        player = get_object_or_404(Player, pk=pk)
        data = AccountSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        name = data.validated_data["username"]
        account = None
        if name:
            account = User.objects.filter(username=name).first()
            if account is None:
                raise ValidationError({"username": gettext("no user %(name)r") % {"name": name}})
        player = services.player_link_user(player=player, account=account, user=request.user)
        return Response({"player": player.pk, "username": name or None})


class TournamentViewSet(viewsets.ModelViewSet):
    queryset = Tournament.objects.all()
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self) -> list[Any]:
        if self.action == "create":
            return [OrganizerWriteOrReadOnly()]
        return [permissions.IsAuthenticatedOrReadOnly()]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.tournament_create(
            organizer=self.request.user, **serializer.validated_data
        )

    def perform_update(self, serializer: Any) -> None:
        serializer.instance = services.tournament_update(
            tournament=serializer.instance, user=self.request.user, **serializer.validated_data
        )

    @extend_schema(responses={200: None})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str | None = None) -> Any:
        def body(t: Tournament) -> Response:
            rows = selectors.standings_compute(tournament=t)
            return Response(standings_json(rows, t.tiebreak_list, extended=True))

        return _published(self, request, "standings", body)

    @extend_schema(responses={200: None})
    @action(detail=True, methods=["get"])
    def crosstable(self, request: Request, slug: str | None = None) -> Any:
        return _published(
            self,
            request,
            "crosstable",
            lambda t: Response(selectors.crosstable_json(tournament=t)),
            audited=True,  # it publishes the audit trail's head
        )

    @extend_schema(parameters=ROUNDS_PAGING, responses={200: RoundSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request: Request, slug: str | None = None) -> Any:
        """The published rounds with their games; every round unless `round`, or `limit` and
        `cursor`, ask for some (the same list, shorter)."""
        q = request.query_params
        number = ascii_int_or_none(q.get("round") or None, field="round", lo=1, hi=10_000)
        limit = ascii_int_or_none(q.get("limit") or None, field="limit", lo=1, hi=ROUNDS_LIMIT_MAX)
        after = ascii_int_or_none(q.get("cursor") or None, field="cursor", lo=0, hi=10_000)

        def body(t: Tournament) -> Response:
            rounds = selectors.round_list(tournament=t)
            if number is not None:
                rounds = rounds.filter(number=number)
            if after is not None:
                rounds = rounds.filter(number__gt=after)
            if limit is None:
                return Response(RoundSerializer(rounds, many=True).data)
            page = list(rounds[: limit + 1])
            response = Response(RoundSerializer(page[:limit], many=True).data)
            if len(page) > limit:
                # Relative (RFC 8288 allows it): the cached header holds no host name.
                nxt = f"{request.path}?limit={limit}&cursor={page[limit - 1].number}" + (
                    f"&round={number}" if number is not None else ""
                )
                response["Link"] = f'<{nxt}>; rel="next"'
            return response

        return _published(self, request, "rounds", body, ("round", "limit", "cursor"))

    @extend_schema(
        request=RegistrationSerializer,
        responses={201: None, 200: EntrantSerializer(many=True)},
    )
    @action(detail=True, methods=["get", "post"])
    def registrations(self, request: Request, slug: str | None = None) -> Response:
        """The entrants by start rank (GET); register a player (POST)."""
        t = self.get_object()
        if request.method == "GET":
            return Response(EntrantSerializer(selectors.entrant_list(tournament=t), many=True).data)
        data = RegistrationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_create(
            tournament=t, player=data.validated_data["player"], user=request.user
        )
        return Response(
            {"player": reg.player_id, "first_round": reg.first_round, "start_rank": reg.start_rank},
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=StartRankSerializer, responses={200: EntrantSerializer(many=True)})
    @action(detail=True, methods=["post"], url_path="start-ranks")
    def start_ranks(self, request: Request, slug: str | None = None) -> Response:
        """Seed the entrants again by rating (`sort`), or move one to a start rank; until
        round 1 is paired (409 after)."""
        t = self.get_object()
        data = StartRankSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["sort"]:
            services.start_ranks_sort(tournament=t, user=request.user)
        else:
            services.start_rank_move(
                registration=self._registration(t, data.validated_data["player"]),
                rank=data.validated_data["rank"],
                user=request.user,
            )
        return Response(EntrantSerializer(selectors.entrant_list(tournament=t), many=True).data)

    def _registration(self, t: Tournament, player: Player) -> Registration:
        reg = Registration.objects.filter(tournament=t, player=player).first()
        if reg is None:
            raise ValidationError({"player": gettext("not registered in this tournament")})
        return reg

    @extend_schema(request=WithdrawalSerializer, responses={200: None})
    @action(detail=True, methods=["post"])
    def withdrawals(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = WithdrawalSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_withdraw(
            registration=self._registration(t, data.validated_data["player"]),
            user=request.user,
            expelled=data.validated_data["expelled"],
        )
        return Response(
            {"player": reg.player_id, "status": reg.status, "last_round": reg.last_round}
        )

    @extend_schema(request=ByeRequestSerializer, responses={201: None, 200: None})
    @action(detail=True, methods=["get", "post"], url_path="bye-requests")
    def bye_requests(self, request: Request, slug: str | None = None) -> Response:
        """The requested byes (GET); request one for a round not yet paired (POST)."""
        t = self.get_object()
        if request.method == "GET":
            return Response(selectors.bye_request_list(tournament=t))
        data = ByeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bye = services.bye_request_create(
            registration=self._registration(t, data.validated_data["player"]),
            round_number=data.validated_data["round"],
            user=request.user,
        )
        return Response(
            {"player": bye.registration.player_id, "round": bye.round_number},
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=ByeRequestSerializer, responses={200: None})
    @action(detail=True, methods=["post"], url_path="bye-requests/cancel")
    def bye_request_cancel(self, request: Request, slug: str | None = None) -> Response:
        """Cancel a requested bye of a round not yet paired (409 once it is)."""
        t = self.get_object()
        data = ByeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        cancelled = services.bye_request_cancel(
            registration=self._registration(t, data.validated_data["player"]),
            round_number=data.validated_data["round"],
            user=request.user,
        )
        return Response({"cancelled": cancelled})

    @extend_schema(request=WithdrawalSerializer, responses={200: None})
    @action(detail=True, methods=["post"], url_path="withdrawal-undo")
    def withdrawal_undo(self, request: Request, slug: str | None = None) -> Response:
        """Take a withdrawal back while no round was paired since (409 otherwise)."""
        t = self.get_object()
        data = WithdrawalSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_withdrawal_undo(
            registration=self._registration(t, data.validated_data["player"]), user=request.user
        )
        return Response({"player": reg.player_id, "status": reg.status})

    @extend_schema(
        request=PlayerPairSerializer, responses={200: ForbiddenPairSerializer(many=True)}
    )
    @action(detail=True, methods=["get", "post"], url_path="forbidden-pairs")
    def forbidden_pairs(self, request: Request, slug: str | None = None) -> Response:
        """Pairs the pairing must not put together (TRF XXP): list (GET), add (POST)."""
        return self._forbidden_pairs(request, services.forbidden_pair_create)

    @extend_schema(
        request=PlayerPairSerializer, responses={200: ForbiddenPairSerializer(many=True)}
    )
    @action(detail=True, methods=["post"], url_path="forbidden-pairs/remove")
    def forbidden_pair_remove(self, request: Request, slug: str | None = None) -> Response:
        """Let two entrants meet again."""
        return self._forbidden_pairs(request, services.forbidden_pair_delete)

    def _forbidden_pairs(self, request: Request, change: Any) -> Response:
        t = self.get_object()
        if request.method == "POST":
            data = PlayerPairSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            change(tournament=t, user=request.user, **data.validated_data)
        rows = t.forbidden_pairs.select_related("first", "second")
        return Response(ForbiddenPairSerializer(rows, many=True).data)

    @extend_schema(request=ScheduleSerializer, responses={200: None})
    @action(detail=True, methods=["post"])
    def schedule(self, request: Request, slug: str | None = None) -> Response:
        """A round's scheduled start and place (Art. 6.8, 6.9 count lateness from it)."""
        t = self.get_object()
        data = ScheduleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_schedule(
            round=self._round(t, data.validated_data["round"]),
            starts_at=data.validated_data["starts_at"],
            place=data.validated_data["place"],
            user=request.user,
        )
        return Response({"round": rnd.number, "starts_at": rnd.starts_at, "place": rnd.place})

    @extend_schema(request=PairSerializer, responses={201: RoundSerializer})
    @action(detail=True, methods=["post"])
    def pair(self, request: Request, slug: str | None = None) -> Response:
        """Pair the next round; unpublished (a proposal) unless `publish` is true."""
        t = self.get_object()
        data = PairSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["background"]:
            job = services.pairing_job_create(tournament=t, user=request.user)
            return Response(
                pairing_selectors.pairing_job_state(job=job), status=status.HTTP_202_ACCEPTED
            )
        rnd = services.round_pair(
            tournament=t,
            user=request.user,
            round_number=data.validated_data.get("round"),
            publish=data.validated_data["publish"],
        )
        rnd = selectors.round_list(tournament=t, drafts=True).get(pk=rnd.pk)
        return Response(RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: None})
    @action(detail=True, methods=["get"], url_path=r"pairing-jobs/(?P<job_id>\d+)")
    def pairing_job(self, request: Request, slug: str | None = None, job_id: str = "") -> Response:
        """A background pairing's status and progress (percent)."""
        t = self.get_object()
        if not user_can_arbitrate(user=request.user, tournament=t):
            raise PermissionDenied(gettext("only this tournament's arbiters follow its pairings"))
        job = get_object_or_404(PairingJob, pk=int(job_id), tournament=t)
        return Response(pairing_selectors.pairing_job_state(job=job))

    def _round(self, t: Tournament, number: int) -> Round:
        rnd = Round.objects.filter(tournament=t, number=number).first()
        if rnd is None:
            raise ValidationError({"round": gettext("no round %(number)s") % {"number": number}})
        return rnd

    @extend_schema(request=PairingEditSerializer, responses={200: None})
    @action(detail=True, methods=["post"], url_path="edit-pairings")
    def edit_pairings(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = PairingEditSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pairings = []
        for first, second in data.validated_data["pairings"]:
            if first is None:
                raise ValidationError({"pairings": gettext("the first placer cannot be empty")})
            pairings.append((first, second))
        warnings = services.round_pairings_edit(
            round=self._round(t, data.validated_data["round"]),
            pairings=pairings,
            user=request.user,
        )
        return Response({"warnings": warnings})

    @extend_schema(request=RoundNumberSerializer, responses={200: None})
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = RoundNumberSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_publish(
            round=self._round(t, data.validated_data["round"]), user=request.user
        )
        return Response({"round": rnd.number, "status": rnd.status})

    @extend_schema(request=RoundNumberSerializer, responses={200: None})
    @action(detail=True, methods=["post"])
    def unpublish(self, request: Request, slug: str | None = None) -> Response:
        """Take the last published round back to a proposal while it has no result (409
        otherwise); then edit it, or discard it and pair again."""
        t = self.get_object()
        data = RoundNumberSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_unpublish(
            round=self._round(t, data.validated_data["round"]), user=request.user
        )
        return Response({"round": rnd.number, "status": rnd.status})

    @extend_schema(request=RoundNumberSerializer, responses={200: None})
    @action(detail=True, methods=["post"])
    def discard(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = RoundNumberSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        number = services.round_discard(
            round=self._round(t, data.validated_data["round"]), user=request.user
        )
        return Response({"discarded": number})

    @extend_schema(request=OfficialsSerializer, responses={200: None})
    @action(detail=True, methods=["post"])
    def officials(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = OfficialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        t = services.officials_set(
            tournament=t,
            user=request.user,
            chief_arbiter=data.validated_data.get("chief_arbiter"),
            arbiters=data.validated_data.get("arbiters", []),
        )
        return Response(
            {
                "chief_arbiter": t.chief_arbiter.get_username() if t.chief_arbiter else None,
                "arbiters": sorted(a.get_username() for a in t.arbiters.all()),
            }
        )

    @extend_schema(request=PenaltySerializer, responses={200: PenaltySerializer(many=True)})
    @action(detail=True, methods=["get", "post"])
    def penalties(self, request: Request, slug: str | None = None) -> Response:
        """Arbiters see and impose penalties; a player sees their own."""
        t = self.get_object()
        if request.method == "GET":
            rows = selectors.penalty_list(tournament=t, user=request.user)
            return Response(PenaltySerializer(rows, many=True).data)
        data = PenaltySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        penalty = services.penalty_impose(
            tournament=t,
            player=v["player"],
            kind=v["kind"],
            reason=v["reason"],
            user=request.user,
            game=v.get("game"),
            round_number=v.get("round_number"),
            amount=v.get("amount"),
            from_ply=v.get("from_ply"),
        )
        return Response(PenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RevocationSerializer, responses={201: PenaltySerializer})
    @action(detail=True, methods=["post"])
    def revocations(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        # Who may ask first: an outsider learns nothing about which penalties exist (403).
        role_require(user=request.user, tournament=t, role=Role.ARBITER)
        data = RevocationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        penalty = Penalty.objects.filter(tournament=t, pk=data.validated_data["penalty"]).first()
        if penalty is None:
            raise ValidationError({"penalty": gettext("no such penalty in this tournament")})
        revocation = services.penalty_revoke(
            penalty=penalty, reason=data.validated_data["reason"], user=request.user
        )
        return Response(PenaltySerializer(revocation).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: AuditSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def audit(self, request: Request, slug: str | None = None) -> Response:
        """The tournament's audit trail: arbiters only."""
        t = self.get_object()
        if not user_can_arbitrate(user=request.user, tournament=t):
            raise PermissionDenied(
                gettext("only this tournament's arbiters may read its audit trail")
            )
        rows = t.audit.all()
        player = request.query_params.get("player", "")
        player_id = ascii_int_or_none(player, field="player")
        if player_id is not None:
            rows = selectors.audit_for_player(tournament=t, player_id=player_id)
        rows = list(rows)
        labels = selectors.audit_object_labels(entries=rows)
        return Response(AuditSerializer(rows, many=True, context={"labels": labels}).data)


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Game.objects.select_related("round").exclude(round__status=Round.Status.DRAFT)
    serializer_class = GameSerializer

    @extend_schema(request=ResultSerializer, responses={200: GameSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def result(self, request: Request, pk: str | None = None) -> Response:
        game = game_visible_get(pk=pk, user=request.user)
        data = ResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_result_set(
            game=game, result=data.validated_data["result"], user=request.user
        )
        return Response(GameSerializer(game).data)

    @extend_schema(request=SpindleChoiceSerializer, responses={200: GameSerializer})
    @action(
        detail=True,
        methods=["post"],
        url_path="spindle-choice",
        permission_classes=[permissions.IsAuthenticated],
    )
    def spindle_choice(self, request: Request, pk: str | None = None) -> Response:
        """Record the choice the combatants declared after the spindle cast (Art. 2.3); the
        first placer follows it."""
        game = game_visible_get(pk=pk, user=request.user)
        data = SpindleChoiceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_spindle_choose(
            game=game,
            chooser=data.validated_data["chooser"],
            placement=data.validated_data["placement"],
            user=request.user,
        )
        return Response(GameSerializer(game).data)

    @extend_schema(request=None, responses={200: GameSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def countersign(self, request: Request, pk: str | None = None) -> Response:
        """The second person's confirmation of an entered result."""
        game = game_visible_get(pk=pk, user=request.user)
        game = services.game_result_countersign(game=game, user=request.user)
        return Response(GameSerializer(game).data)
