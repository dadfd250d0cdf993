"""Reads of the audit trail for people: the entries about one player, and the objects of
entries as a person reads them (round numbers, boards with players, names)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from tournaments.models import (
    AuditEntry,
    Game,
    Penalty,
    Player,
    Registration,
    Round,
    RoundPlan,
    Tournament,
)


def audit_for_player(*, tournament: Tournament, player_id: int) -> QuerySet[AuditEntry]:
    """The audit entries about one player: their registration, account, games, penalties."""
    games = Game.objects.filter(round__tournament=tournament).filter(
        Q(first_id=player_id) | Q(second_id=player_id)
    )
    regs = Registration.objects.filter(tournament=tournament, player_id=player_id)
    penalties = Penalty.objects.filter(tournament=tournament, player_id=player_id)
    ids = {
        "Game": [str(pk) for pk in games.values_list("pk", flat=True)],
        "Registration": [str(pk) for pk in regs.values_list("pk", flat=True)],
        "Penalty": [str(pk) for pk in penalties.values_list("pk", flat=True)],
        "Player": [str(player_id)],
    }
    q = Q()
    for otype, oids in ids.items():
        q |= Q(object_type=otype, object_id__in=oids)
    return tournament.audit.filter(q)


def audit_object_labels(*, entries: Sequence[AuditEntry]) -> dict[tuple[str, str], str]:
    """How a person reads the objects of audit entries: round numbers, boards with their
    players, names with start ranks (the stored type and id where nothing better is known)."""
    ids: dict[str, set[int]] = {}
    for e in entries:
        if e.object_id.isdecimal():
            ids.setdefault(e.object_type, set()).add(int(e.object_id))
    labels: dict[tuple[str, str], str] = {}
    for r in Round.objects.filter(pk__in=ids.get("Round", ())):
        labels["Round", str(r.pk)] = gettext("round %(number)s") % {"number": r.number}
    for g in Game.objects.filter(pk__in=ids.get("Game", ())).select_related(
        "round", "first", "second"
    ):
        who = f"{g.first} – {g.second}" if g.second_id else str(g.first)
        labels["Game", str(g.pk)] = gettext("round %(number)s board %(board)s (%(who)s)") % {
            "number": g.round.number,
            "board": g.board,
            "who": who,
        }
    for reg in Registration.objects.filter(pk__in=ids.get("Registration", ())).select_related(
        "player"
    ):
        labels["Registration", str(reg.pk)] = f"{reg.player.name} (#{reg.start_rank})"
    for player in Player.objects.filter(pk__in=ids.get("Player", ())):
        labels["Player", str(player.pk)] = player.name
    for p in Penalty.objects.filter(pk__in=ids.get("Penalty", ())).select_related("player"):
        labels["Penalty", str(p.pk)] = f"{p.get_kind_display()}: {p.player.name}"
    for plan in RoundPlan.objects.filter(pk__in=ids.get("RoundPlan", ())):
        labels["RoundPlan", str(plan.pk)] = gettext("round %(number)s") % {"number": plan.number}
    for t in Tournament.objects.filter(pk__in=ids.get("Tournament", ())):
        labels["Tournament", str(t.pk)] = t.name
    return labels
