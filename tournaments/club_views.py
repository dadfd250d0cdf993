"""The club pages: the list of clubs and a club's page (no login), and the edit of a member
by who manages them (staff, the organizer who manages them, an official of their club) or
the player."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext

from tournaments.club_selectors import club_list, club_page
from tournaments.models import Club, Player
from tournaments.models.ratings import POOL_CHOICES
from tournaments.permissions import errors_text, form_errors_text
from tournaments.roles import user_may_edit_player
from tournaments.services import player_update


class PlayerEditForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Player
        fields = ["name", "club", "federation", "rating", "rating_source"]


def club_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/club_list.html", {"clubs": club_list()})


def club_detail(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    page = club_page(club=club)
    editable = (
        {
            m.player.pk
            for m in page.members
            if user_may_edit_player(user=request.user, player=m.player)
        }
        if request.user.is_authenticated
        else set()
    )
    return render(
        request,
        "tournaments/club.html",
        {"page": page, "pools": dict(POOL_CHOICES), "editable": editable},
    )


@login_required
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a player's name, club, federation or declared rating."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    if not user_may_edit_player(user=request.user, player=player):
        raise PermissionDenied(
            gettext(
                "only staff, the organizer who manages this player, an official of their "
                "club or the player may do that"
            )
        )
    form = PlayerEditForm(request.POST or None, instance=Player.objects.get(pk=pk))
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, form_errors_text(form))
        else:
            fields = {name: form.cleaned_data[name] for name in form.changed_data}
            try:
                player_update(player=player, user=request.user, **fields)
            except ValidationError as exc:
                messages.error(request, errors_text(exc))
            else:
                messages.success(request, gettext("player saved"))
                return HttpResponseRedirect(reverse("tournaments:player", args=[player.pk]))
    return render(request, "tournaments/player_edit.html", {"player": player, "form": form})
