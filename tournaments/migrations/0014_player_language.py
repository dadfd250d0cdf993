"""Each player's language of mails; existing players keep the site's default (blank)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_input_bounds"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="language",
            field=models.CharField(
                blank=True, default="", max_length=8, verbose_name="language of mails"
            ),
        ),
    ]
