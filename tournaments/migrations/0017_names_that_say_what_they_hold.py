"""Two fields renamed for what they hold (issue 23 item 4): a game's first colour as its first
readable record says it (blank until then), and the version of everything a tournament
publishes, not only its standings. Renames keep every value."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_pairing_job_heartbeat"),
        # games 0010 reads the game's first_color by that name: it must have run before.
        ("games", "0010_adjustments_in_time"),
    ]

    operations = [
        migrations.RenameField(
            model_name="game", old_name="first_color", new_name="first_colour_recorded"
        ),
        migrations.RenameField(
            model_name="tournament", old_name="standings_version", new_name="published_version"
        ),
    ]
