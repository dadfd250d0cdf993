"""A player's own pages: "my games", an official's invitation of a player, the refusals."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from klinzha_site.errors import Conflict
from klinzha_site.links import site_domain, site_url
from klinzha_site.parsing import SMALL_MAX, ascii_int
from tournaments import player_selectors, selectors
from tournaments.check_in_selectors import check_ins_due
from tournaments.models import Player, Registration
from tournaments.permissions import errors_text
from tournaments.roles import user_is_official, user_may_invite_player, user_player
from tournaments.services.accounts import player_invite
from tournaments.services.player_requests import (
    bye_request_ask,
    bye_request_unask,
    withdrawal_ask,
)


class InvitedPasswordResetForm(PasswordResetForm):
    """Django's reset form, which also reaches an invited player who never set a password
    (no usable one, never logged in): a lost invitation is asked for again here."""

    def get_users(self, email: str) -> Iterator[Any]:
        yield from super().get_users(email)
        invited = get_user_model().objects.filter(
            email__iexact=email,
            is_active=True,
            last_login__isnull=True,
            player__isnull=False,
            password__startswith=UNUSABLE_PASSWORD_PREFIX,
        )
        yield from (u for u in invited if not u.has_usable_password())

    def save(self, **kwargs: Any) -> None:
        """The mail's link goes to KZ_SITE_URL, whatever Host the request named: Django
        would build it from the request (a reset token sent wherever a forged Host points)."""
        domain, https = site_domain()
        kwargs["domain_override"], kwargs["use_https"] = domain, https
        kwargs["extra_email_context"] = {
            **(kwargs.get("extra_email_context") or {}),
            "site_url": site_url(),
        }
        super().save(**kwargs)


class DelayedLoginForm(AuthenticationForm):
    """Django's login form, which says how long an account guessed at too often must wait
    (klinzha_site.login_delay) instead of "wrong password"."""

    def get_invalid_login_error(self) -> ValidationError:
        wait = getattr(self.request, "kz_login_wait", 0)
        if not wait:
            return super().get_invalid_login_error()
        return ValidationError(
            ngettext(
                "Too many failed logins for this account: try again in %(seconds)d second.",
                "Too many failed logins for this account: try again in %(seconds)d seconds.",
                wait,
            )
            % {"seconds": wait},
            code="login_delay",
        )


class LoginView(auth_views.LoginView):
    """The login page: a refusal while the account waits is a 429 with Retry-After."""

    authentication_form = DelayedLoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        wait = getattr(self.request, "kz_login_wait", 0)
        if wait:
            response.status_code = 429
            response["Retry-After"] = str(wait)
        return response


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """The logged-in user's own games only: their account's player, nobody else's."""
    player = user_player(request.user)
    rows = player_selectors.my_games(player=player) if player is not None else []
    return render(
        request,
        "tournaments/my_games.html",
        {
            "player": player,
            "rows": rows,
            "next": player_selectors.next_pairing(rows),
            "to_submit": [r for r in rows if r.to_submit],
            "to_sign": [r for r in rows if r.to_sign],
            "penalties": (
                selectors.player_penalties(player=player, user=request.user) if player else []
            ),
            "check_ins": (check_ins_due(player_id=player.pk, now=timezone.now()) if player else []),
            "entries": player_selectors.my_entries(player=player) if player else [],
        },
    )


def _own_registration(request: HttpRequest, slug: str) -> Registration:
    player = user_player(request.user)
    if player is None:
        raise PermissionDenied(_("No player is linked to your account."))
    reg = (
        Registration.objects.select_related("tournament", "player")
        .filter(tournament__slug=slug, player=player)
        .first()
    )
    if reg is None:
        raise PermissionDenied(_("You are not in this event."))
    return reg


def _asked(request: HttpRequest, ask: Callable[[], object], done: str) -> HttpResponse:
    """Run the player's request; its refusal as a page saying why (nothing changed)."""
    try:
        ask()
    except Conflict as exc:
        return refusal(request, errors_text(exc), status=409, back=reverse("my-games"))
    except ValidationError as exc:
        return refusal(request, errors_text(exc), status=400, back=reverse("my-games"))
    messages.success(request, done)
    return redirect(reverse("my-games") + "#my-events")


@login_required
@require_POST
def bye_ask(request: HttpRequest, slug: str) -> HttpResponse:
    """The player asks for a bye in a round not paired yet (`round_number`), or takes back
    one no arbiter has confirmed (`cancel`): an arbiter confirms it."""
    reg = _own_registration(request, slug)
    try:
        number = ascii_int(
            request.POST.get("round_number", ""), field="round_number", lo=1, hi=SMALL_MAX
        )
    except ValidationError as exc:
        return refusal(request, errors_text(exc), status=400, back=reverse("my-games"))
    if request.POST.get("cancel"):
        return _asked(
            request,
            lambda: bye_request_unask(registration=reg, round_number=number, user=request.user),
            _("Your bye request is taken back."),
        )
    return _asked(
        request,
        lambda: bye_request_ask(registration=reg, round_number=number, user=request.user),
        _("Your bye request is sent: an arbiter confirms it."),
    )


@login_required
@require_POST
def withdrawal_ask_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The player asks to withdraw from the rounds not paired yet: an arbiter confirms."""
    reg = _own_registration(request, slug)
    return _asked(
        request,
        lambda: withdrawal_ask(registration=reg, user=request.user),
        _("Your withdrawal is asked: an arbiter confirms it."),
    )


@login_required
def invite(request: HttpRequest, pk: int) -> HttpResponse:
    """An official makes the player's account: the player gets a link to set its password.
    Who may is the rule of linking an account to a player who has none
    (roles.user_may_invite_player)."""
    player = get_object_or_404(Player, pk=pk)
    if not user_may_invite_player(user=request.user, player=player):
        raise PermissionDenied(
            _(
                "only staff, or the organizer who manages this player while they are in one "
                "of that organizer's events, may invite them"
            )
        )
    status = 200
    error = ""
    if player.user_id is not None:
        error, status = _("%(name)s has an account already.") % {"name": player.name}, 409
    elif request.method == "POST":
        try:
            made = player_invite(
                player=player,
                email=request.POST.get("email", ""),
                user=request.user,
            )
        except Conflict as exc:
            error, status = errors_text(exc), 409
        except ValidationError as exc:
            error, status = errors_text(exc), 400
        else:
            messages.success(
                request,
                _("%(name)s is invited as %(login)s: the link to set a password went to %(to)s.")
                % {
                    "name": made.player.name,
                    "login": made.account.get_username(),
                    "to": made.account.email,
                },
            )
            return redirect("tournaments:player", pk=player.pk)
    return render(
        request,
        "registration/invite.html",
        {"player": player, "error": error, "email": request.POST.get("email", "")},
        status=status,
    )


@login_required
def after_login(request: HttpRequest) -> HttpResponse:
    """Where a login without a `next` lands: officials on their arbiter's pages, everyone
    else (players) on their own games, not on an arbiter's page that has nothing for them."""
    user = request.user
    # The header's test for its Arbiter link (templatetags.site_nav); login_required
    # let only an account in.
    if user.is_authenticated and (user_is_official(user) or user.organized_tournaments.exists()):
        return redirect("arbiter:dashboard")
    return redirect("my-games")


REFUSAL_TITLES = {
    400: gettext_lazy("Not accepted"),
    403: gettext_lazy("Not allowed"),
    409: gettext_lazy("Not now"),
}


def refusal(request: HttpRequest, message: str, *, status: int, back: str = "") -> HttpResponse:
    """A form's refusal (bad input 400, no right 403, the event's state 409) as a page in
    the site's layout saying why, with a link back to the page the form was on."""
    return render(
        request,
        "refusal.html",
        {"title": REFUSAL_TITLES.get(status, _("Refused")), "message": message, "back": back},
        status=status,
    )


def bad_request(request: HttpRequest, exception: Any = None) -> HttpResponse:
    """Django's own 400 page renders without the request; this one keeps the site's layout
    (the header, the account link) and says nothing of the exception."""
    return render(request, "400.html", status=400)
