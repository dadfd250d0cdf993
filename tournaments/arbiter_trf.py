"""The arbiter's TRF import page: a file uploaded, what the import would make previewed
(nothing stored: `kz trf import --check`), then imported on confirmation, the organizer
being whoever imports it (as the API's POST /api/tournaments/import/trf/)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from tournaments.permissions import errors_text, manage_url
from tournaments.roles import user_is_organizer
from tournaments.services.trf_import import trf_import, trf_import_check
from tournaments.trf import TrfError, trf_text_decode
from tournaments.trf.file_text import TRF_UPLOAD_MAX

TEMPLATE = "arbiter/trf_import.html"


def _text_of(request: HttpRequest) -> str:
    """The uploaded file's text (preview), or the text the preview carried (confirm)."""
    upload = request.FILES.get("file")
    if upload is None:
        text = request.POST.get("text", "")
        if not text:
            raise ValidationError(gettext("choose a TRF file to upload"))
        return trf_text_decode(text.encode("utf-8"))
    if upload.size is not None and upload.size > TRF_UPLOAD_MAX:
        raise ValidationError(
            gettext("larger than %(number)s kB") % {"number": TRF_UPLOAD_MAX // 1000}
        )
    return trf_text_decode(upload.read(TRF_UPLOAD_MAX + 1))


@login_required
@require_http_methods(["GET", "POST"])
def trf_import_page(request: HttpRequest) -> HttpResponse:
    """GET: the form. POST: the file previewed (nothing stored); with `confirm`, imported
    in one transaction and the arbiter taken to the new event's page."""
    if not user_is_organizer(request.user):
        raise PermissionDenied(gettext("only organizers may create tournaments"))
    if request.method == "GET":
        return render(request, TEMPLATE, {})
    context: dict[str, object] = {}
    try:
        text = _text_of(request)
        if request.POST.get("confirm"):
            imported = trf_import(text=text, organizer=request.user)
            t = imported.tournament
            messages.success(request, gettext("%(name)s imported") % {"name": t.name})
            for warning in imported.warnings:
                messages.warning(request, warning)
            return redirect(manage_url(t))
        check = trf_import_check(text=text, organizer=request.user)
    except TrfError as exc:
        context.update(refusal=str(exc), refusal_line=exc.line)
    except ValidationError as exc:
        context["refusal"] = errors_text(exc)
    else:
        others = [w for w in check.warnings if w != check.scoring]
        context.update(text=text, s=check.summary, scoring=check.scoring, warnings=others)
        return render(request, TEMPLATE, context)
    return render(request, TEMPLATE, context, status=400)
