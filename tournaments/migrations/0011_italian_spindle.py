"""Italian society annulments and replays; the spindle cast recorded on the game (issue 13)."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

ITALIAN = "italian-society"


def _control(apps: Any, old: str, new: str) -> None:
    """The society's events not yet paired get the battle's twenty minutes (1200: both
    clocks together) for the ten-minutes-a-side 600 they were given; events under way keep
    the control their records were played with."""
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(ruleset=ITALIAN, time_control=old, rounds__isnull=True).update(
        time_control=new
    )


def forwards(apps: Any, schema_editor: Any) -> None:
    _control(apps, "600", "1200")


def backwards(apps: Any, schema_editor: Any) -> None:
    _control(apps, "1200", "600")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_event_rules")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="game",
            name="battles_annulled",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="game",
            name="replay_from_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="game",
            name="spindle_caster",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tournaments.player",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="spindle_chooser",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tournaments.player",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="spindle_placement",
            field=models.CharField(
                blank=True, choices=[("first", "first"), ("last", "last")], max_length=5
            ),
        ),
        migrations.RunPython(forwards, backwards),
    ]
