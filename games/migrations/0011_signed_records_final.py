"""Signed records are final: a new version only by an arbiter's ruling (issue 13)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0010_adjustments_in_time")]

    operations: list[migrations.operations.base.Operation] = []
