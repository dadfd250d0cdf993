"""Issue 22: who manages a player, the site's audit chain, and hashes that bind their chain.

Each existing player is managed by the organizer of the events they entered when there is
exactly one (today's rule: the organizer of every event the player entered); otherwise
(no event, several organizers, an event with none) by nobody, which leaves them to staff.
Existing audit entries keep hash version 1 and verify exactly as before; the site's chain
starts empty, with the one row its appends lock."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def managers_set(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    Registration = apps.get_model("tournaments", "Registration")
    organizers: dict[int, set] = {}
    rows = Registration.objects.values_list("player_id", "tournament__organizer_id")
    for player_id, organizer_id in rows.iterator():
        organizers.setdefault(player_id, set()).add(organizer_id)
    for player_id, found in organizers.items():
        (only,) = found if len(found) == 1 else (None,)
        if only is not None:
            Player.objects.filter(pk=player_id).update(managed_by_id=only)


def site_row_make(apps, schema_editor):
    apps.get_model("tournaments", "SiteAudit").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_player_language"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SiteAudit",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="auditentry",
            name="hash_version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="player",
            name="managed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="managed_players",
                to=settings.AUTH_USER_MODEL,
                verbose_name="managed by",
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="tournament",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="audit",
                to="tournaments.tournament",
            ),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("tournament__isnull", True)),
                fields=("seq",),
                name="one_site_audit_seq",
            ),
        ),
        migrations.RunPython(managers_set, migrations.RunPython.noop),
        migrations.RunPython(site_row_make, migrations.RunPython.noop),
    ]
