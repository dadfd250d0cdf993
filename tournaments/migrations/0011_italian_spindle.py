"""Italian society annulments and replays; the spindle cast recorded on the game (issue 13)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_event_rules")]

    operations: list[migrations.operations.base.Operation] = []
