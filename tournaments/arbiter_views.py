"""The arbiter's pages of the tournament: settings, officials, entrants, pairing and
proposed rounds, penalties and the audit trail (the dashboard, which counts results that
contradict a signed record, the round console and the record pages are the games app's)."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from klinzha_site.parsing import ID_MAX, SMALL_MAX, ascii_int, ascii_int_or_none
from tournaments import audit_selectors, desk_selectors, pairing_selectors, selectors, services
from tournaments.audit import ACTION_LABELS, audit_verify
from tournaments.audit_sentences import audit_sentences
from tournaments.check_in_selectors import check_in_window_for
from tournaments.event_system_selectors import knockout_rounds_check
from tournaments.forms import (
    AccountForm,
    ByeRequestForm,
    EntrantForm,
    OfficialsForm,
    PenaltyForm,
    RevocationForm,
    ScheduleForm,
    StartRankForm,
    TournamentForm,
)
from tournaments.models import PairingJob, Registration, Round, Tournament
from tournaments.permissions import (
    errors_text,
    form_errors_text,
    manage_url,
    redirect_back,
    round_url,
    tournament_role,
)
from tournaments.roles import Role, role_require, user_is_organizer, user_role
from tournaments.time_control_form import time_control_preview
from tournaments.trf_export import tournament_trf


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not user_is_organizer(request.user):
        raise PermissionDenied(gettext("only organizers create tournaments"))
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = services.tournament_create(organizer=request.user, **form.cleaned_data)
        except ValidationError as exc:
            _errors_beside_fields(form, exc)
        else:
            messages.success(request, _("%(name)s created") % {"name": t.name})
            return redirect(manage_url(t))
    status = 400 if form.errors else 200
    return render(request, "arbiter/tournament_form.html", {"form": form}, status=status)


def _errors_beside_fields(form: TournamentForm, exc: ValidationError) -> None:
    """A service's refusal shown beside the fields it names (the rest above the form)."""
    found = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
    for key, found_messages in found.items():
        for message in found_messages:
            form.add_error(key if key in form.fields else None, message)


_PREVIEW_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,40}")


@login_required
def time_control_preview_view(request: HttpRequest) -> HttpResponse:
    """How a time control typed in the event form reads (htmx swaps it under the box)."""
    written = request.GET.get("time_control", "")[:120]
    box = request.GET.get("id", "")
    return render(
        request,
        "arbiter/widgets/time_control_preview.html",
        {
            "id": box if _PREVIEW_ID.fullmatch(box) else "id_time_control",
            "preview": time_control_preview(written),
        },
    )


@tournament_role(Role.ARBITER)
def manage(request: HttpRequest, t: Tournament) -> HttpResponse:
    return _manage_page(request, t)


def _manage_page(
    request: HttpRequest,
    t: Tournament,
    settings_form: TournamentForm | None = None,
    entrant_form: EntrantForm | None = None,
    added: str = "",
) -> HttpResponse:
    role = user_role(user=request.user, tournament=t)
    regs = list(
        t.registrations.select_related("player__club", "player__user").order_by("start_rank", "id")
    )
    rounds = list(t.rounds.all())
    byes = desk_selectors.byes_pending(tournament=t, from_round=len(rounds) + 1)
    asked = desk_selectors.byes_asked(tournament=t, from_round=len(rounds) + 1)
    for reg in regs:
        reg.byes_pending = byes.get(reg.player_id, [])  # type: ignore[attr-defined]
        reg.byes_asked = asked.get(reg.player_id, [])  # type: ignore[attr-defined]
    return render(
        request,
        "arbiter/manage.html",
        {
            "t": t,
            "is_chief": role >= Role.CHIEF_ARBITER,
            "is_organizer": role >= Role.ORGANIZER,
            "settings_form": settings_form or TournamentForm(instance=t),
            "settings_refused": settings_form is not None,
            "officials_form": OfficialsForm(
                initial={
                    "chief_arbiter": t.chief_arbiter.get_username() if t.chief_arbiter else "",
                    "arbiters": ", ".join(a.get_username() for a in t.arbiters.all()),
                }
            ),
            "entrant_form": entrant_form or EntrantForm(),
            "added": added,
            "penalties": selectors.penalty_list(tournament=t, user=request.user).order_by(
                "created_at"
            ),
            "registrations": regs,
            "rounds": rounds,
            "next_round": len(rounds) + 1,
            "paired_rounds": len(rounds),
            "pair_offered": desk_selectors.round_pair_offered(tournament=t, rounds=rounds),
            "check_in_window": check_in_window_for(tournament=t, round_number=len(rounds) + 1),
            "rounds_warning": knockout_rounds_check(tournament=t),
            "plans": desk_selectors.round_plans_ahead(tournament=t, paired=len(rounds)),
        },
    )


@require_POST
@tournament_role(Role.CHIEF_ARBITER)
def settings_update(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST, instance=Tournament.objects.get(pk=t.pk))
    if not form.is_valid():
        # The page again with every error beside its field, what was typed kept.
        response = _manage_page(request, t, settings_form=form)
        response.status_code = 400
        return response
    changed = {k: form.cleaned_data[k] for k in form.changed_data if k in form.cleaned_data}
    if changed:
        try:
            services.tournament_update(tournament=t, user=request.user, **changed)
        except ValidationError as exc:
            _errors_beside_fields(form, exc)
            response = _manage_page(request, t, settings_form=form)
            response.status_code = 400
            return response
        messages.success(request, _("settings saved"))
    return redirect(manage_url(t))


@require_POST
@tournament_role(Role.ORGANIZER)
def officials_update(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = OfficialsForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_text(form))
        return redirect(manage_url(t))
    services.officials_set(
        tournament=t,
        user=request.user,
        chief_arbiter=form.cleaned_data["chief_arbiter"],
        arbiters=form.cleaned_data["arbiters"],
    )
    messages.success(request, _("officials saved"))
    return redirect(manage_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def entrant_add(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = EntrantForm(request.POST)
    htmx = bool(request.htmx)  # type: ignore[attr-defined]
    if not form.is_valid():
        if htmx:  # the entrants' section again, the errors beside the fields (htmx swaps 2xx)
            return _manage_page(request, t, entrant_form=form)
        messages.error(request, " ".join(form.non_field_errors()) or str(form.errors))
        return redirect(manage_url(t))
    try:
        reg = services.entrant_register(
            tournament=t,
            player=form.cleaned_data["player"],
            name=form.cleaned_data["name"],
            club=form.cleaned_data["club"],
            rating=form.cleaned_data["rating"],
            user=request.user,
        )
    except ValidationError as exc:
        if not htmx:
            raise
        for key, texts in exc.message_dict.items() if hasattr(exc, "error_dict") else []:
            form.add_error(key if key in form.fields else None, " ".join(texts))
        if not hasattr(exc, "error_dict"):
            form.add_error(None, " ".join(exc.messages))
        return _manage_page(request, t, entrant_form=form)
    text = _("%(name)s registered from round %(round)d") % {
        "name": reg.player.name,
        "round": reg.first_round,
    }
    if htmx:  # one by one without a reload: the list and an empty form for the next
        return _manage_page(request, t, added=text)
    messages.success(request, text)
    return redirect(manage_url(t) + "#entrants")


def _registration(t: Tournament, player_id: int) -> Registration:
    """The entrant of the URL; 404 also for an id no database column holds."""
    if not 0 < player_id <= ID_MAX:
        raise Http404(gettext("no such entrant"))
    return get_object_or_404(
        Registration.objects.select_related("player"), tournament=t, player_id=player_id
    )


@require_http_methods(["GET", "POST"])
@tournament_role(Role.ARBITER)
def entrant_withdraw(request: HttpRequest, t: Tournament, player_id: int) -> HttpResponse:
    """GET asks to confirm (what the withdrawal does, and until when it can be undone);
    POST withdraws."""
    reg = _registration(t, player_id)
    if request.method == "GET":
        return render(
            request,
            "arbiter/withdraw_confirm.html",
            {"t": t, "reg": reg, "paired": t.rounds.count()},
        )
    services.registration_withdraw(registration=reg, user=request.user)
    messages.success(
        request,
        _(
            "%(name)s withdrawn from round %(round)d on: 'Undo withdrawal' on the entrants' "
            "list takes it back until the next round is paired"
        )
        % {"name": reg.player.name, "round": t.rounds.count() + 1},
    )
    return redirect(manage_url(t) + "#entrants")


@require_POST
@tournament_role(Role.ARBITER)
def entrant_withdrawal_undo(request: HttpRequest, t: Tournament, player_id: int) -> HttpResponse:
    reg = _registration(t, player_id)
    services.registration_withdrawal_undo(registration=reg, user=request.user)
    messages.success(request, _("%(name)s is playing again") % {"name": reg.player.name})
    return redirect(manage_url(t) + "#entrants")


@require_POST
@tournament_role(Role.ARBITER)
def start_ranks(request: HttpRequest, t: Tournament) -> HttpResponse:
    """Seed again by rating, or move one entrant to a start rank (until round 1)."""
    if request.POST.get("sort"):
        services.start_ranks_sort(tournament=t, user=request.user)
        messages.success(request, _("entrants seeded by rating"))
        return redirect(manage_url(t) + "#entrants")
    form = StartRankForm(request.POST)
    if not form.is_valid():
        raise ValidationError(form.errors)
    reg = get_object_or_404(Registration, tournament=t, player=form.cleaned_data["player"])
    services.start_rank_move(registration=reg, rank=form.cleaned_data["rank"], user=request.user)
    messages.success(
        request,
        _("%(name)s moved to start rank %(rank)d")
        % {"name": reg.player.name, "rank": form.cleaned_data["rank"]},
    )
    return redirect(manage_url(t) + "#entrants")


@require_POST
@tournament_role(Role.ARBITER)
def bye_request(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = ByeRequestForm(request.POST)
    if form.is_valid():
        reg = get_object_or_404(Registration, tournament=t, player=form.cleaned_data["player"])
        services.bye_request_create(
            registration=reg, round_number=form.cleaned_data["round_number"], user=request.user
        )
        messages.success(request, _("bye requested"))
    else:
        messages.error(request, form_errors_text(form))
    return redirect(manage_url(t) + "#entrants")


@require_POST
@tournament_role(Role.ORGANIZER)  # players are shared: roles.user_may_edit_player decides
def account_link(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = AccountForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_text(form))
        return redirect(manage_url(t) + "#entrants")
    player = form.cleaned_data["player"]
    if not t.registrations.filter(player=player).exists():
        raise ValidationError({"player": gettext("not an entrant of this tournament")})
    services.player_link_user(
        player=player, account=form.cleaned_data["account"], user=request.user
    )
    messages.success(request, _("account of %(name)s saved") % {"name": player.name})
    return redirect(manage_url(t) + "#entrants")


@require_POST
@tournament_role(Role.ARBITER)
def pair(request: HttpRequest, t: Tournament) -> HttpResponse:
    field = t.registrations.filter(status=Registration.Status.ACTIVE).count()
    if field >= services.PAIR_IN_WORKER_FROM or request.POST.get("background"):
        job = services.pairing_job_create(tournament=t, user=request.user)
        return redirect(reverse("arbiter:pairing-job", args=[t.slug, job.pk]))
    rnd = services.round_pair(tournament=t, user=request.user, publish=False)
    messages.success(
        request,
        _("round %(number)d proposed: check it, edit it, publish it") % {"number": rnd.number},
    )
    return redirect(round_url(t, rnd.number))


@tournament_role(Role.ARBITER)
def pairing_job(request: HttpRequest, t: Tournament, job_id: int) -> HttpResponse:
    """A pairing running in a worker: its progress, polled; the round once it is done."""
    job = get_object_or_404(PairingJob, pk=job_id, tournament=t)
    state = pairing_selectors.pairing_job_state(job=job)
    if job.status == PairingJob.Status.DONE:
        url = round_url(t, job.round_number)
        if request.htmx:  # type: ignore[attr-defined]
            return HttpResponse(status=204, headers={"HX-Redirect": url})
        return redirect(url)
    return render(request, "arbiter/pairing_job.html", {"t": t, "job": job, "state": state})


def round_get(t: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=t, number=number)


_BOARD_FIELD = re.compile(r"board-([0-9]+)-(?:first|second)")


@require_POST
@tournament_role(Role.ARBITER)
def round_edit(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    """The hand-edited pairings: one first/second pair of player ids per board."""
    rnd = round_get(t, number)
    pairings: list[tuple[int, int | None]] = []
    boards = sorted({int(m[1]) for k in request.POST if (m := _BOARD_FIELD.fullmatch(k))})
    for b in boards:
        first = request.POST.get(f"board-{b}-first", "")
        second = request.POST.get(f"board-{b}-second", "")
        if not first and not second:
            continue
        if not first:
            raise ValidationError(
                {"pairings": gettext("board %(b)s: choose the first placer") % {"b": b}}
            )
        where = f"board {b}"
        pairings.append((ascii_int(first, field=where), ascii_int_or_none(second, field=where)))
    warnings = services.round_pairings_edit(round=rnd, pairings=pairings, user=request.user)
    if warnings:
        messages.warning(
            request,
            _("pairings saved with warnings: %(warnings)s") % {"warnings": "; ".join(warnings)},
        )
    else:
        messages.success(request, _("pairings saved; no rule is broken"))
    return redirect(round_url(t, number))


@require_POST
@tournament_role(Role.ARBITER)
def round_publish(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    services.round_publish(round=round_get(t, number), user=request.user)
    messages.success(request, _("round %(number)d published") % {"number": number})
    return redirect(round_url(t, number))


@require_POST
@tournament_role(Role.ARBITER)
def round_schedule(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    form = ScheduleForm(request.POST)
    if not form.is_valid():
        raise ValidationError(form.errors)
    scheduled = services.round_schedule_ahead(
        tournament=t,
        number=number,
        starts_at=form.cleaned_data["starts_at"],
        place=form.cleaned_data["place"],
        user=request.user,
    )
    messages.success(request, _("round %(number)d scheduled") % {"number": number})
    if isinstance(scheduled, Round):
        return redirect(round_url(t, number))
    return redirect(reverse("arbiter:manage", args=[t.slug]) + "#rounds")


@require_POST
@tournament_role(Role.ARBITER)
def round_unpublish(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    services.round_unpublish(round=round_get(t, number), user=request.user)
    messages.success(
        request,
        _("round %(number)d taken back: edit it, or discard and pair again") % {"number": number},
    )
    return redirect(round_url(t, number))


@require_POST
@tournament_role(Role.ARBITER)
def round_discard(request: HttpRequest, t: Tournament, number: int) -> HttpResponse:
    """Discard a proposal; one edited by hand is first confirmed (on a page of its own, so
    that it needs no script: the edits would be lost)."""
    rnd = round_get(t, number)
    if not request.POST.get("confirm") and desk_selectors.round_hand_edited(round=rnd):
        return render(request, "arbiter/discard_confirm.html", {"t": t, "round": rnd})
    services.round_discard(round=rnd, user=request.user)
    messages.success(request, _("proposed round %(number)d discarded") % {"number": number})
    return redirect(manage_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def penalty_impose(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = PenaltyForm(request.POST, tournament=t)
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
        round_number=ascii_int_or_none(
            request.POST.get("round_number"), field="round_number", lo=1, hi=SMALL_MAX
        ),
        amount=data["amount"],
        from_ply=data["from_ply"],
    )
    messages.success(
        request, _("penalty recorded: %(kind)s") % {"kind": penalty.get_kind_display()}
    )
    return redirect_back(request, t)


@require_POST
@tournament_role(Role.ARBITER)
def penalty_revoke(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = RevocationForm(request.POST)
    if not form.is_valid():
        raise ValidationError(
            {"penalty": gettext("choose a penalty of this tournament and say why")}
        )
    if form.cleaned_data["penalty"].tournament_id != t.pk:
        # Another event's penalty: that event's business (403) unless one arbitrates it too.
        role_require(
            user=request.user, tournament=form.cleaned_data["penalty"].tournament, role=Role.ARBITER
        )
        raise ValidationError(
            {"penalty": gettext("choose a penalty of this tournament and say why")}
        )
    services.penalty_revoke(
        penalty=form.cleaned_data["penalty"], reason=form.cleaned_data["reason"], user=request.user
    )
    messages.success(request, _("penalty revoked"))
    return redirect_back(request, t)


@tournament_role(Role.ARBITER)
def export_trf(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The tournament as a FIDE TRF file in the dialect it came in (the same as `kz trf
    export`); `?shift=1` the export for pairing engines (`kz trf export --shift`)."""
    shift = request.GET.get("shift") == "1"
    text = tournament_trf(tournament=t, shift=shift)
    name = f"{t.slug}-shifted.trf" if shift else f"{t.slug}.trf"
    return HttpResponse(
        text.encode("utf-8"),
        content_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@tournament_role(Role.ARBITER)
def audit(request: HttpRequest, t: Tournament) -> HttpResponse:
    player = request.GET.get("player", "")
    try:
        player_id = ascii_int_or_none(player, field="player")
    except ValidationError as exc:
        return HttpResponseBadRequest(errors_text(exc))
    rows = (
        audit_selectors.audit_for_player(tournament=t, player_id=player_id)
        if player_id is not None
        else t.audit.all()
    )
    intact, checked, problem = audit_verify(tournament=t)
    shown = list(rows.order_by("-seq")[:500])
    labels = audit_selectors.audit_object_labels(entries=shown)
    sentences = audit_sentences(entries=shown, labels=labels, action_labels=ACTION_LABELS)
    for e, sentence in zip(shown, sentences, strict=True):
        e.action_label = ACTION_LABELS.get(e.action, e.action)
        e.sentence = sentence
    return render(
        request,
        "arbiter/audit.html",
        {
            "t": t,
            "rows": shown,
            "intact": intact,
            "checked": checked,
            "problem": problem,
            "players": t.registrations.select_related("player"),
            "player": player,
        },
    )
