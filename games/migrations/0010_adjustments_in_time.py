"""Clock adjustments and latecomer charges that apply from a ply or a moment, audited (issue 13).

Existing rows are carried over:
- a penalty's adjustment (Art. 12.4 b, c, 12.5) was read from ply 1; it now applies from the
  moment the penalty was imposed (its `at`, placed at a ply by the record's readings) and,
  where the readings cannot place it, from the ply after the latest record the game had then
  (the readings already recorded stay untouched), or ply 1 when it had none (nothing to go
  on: the reading it had). A revocation's adjustment follows its penalty's, so the two cancel
  on every reading;
- a latecomer's charge (6.8) is the time the absent combatant's own clock ran: it is in the
  readings already, and is no longer applied again;
- double latecomers (6.9): the clock ran for the first placer (6.7 starts theirs); the other's
  adjustment is the lesser lateness, and whatever more the other was late its own clock ran
  (6.8, in the readings);
- the arbiter's own corrections (6.12, 6.13) keep the ply the arbiter gave (1: before play).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _latest_plies(RecordSubmission, game_id, when):
    sub = (
        RecordSubmission.objects.filter(game_id=game_id, created_at__lte=when)
        .order_by("-created_at", "-id")
        .first()
    )
    return sub.plies if sub is not None else None


def forward(apps, schema_editor):
    ClockAdjustment = apps.get_model("games", "ClockAdjustment")
    RecordSubmission = apps.get_model("games", "RecordSubmission")
    Game = apps.get_model("tournaments", "Game")
    penalties = (
        ClockAdjustment.objects.filter(penalty__isnull=False)
        .values_list("penalty_id", flat=True)
        .distinct()
    )
    for penalty_id in penalties:
        rows = list(ClockAdjustment.objects.filter(penalty_id=penalty_id).order_by("id"))
        first = rows[0]
        plies = _latest_plies(RecordSubmission, first.game_id, first.created_at)
        if first.from_ply == 1:
            first.from_ply = plies + 1 if plies else 1
        first.at = first.created_at
        for row in rows:
            row.from_ply, row.at = first.from_ply, first.at
            row.save(update_fields=["from_ply", "at"])
    ClockAdjustment.objects.filter(article="6.8").update(in_readings=True)
    for game_id in set(
        ClockAdjustment.objects.filter(article="6.9").values_list("game_id", flat=True)
    ):
        rows = {r.side: r for r in ClockAdjustment.objects.filter(game_id=game_id, article="6.9")}
        if len(rows) != 2:
            continue
        running = Game.objects.get(pk=game_id).first_color or "green"
        other = "gold" if running == "green" else "green"
        ran, adjusted = rows[running], rows[other]
        ran.in_readings = True
        ran.save(update_fields=["in_readings"])
        late = -adjusted.seconds
        part = min(late, -ran.seconds)
        if late > part:
            ClockAdjustment.objects.create(
                game_id=game_id,
                side=other,
                seconds=part - late,
                article="6.8",
                from_ply=adjusted.from_ply,
                reason=adjusted.reason,
                created_by_id=adjusted.created_by_id,
                in_readings=True,
            )
            adjusted.seconds = -part
            adjusted.save(update_fields=["seconds"])
    _constraints_checked(schema_editor)


def _constraints_checked(schema_editor):
    # PostgreSQL: the rows inserted above queue their (deferred) foreign key checks, and the
    # table could not be altered (revoked_by's index) in this transaction while they wait.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def backward(apps, schema_editor):
    ClockAdjustment = apps.get_model("games", "ClockAdjustment")
    ClockAdjustment.objects.filter(penalty__isnull=False).update(from_ply=1)
    for game_id in set(
        ClockAdjustment.objects.filter(article="6.9").values_list("game_id", flat=True)
    ):
        for row in ClockAdjustment.objects.filter(game_id=game_id, article="6.9"):
            rest = ClockAdjustment.objects.filter(game_id=game_id, article="6.8", side=row.side)
            row.seconds += sum(r.seconds for r in rest)
            row.save(update_fields=["seconds"])
            rest.delete()
    _constraints_checked(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_clockadjustment_penalty"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="clockadjustment",
            name="at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="clockadjustment",
            name="in_readings",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="clockadjustment",
            name="revoke_reason",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="clockadjustment",
            name="revoked_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="clockadjustment",
            name="revoked_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(forward, backward),
    ]
