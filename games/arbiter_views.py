"""The arbiter's round console: a round's games with their records, verdicts, signatures and
results, and the rulings made from it (results, confirmations, time-outs, irregularities,
results that contradict a signed record, records uploaded in bulk); and the arbiter's
dashboard, which counts those contradictions across the user's events."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games import selectors, services
from games.disagreement_selectors import result_disagreements, tournament_disagreements
from games.models import Irregularity, RecordSubmission
from klinzha_site.parsing import ascii_int
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.arbiter_views import round_get
from tournaments.forms import RESULT_CODE_OF, PenaltyForm, ResultForm, result_code_parse
from tournaments.models import Game, Round, Tournament
from tournaments.permissions import manage_url, round_url, tournament_role
from tournaments.roles import Role, user_is_organizer

# The same ruling under the Italian society's rules (rulings.irregularity_declare).
ITALIAN_ANNUL = _("7.3 No legal position can be restored: annulled and replayed (Italian society)")


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The events the user officiates, with the results that contradict a signed record."""
    user = request.user
    tournaments = list(tournament_selectors.tournament_list_officiated(user=user))
    disagreements = tournament_disagreements(tournaments=tournaments)
    for t in tournaments:
        t.disagreements = [d for d in disagreements if d.game.round.tournament_id == t.pk]
    return render(
        request,
        "arbiter/dashboard.html",
        {
            "tournaments": tournaments,
            "disagreements": disagreements,
            "can_create": user_is_organizer(user),
        },
    )


@tournament_role(Role.ARBITER)
def round_console(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    rnd = round_get(t, number)
    context = _console_context(request, t, rnd)
    template = "arbiter/_games.html" if request.htmx else "arbiter/round.html"  # type: ignore[attr-defined]
    return render(request, template, context)


def _console_context(
    request: HttpRequest,
    t: Tournament,
    rnd: Round,
    typed: dict[int, str] | None = None,
    errors: dict[int, str] | None = None,
) -> dict[str, Any]:
    number = rnd.number
    italian = t.ruleset == Tournament.Ruleset.ITALIAN_SOCIETY
    context: dict[str, Any] = {
        "t": t,
        "round": rnd,
        "rows": selectors.console_rows(round=rnd),
        "result_choices": [
            (value, label)
            for value, label in ResultForm.base_fields["result"].choices  # type: ignore[attr-defined]
            # The Italian society's tournaments have no draws: not offered.
            if value != Game.Result.DRAW or not italian
        ],
        "penalty_form": PenaltyForm(tournament=t),
        "penalties": tournament_selectors.penalty_list(tournament=t, user=request.user).filter(
            round_number=number
        ),
        "user_pk": request.user.pk,
        "irregularity_kinds": [
            (value, ITALIAN_ANNUL if value == Irregularity.Kind.DRAW and italian else label)
            for value, label in Irregularity.Kind.choices
        ],
        "irregularities": Irregularity.objects.filter(game__round=rnd).select_related("game"),
        "has_results": rnd.games.exclude(result=Game.Result.PENDING).exists(),
        "last_round": t.rounds.count(),
        "round_numbers": list(t.rounds.order_by("number").values_list("number", flat=True)),
        "grid_errors": bool(errors),
    }
    context["next_round"] = context["last_round"] + 1
    # The grid's boxes open blank (a stray Enter saves nothing); after a refusal they keep
    # what was typed, with each board's error beside it.
    disagreements = result_disagreements(games=[row.game for row in context["rows"]])
    for row in context["rows"]:
        row.game.disagreement = disagreements.get(row.game.pk)
        row.game.grid_value = (typed or {}).get(row.game.board, "")
        row.game.grid_error = (errors or {}).get(row.game.board, "")
        row.game.grid_code = RESULT_CODE_OF.get(row.game.result, "")
    if rnd.status == Round.Status.DRAFT:
        ids = {g.first_id for g in rnd.games.all()} | {
            g.second_id for g in rnd.games.all() if g.second_id
        }
        context["players"] = t.registrations.filter(player_id__in=ids).select_related("player")
    return context


_GRID_FIELD = re.compile(r"result-([0-9]{1,5})")


@require_POST
@tournament_role(Role.ARBITER)
def results_grid(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    """The round's results typed in the grid, saved at once: all of them or, when a board
    is refused, none, and the page again with every refused board marked (400)."""
    rnd = round_get(t, number)
    typed: dict[int, str] = {}
    results: dict[int, str] = {}
    errors: dict[int, str] = {}
    for key, value in request.POST.items():
        m = _GRID_FIELD.fullmatch(key)
        if m is None or not value.strip():
            continue
        board = int(m[1])
        typed[board] = value[:12]
        try:
            results[board] = result_code_parse(value)
        except ValidationError as exc:
            errors[board] = " ".join(exc.messages)
    if not errors and results:
        try:
            saved = tournament_services.round_results_set(
                round=rnd, results=results, user=request.user
            )
        except ValidationError as exc:
            refusals = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
            for key, messages_ in refusals.items():
                m = re.fullmatch(r"board ([0-9]+)", key)
                errors[int(m[1]) if m else 0] = " ".join(messages_)
        else:
            messages.success(
                request,
                ngettext(
                    "round %(number)d: %(count)d result saved",
                    "round %(number)d: %(count)d results saved",
                    len(saved),
                )
                % {"number": number, "count": len(saved)},
            )
            return redirect(round_url(t, number))
    elif not errors:
        messages.info(request, _("no result typed: nothing saved"))
        return redirect(round_url(t, number))
    context = _console_context(request, t, rnd, typed=typed, errors=errors)
    context["grid_other_errors"] = [e for b, e in errors.items() if b not in typed]
    return render(request, "arbiter/round.html", context, status=400)


def _game(t: Tournament, game_id: int) -> Game:
    return get_object_or_404(Game, pk=game_id, round__tournament=t)


def _back_to_round(request: HttpRequest, t: Tournament, game: Game) -> HttpResponse:
    if request.htmx:  # type: ignore[attr-defined]
        return round_console(request, t.slug, game.round.number)
    return redirect(round_url(t, game.round.number))


@require_POST
@tournament_role(Role.ARBITER)
def result_enter(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    game = _game(t, game_id)
    form = ResultForm(request.POST)
    if not form.is_valid():
        raise ValidationError({"result": gettext("choose a result")})
    tournament_services.game_result_set(
        game=game, result=form.cleaned_data["result"], user=request.user
    )
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def result_from_record(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    game = _game(t, game_id)
    services.game_result_confirm(game=game, user=request.user)
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def result_disagreement(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    """The ruling that ends a disagreement between the entered result and the signed record."""
    game = _game(t, game_id)
    services.result_disagreement_rule(
        game=game,
        decision=request.POST.get("decision", ""),
        reason=request.POST.get("reason", ""),
        user=request.user,
        entered=request.POST.get("entered") or None,
    )
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def record_requeue(request: HttpRequest, t: Tournament, submission_id: int) -> HttpResponse:
    """A record whose validation failed, queued again (games.services.submission_retry)."""
    sub = get_object_or_404(
        RecordSubmission.objects.filter(Q(tournament=t) | Q(game__round__tournament=t)),
        pk=submission_id,
    )
    services.submission_retry(submission=sub, user=request.user)
    if sub.game is None:
        return redirect(manage_url(t))
    return _back_to_round(request, t, sub.game)


@require_POST
@tournament_role(Role.ARBITER)
def result_countersign(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    game = _game(t, game_id)
    tournament_services.game_result_countersign(game=game, user=request.user)
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def game_timeout(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    game = _game(t, game_id)
    decision = services.game_timeout_decide(game=game, user=request.user)
    messages.success(
        request,
        _("board %(board)d: %(what)s") % {"board": game.board, "what": decision.explanation},
    )
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def irregularity(request: HttpRequest, t: Tournament) -> HttpResponse:
    game = _game(t, ascii_int(request.POST.get("game", ""), field="game"))
    if request.POST.get("kind") == Irregularity.Kind.CORRECTION:
        ruling = services.record_correction_rule(
            game=game,
            raw=request.POST.get("text", "").encode("utf-8"),
            reason=request.POST.get("reason", ""),
            user=request.user,
        )
    else:
        ruling = services.irregularity_declare(
            game=game,
            kind=request.POST.get("kind", ""),
            reason=request.POST.get("reason", ""),
            user=request.user,
        )
    messages.success(
        request,
        _("board %(board)d: %(what)s") % {"board": game.board, "what": ruling.get_kind_display()},
    )
    return redirect(round_url(t, game.round.number))


@require_POST
@tournament_role(Role.ARBITER)
def records_upload(request: HttpRequest, t: Tournament) -> HttpResponse:
    upload = request.FILES.get("file")
    if upload is None:
        raise ValidationError({"file": gettext("choose a zip of records or a record")})
    services.upload_size_check(upload.size)
    stored = services.bulk_upload(
        tournament=t, data=upload.read(), filename=upload.name or "", user=request.user
    )
    messages.success(
        request,
        _("%(stored)d records stored, %(matched)d matched to their games")
        % {"stored": len(stored.submissions), "matched": stored.matched},
    )
    for s in stored.submissions:
        if not s.game_id:
            messages.warning(request, f"{s.filename}: {s.match_note}")
    return redirect(manage_url(t))
