"""Reads for check-in: the window a round is checked in by, who has checked in, who has not,
and the private links (signed tokens) entrants check in with without an account."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core import signing

from tournaments.models import EVENT_WINDOW, CheckIn, CheckInWindow, Registration, Tournament

# The salt of the private check-in links: a token is good for its registration only.
TOKEN_SALT = "kz.check-in"


@dataclass(frozen=True, slots=True)
class CheckInRow:
    """One active entrant of a round with check-in: whether they checked in (None: not
    yet; False: an arbiter marked them absent), how and when."""

    registration: Registration
    present: bool | None
    via: str
    at: datetime | None


def check_in_token(*, registration: Registration) -> str:
    """The private check-in link's token of a registration (signed: not guessable)."""
    return signing.dumps(
        {"r": registration.pk, "t": registration.tournament_id}, salt=TOKEN_SALT, compress=True
    )


def check_in_token_registration(*, token: str) -> Registration | None:
    """The registration a check-in token was made for; None for a token not ours."""
    try:
        data = signing.loads(token, salt=TOKEN_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    reg, event = data.get("r"), data.get("t")
    if not isinstance(reg, int) or not isinstance(event, int):
        return None
    return (
        Registration.objects.select_related("tournament", "player")
        .filter(pk=reg, tournament_id=event)
        .first()
    )


def check_in_next_round(*, tournament: Tournament) -> int:
    """The round check-in is for: the next one to pair."""
    return tournament.rounds.count() + 1


def check_in_window_for(*, tournament: Tournament, round_number: int) -> CheckInWindow | None:
    """The window round `round_number` is checked in by: its own, else the event's."""
    windows = {
        w.round_number: w
        for w in CheckInWindow.objects.filter(
            tournament=tournament, round_number__in=(round_number, EVENT_WINDOW)
        )
    }
    return windows.get(round_number) or windows.get(EVENT_WINDOW)


def check_in_windows(*, tournament: Tournament) -> list[CheckInWindow]:
    return list(CheckInWindow.objects.filter(tournament=tournament))


def check_in_window_open(*, window: CheckInWindow, now: datetime) -> bool:
    """Whether entrants may check themselves in now."""
    return window.confirmed_at is None and window.opens_at <= now < window.closes_at


def check_in_rows(
    *, tournament: Tournament, window: CheckInWindow, round_number: int
) -> list[CheckInRow]:
    """The active entrants of round `round_number`, each with their check-in by `window`,
    in start rank order."""
    regs = (
        Registration.objects.filter(
            tournament=tournament,
            status=Registration.Status.ACTIVE,
            first_round__lte=round_number,
        )
        .select_related("player")
        .order_by("start_rank", "id")
    )
    done = {
        c.registration_id: c
        for c in CheckIn.objects.filter(
            registration__tournament=tournament, round_number=window.round_number
        )
    }
    rows = []
    for reg in regs:
        c = done.get(reg.pk)
        rows.append(
            CheckInRow(
                registration=reg,
                present=c.present if c is not None else None,
                via=c.via if c is not None else "",
                at=c.at if c is not None else None,
            )
        )
    return rows


def check_in_missing(*, tournament: Tournament, round_number: int) -> list[Registration]:
    """The active entrants of round `round_number` who have not checked in (or were marked
    absent) by its window; none when the round has no window."""
    window = check_in_window_for(tournament=tournament, round_number=round_number)
    if window is None:
        return []
    rows = check_in_rows(tournament=tournament, window=window, round_number=round_number)
    return [row.registration for row in rows if not row.present]


def check_in_absent_players(*, tournament: Tournament, round_number: int) -> set[int]:
    """The players the pairing of round `round_number` leaves out as absent: those who did
    not check in by a window the arbiter closed, when the event treats them as absent."""
    if tournament.check_in_missing != Tournament.CheckInMissing.ABSENT:
        return set()
    window = check_in_window_for(tournament=tournament, round_number=round_number)
    if window is None or window.confirmed_at is None:
        return set()
    missing = check_in_missing(tournament=tournament, round_number=round_number)
    return {reg.player_id for reg in missing}


@dataclass(frozen=True, slots=True)
class CheckInDue:
    """A check-in a player's page offers: the event, the round, its window, whether done."""

    tournament: Tournament
    round_number: int
    window: CheckInWindow
    checked_in: bool


def check_ins_due(*, player_id: int, now: datetime) -> list[CheckInDue]:
    """The open check-in windows of the player's events, for their next round each."""
    regs = (
        Registration.objects.filter(
            player_id=player_id,
            status=Registration.Status.ACTIVE,
            tournament__check_in_windows__confirmed_at__isnull=True,
            tournament__check_in_windows__opens_at__lte=now,
            tournament__check_in_windows__closes_at__gt=now,
        )
        .select_related("tournament")
        .distinct()
    )
    due = []
    for reg in regs:
        t = reg.tournament
        number = check_in_next_round(tournament=t)
        window = check_in_window_for(tournament=t, round_number=number)
        if window is None or not check_in_window_open(window=window, now=now):
            continue
        done = CheckIn.objects.filter(
            registration=reg, round_number=window.round_number, present=True
        ).exists()
        due.append(CheckInDue(t, number, window, done))
    return due
