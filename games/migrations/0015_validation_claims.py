"""Records get a claim generation, the moment a worker claimed them, a re-send count and the
reason of a failed validation (the new status `failed`); a record a worker holds already is
timed from its last queueing, as before, and every record keeps its status."""

from django.db import migrations, models


def claims_date(apps, schema_editor):
    Submission = apps.get_model("games", "RecordSubmission")
    Submission.objects.filter(status="validating").update(claimed_at=models.F("queued_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_result_upheld"),
    ]

    operations = [
        migrations.AddField(
            model_name="recordsubmission",
            name="claimed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="recordsubmission",
            name="failure_reason",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="recordsubmission",
            name="generation",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="recordsubmission",
            name="resends",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="recordsubmission",
            name="status",
            field=models.CharField(
                choices=[
                    ("queued", "Waiting for validation"),
                    ("validating", "Validating"),
                    ("done", "Validated"),
                    ("failed", "Validation failed"),
                ],
                default="queued",
                max_length=12,
            ),
        ),
        migrations.RunPython(claims_date, migrations.RunPython.noop),
    ]
