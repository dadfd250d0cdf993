"""The API's series: make one (POST /api/series/), read it and its standings, add or remove
an event, and the consent or refusal of an invited event's organizer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import services
from tournaments.api.errors import errors
from tournaments.models import Series, SeriesEvent, Tournament
from tournaments.ratings.pools import POOLS
from tournaments.series_selectors import series_events, series_json, series_table


class CategoryInSerializer(serializers.Serializer):
    """A rating band (`low` <= rating at the series' start < `high`; either may be left
    out) or, with `players` (their ids), a named group such as juniors."""

    name = serializers.CharField(max_length=60)
    low = serializers.IntegerField(min_value=0, max_value=4000, required=False, allow_null=True)
    high = serializers.IntegerField(min_value=0, max_value=4000, required=False, allow_null=True)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
        required=False,
        max_length=1000,
    )


class SeriesInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    slug = serializers.SlugField(max_length=80)
    events = serializers.ListField(
        child=serializers.SlugField(max_length=80),
        max_length=100,
        required=False,
        help_text="the events' slugs: yours join at once, another organizer's are invited",
    )
    scoring = serializers.ChoiceField(choices=Series.Scoring.choices, default="placing")
    points_table = serializers.ListField(
        child=serializers.FloatField(min_value=0, max_value=10000),
        max_length=200,
        required=False,
        help_text="the points of places 1, 2, ... (scoring per placing); 0 beyond the table",
    )
    best_of = serializers.IntegerField(
        min_value=1, max_value=100, required=False, allow_null=True, help_text="best N counted"
    )
    pool = serializers.ChoiceField(choices=list(POOLS), required=False)
    starts_on = serializers.DateField(required=False)
    categories = CategoryInSerializer(many=True, required=False, max_length=50)


class SeriesEventSerializer(serializers.Serializer):
    slug = serializers.CharField(source="tournament.slug")
    name = serializers.CharField(source="tournament.name")
    status = serializers.ChoiceField(choices=SeriesEvent.Status.choices)


class SeriesOutSerializer(serializers.ModelSerializer):
    events = serializers.SerializerMethodField()

    class Meta:
        model = Series
        fields = ["name", "slug", "scoring", "points_table", "best_of", "pool", "starts_on",
                  "events"]  # fmt: skip

    def get_events(self, obj: Series) -> list[dict[str, Any]]:
        found = series_events(series=obj, accepted_only=False)
        return list(SeriesEventSerializer(found, many=True).data)


class SeriesEventSlugSerializer(serializers.Serializer):
    event = serializers.SlugField(max_length=80)


class SeriesResultSerializer(serializers.Serializer):
    event = serializers.CharField()
    place = serializers.IntegerField()
    shared = serializers.IntegerField(help_text="how many share the place")
    points = serializers.FloatField()
    counted = serializers.BooleanField(help_text="among the best N")


class SeriesLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    total = serializers.FloatField()
    played = serializers.IntegerField()
    best = serializers.FloatField()
    playoff = serializers.BooleanField(help_text="tied after every tie-break: a play-off")
    results = SeriesResultSerializer(many=True)


class SeriesCategoryOutSerializer(serializers.Serializer):
    name = serializers.CharField()
    standings = SeriesLineSerializer(many=True)


class SeriesStandingsEventSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    start_date = serializers.CharField()


class SeriesStandingsSerializer(serializers.Serializer):
    series = serializers.CharField()
    name = serializers.CharField()
    scoring = serializers.CharField()
    points_table = serializers.ListField(child=serializers.FloatField())
    best_of = serializers.IntegerField(allow_null=True)
    events = SeriesStandingsEventSerializer(many=True)
    standings = SeriesLineSerializer(many=True)
    categories = SeriesCategoryOutSerializer(many=True)


class SignedInWrite(permissions.BasePermission):
    """Reads for everyone; writes signed in (the services say who may)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


class SeriesViewSet(viewsets.GenericViewSet):
    """Series of events (docs/series.md): the standings sum each player's best N results."""

    queryset = Series.objects.all()
    lookup_field = "slug"
    permission_classes = [SignedInWrite]
    serializer_class = SeriesOutSerializer

    def list(self, request: Request) -> Response:
        """Every series by name, paged (limit and offset, as every list of the API)."""
        page = self.paginate_queryset(self.get_queryset().order_by("name", "pk"))
        return self.get_paginated_response(SeriesOutSerializer(page, many=True).data)

    @extend_schema(responses={200: SeriesOutSerializer, **errors(404)})
    def retrieve(self, request: Request, slug: str | None = None) -> Response:
        return Response(SeriesOutSerializer(self.get_object()).data)

    @extend_schema(
        request=SeriesInSerializer, responses={201: SeriesOutSerializer, **errors(400, 401, 403)}
    )
    def create(self, request: Request) -> Response:
        """Make a series: organizers only."""
        data = SeriesInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        slugs = fields.pop("events", [])
        events = [get_object_or_404(Tournament, slug=s) for s in dict.fromkeys(slugs)]
        series = services.series_create(user=request.user, events=events, **fields)
        return Response(SeriesOutSerializer(series).data, status=201)

    @extend_schema(responses={200: SeriesStandingsSerializer, **errors(404)})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str | None = None) -> Response:
        """The standings, with a table per category."""
        return Response(series_json(table=series_table(series=self.get_object())))

    def _event_act(
        self, request: Request, act: Callable[..., object], *, organizer_only: bool
    ) -> Response:
        """One event's step in the series (named by `event` in the body), done by `act`;
        the series as it stands after. `organizer_only`: refused before the event is even
        looked up unless the user manages the series."""
        series = self.get_object()
        data = SeriesEventSlugSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if organizer_only:
            services.series_manage_require(series=series, user=request.user)
        tournament = get_object_or_404(Tournament, slug=data.validated_data["event"])
        act(series=series, tournament=tournament, user=request.user)
        return Response(SeriesOutSerializer(series).data)

    @extend_schema(
        request=SeriesEventSlugSerializer,
        responses={200: SeriesOutSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def events(self, request: Request, slug: str | None = None) -> Response:
        """Add an event (the series' organizer): theirs joins, another's is invited."""
        return self._event_act(request, services.series_event_add, organizer_only=True)

    @extend_schema(
        request=SeriesEventSlugSerializer,
        responses={200: SeriesOutSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, slug: str | None = None) -> Response:
        """The invited event's organizer consents: it counts in the series."""
        return self._event_act(request, services.series_event_accept, organizer_only=False)

    @extend_schema(
        request=SeriesEventSlugSerializer,
        responses={200: SeriesOutSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def decline(self, request: Request, slug: str | None = None) -> Response:
        """The invited event's organizer refuses: the invitation goes."""
        return self._event_act(request, services.series_event_decline, organizer_only=False)

    @extend_schema(
        request=SeriesEventSlugSerializer,
        responses={200: SeriesOutSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"], url_path="remove")
    def remove(self, request: Request, slug: str | None = None) -> Response:
        """The series' organizer takes an event out (counting or invited)."""
        return self._event_act(request, services.series_event_remove, organizer_only=True)
