"""A clock adjustment names the penalty of time it is the effect of. Existing adjustments made
by penalties are linked to them: same game, Article and reason, in the order they were made
(a penalty's own first, then its revocation's)."""

import django.db.models.deletion
from django.db import migrations, models

CLOCK_KINDS = ("opponent_time", "offender_time", "extra_time")


def link_penalties(apps, schema_editor):
    Penalty = apps.get_model("tournaments", "Penalty")
    ClockAdjustment = apps.get_model("games", "ClockAdjustment")
    for penalty in Penalty.objects.filter(kind__in=CLOCK_KINDS, game__isnull=False).order_by("id"):
        effects = 2 if Penalty.objects.filter(revokes=penalty).exists() else 1
        unlinked = ClockAdjustment.objects.filter(
            game_id=penalty.game_id,
            article=penalty.article,
            reason=penalty.reason,
            penalty__isnull=True,
        ).order_by("id")
        for adjustment in unlinked[:effects]:
            adjustment.penalty = penalty
            adjustment.save(update_fields=["penalty"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0008_game_moved_to_tournaments"),
        ("tournaments", "0007_game_moved_from_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="clockadjustment",
            name="penalty",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="clock_adjustments",
                to="tournaments.penalty",
            ),
        ),
        migrations.RunPython(link_penalties, migrations.RunPython.noop),
    ]
