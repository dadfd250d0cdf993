"""Numbers bounded to their columns and text refused with control characters (issue 14)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_audit_chain")]

    operations: list[migrations.operations.base.Operation] = []
