"""Public keys in PEM or raw form, and other inputs bounded to their columns (issue 14)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0011_signed_records_final")]

    operations: list[migrations.operations.base.Operation] = []
