"""Writes of clubs' own: who their officials are (staff names them)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext

from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_site_append
from tournaments.models import Club


@transaction.atomic
def club_officials_set(*, club: Club, accounts: Sequence[User], user: AnyUser | None) -> Club:
    """Name the club's officials (replacing those before): staff only. A club official
    manages the club's members (roles.user_may_manage_player), no other club's."""
    if user is not None and not (user.is_authenticated and user.is_staff):
        raise PermissionDenied(gettext("only staff may name a club's officials"))
    locked = Club.objects.select_for_update().get(pk=club.pk)
    before = sorted(locked.officials.values_list("username", flat=True))
    locked.officials.set(accounts)
    after = sorted(a.username for a in accounts)
    if before != after:
        audit_site_append(
            user=user,
            action=Action.CLUB_OFFICIALS,
            obj=locked,
            before={"officials": before},
            after={"officials": after},
        )
    return locked
