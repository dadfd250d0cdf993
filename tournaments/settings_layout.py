"""How the arbiter's event form is laid out: what every event needs first (the guided part),
then the rest under Rules, Scoring, Pairing and Withdrawals, each setting with its Article."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The guided part: enough for an event to exist and be paired; the rest keeps its defaults.
ESSENTIALS = (
    "name",
    "slug",
    "start_date",
    "end_date",
    "venue",
    "ruleset",
    "pairing_system",
    "rounds_planned",
    "time_control",
)
# The rest by topic: (the section's id, its heading, its settings in the order shown).
GROUPS: tuple[tuple[str, Promise, tuple[str, ...]], ...] = (
    (
        "rules",
        _("Rules"),
        (
            "play",
            "broadcast_delay_minutes",
            "variants",
            "clouds",
            "crown",
            "ablation_limit",
            "notation",
            "resignation_allowed",
            "resignation_after_moves",
            "local_rules",
        ),
    ),
    (
        "scoring",
        _("Scoring"),
        (
            "forfeit_win_points",
            "forfeit_loss_points",
            "bye_points",
            "requested_bye_points",
            "free_round",
            "tiebreaks",
            "tiebreak_rules",
            "result_confirmation",
        ),
    ),
    ("pairing", _("Pairing"), ("placement_order", "forbid_same_club", "accelerated_rounds")),
    (
        "withdrawals",
        _("Withdrawals"),
        ("withdrawal_results", "late_entry_points", "check_in_missing"),
    ),
)
# Where each setting comes from: the Laws' Article (Art. 9.1 lets an event fix what the Laws
# leave open: the points of forfeits and byes, pairings, withdrawals), or the FIDE
# regulation the product follows there (docs: the tournaments spec).
ARTICLES: dict[str, str] = {
    "ruleset": "Art. 13",
    "time_control": "Art. 6.4",
    "variants": "Art. 13",
    "clouds": "Art. 13.4",
    "crown": "Art. 13.3",
    "ablation_limit": "Art. 13.6",
    "notation": "Art. 8.3",
    "resignation_allowed": "Art. 9.2",
    "resignation_after_moves": "Art. 9.2",
    "local_rules": "Art. 9.1",
    "forfeit_win_points": "Art. 10.1",
    "forfeit_loss_points": "Art. 10.1",
    "bye_points": "Art. 10.1",
    "requested_bye_points": "Art. 10.1",
    "free_round": "Art. 10.1",
    "tiebreaks": "FIDE C.07",
    "tiebreak_rules": "FIDE C.07",
    "result_confirmation": "Art. 9.1",
    "rounds_planned": "Art. 9.1",
    "pairing_system": "FIDE C.04",
    "placement_order": "Art. 2.3",
    "forbid_same_club": "FIDE C.04",
    "accelerated_rounds": "FIDE C.04",
    "withdrawal_results": "Art. 9.1",
    "late_entry_points": "Art. 9.1",
    "check_in_missing": "Art. 9.1",
}


@dataclass(frozen=True)
class Setting:
    """One field as the form shows it, with the Article it comes from ("" when none)."""

    field: forms.BoundField
    article: str


@dataclass(frozen=True)
class Section:
    """One part of the form: `key` names it in the page ("essentials", "rules", ...)."""

    key: str
    title: Any
    settings: Sequence[Setting]

    @property
    def has_errors(self) -> bool:
        return any(s.field.errors for s in self.settings)


def form_sections(form: forms.BaseForm) -> list[Section]:
    """The form's fields by section, the guided part first; a field no section names (a
    setting added later) goes at the end of the last, so that none is ever left out."""
    placed = {*ESSENTIALS, *(name for _key, _title, names in GROUPS for name in names)}
    layout = [("essentials", _("The event"), ESSENTIALS), *GROUPS]
    sections = []
    for index, (key, title, names) in enumerate(layout):
        if index == len(layout) - 1:
            names = (*names, *(n for n in form.fields if n not in placed))
        shown = [
            Setting(form[name], ARTICLES.get(name, "")) for name in names if name in form.fields
        ]
        if shown:
            sections.append(Section(key, title, shown))
    return sections
