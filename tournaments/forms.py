"""Forms of the arbiter's pages: they parse input; the services decide and save."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Game, Penalty, Player, Tournament
from tournaments.player_labels import player_label
from tournaments.services import SETTINGS, tournament_settings_check
from tournaments.settings_layout import ESSENTIALS, Section, form_sections
from tournaments.tiebreak_texts import tiebreak_choices
from tournaments.time_control_form import TimeControlField, time_control_initial

# How many tie-breaks the arbiter's list offers places for.
TIEBREAK_PLACES = 6


class TiebreakListWidget(forms.MultiWidget):
    """The tie-breaks as an ordered list of choices by FIDE code: one select per place,
    the first place first. A form that posts the list as one comma-separated value (as
    before the list) is read as well."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__([forms.Select() for _ in range(TIEBREAK_PLACES)], attrs)

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        # The choices are made as the form is shown, in the page's language.
        choices = [("", "—"), *tiebreak_choices()]
        for widget in self.widgets:
            widget.choices = choices  # type: ignore[attr-defined]
        context = super().get_context(name, value, attrs)
        # Each place named for a screen reader: the field's label names none of them.
        for number, sub in enumerate(context["widget"]["subwidgets"], start=1):
            sub["attrs"]["aria-label"] = gettext("tie-break, place %(n)s") % {"n": number}
        return context

    def decompress(self, value: Any) -> list[str]:
        names = [t.strip() for t in str(value or "").split(",") if t.strip()]
        return (names + [""] * TIEBREAK_PLACES)[:TIEBREAK_PLACES]

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        if name in data:
            return [t.strip() for t in str(data[name]).split(",")]
        return super().value_from_datadict(data, files, name)

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data and super().value_omitted_from_data(data, files, name)


class TiebreakListField(forms.Field):
    """The chosen tie-breaks in order, as the model stores them: codes joined by commas
    (the services check each one and refuse one chosen twice)."""

    widget = TiebreakListWidget

    def to_python(self, value: Any) -> str:
        if isinstance(value, str):
            value = value.split(",")
        return ",".join(t.strip() for t in (value or []) if t and t.strip())


# The variants of Art. 13 the engine plays, in the Laws' order, as the arbiter picks them.
VARIANT_CHOICES = (
    ("alternating-placement", _("Alternating placement (Art. 13.1)")),
    ("power-vanguards", _("Power vanguards (Art. 13.2)")),
    ("kaggas-crown", _("Kagga's crown (Art. 13.3)")),
    ("clouded", _("Clouded (Art. 13.4)")),
    ("forward-placement", _("Forward placement (Art. 13.5)")),
    ("ablative", _("Ablative (Art. 13.6)")),
    ("reflective", _("Reflective (Art. 13.7)")),
    ("honor-in-setup", _("Honor in setup (Art. 13.8)")),
    ("kinta", _("Klin Zha Kinta (Art. 13.9)")),
    ("tri-level", _("Tri-level")),
)


class VariantListWidget(forms.CheckboxSelectMultiple):
    """A box to tick per variant; the stored list (names joined by commas) ticks its own."""

    def format_value(self, value: Any) -> list[str]:
        if isinstance(value, str):
            value = value.split(",")
        return [str(v).strip() for v in (value or []) if str(v).strip()]


class VariantListField(forms.Field):
    """The chosen variants as the model stores them: names joined by commas. A form that
    posts them as one typed value (as before the boxes) is read as well; the services say
    which name is unknown or does not go with the ruleset."""

    widget = VariantListWidget

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.widget.choices = VARIANT_CHOICES  # type: ignore[attr-defined]

    def to_python(self, value: Any) -> str:
        if isinstance(value, str):
            value = [value]
        names = [n.strip().lower() for v in (value or []) for n in str(v).split(",")]
        return ",".join(dict.fromkeys(n for n in names if n))


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """A tournament's settings; those that change results are disabled once round 1 is
    paired (the service refuses them too)."""

    tiebreaks = TiebreakListField(
        label=_("tie-breaks"),
        required=False,
        # A new event's list starts as the model's default (a ModelForm gives a new
        # instance no initial values, and six empty places would store none).
        initial=Tournament._meta.get_field("tiebreaks").default,
        help_text=_("in order: the first breaks ties first (FIDE codes, C.07)"),
    )
    # Written as people write it (minutes), stored as the record format (seconds).
    time_control = TimeControlField()
    variants = VariantListField(
        label=_("variants"), required=False, help_text=_("none ticked: the ruleset alone")
    )

    class Meta:
        model = Tournament
        fields = ["slug", *SETTINGS]
        labels = {
            "forfeit_win_points": _("forfeit win points"),
            "forfeit_loss_points": _("forfeit loss points"),
            "bye_points": _("bye points"),
            "requested_bye_points": _("requested bye points"),
        }
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "local_rules": forms.Textarea(attrs={"rows": 3}),
        }

    # Settings a form may leave out: they keep their default (forms made before them work on);
    # on a new event, every setting outside the guided part (settings_layout.ESSENTIALS).
    OPTIONAL = (
        "withdrawal_results",
        "free_round",
        "late_entry_points",
        "ablation_limit",
        "resignation_after_moves",
        "tiebreak_rules",
        "check_in_missing",
        "play",
        "broadcast_delay_minutes",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial["time_control"] = time_control_initial(self.initial.get("time_control", ""))
        self.order_fields(["name", "slug"])
        # What a blank field falls back on: on a new event, everything but the guided part
        # (an event is made from its name, dates, ruleset, system, rounds and time control).
        self.defaults = set(self.OPTIONAL)
        if not self.instance.pk:
            self.defaults |= set(self.fields) - set(ESSENTIALS)
        for name in self.defaults & set(self.fields):
            self.fields[name].required = False
        if not self.instance.pk:
            # Suggested from the name (arbiter.js as one types; here when left blank).
            self.fields["slug"].required = False
            self.fields["slug"].help_text = _("the address of its pages; blank: made from the name")
        if self.instance.pk:
            del self.fields["slug"]
            if self.instance.rounds.exists():
                for name in Tournament.RESULT_SETTINGS:
                    self.fields[name].disabled = True
                    self.fields[name].help_text = _("locked: round 1 has been paired")

    def sections(self) -> list[Section]:
        """The fields as the page shows them: the guided part, then Rules, Scoring, Pairing
        and Withdrawals, each field with its Article (tournaments.settings_layout)."""
        return form_sections(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in sorted(self.defaults & set(self.fields)):
            if data.get(name) in (None, "") and not self.fields[name].disabled:
                data[name] = getattr(self.instance, name)
        if "slug" in self.fields and not data.get("slug") and data.get("name"):
            data["slug"] = slugify(data["name"])[:50]
            if not data["slug"]:
                self.add_error("slug", _("the name gives no address: type one"))
        return data

    def _post_clean(self) -> None:
        """After the model's own checks, the services' (tournament_settings_check, the one
        home of each rule), so that every error shows at once beside its field."""
        super()._post_clean()
        changed = None if not self.instance.pk else self.changed_data
        try:
            tournament_settings_check(self.instance, changed=changed)
        except forms.ValidationError as exc:
            for key, messages in exc.message_dict.items():
                field = key if key in self.fields else None
                if field is None or not self.has_error(field):
                    for message in messages:
                        self.add_error(field, message)


class UsernameField(forms.CharField):
    def clean(self, value: Any) -> Any:
        name = (super().clean(value) or "").strip()
        if not name:
            return None
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(_("no user %(name)s") % {"name": name})
        return user


class OfficialsForm(forms.Form):
    chief_arbiter = UsernameField(label=_("chief arbiter (user name)"), required=False)
    arbiters = forms.CharField(
        label=_("arbiters (user names, separated by commas)"), required=False
    )

    def clean_arbiters(self) -> list[Any]:
        names = [n.strip() for n in self.cleaned_data["arbiters"].split(",") if n.strip()]
        users = list(get_user_model().objects.filter(username__in=names))
        unknown = sorted(set(names) - {u.get_username() for u in users})
        if unknown:
            raise forms.ValidationError(_("no such users: %(names)s") % {"names": unknown})
        return users


class PlayerChoiceField(forms.ModelChoiceField):
    """A menu of players that tells namesakes apart (site id, club, federation, ids)."""

    def label_from_instance(self, obj: Any) -> str:
        return player_label(obj)


class EntrantForm(forms.Form):
    """Register a known player, or a new one by name."""

    player = PlayerChoiceField(
        queryset=Player.objects.select_related("club"), required=False, label=_("known player")
    )
    name = forms.CharField(max_length=120, required=False, label=_("or a new player's name"))
    club = forms.ModelChoiceField(queryset=Club.objects.all(), required=False, label=_("club"))
    rating = forms.IntegerField(min_value=0, max_value=9999, required=False, label=_("rating"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not data.get("name"):
            raise forms.ValidationError(_("choose a player or give a new player's name"))
        return data


class AccountForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.all(), label=_("player"))
    account = UsernameField(label=_("user name (empty to unlink)"), required=False)


class ByeRequestForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.all(), label=_("player"))
    round_number = forms.IntegerField(min_value=1, max_value=32767, label=_("round"))


class ResultForm(forms.Form):
    result = forms.ChoiceField(choices=[c for c in Game.Result.choices if c[0]], label=_("result"))


# The console's results grid takes what an arbiter types from a result slip, as
# chess-results does: 1 the first placer wins, 0 the second, = a draw, + / - a win / loss by
# forfeit of the first placer, -- both forfeit. Blank leaves the board as it is.
RESULT_CODES = {
    "1": Game.Result.FIRST_WIN,
    "1-0": Game.Result.FIRST_WIN,
    "0": Game.Result.SECOND_WIN,
    "0-1": Game.Result.SECOND_WIN,
    "=": Game.Result.DRAW,
    "½": Game.Result.DRAW,
    "+": Game.Result.FIRST_FORFEIT_WIN,
    "+-": Game.Result.FIRST_FORFEIT_WIN,
    "+:-": Game.Result.FIRST_FORFEIT_WIN,
    "-": Game.Result.SECOND_FORFEIT_WIN,
    "-+": Game.Result.SECOND_FORFEIT_WIN,
    "-:+": Game.Result.SECOND_FORFEIT_WIN,
    "--": Game.Result.DOUBLE_FORFEIT,
    "-:-": Game.Result.DOUBLE_FORFEIT,
}
RESULT_CODE_OF = {
    Game.Result.FIRST_WIN: "1",
    Game.Result.SECOND_WIN: "0",
    Game.Result.DRAW: "=",
    Game.Result.FIRST_FORFEIT_WIN: "+",
    Game.Result.SECOND_FORFEIT_WIN: "-",
    Game.Result.DOUBLE_FORFEIT: "--",
}


def result_code_parse(code: str) -> str:
    """The result a typed code stands for; ValidationError saying which codes exist."""
    result = RESULT_CODES.get(code.strip().replace(" ", ""))
    if result is None:
        raise forms.ValidationError(
            _("%(code)s is no result: type 1, 0, =, + or - (forfeits), -- (both forfeit)")
            % {"code": code.strip()[:12]}
        )
    return result


class PenaltyForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.all(), label=_("player"))
    kind = forms.ChoiceField(
        choices=[c for c in Penalty.Kind.choices if c[0] != Penalty.Kind.REVOCATION]
    )
    game = forms.ModelChoiceField(queryset=Game.objects.all(), required=False, label=_("game"))
    amount = forms.DecimalField(
        required=False, label=_("seconds or points"), max_digits=8, decimal_places=2
    )
    # A penalty of time acts from this ply of the record on (blank: from the moment imposed).
    from_ply = forms.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, label=_("from ply")
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=2000, label=_("reason")
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if tournament is not None:
            # Only this event's entrants and games are offered (the service refuses others).
            players = Player.objects.filter(registrations__tournament=tournament)
            self.fields["player"].queryset = players  # type: ignore[attr-defined]
            games = Game.objects.filter(round__tournament=tournament)
            self.fields["game"].queryset = games  # type: ignore[attr-defined]


class RevocationForm(forms.Form):
    penalty = forms.ModelChoiceField(queryset=Penalty.objects.all(), label=_("penalty"))
    reason = forms.CharField(label=_("reason"))


class StartRankForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.all(), label=_("player"))
    rank = forms.IntegerField(min_value=1, max_value=100_000, label=_("start rank"))


class ScheduleForm(forms.Form):
    starts_at = forms.DateTimeField(required=False, label=_("scheduled start"))
    place = forms.CharField(max_length=120, required=False, label=_("place"))
