"""Pairing jobs get the moment they last showed life; a job stored before counts from when it
was created, so one stuck since then is failed by the sweep."""

from django.db import migrations, models


def heartbeats_date(apps, schema_editor):
    PairingJob = apps.get_model("tournaments", "PairingJob")
    PairingJob.objects.update(heartbeat_at=models.F("created_at"))


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0015_player_manager_site_audit'),
    ]

    operations = [
        migrations.AddField(
            model_name='pairingjob',
            name='heartbeat_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(heartbeats_date, migrations.RunPython.noop),
    ]
