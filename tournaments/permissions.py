"""The one permission layer of the pages and the API: who may call what, from the roles of
tournaments.roles (the services check again; these refuse early and say why)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy
from rest_framework import permissions
from rest_framework.request import Request

from klinzha_site.parsing import ascii_int
from klinzha_site.user_types import AnyUser
from tournaments.models import Game, Player, Round, Tournament
from tournaments.roles import (
    Role,
    player_link_require,
    tournaments_arbitrated,
    user_can_arbitrate,
    user_is_official,
    user_is_organizer,
    user_may_edit_player,
    user_may_merge_players,
    user_role,
)

View = Callable[..., HttpResponse]


# The words a page puts before a refusal about one of these fields, for the reader (the
# API keeps its keys); any other key is shown as it is.
FIELD_LABELS = {
    "player": gettext_lazy("player"),
    "rating": gettext_lazy("rating"),
    "rank": gettext_lazy("start rank"),
    "round_number": gettext_lazy("round"),
    "amount": gettext_lazy("amount"),
    "from_ply": gettext_lazy("from ply"),
    "reason": gettext_lazy("reason"),
    "name": gettext_lazy("name"),
    "account": gettext_lazy("user name"),
    "time_control": gettext_lazy("time control"),
    "starts_at": gettext_lazy("scheduled start"),
    "seconds": gettext_lazy("seconds"),
    "club_name": gettext_lazy("club"),
}


def field_errors_text(
    errors: Mapping[str, Sequence[str]], labels: Mapping[str, Any] | None = None
) -> str:
    """Refusals as one line for a reader: each after the name of its field, unless the
    refusal names it itself ("0 active players for round 1", not "round: 0 active ...")."""
    labels = FIELD_LABELS if labels is None else labels
    parts = []
    for key, texts in errors.items():
        text = " ".join(str(t) for t in texts)
        label = str(labels.get(key, key))
        if key == "__all__" or label.lower() in text.lower():
            parts.append(text)
        else:
            parts.append(f"{label}: {text}")
    return "; ".join(parts)


def errors_text(exc: ValidationError) -> str:
    """A service's refusal as one line for the page."""
    if hasattr(exc, "error_dict"):
        return field_errors_text(exc.message_dict)
    return " ".join(exc.messages)


def form_errors_text(form: BaseForm) -> str:
    """A form's refusals, each after its field's label."""
    labels = {**FIELD_LABELS, **{name: f.label for name, f in form.fields.items() if f.label}}
    # A form's ErrorList yields its messages as strings (ErrorList.__getitem__).
    return field_errors_text(
        {name: [str(m) for m in errors] for name, errors in form.errors.items()}, labels
    )


def manage_url(t: Tournament) -> str:
    return reverse("arbiter:manage", args=[t.slug])


def round_url(t: Tournament, number: int) -> str:
    return reverse("arbiter:round", args=[t.slug, number])


def redirect_back(request: HttpRequest, t: Tournament) -> HttpResponse:
    """To the page the form was on, if it is one of ours; else to the tournament."""
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(referer)
    return HttpResponseRedirect(manage_url(t))


def tournament_role(role: Role) -> Callable[[View], View]:
    """Load the tournament of the URL and require `role` in it (403 otherwise). Service
    errors become messages on the page instead of 500s; nothing is half-saved because
    every service is one transaction."""

    def decorate(view: View) -> View:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            t = get_object_or_404(Tournament, slug=slug)
            if user_role(user=request.user, tournament=t) < role:
                raise PermissionDenied(gettext("you hold no such role in this tournament"))
            try:
                return view(request, t, *args, **kwargs)
            except ValidationError as exc:
                messages.error(request, errors_text(exc))
                if request.htmx:  # type: ignore[attr-defined]
                    return HttpResponse(status=204, headers={"HX-Refresh": "true"})
                return redirect_back(request, t)

        return wrapped

    return decorate


def game_visible_get(*, pk: Any, user: AnyUser | None) -> Game:
    """The game `pk` (an id from a URL), 404 when there is none, and also when it belongs to
    a proposed round, not yet published, and `user` is not one of its arbiters: a draft is
    the arbiters' own, as if it did not exist for anyone else."""
    try:
        number = ascii_int(str(pk), field="id")
    except ValidationError:
        raise Http404(gettext("no such game")) from None
    game = Game.objects.select_related("round__tournament").filter(pk=number).first()
    # One refusal, in the same words, for a game that does not exist and for a draft's.
    if game is None or (
        game.round.status == Round.Status.DRAFT
        and not user_can_arbitrate(user=user, tournament=game.round.tournament)
    ):
        raise Http404(gettext("no such game"))
    return game


def games_visible_q(*, user: AnyUser | None, prefix: str = "") -> Q:
    """game_visible_get's rule as a filter for lists of games (`prefix` leads from the
    listed model to its game, e.g. "game__"): the games of published rounds, and those of
    proposed rounds for their arbiters, in the list's own query."""
    arbitrated = tournaments_arbitrated(user=user).values("pk")
    return ~Q(**{f"{prefix}round__status": Round.Status.DRAFT}) | Q(
        **{f"{prefix}round__tournament__in": arbitrated}
    )


def records_unmatched_visible_q(*, user: AnyUser | None) -> Q:
    """Records matched to no game (a bulk upload's strays) show what their file held, of
    whichever round: the event's arbiters and whoever uploaded them see them, nobody else."""
    if not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    arbitrated = tournaments_arbitrated(user=user).values("pk")
    return Q(game__isnull=True) & (Q(tournament__in=arbitrated) | Q(submitted_by=user))


def game_visible(view: View) -> View:
    """A game page (`pk` in the URL): game_visible_get decides who may see it."""

    @wraps(view)
    def wrapped(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        game_visible_get(pk=pk, user=request.user)
        return view(request, pk, *args, **kwargs)

    return wrapped


class OfficialWriteOrReadOnly(permissions.BasePermission):
    """Organizers and arbiters create clubs and players; everyone reads."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return user_is_official(request.user)


class TournamentWriteArbiters(permissions.BasePermission):
    """A write on a tournament of the API (its settings, entrants, rounds, penalties,
    records): its arbiters at least, asked of the tournament itself before the body is read
    (the services ask for more where a write needs it). So an outsider is refused alike
    whatever the body names, and learns nothing from it about the event: not which rounds
    exist (a proposed one too), nor which entrants, penalties or games it holds."""

    message = gettext_lazy("only this tournament's arbiters may do that")

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS or not isinstance(obj, Tournament):
            return True
        return user_can_arbitrate(user=request.user, tournament=obj)


def account_named_require(*, user: AnyUser, player: Player, username: str) -> None:
    """Before saying that no account is named `username`: PermissionDenied when `user` may
    not link an account of that name to `player` in any case (roles.player_link_require,
    asked of an account that does not exist). So only those who may link one learn which
    usernames exist; anyone else is refused alike for every name."""
    player_link_require(user=user, player=player, account=User(username=username))


def player_edit_require(*, user: AnyUser, player: Player) -> None:
    """Refuse early, before the body is read, whoever may not change `player`
    (roles.user_may_edit_player: staff, the organizer who manages them, an official of their
    own club, or the player)."""
    if not user_may_edit_player(user=user, player=player):
        raise PermissionDenied(
            gettext(
                "only staff, the organizer who manages this player, an official of their "
                "club or the player may do that"
            )
        )


class OrganizerWriteOrReadOnly(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return user_is_organizer(request.user)


class TournamentArbiter(permissions.BasePermission):
    """The tournament's arbiters (roles.user_can_arbitrate), checked when the view reads
    its tournament (get_object), before it reads the body: a batch is neither parsed nor
    checked for a caller who may not send it, and no row is locked for them."""

    message = gettext_lazy("only this tournament's arbiters may do that")

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return isinstance(obj, Tournament) and user_can_arbitrate(user=request.user, tournament=obj)


class StaffMergesPlayers(permissions.BasePermission):
    """Merging two players: staff only (roles.user_may_merge_players), asked before the
    body is read."""

    message = gettext_lazy("only staff may merge players")

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and user_may_merge_players(user))
