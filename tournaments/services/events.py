"""Tournaments themselves: creation, settings (locked once results depend on them) and
officials."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from klinzha_site.user_types import AnyUser
from rules.variants import SUPPORTED_VARIANTS, parse_variants
from tournaments.audit import Action, audit_append
from tournaments.event_rules import time_control_normal, variants_problems
from tournaments.italian_procedure import RULESET as ITALIAN_RULESET
from tournaments.italian_procedure import TIME_CONTROL as ITALIAN_TIME_CONTROL
from tournaments.models import Tournament
from tournaments.roles import Role, role_require, user_is_organizer
from tournaments.services.common import tournament_lock
from tournaments.services.event_bounds import tournament_bounds_check
from tournaments.standings import DEFAULT_TIEBREAKS, ROUND_ROBIN_TIEBREAKS
from tournaments.tiebreaks import code_of

# The settings tournament_update changes (officials have officials_set).
SETTINGS = (
    "name",
    "start_date",
    "end_date",
    "venue",
    "ruleset",
    "variants",
    "clouds",
    "crown",
    "ablation_limit",
    "time_control",
    "pairing_system",
    "rounds_planned",
    "forfeit_win_points",
    "forfeit_loss_points",
    "bye_points",
    "requested_bye_points",
    "tiebreaks",
    "tiebreak_rules",
    "placement_order",
    "local_rules",
    "resignation_allowed",
    "resignation_after_moves",
    "notation",
    "result_confirmation",
    "play",
    "broadcast_delay_minutes",
    "forbid_same_club",
    "accelerated_rounds",
    "withdrawal_results",
    "free_round",
    "late_entry_points",
    "check_in_missing",
)


# Settings whose change has the variants and their parameters checked again (an event made
# before these checks keeps its other settings changeable).
RULES_SETTINGS = frozenset({"ruleset", "variants", "clouds", "crown", "ablation_limit"})


def _validate_rules(tournament: Tournament, *, changed: Sequence[str] | None = None) -> None:
    """The variants must be ones the engine plays, playable with the ruleset and together
    (the validator's own message), with readable parameters; the time control readable
    (Art. 6.4). `changed`: the settings an update changes (None: a new tournament)."""
    names = sorted(parse_variants(tournament.variants))
    unknown = [v for v in names if v not in SUPPORTED_VARIANTS]
    if unknown:
        known = ", ".join(sorted(SUPPORTED_VARIANTS))
        raise ValidationError(
            {
                "variants": gettext("unknown variant %(value)r (known: %(known)s)")
                % {"value": unknown[0], "known": known}
            }
        )
    if changed is None or RULES_SETTINGS & set(changed):
        problems = variants_problems(
            ruleset=tournament.ruleset,
            variants=frozenset(names),
            clouds=tournament.clouds,
            crown=tournament.crown,
            ablation_limit=tournament.ablation_limit or 0,
        )
        if problems:
            raise ValidationError(problems)
    tournament.variants = ",".join(names)
    try:
        tournament.time_control = time_control_normal(tournament.time_control)
    except ValueError as exc:
        raise ValidationError({"time_control": str(exc)}) from None
    if tournament.ruleset == ITALIAN_RULESET and not tournament.time_control:
        tournament.time_control = ITALIAN_TIME_CONTROL


def _validate_tiebreaks(value: str) -> None:
    """Each name a FIDE code (or today's name for one), none twice."""
    seen: set[str] = set()
    for name in (t.strip() for t in value.split(",") if t.strip()):
        try:
            code = code_of(name)
        except ValueError:
            raise ValidationError(
                {"tiebreaks": gettext("unknown tie-break %(name)r") % {"name": name}}
            ) from None
        if code in seen:
            raise ValidationError(
                {"tiebreaks": gettext("tie-break %(name)s chosen twice") % {"name": code}}
            )
        seen.add(code)


_DEFAULT_LISTS = frozenset({",".join(DEFAULT_TIEBREAKS), ",".join(ROUND_ROBIN_TIEBREAKS)})


def tiebreaks_default(system: str) -> str:
    """A new event's tie-breaks by its system: a round robin's are FIDE's for all-play-all
    events (SB, DE, KS); the others keep the Swiss list (BH, SSB, WON)."""
    robins = (Tournament.PairingSystem.ROUND_ROBIN, Tournament.PairingSystem.DOUBLE_ROUND_ROBIN)
    return ",".join(ROUND_ROBIN_TIEBREAKS if system in robins else DEFAULT_TIEBREAKS)


def _tiebreaks_by_code(value: str) -> str:
    """The list as stored: FIDE codes (today's names, still accepted, become theirs)."""
    return ",".join(code_of(t.strip()) for t in value.split(",") if t.strip())


def tournament_settings_check(
    tournament: Tournament, *, changed: Sequence[str] | None = None
) -> None:
    """Every rule a tournament's settings must keep, all checked: one ValidationError naming
    each setting in error (the forms show them all at once, beside their fields)."""
    errors: dict[str, list[str]] = {}
    checks: tuple[Callable[[], None], ...] = (
        lambda: _validate_tiebreaks(tournament.tiebreaks),
        lambda: _validate_rules(tournament, changed=changed),
        lambda: tournament_bounds_check(tournament),
    )
    for check in checks:
        try:
            check()
        except ValidationError as exc:
            found = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
            for key, messages in found.items():
                errors.setdefault(key, []).extend(messages)
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    start_date: date,
    organizer: AnyUser | None = None,
    **fields: Any,
) -> Tournament:
    if organizer is not None and not user_is_organizer(organizer):
        raise PermissionDenied(gettext("only organizers may create tournaments"))
    tournament = Tournament(name=name, slug=slug, start_date=start_date, **fields)
    if organizer is not None and getattr(organizer, "is_authenticated", False):
        tournament.organizer = organizer
    _validate_tiebreaks(tournament.tiebreaks)
    tournament.tiebreaks = _tiebreaks_by_code(tournament.tiebreaks)
    if tournament.tiebreaks == ",".join(DEFAULT_TIEBREAKS):
        tournament.tiebreaks = tiebreaks_default(tournament.pairing_system)
    _validate_rules(tournament)
    tournament.full_clean()
    tournament_bounds_check(tournament)
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, user: AnyUser | None = None, **fields: Any
) -> Tournament:
    """Change settings; those that change results are locked once round 1 is paired.
    The chief arbiter and the organizer may do this; officials are set by officials_set."""
    role_require(user=user, tournament=tournament, role=Role.CHIEF_ARBITER)
    locked = tournament.rounds.exists()
    if "pairing_system" in fields and "tiebreaks" not in fields and not locked:
        # A list left at the old system's default follows the system (audited with it).
        follows = tiebreaks_default(fields["pairing_system"])
        if tournament.tiebreaks in _DEFAULT_LISTS and tournament.tiebreaks != follows:
            fields = {**fields, "tiebreaks": follows}
    errors = {}
    for key, value in fields.items():
        if key not in SETTINGS:
            errors[key] = "not a setting that can be changed"
        elif locked and key in Tournament.RESULT_SETTINGS and getattr(tournament, key) != value:
            errors[key] = "locked: round 1 has been paired"
    if errors:
        raise ValidationError(errors)
    before = {key: getattr(tournament, key) for key in fields}
    for key, value in fields.items():
        setattr(tournament, key, value)
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.SETTINGS,
        obj=tournament,
        before=before,
        after=fields,
    )
    if "tiebreaks" in fields:
        _validate_tiebreaks(tournament.tiebreaks)
        tournament.tiebreaks = _tiebreaks_by_code(tournament.tiebreaks)
    _validate_rules(tournament, changed=list(fields))
    tournament.full_clean()
    tournament_bounds_check(tournament)
    tournament.published_version = F("published_version") + 1
    tournament.save()
    tournament.refresh_from_db()
    return tournament


@transaction.atomic
def officials_set(
    *,
    tournament: Tournament,
    user: AnyUser | None,
    chief_arbiter: User | None = None,
    arbiters: Sequence[User] = (),
) -> Tournament:
    """The organizer names the chief arbiter and the arbiters."""
    role_require(user=user, tournament=tournament, role=Role.ORGANIZER)
    t = tournament_lock(tournament.pk)
    before = {
        "chief_arbiter": t.chief_arbiter.get_username() if t.chief_arbiter else None,
        "arbiters": sorted(a.get_username() for a in t.arbiters.all()),
    }
    t.chief_arbiter = chief_arbiter
    t.save(update_fields=["chief_arbiter"])
    t.arbiters.set(arbiters)
    after = {
        "chief_arbiter": chief_arbiter.get_username() if chief_arbiter else None,
        "arbiters": sorted(a.get_username() for a in arbiters),
    }
    if before != after:
        audit_append(
            tournament=t, user=user, action=Action.OFFICIALS, obj=t, before=before, after=after
        )
    return t
