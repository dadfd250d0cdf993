"""Game now lives in the tournaments app (same table): the records, clock adjustments and
rulings point at it there, and its content type follows so that permissions and admin
history carry over."""

import django.db.models.deletion
from django.db import migrations, models


def content_type_to_tournaments(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="tournaments", model="game").exists():
        ContentType.objects.filter(app_label="games", model="game").update(app_label="tournaments")


def content_type_to_games(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="games", model="game").exists():
        ContentType.objects.filter(app_label="tournaments", model="game").update(app_label="games")


class Migration(migrations.Migration):

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0007_italian_society"),
        ("tournaments", "0007_game_moved_from_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="recordsubmission",
                    name="game",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="submissions", to="tournaments.game"),
                ),
                migrations.AlterField(
                    model_name="clockadjustment",
                    name="game",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="clock_adjustments", to="tournaments.game"),
                ),
                migrations.AlterField(
                    model_name="irregularity",
                    name="game",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="irregularities", to="tournaments.game"),
                ),
                migrations.DeleteModel(name="Game"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to_tournaments, content_type_to_games),
    ]
