"""Tie-breaks by FIDE code (C.07): each event's list of today's names becomes the list of
their codes, in its order (the same tie-breaks, named as FIDE names them), and back."""

from django.db import migrations, models

# Frozen here (a migration never imports the app): today's names and their FIDE codes.
CODE_OF = {
    "buchholz": "BH",
    "buchholz_cut1": "BH-C1",
    "median_buchholz": "BH-M1",
    "sonneborn_berger": "SSB",
    "wins": "WON",
    "progressive": "PS",
    "direct_encounter": "DE",
    "koya": "KS",
}
NAME_OF = {code: name for name, code in CODE_OF.items()}


def renamed(value: str, names: dict[str, str]) -> str:
    """The list with each name renamed as `names` says (others kept), in its order."""
    return ",".join(names.get(t.strip(), t.strip()) for t in value.split(",") if t.strip())


def _rename(apps, names: dict[str, str]) -> None:
    tournament = apps.get_model("tournaments", "Tournament")
    for t in tournament.objects.only("pk", "tiebreaks"):
        new = renamed(t.tiebreaks, names)
        if new != t.tiebreaks:
            tournament.objects.filter(pk=t.pk).update(tiebreaks=new)


def forwards(apps, schema_editor):
    _rename(apps, CODE_OF)


def backwards(apps, schema_editor):
    _rename(apps, NAME_OF)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_player_ids_trf_source"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
        migrations.AddField(
            model_name="tournament",
            name="tiebreak_rules",
            field=models.CharField(
                choices=[("2026", "FIDE C.07 of 2026"), ("2024", "FIDE C.07 of 2024")],
                default="2026",
                max_length=4,
                verbose_name="tie-break regulations",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="tiebreaks",
            field=models.CharField(default="BH,SSB,WON", max_length=200, verbose_name="tie-breaks"),
        ),
    ]
