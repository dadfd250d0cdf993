"""Signed records are final: a new version only by an arbiter's ruling (issue 13)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0010_adjustments_in_time")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AlterField(
            model_name="irregularity",
            name="kind",
            field=models.CharField(
                choices=[
                    ("new_battle", "7.1 Illegal placement: a new battle"),
                    ("restore", "7.3 Restored to the last legal position"),
                    ("draw", "7.3 No legal position can be restored: drawn"),
                    ("correction", "7 The signed record corrected by the arbiter"),
                ],
                max_length=12,
            ),
        ),
        migrations.AlterField(
            model_name="recordsubmission",
            name="source",
            field=models.CharField(
                choices=[
                    ("paste", "Pasted text"),
                    ("file", "Uploaded file"),
                    ("api", "API"),
                    ("bulk", "Bulk upload"),
                    ("arbiter", "Restored by the arbiter"),
                    ("ruling", "Corrected by the arbiter's ruling (Art. 7)"),
                ],
                default="paste",
                max_length=10,
            ),
        ),
    ]
