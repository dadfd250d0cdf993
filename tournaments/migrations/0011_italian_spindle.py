"""Italian society annulments and replays; the spindle cast recorded on the game (issue 13)."""

import django.db.models.deletion
from django.db import migrations, models


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
    ]
