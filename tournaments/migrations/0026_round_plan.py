"""Rounds scheduled ahead (RoundPlan); each paired round's schedule becomes its plan."""

import django.db.models.deletion
from django.db import migrations, models


def plans_from_rounds(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Every round already scheduled has its plan, in step with it."""
    Round = apps.get_model("tournaments", "Round")
    RoundPlan = apps.get_model("tournaments", "RoundPlan")
    scheduled = Round.objects.exclude(starts_at=None, place="")
    RoundPlan.objects.bulk_create(
        RoundPlan(tournament_id=r.tournament_id, number=r.number, starts_at=r.starts_at, place=r.place)
        for r in scheduled
    )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0025_player_requests'),
    ]

    operations = [
        migrations.CreateModel(
            name='RoundPlan',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('starts_at', models.DateTimeField(blank=True, null=True, verbose_name='scheduled start')),
                ('place', models.CharField(blank=True, max_length=120, verbose_name='place')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='round_plans', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['tournament', 'number'],
                'constraints': [models.UniqueConstraint(fields=('tournament', 'number'), name='one_round_plan')],
            },
        ),
        migrations.RunPython(plans_from_rounds, migrations.RunPython.noop),
    ]
