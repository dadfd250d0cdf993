"""Each registration keeps the rating its event seeds by. Existing registrations take their
player's rating; events not yet paired are seeded by it (rating, then name), paired ones keep
the start ranks their rounds were paired with."""

from django.db import migrations, models


def snapshot_and_seed(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    Tournament = apps.get_model("tournaments", "Tournament")
    for reg in Registration.objects.select_related("player"):
        reg.rating = reg.player.rating
        reg.save(update_fields=["rating"])
    for t in Tournament.objects.filter(rounds__isnull=True):
        regs = sorted(
            Registration.objects.filter(tournament=t).select_related("player"),
            key=lambda r: (-r.rating, r.player.name.casefold(), r.pk),
        )
        for rank, reg in enumerate(regs, start=1):
            reg.start_rank = rank
            reg.save(update_fields=["start_rank"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0007_game_moved_from_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="rating",
            field=models.PositiveIntegerField(default=0, verbose_name="rating"),
        ),
        migrations.RunPython(snapshot_and_seed, migrations.RunPython.noop),
    ]
