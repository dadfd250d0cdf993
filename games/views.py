"""Pages of a game: submit a record, follow its validation, step through it, sign it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games import selectors, services
from games.disagreement_selectors import game_disagreement
from games.live_views import live_context
from games.models import ClockAdjustment, Irregularity, RecordSubmission
from klinzha_site.errors import Conflict
from klinzha_site.parsing import INT_MAX, ascii_int, ascii_int_or_none, json_loads_bounded
from klinzha_site.user_types import AnyUser
from rules.posstring import position_to_string
from rules.record import read_record, write_record
from rules.svg import render_svg
from tournaments.models import Game, colour_other
from tournaments.permissions import errors_text
from tournaments.player_views import refusal
from tournaments.roles import user_can_arbitrate
from tournaments.selectors import game_result_counted


def _back(game: Game) -> str:
    """Where a refused form sends the user back to: the game's page."""
    return reverse("games:detail", args=[game.pk])


def _game(pk: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("round__tournament", "first", "second"), pk=pk
    )


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    sub = selectors.submission_latest(game=game)
    plies = selectors.record_positions(submission=sub)[1] if sub else []
    counted, penalized = game_result_counted(game=game)
    pending_names = sub is not None and selectors.record_needs_confirmation(submission=sub)
    return render(
        request,
        "games/game.html",
        {
            "game": game,
            # What counts for the standings, when a penalty (Art. 12.4 d, e, f) decides it.
            "result_counted": Game.Result(counted).label if counted else "",
            "result_penalized": penalized,
            "submission": sub,
            "plies": plies,
            # The sides by player and the record's names when they are not the game's.
            "sides": _sides(game, sub),
            "names_pending": pending_names,
            "versions": game.submissions.all(),
            "clock_articles": ClockAdjustment.ARTICLES,
            # The entered result and the signed record disagree: said beside the result.
            "disagreement": game_disagreement(game=game),
            # The live board when the game is played online and the visitor may watch it.
            "live": live_context(game=game, user=request.user),
            **_signatures_context(game, request.user),
        },
    )


def _sides(game: Game, sub: Any) -> dict[str, str]:
    """Who had which colour: the first placer had the colour the game keeps or its record
    says (green when none says otherwise)."""
    first = selectors.game_first_colour(game=game, submission=sub)
    second = game.second.name if game.second else ""
    return {first: game.first.name, colour_other(first): second}


def _signatures_context(game: Game, user: AnyUser | None) -> dict[str, Any]:
    """What the signatures section shows: each signed version with its signatures (checked
    in the browser by verify.js), the version that made the record final, the rulings that
    corrected it, and whether this user may rule a correction (the game's arbiters)."""
    signed: dict[int, list[Any]] = {}
    for sig in selectors.game_signatures(game=game):
        signed.setdefault(sig.submission_id, []).append(sig)
    return {
        "signed_versions": [
            (subs[0].submission, subs) for subs in sorted(signed.values(), key=_version_of)
        ],
        "record_final": selectors.record_final(game=game),
        "can_rule": user_can_arbitrate(user=user, tournament=game.round.tournament),
        "corrections": game.irregularities.filter(kind=Irregularity.Kind.CORRECTION)
        .select_related("from_submission", "new_submission")
        .order_by("created_at", "id"),
    }


def _version_of(sigs: list[Any]) -> int:
    return int(sigs[0].submission.version)


@require_POST
def game_submit(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    upload = request.FILES.get("file")
    if upload is not None:
        raw, source, name = upload.read(), RecordSubmission.Source.FILE, upload.name or ""
    else:
        raw, source, name = request.POST.get("text", "").encode("utf-8"), "paste", ""
    if not raw.strip():
        return refusal(request, "empty record", status=400, back=_back(game))
    try:
        services.submission_create(
            game=game, raw=raw, source=source, filename=name, user=request.user
        )
    except PermissionDenied:
        return refusal(
            request,
            "only the game's combatants and arbiters submit its record",
            status=403,
            back=_back(game),
        )
    except Conflict as exc:
        return refusal(request, "; ".join(exc.messages), status=409, back=_back(game))
    except ValidationError as exc:
        return refusal(request, "; ".join(exc.messages), status=400, back=_back(game))
    return redirect("games:detail", pk=game.pk)


def game_status(request: HttpRequest, pk: int) -> JsonResponse:
    game = _game(pk)
    sub = selectors.submission_latest(game=game)
    if sub is None:
        return JsonResponse({"status": None})
    stale = sub.queued_at and timezone.now() - sub.queued_at > timedelta(seconds=60)
    waiting = (RecordSubmission.Status.QUEUED, RecordSubmission.Status.VALIDATING)
    if sub.status in waiting and stale:
        services.submission_requeue_stale()
    return JsonResponse(
        {
            "submission": sub.pk,
            "version": sub.version,
            "status": sub.status,
            "status_text": str(sub.get_status_display()),
            "valid": sub.valid,
            "plies": sub.plies,
            "error": sub.error,
            "warnings": sub.warnings,
            "termination": sub.termination or None,
            "winner": sub.winner or None,
            "clock": sub.clock,
            "locked": sub.locked,
            "needs_confirmation": selectors.record_needs_confirmation(submission=sub),
        }
    )


def game_board(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    try:
        sub_id = ascii_int_or_none(request.GET.get("submission"), field="submission")
    except ValidationError:
        return HttpResponseBadRequest("submission must be a record id (digits 0-9)")
    sub = (
        game.submissions.filter(pk=sub_id).first()
        if sub_id is not None
        else selectors.submission_latest(game=game)
    )
    if sub is None:
        return HttpResponse(status=404)
    positions, _, moves = selectors.record_replay(submission=sub)
    try:
        ply = int(request.GET.get("ply", len(positions) - 1))
    except ValueError:
        return HttpResponseBadRequest("ply must be a number")
    ply = max(0, min(ply, len(positions) - 1))
    # The move that led here is outlined (rules.drawing.last_move_svg).
    last = moves[ply - 1] if ply > 0 else None
    response = HttpResponse(render_svg(positions[ply], last=last), content_type="image/svg+xml")
    response["X-Position"] = position_to_string(positions[ply])
    response["X-Plies"] = str(len(positions) - 1)
    return response


def game_canonical(request: HttpRequest, pk: int) -> HttpResponse:
    """The exact text that is signed: the record as the writer writes it."""
    game = _game(pk)
    try:
        sub_id = ascii_int(request.GET.get("submission", ""), field="submission")
    except ValidationError:
        return HttpResponseBadRequest("submission must be a record id (digits 0-9)")
    sub = get_object_or_404(game.submissions, pk=sub_id)
    try:
        text = write_record(read_record(sub.text))
    except ValueError:
        return HttpResponseBadRequest("this record cannot be read, so it cannot be signed")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


def _json_body(request: HttpRequest) -> dict[str, Any] | None:
    try:
        # Bounded: nesting depth and control characters (klinzha_site.parsing).
        data = json_loads_bounded(request.body or b"{}")
    except ValidationError:
        return None
    return data if isinstance(data, dict) else None


@login_required
@require_POST
def key_register(request: HttpRequest) -> JsonResponse:
    data = _json_body(request)
    if data is None:
        return JsonResponse({"error": {"body": ["a JSON object is expected"]}}, status=400)
    try:
        key = services.signing_key_register(
            user=request.user,
            public_key=str(data.get("public_key", "")),
            label=str(data.get("label", "")),
        )
    except ValidationError as exc:
        return JsonResponse({"error": exc.message_dict}, status=400)
    return JsonResponse({"id": key.pk, "public_key": key.public_key}, status=201)


@login_required
@require_POST
def game_sign(request: HttpRequest, pk: int) -> JsonResponse:
    game = _game(pk)
    data = _json_body(request)
    submission = str(data.get("submission", "")) if data is not None else ""
    # ASCII digits only ("²" is a digit to str.isdigit but not to int), and an id's length.
    if not (submission.isascii() and submission.isdigit() and len(submission) < 19):
        return JsonResponse({"error": {"submission": ["a submission id is expected"]}}, status=400)
    sub = get_object_or_404(game.submissions, pk=int(submission))
    try:
        sig = services.signature_add(
            submission=sub,
            user=request.user,
            public_key=str(data.get("public_key", "")),
            signature=str(data.get("signature", "")),
        )
    except Conflict as exc:
        return JsonResponse({"error": exc.message_dict}, status=409)
    except ValidationError as exc:
        return JsonResponse({"error": exc.message_dict}, status=400)
    except PermissionDenied as exc:
        return JsonResponse({"error": str(exc)}, status=403)
    sub.refresh_from_db()
    return JsonResponse({"role": sig.role, "locked": sub.locked}, status=201)


@login_required
@require_POST
def game_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    try:
        services.game_result_confirm(
            game=game, user=request.user, result=request.POST.get("result") or None
        )
    except PermissionDenied as exc:
        return refusal(request, str(exc), status=403, back=_back(game))
    except ValidationError as exc:
        return refusal(request, "; ".join(exc.messages), status=400, back=_back(game))
    return redirect("games:detail", pk=game.pk)


@login_required
@require_POST
def game_clock(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    try:
        services.clock_adjustment_add(
            game=game,
            side=request.POST.get("side", ""),
            # As much as a penalty's amount can hold (999999.99 s), either way.
            seconds=ascii_int(
                request.POST.get("seconds", "0"),
                field="seconds",
                lo=-999_999,
                hi=999_999,
                signed=True,
            ),
            article=request.POST.get("article", "12.5"),
            # From this ply, or from the moment `at` (one of them: Art. 6.12, 12.4 b/c and
            # 12.5 act from when they are made, never on the readings before).
            from_ply=ascii_int_or_none(
                request.POST.get("from_ply"), field="from_ply", lo=1, hi=INT_MAX
            ),
            at=_when(request.POST.get("at", ""), "at"),
            reason=request.POST.get("reason", ""),
            user=request.user,
        )
    except PermissionDenied as exc:
        return refusal(request, str(exc), status=403, back=_back(game))
    except ValidationError as exc:
        return refusal(request, errors_text(exc), status=400, back=_back(game))
    return redirect("games:detail", pk=game.pk)


@login_required
@require_POST
def game_latecomers(request: HttpRequest, pk: int) -> HttpResponse:
    """Scheduled start and arrival times (Art. 6.8, 6.9), as the arbiter noted them."""
    game = _game(pk)
    try:
        # The round's scheduled start unless the arbiter gives another for this game.
        scheduled = _when(request.POST.get("scheduled", ""), "scheduled") or game.round.starts_at
        if scheduled is None:
            raise ValidationError(
                {"scheduled": gettext("give the scheduled start (or the round's)")}
            )
        services.latecomers_record(
            game=game,
            scheduled=scheduled,
            green_arrival=_when(request.POST.get("green_arrival", ""), "green_arrival"),
            gold_arrival=_when(request.POST.get("gold_arrival", ""), "gold_arrival"),
            running=request.POST.get("running") or None,
            user=request.user,
        )
    except PermissionDenied as exc:
        return refusal(request, str(exc), status=403, back=_back(game))
    except ValidationError as exc:
        return refusal(request, errors_text(exc), status=400, back=_back(game))
    return redirect("games:detail", pk=game.pk)


@login_required
@require_POST
def game_clock_revoke(request: HttpRequest, pk: int, adj: int) -> HttpResponse:
    """Revoke a clock adjustment or latecomer's charge (kept on record, audited)."""
    game = _game(pk)
    adjustment = get_object_or_404(ClockAdjustment, pk=adj, game=game)
    try:
        services.clock_adjustment_revoke(
            adjustment=adjustment, reason=request.POST.get("reason", ""), user=request.user
        )
    except PermissionDenied as exc:
        return refusal(request, str(exc), status=403, back=_back(game))
    except Conflict as exc:
        return refusal(request, "; ".join(exc.messages), status=409, back=_back(game))
    except ValidationError as exc:
        return refusal(request, "; ".join(exc.messages), status=400, back=_back(game))
    return redirect("games:detail", pk=game.pk)


def _when(text: str, field: str) -> Any:
    """A local date-time from a form (the tournament's time zone), or None when blank."""
    if not text.strip():
        return None
    try:
        value = parse_datetime(text.strip())
    except ValueError:  # well formed but not on the calendar (2026-02-30)
        value = None
    if value is None:
        raise ValidationError({field: gettext("a date and time like 2026-11-22T10:00")})
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    return value
