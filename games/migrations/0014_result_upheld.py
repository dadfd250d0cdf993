"""A final record remembers the entered result the arbiter ruled stands against it; every
existing record starts with none (blank), so a disagreement found today is reported."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0013_validator_message_codes")]

    operations = [
        migrations.AddField(
            model_name="recordsubmission",
            name="result_upheld",
            field=models.CharField(blank=True, max_length=20),
        ),
    ]
