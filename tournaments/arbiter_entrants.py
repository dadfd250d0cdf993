"""The arbiter's bulk entrants page: a paste or an uploaded CSV / TRF file, previewed line by
line, then registered in one transaction (entrants_bulk_register)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from tournaments import services
from tournaments.entrant_lines import EntrantLine, entrant_lines_read
from tournaments.models import Tournament
from tournaments.permissions import manage_url, tournament_role
from tournaments.roles import Role

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
    errors: dict[int, str] = {}
    status = 200
    if request.POST.get("register") and lines and not any(line.error for line in lines):
        try:
            done = services.entrants_bulk_register(tournament=t, lines=lines, user=request.user)
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
    context.update(_preview_context(text=text, lines=lines, errors=errors))
    return render(request, "arbiter/entrants_bulk.html", context, status=status)


def _register_errors(*, exc: ValidationError) -> dict[int, str]:
    """A refused registration's errors by line number (0: not of one line)."""
    errors: dict[int, str] = {}
    found = exc.message_dict if hasattr(exc, "error_dict") else {"line 0": exc.messages}
    for key, texts in found.items():
        number = key.removeprefix("line ")
        errors[int(number) if number.isdigit() else 0] = " ".join(texts)
    return errors


def _preview_context(
    *, text: str, lines: list[EntrantLine], errors: dict[int, str]
) -> dict[str, object]:
    """What the preview shows: each line with its error (its own, or the registration's),
    and how many lines are bad and good."""
    shown: list[tuple[EntrantLine, str]] = [
        (line, line.error or errors.get(line.number, "")) for line in lines
    ]
    return {
        "text": text,
        "lines": shown,
        "bad": sum(1 for _, e in shown if e) + (1 if 0 in errors else 0),
        "other_error": errors.get(0, ""),
        "good": sum(1 for _, e in shown if not e),
    }
