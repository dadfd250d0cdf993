"""Registrations remember whether the player had withdrawn before an expulsion, so that
revoking it gives the withdrawal back; existing expulsions read it from their audit trail."""

from django.db import migrations, models

# Frozen here (a migration never imports the app): the audit action and the statuses.
WITHDRAWAL = "withdrawal"
WITHDRAWN = "withdrawn"
EXPELLED = "expelled"


def status_before_expulsion(entries: list[tuple[dict | None, dict | None]]) -> str:
    """The status the trail's withdrawal entries (before, after; oldest first) show just
    before their last expulsion; "" when the trail does not say."""
    status, before_expulsion = "active", ""
    for _before, after in entries:
        new = (after or {}).get("status", "")
        if new == EXPELLED:
            before_expulsion = status
        if new:
            status = new
    return before_expulsion


def forwards(apps, schema_editor):
    registration = apps.get_model("tournaments", "Registration")
    audit_entry = apps.get_model("tournaments", "AuditEntry")
    for reg in registration.objects.filter(status=EXPELLED):
        entries = audit_entry.objects.filter(
            tournament_id=reg.tournament_id,
            action=WITHDRAWAL,
            object_type="Registration",
            object_id=str(reg.pk),
        ).order_by("seq")
        trail = [(e.before, e.after) for e in entries]
        if status_before_expulsion(trail) == WITHDRAWN:
            reg.withdrew_before_expulsion = True
            reg.save(update_fields=["withdrew_before_expulsion"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_names_that_say_what_they_hold"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="withdrew_before_expulsion",
            field=models.BooleanField(default=False, editable=False),
        ),
        # Backwards the field goes; nothing else was changed.
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
