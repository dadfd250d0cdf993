"""The event's own rules fixed on the tournament (issue 13): variant parameters, required
notation, a parsed time control.

What the time control's reading needs is copied here as rules.clock read it when this
migration was written, not imported: a migration must not change when the code does. The
field's validator is named by its one stable home, tournaments.validators (see there)."""

import re

import django.core.validators
from django.db import migrations, models

import tournaments.validators

# An event whose time control the clocks cannot be adjudicated under ("banana", "90 min")
# states none from now on (blank: no clock requirement); the text as it was is kept in its
# local rules, on a line starting so, for the arbiter to state it again and for the reverse.
CARRIED = "Time control as first stated, not readable (Art. 6.4): "

# rules.clock's period then: 'moves/seconds' or 'seconds' (all remaining moves), with an
# optional '+increment' in seconds.
PERIOD = re.compile(r"^(?:(\d+)/)?(\d+)(?:\+(\d+))?$")


def _readable(text: str) -> bool:
    """rules.clock.parse_time_control read it (periods separated by ':', none requiring no
    moves, an all-moves period only last) and every period gives some time."""
    if not text.strip():
        return True
    parts = [p.strip() for p in text.strip().split(":")]
    for i, part in enumerate(parts):
        m = PERIOD.match(part)
        if m is None:
            return False
        moves = int(m.group(1)) if m.group(1) else None
        if moves == 0 or (moves is None and i != len(parts) - 1):
            return False
        if not (int(m.group(2)) or int(m.group(3) or 0)):
            return False
    return True


def time_controls_carry(apps, schema_editor):  # type: ignore[no-untyped-def]
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.exclude(time_control=""):
        if _readable(t.time_control):
            continue
        line = CARRIED + t.time_control
        t.local_rules = f"{t.local_rules.rstrip()}\n{line}" if t.local_rules.strip() else line
        t.time_control = ""
        t.save(update_fields=["local_rules", "time_control"])


def time_controls_restore(apps, schema_editor):  # type: ignore[no-untyped-def]
    Tournament = apps.get_model("tournaments", "Tournament")
    # Only where no time control was stated since: one stated again stays, and so does the
    # line it replaced (nothing is lost either way).
    for t in Tournament.objects.filter(local_rules__contains=CARRIED, time_control=""):
        lines = t.local_rules.split("\n")
        carried = [line for line in lines if line.startswith(CARRIED)]
        if not carried:
            continue
        t.time_control = carried[-1][len(CARRIED) :]
        t.local_rules = "\n".join(line for line in lines if not line.startswith(CARRIED))
        t.save(update_fields=["local_rules", "time_control"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_issue12_settings_schedule_forbidden_pairs")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="tournament",
            name="ablation_limit",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="Art. 13.6; 0 for none", verbose_name="ablation limit"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="clouds",
            field=models.CharField(
                blank=True,
                help_text="Art. 13.4, e.g. E37,F36",
                max_length=200,
                verbose_name="clouded triangles",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="crown",
            field=models.CharField(
                blank=True,
                help_text="Art. 13.3: the designated apex (A19, I11, I99 or apex/west/east)",
                max_length=10,
                verbose_name="Kagga's crown",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="resignation_after_moves",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text=(
                    "Art. 9.2: the moves a combatant must have made before resigning, the "
                    "setup counting as move 1 (Art. 6.7); 0 for none"
                ),
                validators=[django.core.validators.MaxValueValidator(1000)],
                verbose_name="moves before resigning",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="notation",
            field=models.CharField(
                blank=True,
                choices=[
                    ("geometric", "Geometric (Appendix C)"),
                    ("descriptive", "Descriptive"),
                ],
                help_text="Art. 8.3: the records' notation; blank accepts either",
                max_length=12,
                verbose_name="required notation",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="time_control",
            field=models.CharField(
                blank=True,
                help_text="Art. 6.4, e.g. 20/1800:1200",
                max_length=60,
                validators=[tournaments.validators.time_control_validate],
                verbose_name="time control",
            ),
        ),
        migrations.RunPython(time_controls_carry, time_controls_restore),
    ]
