"""The arbiter's pages: tournaments, entrants, officials, pairing, the round console."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from games.models import Game, Irregularity, RecordSubmission
from games.services import bulk_upload, game_result_confirm, irregularity_declare
from tournaments import selectors, services
from tournaments.forms import (
    AccountForm,
    ByeRequestForm,
    EntrantForm,
    OfficialsForm,
    PenaltyForm,
    ResultForm,
    RevocationForm,
    TournamentForm,
)
from tournaments.models import PairingJob, Registration, Round, Tournament
from tournaments.roles import Role, user_is_organizer, user_role

View = Callable[..., HttpResponse]


def _field_errors(errors: Mapping[str, Sequence[str]]) -> str:
    return "; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items())


def _errors(exc: ValidationError) -> str:
    if hasattr(exc, "error_dict"):
        return _field_errors(exc.message_dict)
    return " ".join(exc.messages)


def _form_errors(form: BaseForm) -> str:
    return _field_errors(form.errors)


def tournament_role(role: Role) -> Callable[[View], View]:
    """Load the tournament of the URL and require `role` in it (403 otherwise). Service
    errors become messages on the page instead of 500s; nothing is half-saved because
    every service is one transaction."""

    def decorate(view: View) -> View:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            t = get_object_or_404(Tournament, slug=slug)
            if user_role(user=request.user, tournament=t) < role:
                raise PermissionDenied("you hold no such role in this tournament")
            try:
                return view(request, t, *args, **kwargs)
            except ValidationError as exc:
                messages.error(request, _errors(exc))
                if request.htmx:  # type: ignore[attr-defined]
                    return HttpResponse(status=204, headers={"HX-Refresh": "true"})
                return _back(request, t)

        return wrapped

    return decorate


def _manage_url(t: Tournament) -> str:
    return reverse("arbiter:manage", args=[t.slug])


def _round_url(t: Tournament, number: int) -> str:
    return reverse("arbiter:round", args=[t.slug, number])


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    user = request.user
    return render(
        request,
        "arbiter/dashboard.html",
        {
            "tournaments": selectors.tournament_list_officiated(user=user),
            "can_create": user_is_organizer(user),
        },
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not user_is_organizer(request.user):
        raise PermissionDenied("only organizers create tournaments")
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = services.tournament_create(organizer=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, _errors(exc))
        else:
            messages.success(request, f"{t.name} created")
            return redirect(_manage_url(t))
    return render(request, "arbiter/tournament_form.html", {"form": form})


@tournament_role(Role.ARBITER)
def manage(request: HttpRequest, t: Tournament) -> HttpResponse:
    role = user_role(user=request.user, tournament=t)
    regs = t.registrations.select_related("player__club", "player__user").order_by(
        "start_rank", "id"
    )
    return render(
        request,
        "arbiter/manage.html",
        {
            "t": t,
            "is_chief": role >= Role.CHIEF_ARBITER,
            "is_organizer": role >= Role.ORGANIZER,
            "settings_form": TournamentForm(instance=t),
            "officials_form": OfficialsForm(
                initial={
                    "chief_arbiter": t.chief_arbiter.get_username() if t.chief_arbiter else "",
                    "arbiters": ", ".join(a.get_username() for a in t.arbiters.all()),
                }
            ),
            "entrant_form": EntrantForm(),
            "registrations": regs,
            "rounds": t.rounds.all(),
            "next_round": t.rounds.count() + 1,
        },
    )


@require_POST
@tournament_role(Role.CHIEF_ARBITER)
def settings_update(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST, instance=Tournament.objects.get(pk=t.pk))
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect(_manage_url(t))
    changed = {k: form.cleaned_data[k] for k in form.changed_data if k in form.cleaned_data}
    if changed:
        services.tournament_update(tournament=t, user=request.user, **changed)
        messages.success(request, "settings saved")
    return redirect(_manage_url(t))


@require_POST
@tournament_role(Role.ORGANIZER)
def officials_update(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = OfficialsForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect(_manage_url(t))
    services.officials_set(
        tournament=t,
        user=request.user,
        chief_arbiter=form.cleaned_data["chief_arbiter"],
        arbiters=form.cleaned_data["arbiters"],
    )
    messages.success(request, "officials saved")
    return redirect(_manage_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def entrant_add(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = EntrantForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.non_field_errors()) or str(form.errors))
        return redirect(_manage_url(t))
    player = form.cleaned_data["player"]
    if player is None:
        player = services.player_create(
            name=form.cleaned_data["name"],
            club=form.cleaned_data["club"],
            rating=form.cleaned_data["rating"] or 0,
            user=request.user,
        )
    reg = services.registration_create(tournament=t, player=player, user=request.user)
    messages.success(request, f"{player.name} registered from round {reg.first_round}")
    return redirect(_manage_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def entrant_withdraw(request: HttpRequest, t: Tournament, player_id: int) -> HttpResponse:
    reg = get_object_or_404(Registration, tournament=t, player_id=player_id)
    services.registration_withdraw(registration=reg, user=request.user)
    messages.success(request, f"{reg.player.name} withdrawn")
    return redirect(_manage_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def bye_request(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = ByeRequestForm(request.POST)
    if form.is_valid():
        reg = get_object_or_404(Registration, tournament=t, player=form.cleaned_data["player"])
        services.bye_request_create(
            registration=reg, round_number=form.cleaned_data["round_number"], user=request.user
        )
        messages.success(request, "bye requested")
    else:
        messages.error(request, str(form.errors))
    return redirect(_manage_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def account_link(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = AccountForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect(_manage_url(t))
    player = form.cleaned_data["player"]
    if not t.registrations.filter(player=player).exists():
        raise ValidationError({"player": "not an entrant of this tournament"})
    services.player_link_user(
        player=player, account=form.cleaned_data["account"], user=request.user
    )
    messages.success(request, f"account of {player.name} saved")
    return redirect(_manage_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def records_upload(request: HttpRequest, t: Tournament) -> HttpResponse:
    upload = request.FILES.get("file")
    if upload is None:
        raise ValidationError({"file": "choose a zip of records or a record"})
    ids = bulk_upload(
        tournament=t, data=upload.read(), filename=upload.name or "", user=request.user
    )
    subs = RecordSubmission.objects.filter(pk__in=ids)
    matched = sum(1 for s in subs if s.game_id)
    messages.success(request, f"{len(ids)} records stored, {matched} matched to their games")
    for s in subs:
        if not s.game_id:
            messages.warning(request, f"{s.filename}: {s.match_note}")
    return redirect(_manage_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def pair(request: HttpRequest, t: Tournament) -> HttpResponse:
    field = t.registrations.filter(status=Registration.Status.ACTIVE).count()
    if field >= services.PAIR_IN_WORKER_FROM or request.POST.get("background"):
        job = services.pairing_job_create(tournament=t, user=request.user)
        return redirect(reverse("arbiter:pairing-job", args=[t.slug, job.pk]))
    rnd = services.round_pair(tournament=t, user=request.user, publish=False)
    messages.success(request, f"round {rnd.number} proposed: check it, edit it, publish it")
    return redirect(_round_url(t, rnd.number))


@tournament_role(Role.ARBITER)
def pairing_job(request: HttpRequest, t: Tournament, job_id: int) -> HttpResponse:
    """A pairing running in a worker: its progress, polled; the round once it is done."""
    job = get_object_or_404(PairingJob, pk=job_id, tournament=t)
    state = selectors.pairing_job_state(job=job)
    if job.status == PairingJob.Status.DONE:
        url = _round_url(t, job.round_number)
        if request.htmx:  # type: ignore[attr-defined]
            return HttpResponse(status=204, headers={"HX-Redirect": url})
        return redirect(url)
    return render(request, "arbiter/pairing_job.html", {"t": t, "job": job, "state": state})


def _round(t: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=t, number=number)


@tournament_role(Role.ARBITER)
def round_console(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    rnd = _round(t, number)
    context: dict[str, Any] = {
        "t": t,
        "round": rnd,
        "rows": selectors.console_rows(round=rnd),
        "result_choices": ResultForm.base_fields["result"].choices,  # type: ignore[attr-defined]
        "penalty_form": PenaltyForm(),
        "penalties": selectors.penalty_list(tournament=t, user=request.user).filter(
            round_number=number
        ),
        "user_pk": request.user.pk,
        "irregularity_kinds": Irregularity.Kind.choices,
        "irregularities": Irregularity.objects.filter(game__round=rnd).select_related("game"),
    }
    if rnd.status == Round.Status.DRAFT:
        ids = {g.first_id for g in rnd.games.all()} | {
            g.second_id for g in rnd.games.all() if g.second_id
        }
        context["players"] = t.registrations.filter(player_id__in=ids).select_related("player")
    template = "arbiter/_games.html" if request.htmx else "arbiter/round.html"  # type: ignore[attr-defined]
    return render(request, template, context)


_BOARD_FIELD = re.compile(r"board-([0-9]+)-(?:first|second)")


@require_POST
@tournament_role(Role.ARBITER)
def round_edit(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    """The hand-edited pairings: one first/second pair of player ids per board."""
    rnd = _round(t, number)
    pairings: list[tuple[int, int | None]] = []
    boards = sorted({int(m[1]) for k in request.POST if (m := _BOARD_FIELD.fullmatch(k))})
    for b in boards:
        first = request.POST.get(f"board-{b}-first", "")
        second = request.POST.get(f"board-{b}-second", "")
        if not first and not second:
            continue
        if not first.isdigit() or (second and not second.isdigit()):
            raise ValidationError({"pairings": f"board {b}: choose the first placer"})
        pairings.append((int(first), int(second) if second else None))
    warnings = services.round_pairings_edit(round=rnd, pairings=pairings, user=request.user)
    if warnings:
        messages.warning(request, "pairings saved with warnings: " + "; ".join(warnings))
    else:
        messages.success(request, "pairings saved; no rule is broken")
    return redirect(_round_url(t, number))


@require_POST
@tournament_role(Role.ARBITER)
def round_publish(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    services.round_publish(round=_round(t, number), user=request.user)
    messages.success(request, f"round {number} published")
    return redirect(_round_url(t, number))


@require_POST
@tournament_role(Role.ARBITER)
def round_discard(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    services.round_discard(round=_round(t, number), user=request.user)
    messages.success(request, f"proposed round {number} discarded")
    return redirect(_manage_url(t))


def _game(t: Tournament, game_id: int) -> Game:
    return get_object_or_404(Game, pk=game_id, round__tournament=t)


def _back_to_round(request: HttpRequest, t: Tournament, game: Game) -> HttpResponse:
    if request.htmx:  # type: ignore[attr-defined]
        return round_console(request, t.slug, game.round.number)
    return redirect(_round_url(t, game.round.number))


@require_POST
@tournament_role(Role.ARBITER)
def result_enter(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    game = _game(t, game_id)
    form = ResultForm(request.POST)
    if not form.is_valid():
        raise ValidationError({"result": "choose a result"})
    services.game_result_set(game=game, result=form.cleaned_data["result"], user=request.user)
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def result_from_record(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    game = _game(t, game_id)
    game_result_confirm(game=game, user=request.user)
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def result_countersign(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    game = _game(t, game_id)
    services.game_result_countersign(game=game, user=request.user)
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def game_timeout(request: HttpRequest, t: Tournament, game_id: int) -> HttpResponse:
    from games.services import game_timeout_decide

    game = _game(t, game_id)
    decision = game_timeout_decide(game=game, user=request.user)
    messages.success(request, f"board {game.board}: {decision.explanation}")
    return _back_to_round(request, t, game)


@require_POST
@tournament_role(Role.ARBITER)
def irregularity(request: HttpRequest, t: Tournament) -> HttpResponse:
    game_id = request.POST.get("game", "")
    if not game_id.isdigit():
        raise ValidationError({"game": "choose a game"})
    game = _game(t, int(game_id))
    ruling = irregularity_declare(
        game=game,
        kind=request.POST.get("kind", ""),
        reason=request.POST.get("reason", ""),
        user=request.user,
    )
    messages.success(request, f"board {game.board}: {ruling.get_kind_display()}")
    return redirect(_round_url(t, game.round.number))


@require_POST
@tournament_role(Role.ARBITER)
def penalty_impose(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = PenaltyForm(request.POST)
    if not form.is_valid():
        raise ValidationError({k: " ".join(v) for k, v in form.errors.items()})
    data = form.cleaned_data
    game = data["game"]
    penalty = services.penalty_impose(
        tournament=t,
        player=data["player"],
        kind=data["kind"],
        reason=data["reason"],
        user=request.user,
        game=game,
        round_number=int(rn) if (rn := request.POST.get("round_number", "")).isdigit() else None,
        amount=data["amount"],
    )
    messages.success(request, f"penalty recorded: {penalty.get_kind_display()}")
    return _back(request, t)


@require_POST
@tournament_role(Role.ARBITER)
def penalty_revoke(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = RevocationForm(request.POST)
    if not form.is_valid() or form.cleaned_data["penalty"].tournament_id != t.pk:
        raise ValidationError({"penalty": "choose a penalty of this tournament and say why"})
    services.penalty_revoke(
        penalty=form.cleaned_data["penalty"], reason=form.cleaned_data["reason"], user=request.user
    )
    messages.success(request, "penalty revoked")
    return _back(request, t)


def _back(request: HttpRequest, t: Tournament) -> HttpResponse:
    """To the page the form was on, if it is one of ours; else to the tournament."""
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(referer)
    return HttpResponseRedirect(_manage_url(t))


@tournament_role(Role.ARBITER)
def audit(request: HttpRequest, t: Tournament) -> HttpResponse:
    from tournaments.audit import audit_verify

    player = request.GET.get("player", "")
    rows = (
        selectors.audit_for_player(tournament=t, player_id=int(player))
        if player.isdigit()
        else t.audit.all()
    )
    intact, checked, problem = audit_verify(tournament=t)
    return render(
        request,
        "arbiter/audit.html",
        {
            "t": t,
            "rows": rows.order_by("-seq")[:500],
            "intact": intact,
            "checked": checked,
            "problem": problem,
            "players": t.registrations.select_related("player"),
            "player": player,
        },
    )
