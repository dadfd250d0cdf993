"""The API's rounds of a tournament: the published rounds, pairing (at once or in a
worker, and the job's progress), schedule, hand edits, publishing, taking back and
discarding a proposal; actions of the tournament resource."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from klinzha_site.parsing import SMALL_MAX, ascii_int_or_none
from tournaments import pairing_selectors, selectors, services
from tournaments.api.common import api_published, round_get
from tournaments.api.errors import errors
from tournaments.api.inputs import (
    PairingEditSerializer,
    PairSerializer,
    RoundNumberSerializer,
    RoundResultsSerializer,
    ScheduleSerializer,
)
from tournaments.api.outputs import (
    DiscardOutSerializer,
    PairingEditOutSerializer,
    PairingJobOutSerializer,
    RoundResultsOutSerializer,
    RoundStatusOutSerializer,
    ScheduleOutSerializer,
)
from tournaments.api.serializers import RoundSerializer
from tournaments.models import PairingJob, Round, Tournament
from tournaments.permissions import TournamentArbiter
from tournaments.roles import user_can_arbitrate

ROUNDS_LIMIT_MAX = 100
# What a write on a round can be refused with.
WRITE_ERRORS = errors(400, 401, 403, 404)
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
        description=f"at most this many rounds (1 to {ROUNDS_LIMIT_MAX}), in order; when more "
        'follow, the response\'s `Link` header names the next page (rel="next")',
    ),
    OpenApiParameter(
        "cursor",
        OpenApiTypes.INT,
        description="the rounds after this round number (from the `Link` header of the page "
        "before)",
    ),
]


# Actions of TournamentViewSet (tournaments.api.tournaments), on /api/tournaments/{slug}/.
# (No class docstring: drf-spectacular would take it for every tournament operation's
# description.)
class RoundActions(viewsets.GenericViewSet):
    @extend_schema(
        parameters=ROUNDS_PAGING, responses={200: RoundSerializer(many=True), **errors(400, 404)}
    )
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

        return api_published(
            view=self,
            request=request,
            page="rounds",
            body=body,
            params=("round", "limit", "cursor"),
        )

    @extend_schema(
        request=RoundResultsSerializer,
        parameters=[
            OpenApiParameter(
                "number", OpenApiTypes.INT, OpenApiParameter.PATH, description="the round"
            )
        ],
        responses={200: RoundResultsOutSerializer, **WRITE_ERRORS},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"rounds/(?P<number>[0-9]{1,5})/results",
        permission_classes=[TournamentArbiter],
    )
    def round_results(
        self, request: Request, slug: str | None = None, number: str = ""
    ) -> Response:
        """Enter a round's results at once (each game by board or id), in one transaction,
        under the rules of a single result: a refused row is named by its index with its
        field (400, every such row) and then nothing is stored. One audit entry a game
        whose result changes; the standings change once."""
        t = self.get_object()  # the role first: a batch is read only for the arbiters
        if int(number) > SMALL_MAX:
            raise Http404(gettext("no round %(number)s") % {"number": number})
        rnd = get_object_or_404(Round, tournament=t, number=int(number))
        data = RoundResultsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rows = [
            services.ResultRow(key=index, **row)
            for index, row in enumerate(data.validated_data["rows"])
        ]
        entered = services.round_results_enter(round=rnd, rows=rows, user=request.user)
        body = {"round": rnd.number, "entered": len(rows), "changed": len(entered.changed)}
        return Response(RoundResultsOutSerializer(body).data)

    @extend_schema(
        request=ScheduleSerializer, responses={200: ScheduleOutSerializer, **WRITE_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def schedule(self, request: Request, slug: str | None = None) -> Response:
        """A round's scheduled start and place (Art. 6.8, 6.9 count lateness from it); a round
        not yet paired keeps them until it is (up to the event's rounds)."""
        t = self.get_object()
        data = ScheduleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_schedule_ahead(
            tournament=t,
            number=data.validated_data["round"],
            starts_at=data.validated_data["starts_at"],
            place=data.validated_data["place"],
            user=request.user,
        )
        return Response(ScheduleOutSerializer(rnd).data)

    @extend_schema(
        request=PairSerializer,
        responses={
            201: RoundSerializer,
            202: OpenApiResponse(PairingJobOutSerializer, description="`background`: the job"),
            **errors(400, 401, 403, 404, 409),
        },
    )
    @action(detail=True, methods=["post"])
    def pair(self, request: Request, slug: str | None = None) -> Response:
        """Pair the next round; unpublished (a proposal) unless `publish` is true; in a
        worker with `background` (202, the job to follow)."""
        t = self.get_object()
        data = PairSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["background"]:
            job = services.pairing_job_create(tournament=t, user=request.user)
            state = pairing_selectors.pairing_job_state(job=job)
            return Response(PairingJobOutSerializer(state).data, status=status.HTTP_202_ACCEPTED)
        rnd = services.round_pair(
            tournament=t,
            user=request.user,
            round_number=data.validated_data.get("round"),
            publish=data.validated_data["publish"],
        )
        rnd = selectors.round_list(tournament=t, drafts=True).get(pk=rnd.pk)
        return Response(RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: PairingJobOutSerializer, **errors(403, 404)})
    @action(detail=True, methods=["get"], url_path=r"pairing-jobs/(?P<job_id>\d+)")
    def pairing_job(self, request: Request, slug: str | None = None, job_id: str = "") -> Response:
        """A background pairing's status and progress (percent)."""
        t = self.get_object()
        if not user_can_arbitrate(user=request.user, tournament=t):
            raise PermissionDenied(gettext("only this tournament's arbiters follow its pairings"))
        job = get_object_or_404(PairingJob, pk=int(job_id), tournament=t)
        state = pairing_selectors.pairing_job_state(job=job)
        return Response(PairingJobOutSerializer(state).data)

    @extend_schema(
        request=PairingEditSerializer, responses={200: PairingEditOutSerializer, **WRITE_ERRORS}
    )
    @action(detail=True, methods=["post"], url_path="edit-pairings")
    def edit_pairings(self, request: Request, slug: str | None = None) -> Response:
        """Replace a proposed round's pairings by hand; the rules the edit breaks come back
        as warnings (kept on the round) to weigh before publishing."""
        t = self.get_object()
        data = PairingEditSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pairings = []
        for first, second in data.validated_data["pairings"]:
            if first is None:
                raise ValidationError({"pairings": gettext("the first placer cannot be empty")})
            pairings.append((first, second))
        warnings = services.round_pairings_edit(
            round=round_get(tournament=t, number=data.validated_data["round"]),
            pairings=pairings,
            user=request.user,
        )
        return Response(PairingEditOutSerializer({"warnings": warnings}).data)

    @extend_schema(
        request=RoundNumberSerializer, responses={200: RoundStatusOutSerializer, **WRITE_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, slug: str | None = None) -> Response:
        """Publish a proposed round: its pairings are shown and its games played."""
        t = self.get_object()
        data = RoundNumberSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_publish(
            round=round_get(tournament=t, number=data.validated_data["round"]), user=request.user
        )
        return Response(RoundStatusOutSerializer(rnd).data)

    @extend_schema(
        request=RoundNumberSerializer,
        responses={200: RoundStatusOutSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def unpublish(self, request: Request, slug: str | None = None) -> Response:
        """Take the last published round back to a proposal while it has no result (409
        otherwise); then edit it, or discard it and pair again."""
        t = self.get_object()
        data = RoundNumberSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_unpublish(
            round=round_get(tournament=t, number=data.validated_data["round"]), user=request.user
        )
        return Response(RoundStatusOutSerializer(rnd).data)

    @extend_schema(
        request=RoundNumberSerializer, responses={200: DiscardOutSerializer, **WRITE_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def discard(self, request: Request, slug: str | None = None) -> Response:
        """Throw away the last round while it is a proposal, so that it can be paired
        again."""
        t = self.get_object()
        data = RoundNumberSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        number = services.round_discard(
            round=round_get(tournament=t, number=data.validated_data["round"]), user=request.user
        )
        return Response(DiscardOutSerializer({"discarded": number}).data)
