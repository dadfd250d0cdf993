"""The arbiter's bulk entrants page: a paste or an uploaded CSV / TRF file, previewed line by
line, then registered in one transaction (entrants_bulk_register)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from klinzha_site.parsing import ID_MAX
from tournaments import services
from tournaments.entrant_lines import EntrantLine, entrant_lines_read
from tournaments.models import Player, Tournament
from tournaments.permissions import manage_url, tournament_role
from tournaments.player_labels import player_label
from tournaments.roles import Role
from tournaments.services.entrants_bulk import entrant_line_rows
from tournaments.services.entrants_match import (
    Match,
    RowMatch,
    entrant_rows_match,
)

UPLOAD_MAX = 1_000_000  # bytes: a few thousand players' lines


def _text_of(request: HttpRequest) -> str:
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("text", "")
    if upload.size is not None and upload.size > UPLOAD_MAX:
        raise ValidationError(
            {"file": gettext("larger than %(number)s kB") % {"number": UPLOAD_MAX // 1000}}
        )
    data = upload.read(UPLOAD_MAX + 1)
    for encoding in ("utf-8-sig", "latin-1"):  # TRF files are often Latin-1
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValidationError(
        {"file": gettext("not a text file")}
    )  # pragma: no cover (latin-1 reads all)


@require_http_methods(["GET", "POST"])
@tournament_role(Role.ARBITER)
def entrants_bulk(request: HttpRequest, t: Tournament) -> HttpResponse:
    """GET: the form. POST: the lines previewed (nothing saved); with `register`, saved."""
    context: dict[str, object] = {"t": t, "text": "", "lines": None}
    if request.method == "GET":
        return render(request, "arbiter/entrants_bulk.html", context)
    text = _text_of(request).replace("\x00", "")
    lines = entrant_lines_read(text)
    choices = _choices_of(request)
    errors: dict[int, str] = {}
    status = 200
    if request.POST.get("register") and lines and not any(line.error for line in lines):
        try:
            done = services.entrants_bulk_register(
                tournament=t, lines=lines, user=request.user, choices=choices
            )
        except ValidationError as exc:
            errors = _register_errors(exc=exc)
            status = 400
        else:
            messages.success(
                request,
                ngettext("%(count)d player registered", "%(count)d players registered", len(done))
                % {"count": len(done)},
            )
            return redirect(manage_url(t) + "#entrants")
    elif any(line.error for line in lines):
        status = 400 if request.POST.get("register") else 200
    context.update(_preview_context(text=text, lines=lines, errors=errors, choices=choices))
    return render(request, "arbiter/entrants_bulk.html", context, status=status)


def _register_errors(*, exc: ValidationError) -> dict[int, str]:
    """A refused registration's errors by line number (0: not of one line)."""
    errors: dict[int, str] = {}
    found = exc.message_dict if hasattr(exc, "error_dict") else {"line 0": exc.messages}
    for key, texts in found.items():
        number = key.removeprefix("line ")
        errors[int(number) if number.isdigit() else 0] = " ".join(texts)
    return errors


def _choices_of(request: HttpRequest) -> dict[int, int | None]:
    """The arbiter's choices for lines that matched known players: `choice-N` is a
    player's id, or "new" for a new player (anything else: no choice)."""
    choices: dict[int, int | None] = {}
    for key, value in request.POST.items():
        number = key.removeprefix("choice-")
        if number == key or not (number.isascii() and number.isdigit()) or len(number) > 6:
            continue
        if value == "new":
            choices[int(number)] = None
        elif value.isascii() and value.isdigit() and len(value) <= 18 and int(value) <= ID_MAX:
            choices[int(number)] = int(value)
    return choices


@dataclass(frozen=True, slots=True)
class PreviewLine:
    """A line as the preview shows it: its match, whom it matched, whom to choose among."""

    line: EntrantLine
    error: str
    match: str  # a Match, or "" (a line with an error, or one the arbiter chose for)
    player: str  # KNOWN: the player's label
    candidates: list[tuple[int, str]]  # the players a choice offers (id, label)
    choice: str  # the arbiter's choice: a player's id, "new", or ""


def _preview_line(
    line: EntrantLine, *, match: RowMatch | None, error: str, choice: str
) -> PreviewLine:
    offered: tuple[Player, ...] = ()
    if match is not None:
        offered = match.candidates or ((match.player,) if match.player else ())
    return PreviewLine(
        line=line,
        error=error,
        match=match.kind if match is not None else "",
        player=player_label(match.player) if match and match.player else "",
        candidates=[(p.pk, player_label(p)) for p in offered],
        choice=choice,
    )


def _preview_context(
    *,
    text: str,
    lines: list[EntrantLine],
    errors: dict[int, str],
    choices: dict[int, int | None],
) -> dict[str, object]:
    """What the preview shows: each line with its match (new, a known player, several to
    choose among: the service's own reading, entrant_rows_match) and its error (its own, or
    the registration's), and how many lines are bad and good."""
    matches = entrant_rows_match(entrant_line_rows(lines))
    shown = [
        _preview_line(
            line,
            match=matches.get(line.number),
            error=line.error or errors.get(line.number, ""),
            choice=("" if line.number not in choices else str(choices[line.number] or "new")),
        )
        for line in lines
    ]
    return {
        "text": text,
        "lines": shown,
        "bad": sum(1 for r in shown if r.error) + (1 if 0 in errors else 0),
        "other_error": errors.get(0, ""),
        "good": sum(1 for r in shown if not r.error),
        "unchosen": sum(1 for r in shown if r.match == Match.AMBIGUOUS and not r.choice),
    }
