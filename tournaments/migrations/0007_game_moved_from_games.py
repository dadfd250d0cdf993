"""Game moves here from the games app. Only Django's state changes: the table keeps its name
(games_game), so every existing game, record and penalty stays as it is."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_italian_society"),
        ("tournaments", "0006_italian_society"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Game",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("board", models.PositiveSmallIntegerField()),
                        ("kind", models.CharField(choices=[("game", "Game"), ("bye", "Pairing-allocated bye"), ("requested_bye", "Requested bye")], default="game", max_length=16)),
                        ("first_color", models.CharField(blank=True, choices=[("green", "green"), ("gold", "gold")], max_length=5)),
                        ("result", models.CharField(blank=True, choices=[("", "Pending"), ("first_win", "First placer wins"), ("second_win", "Second placer wins"), ("draw", "Draw"), ("first_forfeit_win", "First placer wins by forfeit"), ("second_forfeit_win", "Second placer wins by forfeit"), ("double_forfeit", "Double forfeit")], default="", max_length=20)),
                        ("result_entered_at", models.DateTimeField(blank=True, null=True)),
                        ("result_confirmed_at", models.DateTimeField(blank=True, null=True)),
                        ("spindle_seed", models.CharField(blank=True, max_length=64)),
                        ("bachsan_removed", models.PositiveSmallIntegerField(default=0)),
                        ("first", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="tournaments.player")),
                        ("second", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="tournaments.player")),
                        ("result_entered_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("result_confirmed_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("round", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="games", to="tournaments.round")),
                    ],
                    options={
                        "db_table": "games_game",
                        "ordering": ["round", "board"],
                        "constraints": [models.UniqueConstraint(fields=("round", "board"), name="one_game_per_board")],
                    },
                ),
                migrations.AlterField(
                    model_name="penalty",
                    name="game",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="penalties", to="tournaments.game"),
                ),
            ],
            database_operations=[],
        ),
    ]
