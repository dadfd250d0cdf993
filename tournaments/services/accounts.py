"""Players' accounts: an official invites a player, who sets a password from the link."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.text import slugify
from django.utils.translation import gettext

from klinzha_site.errors import Conflict
from klinzha_site.links import site_link
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_site_append
from tournaments.models import Player
from tournaments.roles import user_may_invite_player
from tournaments.services.entrants import player_link_user

logger = logging.getLogger(__name__)

# What auth.User.username holds.
USERNAME_MAX = 150


@dataclass(frozen=True)
class Invitation:
    """The account an invitation made and the link that sets its password."""

    player: Player
    account: User
    link: str


def password_set_link(*, account: User) -> str:
    """The absolute link (under KZ_SITE_URL, never the request's Host) of Django's
    PasswordResetConfirmView for `account`: it works once, and only until the password
    changes or settings.PASSWORD_RESET_TIMEOUT passes."""
    uid = urlsafe_base64_encode(force_bytes(account.pk))
    token = default_token_generator.make_token(account)
    path = reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    return site_link(path)


def _username_free(name: str) -> str:
    User = get_user_model()
    base = (slugify(name) or "player")[: USERNAME_MAX - 8]
    candidate, n = base, 1
    while User.objects.filter(username__iexact=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def language_of(*, code: str | None) -> str:
    """`code` if the site speaks it (it, it-ch → it), else "" (the site's default)."""
    base = (code or "").split("-")[0].lower()
    return base if base in {lang for lang, _name in settings.LANGUAGES} else ""


@transaction.atomic
def player_language_set(*, player: Player, language: str) -> None:
    """Remember the language a player's mails are written in (no audit entry: a preference,
    not a change to any event)."""
    code = language_of(code=language)
    if code and code != player.language:
        Player.objects.filter(pk=player.pk).update(language=code)
        player.language = code


def _invite_send(*, to: str, player_name: str, username: str, link: str, language: str) -> None:
    """Sent once committed, in the player's language; a mail server that fails is logged and
    the account stays made: the player asks for the link again from "Forgotten password" (an
    invited account that never logged in is reached there too,
    player_views.InvitedPasswordResetForm)."""
    try:
        with translation.override(language or settings.LANGUAGE_CODE):
            subject = gettext("Klin Zha tournaments: your account")
            message = gettext(
                "An account was made for %(name)s.\n\n"
                "Your user name: %(username)s\n"
                "Choose your password here (the link works once):\n%(link)s\n\n"
                "Then log in to see your games, submit and sign your records."
            ) % {"name": player_name, "username": username, "link": link}
        send_mail(
            subject=subject,
            message=message,
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=[to],
        )
    except Exception:  # any backend's failure: the write stands (issue 15)
        logger.exception("the invitation to %s could not be sent", to)


@transaction.atomic
def player_invite(*, player: Player, email: str, user: AnyUser | None) -> Invitation:
    """Make an account for a player who has none, link it (entrants.player_link_user, who
    may is roles.user_may_invite_player), write it to the site's audit chain and mail its
    set-password link once committed."""
    stored = Player.objects.get(pk=player.pk)
    if not user_may_invite_player(user=user, player=stored):
        raise PermissionDenied(
            gettext(
                "only staff, or the organizer who manages this player while they are in one "
                "of that organizer's events, may invite them"
            )
        )
    if stored.user_id is not None:
        raise Conflict(
            {"player": gettext("%(name)s has an account already") % {"name": stored.name}}
        )
    email = (email or "").strip()
    if not email:
        raise ValidationError({"email": gettext("an email address is needed: the link goes there")})
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError(
            {"email": gettext("%(email)r is not an email address") % {"email": email}}
        ) from None
    User = get_user_model()
    if User.objects.filter(email__iexact=email).exists():
        raise ValidationError({"email": gettext("another account has this email address")})
    account = User(username=_username_free(stored.name), email=email)
    account.set_unusable_password()
    account.save()
    linked = player_link_user(player=stored, account=account, user=user)
    # The account's name, not the address: the chain keeps what it is given for good.
    audit_site_append(
        user=user,
        action=Action.PLAYER_INVITED,
        obj=linked,
        after={"player": linked.name, "account": account.get_username()},
    )
    if not linked.language:
        # Until they log in themselves, the player reads the arbiter's language.
        player_language_set(player=linked, language=translation.get_language() or "")
    language = linked.language
    link = password_set_link(account=account)
    username = account.get_username()
    transaction.on_commit(
        lambda: _invite_send(
            to=email, player_name=linked.name, username=username, link=link, language=language
        )
    )
    return Invitation(player=linked, account=account, link=link)
