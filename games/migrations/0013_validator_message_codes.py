"""Stored verdicts get their messages' codes: each error and warning of a record validated
before messages had codes is read back against the catalogue of that day and given the code
and parameters that produce its English; one no template matches keeps code None and shows
its English, as before.

The catalogue and its reader are copied here as they were when this migration was written
(rules/messages.py then), not imported: a migration must not change when the code does. The
reverse would strip codes from verdicts that were stored with them, so there is none: the
migration is irreversible."""

from __future__ import annotations

import re
import string
from typing import Any

from django.db import migrations

BATCH = 500

# rules.messages.MESSAGES as it was: each code's English template.
TEMPLATES = {
    "not_text": "not a text file",
    "empty_record": "empty record",
    "unknown_language": "unknown Language {language} (known: {known})",
    "unknown_notation": "unknown Notation {notation} (geometric or descriptive)",
    "unknown_seat": "unknown Seat {seat} (apex, west or east)",
    "bad_tag_pair": "cannot read tag pair {line}",
    "unterminated_comment": "unterminated comment '{{' in the movetext",
    "unknown_ruleset": "unknown Ruleset {ruleset} (known: {known})",
    "unknown_variant": "unknown variant {variant}",
    "unsupported_variant": "variant {variant} is not supported by this engine yet",
    "removed_not_italian": "a Removed warrior is the Italian society's Bach'san replay only",
    "first_placement_colour": "FirstPlacement must be green or gold, not {name}",
    "no_first_placement": "no FirstPlacement tag: green is taken to place first",
    "unknown_result": "Result must be one of {known}, not {result}",
    "unknown_termination": "unknown Termination {written}",
    "result_contradicted": "Result tag says {result} but the moves end in {termination} won by {winner}",
    "termination_contradicted": "Termination tag says {written} but the moves end in {termination}",
    "termination_unreached": "Termination tag says {written} but the moves end in neither capture nor deadlock",
    "not_utf8": "the record is not UTF-8 text",
    "ruleset_mismatch": "the record is played under ruleset {ruleset}; this tournament plays {expected}",
    "variants_mismatch": "the record's variants are {variants}; this game is played with {expected}",
    "removed_missing": "this game is a Bach'san replay without a {kind}: the record needs a Removed tag naming it",
    "removed_unexpected": "this game is not a Bach'san replay: the record may not have a Removed tag",
    "clouds_mismatch": "the record's clouded triangles (Clouds tag, Art. 13.4) are {clouds}; this tournament fixes {expected}",
    "crown_mismatch": "the record's designated apex of Kagga's Crown (Crown tag, Art. 13.3) is {crown}; this tournament fixes {expected}",
    "ablation_limit_mismatch": "the record's ablation limit (AblationLimit tag, Art. 13.6) is {limit}; this tournament fixes {expected}",
    "time_control_unreadable": "the record's TimeControl {written} cannot be read ({why}); this tournament plays {expected} (Art. 6.4)",
    "time_control_mismatch": "the record's TimeControl is {written} ({played}); this tournament plays {expected} (Art. 6.4)",
    "notation_mismatch": "the record is written in {notation} notation (Notation tag); this tournament requires {expected} notation",
    "resignation_forbidden": "the record ends in resignation (Termination tag); this tournament forbids resignation",
    "resigned_early": "{colour} resigned having made {moves} moves (the setup counting as move 1, Art. 6.7); this tournament allows resignation after {need} moves",
    "no_triangle": "no triangle {name}",
    "crown_not_corner": "the Crown must be a corner (A19, I11, I99 or apex/west/east), not {text}",
    "ablation_limit": "AblationLimit must be a whole number or 'none', not {text}",
    "removed_not_warrior": "Removed must name a warrior (Fe, L, S, Fl, V, B), not {text}",
    "reflective_refuses": "reflective cannot be combined with {variant}: {why}",
    "reflective_crown": "reflective with kaggas-crown needs the designated apex in a Crown tag: two regions are empty during reflective placement",
    "tri_level_alone": "tri-level is played on its own board, not with {others}",
    "ruleset_excludes": "ruleset {ruleset} has its own setup and combat: not with {variants}",
    "cannot_read_ply": "cannot read ply {text}",
    "unreadable_ply": "cannot read ply",
    "no_triangle_in": "no triangle {name} in {system} notation",
    "unknown_key": "unknown piece key {key} for language {language}",
    "placement_form": "a placement is written KEY→SQUARE",
    "kill_mark_no_enemy": "written as a kill but the destination holds no enemy piece",
    "kill_with_arrow": "a kill written with → instead of x",
    "destination_key": "destination key {written} should be {key}",
    "bang_no_capture": "'!' written but no Goal is captured",
    "capture_lacks_bang": "capture of the Goal lacks '!'",
    "ply_after_end": "ply follows the end of the battle",
    "ply_after_deadlock": "ply follows the end of the battle: the side to move had no safe move (deadlock)",
    "goal_endangered": "move endangers own Goal, illegal under this ruleset",
    "goal_in_jeopardy": "leaves own Goal in jeopardy",
    "moves_before_setup": "a warrior moves before setup is complete",
    "kind_all_placed": "all of the squad's {kind}s are already placed",
    "destination_occupied": "destination is occupied",
    "placement_over": "placement is over; a warrior must move",
    "goal_after_warriors": "the Goal is placed after all warriors are placed",
    "goal_with_carrier": "the Goal must be placed with one of the placer's carriers",
    "goal_placed_in_zone": "a Goal may not be placed in a Blockader's zone of control",
    "goal_placed_in_cloud": "a Goal may not be placed in a cloud",
    "goal_comes_next": "all warriors are placed; the Goal comes next",
    "border_triangle": "{square} is a border triangle, not used for placement",
    "outside_region": "{square} is outside the region this squad is placed in",
    "enemy_region": "{square} is in the region the enemy placed in",
    "dishonourable_placement": "a warrior may not stand in a zone of control or where an enemy Fencer could not reach it",
    "no_warrior_on": "no warrior of the side to move on {square}",
    "wrong_kind": "the warrior on {square} is a {kind}, not a {claimed}",
    "cannot_carry": "a {kind} cannot carry the Goal",
    "holds_no_goal": "the {kind} on {square} holds no Goal",
    "must_leave": "a move must leave its triangle",
    "destination_friend": "destination holds a warrior of the mover's side",
    "destination_in_zone": "destination is in {owner} zone of control",
    "ablated": "{square} is ablated",
    "cloud_kill": "a warrior in a cloud cannot be killed",
    "blockader_unkillable": "nothing kills a Blockader",
    "cannot_move": "a {kind} cannot move from {origin} to {dest}",
    "path_blocked": "the {kind}'s path to {dest} is blocked",
    "path_crosses_zone": "the {kind}'s path to {dest} crosses {owner} zone of control",
    "blockader_kills_nothing": "a Blockader kills nothing",
    "blockader_on_own_goal": "a Blockader may not end on its own Goal",
    "blockader_enemy_in_zone": "a Blockader may not end with an enemy warrior in its zone of control",
    "blockader_goal_in_zone": "a Blockader may not end with a Goal in its zone of control",
    "zones_overlap": "the Blockaders' zones of control may not overlap",
    "carried_goal_in_zone": "a carried Goal may not end in a Blockader's zone of control",
    "goal_into_cloud": "the Goal may not be moved into a cloud",
    "casts_for_placement": "spindle casts are recorded for a placement",
    "vanguard_on_blockader": "a Vanguard cannot attack the Blockader unless power-vanguards is played",
    "casts_without_combat": "spindle casts are recorded for a move that is no combat",
    "casts_missing": "a combat needs its spindle casts recorded after the ply ([%cast …])",
    "cast_after_combat": "round {n} is cast after the combat ended in round {ended}",
    "spindle_face": "a spindle shows 1 to 6, not {value} (round {n})",
    "round_too_few_casts": "round {n} has {count} casts; the attacker casts two spindles and the defender one",
    "triple_second_cast": "round {n} lacks the attacker's second cast after a triple",
    "round_too_many_casts": "round {n} has {count} casts but is over after {used}",
    "combat_not_over": "the combat is not over after {rounds} rounds (strengths {attacker} and {defender})",
    "unreadable_cast": "cannot read spindle cast {token}",
    "empty_cast_round": "round {n} of the casts is empty",
    "unreadable_cast_note": "cannot read the [%cast …] note",
    "cast_note_twice": "more than one [%cast …] note after one ply",
    "reflective_one_squad": "a reflective position has one squad, written under the first placer's colour",
    "reflective_goal_shared": "the Goal on {square} shares a triangle with a warrior that cannot hold it",
    "reflective_goal_with_first": "the Goal must be placed with the first warrior placed (2.6 as 13.7 reads it)",
    "reflective_goal_comes_first": "the Goal is placed with the first warrior, which comes first (2.5 as 13.7 reads it)",
    "reflective_goal_placed": "the Goal is already placed",
    "reflective_goal_before_other": "the Goal is placed with the first warrior, before any other (2.6 as 13.7 reads it)",
    "reflective_first_carrier": "the first warrior placed must be a carrier, to hold the Goal (2.6 as 13.7 reads it)",
    "reflective_outside_region": "{square} is outside the one region the squad is placed in (2.5 as 13.7 reads it)",
    "reflective_first_in_cloud": "the first warrior holds the Goal, and a Goal may not be placed in a cloud",
    "reflective_blockader_by_goal": "a Blockader may not be placed with the Goal in its zone of control",
    "reflective_no_warrior_on": "no warrior on {square}",
    "reflective_blockader_warrior_in_zone": "a Blockader may not end with a warrior in its zone of control (every other warrior is its enemy, 13.7)",
    "tri_level_bottom": "warriors and Goals are placed on the bottom level",
    "tri_level_goal_inside": "a Goal may not be placed in the bottom level's covered (inner) space, where nothing could ever capture it",
    "tri_level_no_cell": "no such cell on the tri-level board",
    "tri_level_inside_closed": "no piece may enter the bottom level's covered (inner) space once the battle has begun",
    "tri_level_vertical_kill": "the {kind} reaches {dest} only by a vertical step: kills and captures are made only horizontally, face to face",
    "tri_level_never_down": "a {kind} never moves down; only Fliers and Swifts do",
    "tri_level_climb": "a {kind} climbs one level a move",
    "italian_goal_first_of_all": "the Goal is placed first, before the carrier and the squad",
    "italian_goal_alone": "the Goal is placed alone on an empty triangle",
    "shared_triangle": "{square} is a shared triangle, not used for placement",
    "italian_goal_first": "the Goal is placed first",
    "italian_carrier_kind": "the warrior placed after the Goal is the declared carrier: a Fencer, Lancer or Vanguard",
    "italian_goal_not_loaded": "the Goal is not loaded onto a warrior during placement",
    "italian_outside_region": "{square} is outside the region of this squad's Goal",
    "italian_warrior_in_field": "a warrior may not be placed inside a Blockader's field",
    "italian_goal_in_field": "a Goal may not be placed inside a Blockader's field",
    "italian_fields_overlap": "the Blockaders' fields may not overlap",
    "italian_behind_blockader": "a warrior may not be placed behind its own Blockader, between it and the Goal",
    "italian_trapped": "the {kind} on {square} is trapped in a Blockader's field",
    "italian_declared_carrier": "only the declared carrier carries the Goal",
    "italian_flier_over_blockader": "a Flier may not fly over a Blockader",
    "italian_blockader_captures": "a Blockader captures the enemy Goal only as its side's last warrior",
    "italian_not_allowed": "not allowed by the Italian society's rules",
    "italian_no_draws": "the Italian society's tournaments have no draws",
    "italian_count_tie": "time-out count green {green}, gold {gold} is a tie: a Coin tag (green or gold) must say who won",
    "italian_count_winner": "time-out count green {green}, gold {gold}: the winner is {expected}, not {result}",
}


def _template_pattern(template: str) -> re.Pattern[str]:
    """A regex matching what `template` formats to, a named group a placeholder."""
    parts = []
    seen: set[str] = set()
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is None:
            continue
        if field in seen:
            parts.append(f"(?P={field})")
        else:
            parts.append(f"(?P<{field}>.+?)")
            seen.add(field)
    return re.compile("".join(parts), re.DOTALL)


# Most specific first: the template with the longest fixed text wins an ambiguous match.
_PATTERNS = sorted(
    ((code, _template_pattern(t)) for code, t in TEMPLATES.items()),
    key=lambda item: -len(re.sub(r"\{[^{}]*\}", "", TEMPLATES[item[0]])),
)


def _parse_reason(reason: str) -> tuple[str, dict[str, str]] | None:
    """The code and parameters of a catalogued message from its English text; None when no
    template gives exactly that text."""
    for code, pattern in _PATTERNS:
        m = pattern.fullmatch(reason)
        if m is not None:
            params = m.groupdict()
            if TEMPLATES[code].format(**params) == reason:
                return code, params
    return None


def _coded(entry: Any) -> Any:
    """The entry with "code" and "params" filled from its reason (entries that have a code
    key already are left alone)."""
    if not isinstance(entry, dict) or "code" in entry:
        return entry
    found = _parse_reason(entry["reason"]) if isinstance(entry.get("reason"), str) else None
    code, params = found if found is not None else (None, {})
    return {**entry, "code": code, "params": params}


def _rewrite(apps: Any, change: Any) -> None:
    RecordSubmission = apps.get_model("games", "RecordSubmission")
    rows = RecordSubmission.objects.only("pk", "error", "warnings").order_by("pk")
    batch = []
    for sub in rows.iterator(chunk_size=BATCH):
        error = change(sub.error) if sub.error else sub.error
        warnings = [change(w) for w in sub.warnings] if isinstance(sub.warnings, list) else []
        if error == sub.error and warnings == (sub.warnings or []):
            continue
        sub.error, sub.warnings = error, warnings
        batch.append(sub)
        if len(batch) >= BATCH:
            RecordSubmission.objects.bulk_update(batch, ["error", "warnings"])
            batch = []
    if batch:
        RecordSubmission.objects.bulk_update(batch, ["error", "warnings"])


def forwards(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, _coded)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_input_bounds")]

    # No reverse_code: migrating back refuses (IrreversibleError) rather than lose codes.
    operations = [migrations.RunPython(forwards)]
