"""The form an organizer makes a series with."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy

from tournaments.models import Series, Tournament


class SeriesForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("name"), max_length=160)
    slug = forms.SlugField(label=gettext_lazy("slug"), max_length=80)
    events = forms.CharField(
        label=gettext_lazy("events (their slugs, one a line or comma-separated)"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=8200,
        required=False,
    )
    scoring = forms.ChoiceField(label=gettext_lazy("scoring"), choices=Series.Scoring.choices)
    points_table = forms.CharField(
        label=gettext_lazy("points table (places 1, 2, ...; comma-separated)"),
        max_length=2000,
        required=False,
        initial="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
    )
    best_of = forms.IntegerField(
        label=gettext_lazy("best N events counted"), min_value=1, max_value=100, required=False
    )

    def clean_events(self) -> list[Tournament]:
        slugs = list(
            dict.fromkeys(s.strip() for s in self.cleaned_data["events"].replace(",", "\n").split())
        )
        slugs = [s for s in slugs if s][:101]
        found = {t.slug: t for t in Tournament.objects.filter(slug__in=slugs)}
        unknown = [s for s in slugs if s not in found]
        if unknown:
            raise ValidationError(gettext("no event %(slug)s") % {"slug": unknown[0][:80]})
        return [found[s] for s in slugs]

    def clean_points_table(self) -> list[Any] | None:
        text = self.cleaned_data["points_table"].strip()
        if not text:
            return None
        try:
            return [float(x) for x in text.split(",") if x.strip()]
        except ValueError:
            raise ValidationError(gettext("the points must be numbers")) from None
