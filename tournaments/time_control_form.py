"""The arbiter's time-control picker: a text box that reads the usual written forms, the
presets offered beside it, and a preview of how it reads, rendered by the server (htmx asks
for it as one types: no script of its own, under the site's Content-Security-Policy)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournaments.time_controls import (
    PRESETS,
    time_control_parse_written,
    time_control_words,
    time_control_written,
)


class TimeControlWidget(forms.TextInput):
    """The text box, its presets (a datalist) and the preview under it. It shows what is
    written: the form gives the stored value written out as its initial value."""

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: Any = None,
    ) -> SafeString:
        box = (attrs or {}).get("id") or self.attrs.get("id") or f"id_{name}"
        wired = {
            **(attrs or {}),
            "list": f"{box}-presets",
            "autocomplete": "off",
            # htmx asks the server how it reads as one types (no eval: a plain trigger).
            "hx-get": reverse("arbiter:time-control"),
            "hx-trigger": "input changed delay:300ms, change",
            "hx-target": f"#{box}-preview",
            "hx-vals": json.dumps({"id": box}),
            "hx-swap": "outerHTML",
        }
        box_html = super().render(name, value, wired, renderer)
        # The presets and the preview through the site's templates (the forms' renderer
        # reads only the apps' own).
        extra = render_to_string(
            "arbiter/widgets/time_control.html",
            {"id": box, "presets": PRESETS, "preview": time_control_preview(str(value or ""))},
        )
        return mark_safe(box_html + extra)  # noqa: S308 - both are rendered templates


def time_control_preview(written: str) -> dict[str, str]:
    """How a written time control reads: its words and the value stored, or why it cannot
    be read."""
    try:
        value = time_control_parse_written(written)
    except ValueError as exc:
        return {"error": str(exc)}
    return {"words": time_control_words(value), "value": value}


class TimeControlField(forms.CharField):
    """Reads "90+30" as 90 minutes plus 30 seconds a move, "40/120, 30" as 40 moves in 120
    minutes then 30 minutes; cleans to the record format the model stores (seconds)."""

    widget = TimeControlWidget

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 120)
        kwargs.setdefault("label", _("time control"))
        kwargs.setdefault(
            "help_text",
            _(
                "Art. 6.4: moves/minutes, or minutes for all moves, with +seconds a move; "
                "periods separated by commas (90+30; 40/120, 30; 20/30, 20)"
            ),
        )
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        try:
            return time_control_parse_written(text)
        except ValueError as exc:
            raise forms.ValidationError(str(exc), code="time_control") from None

    def has_changed(self, initial: Any, data: Any) -> bool:
        """Changed when it reads differently, not when it is written differently."""
        try:
            return self.to_python(initial) != self.to_python(data)
        except forms.ValidationError:
            return True


def time_control_initial(stored: str) -> str:
    """The form's initial value for a stored time control: written out in minutes."""
    return time_control_written(stored)
