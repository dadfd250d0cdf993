"""Clock adjustments and latecomer charges that apply from a ply or a moment, audited (issue 13)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0009_clockadjustment_penalty")]

    operations: list[migrations.operations.base.Operation] = []
