"""The validator's messages: one stable code a message, its English template and its game words.

The English text a rule breaks is built here from a code and named parameters, so that
`kz validate` and the API keep printing exactly the English they always printed while the
pages translate the same message from its code. The templates are marked with a local
`gettext_noop` (stdlib only: the engine does not import Django) so that `makemessages`
extracts them from this one home as python-brace-format strings. Parameters are stored as the
text the English shows (a written tag value keeps its quotes); the parameters named in
WORD_PARAMS are game words (a warrior's name, a colour, how a battle ended), translated on
their own when a page renders the message.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from functools import cache
from typing import Final


def gettext_noop(message: str) -> str:
    """Mark a string for translation without translating it (Django's makemessages reads
    the name, not the import)."""
    return message


# Game words that may stand in a message's parameters: the warriors, the colours, how a
# battle ends, whose zone of control, why reflective refuses a variant.
WORDS: Final = (
    gettext_noop("Fencer"),
    gettext_noop("Lancer"),
    gettext_noop("Swift"),
    gettext_noop("Flier"),
    gettext_noop("Vanguard"),
    gettext_noop("Blockader"),
    gettext_noop("Goal"),
    gettext_noop("green"),
    gettext_noop("gold"),
    gettext_noop("capture"),
    gettext_noop("deadlock"),
    gettext_noop("time"),
    gettext_noop("resignation"),
    gettext_noop("agreement"),
    gettext_noop("arbiter"),
    gettext_noop("penalty"),
    gettext_noop("forfeit"),
    gettext_noop("crown"),
    gettext_noop("geometric"),
    gettext_noop("descriptive"),
    gettext_noop("the enemy Blockader's"),
    gettext_noop("the Blockader's"),
    gettext_noop("13.1 and 13.7 each rewrite Art. 2.5; reflective placement already alternates"),
    gettext_noop("13.8 and 13.7 each rewrite Art. 2.5; 13.8 places two squads in separate regions"),
    gettext_noop("13.9 rewrites movement and combat for two squads of live pieces"),
    gettext_noop("the three-level board has its own squads and setup"),
)

# The parameters whose values are game words (from WORDS), translated when rendered.
WORD_PARAMS: Final = frozenset(
    {"kind", "claimed", "owner", "termination", "winner", "expected", "why", "colour", "notation"}
)

MESSAGES: Final[dict[str, str]] = {
    # --- the record as a whole (rules/record.py, rules/validate.py) ---------------------------
    "not_text": gettext_noop("not a text file"),
    "empty_record": gettext_noop("empty record"),
    "unknown_language": gettext_noop("unknown Language {language} (known: {known})"),
    "unknown_notation": gettext_noop("unknown Notation {notation} (geometric or descriptive)"),
    "unknown_seat": gettext_noop("unknown Seat {seat} (apex, west or east)"),
    "bad_tag_pair": gettext_noop("cannot read tag pair {line}"),
    "unterminated_comment": gettext_noop("unterminated comment '{{' in the movetext"),
    "unknown_ruleset": gettext_noop("unknown Ruleset {ruleset} (known: {known})"),
    "unknown_variant": gettext_noop("unknown variant {variant}"),
    "unsupported_variant": gettext_noop("variant {variant} is not supported by this engine yet"),
    "removed_not_italian": gettext_noop(
        "a Removed warrior is the Italian society's Bach'san replay only"
    ),
    "first_placement_colour": gettext_noop("FirstPlacement must be green or gold, not {name}"),
    "no_first_placement": gettext_noop("no FirstPlacement tag: green is taken to place first"),
    "unknown_result": gettext_noop("Result must be one of {known}, not {result}"),
    "unknown_termination": gettext_noop("unknown Termination {written}"),
    "result_contradicted": gettext_noop(
        "Result tag says {result} but the moves end in {termination} won by {winner}"
    ),
    "termination_contradicted": gettext_noop(
        "Termination tag says {written} but the moves end in {termination}"
    ),
    "termination_unreached": gettext_noop(
        "Termination tag says {written} but the moves end in neither capture nor deadlock"
    ),
    "not_utf8": gettext_noop("the record is not UTF-8 text"),
    # --- a record for a game of an event (games/services/records.py, games/event_rules.py) ----
    "ruleset_mismatch": gettext_noop(
        "the record is played under ruleset {ruleset}; this tournament plays {expected}"
    ),
    "variants_mismatch": gettext_noop(
        "the record's variants are {variants}; this game is played with {expected}"
    ),
    "removed_missing": gettext_noop(
        "this game is a Bach'san replay without a {kind}: the record needs a Removed tag naming it"
    ),
    "removed_unexpected": gettext_noop(
        "this game is not a Bach'san replay: the record may not have a Removed tag"
    ),
    "clouds_mismatch": gettext_noop(
        "the record's clouded triangles (Clouds tag, Art. 13.4) are {clouds}; this tournament "
        "fixes {expected}"
    ),
    "crown_mismatch": gettext_noop(
        "the record's designated apex of Kagga's Crown (Crown tag, Art. 13.3) is {crown}; this "
        "tournament fixes {expected}"
    ),
    "ablation_limit_mismatch": gettext_noop(
        "the record's ablation limit (AblationLimit tag, Art. 13.6) is {limit}; this tournament "
        "fixes {expected}"
    ),
    "time_control_unreadable": gettext_noop(
        "the record's TimeControl {written} cannot be read ({why}); this tournament plays "
        "{expected} (Art. 6.4)"
    ),
    "time_control_mismatch": gettext_noop(
        "the record's TimeControl is {written} ({played}); this tournament plays {expected} "
        "(Art. 6.4)"
    ),
    "notation_mismatch": gettext_noop(
        "the record is written in {notation} notation (Notation tag); this tournament requires "
        "{expected} notation"
    ),
    "resignation_forbidden": gettext_noop(
        "the record ends in resignation (Termination tag); this tournament forbids resignation"
    ),
    "resigned_early": gettext_noop(
        "{colour} resigned having made {moves} moves (the setup counting as move 1, Art. 6.7); "
        "this tournament allows resignation after {need} moves"
    ),
    # --- variants and their parameters (rules/variants.py) -------------------------------------
    "no_triangle": gettext_noop("no triangle {name}"),
    "crown_not_corner": gettext_noop(
        "the Crown must be a corner (A19, I11, I99 or apex/west/east), not {text}"
    ),
    "ablation_limit": gettext_noop("AblationLimit must be a whole number or 'none', not {text}"),
    "removed_not_warrior": gettext_noop(
        "Removed must name a warrior (Fe, L, S, Fl, V, B), not {text}"
    ),
    "reflective_refuses": gettext_noop("reflective cannot be combined with {variant}: {why}"),
    "reflective_crown": gettext_noop(
        "reflective with kaggas-crown needs the designated apex in a Crown tag: "
        "two regions are empty during reflective placement"
    ),
    "tri_level_alone": gettext_noop("tri-level is played on its own board, not with {others}"),
    "ruleset_excludes": gettext_noop(
        "ruleset {ruleset} has its own setup and combat: not with {variants}"
    ),
    # --- reading a ply (rules/notation.py, rules/record.py) ------------------------------------
    "cannot_read_ply": gettext_noop("cannot read ply {text}"),
    "unreadable_ply": gettext_noop("cannot read ply"),
    "no_triangle_in": gettext_noop("no triangle {name} in {system} notation"),
    "unknown_key": gettext_noop("unknown piece key {key} for language {language}"),
    "placement_form": gettext_noop("a placement is written KEY→SQUARE"),
    "kill_mark_no_enemy": gettext_noop(
        "written as a kill but the destination holds no enemy piece"
    ),
    "kill_with_arrow": gettext_noop("a kill written with → instead of x"),
    "destination_key": gettext_noop("destination key {written} should be {key}"),
    "bang_no_capture": gettext_noop("'!' written but no Goal is captured"),
    "capture_lacks_bang": gettext_noop("capture of the Goal lacks '!'"),
    # --- the end of the battle (rules/validate.py, rules/position.py) --------------------------
    "ply_after_end": gettext_noop("ply follows the end of the battle"),
    "ply_after_deadlock": gettext_noop(
        "ply follows the end of the battle: the side to move had no safe move (deadlock)"
    ),
    "goal_endangered": gettext_noop("move endangers own Goal, illegal under this ruleset"),
    "goal_in_jeopardy": gettext_noop("leaves own Goal in jeopardy"),
    # --- setup (rules/position.py) -------------------------------------------------------------
    "moves_before_setup": gettext_noop("a warrior moves before setup is complete"),
    "kind_all_placed": gettext_noop("all of the squad's {kind}s are already placed"),
    "destination_occupied": gettext_noop("destination is occupied"),
    "placement_over": gettext_noop("placement is over; a warrior must move"),
    "goal_after_warriors": gettext_noop("the Goal is placed after all warriors are placed"),
    "goal_with_carrier": gettext_noop("the Goal must be placed with one of the placer's carriers"),
    "goal_placed_in_zone": gettext_noop(
        "a Goal may not be placed in a Blockader's zone of control"
    ),
    "goal_placed_in_cloud": gettext_noop("a Goal may not be placed in a cloud"),
    "goal_comes_next": gettext_noop("all warriors are placed; the Goal comes next"),
    "border_triangle": gettext_noop("{square} is a border triangle, not used for placement"),
    "outside_region": gettext_noop("{square} is outside the region this squad is placed in"),
    "enemy_region": gettext_noop("{square} is in the region the enemy placed in"),
    "dishonourable_placement": gettext_noop(
        "a warrior may not stand in a zone of control or where an enemy Fencer could not reach it"
    ),
    # --- battle moves (rules/position.py) ------------------------------------------------------
    "no_warrior_on": gettext_noop("no warrior of the side to move on {square}"),
    "wrong_kind": gettext_noop("the warrior on {square} is a {kind}, not a {claimed}"),
    "cannot_carry": gettext_noop("a {kind} cannot carry the Goal"),
    "holds_no_goal": gettext_noop("the {kind} on {square} holds no Goal"),
    "must_leave": gettext_noop("a move must leave its triangle"),
    "destination_friend": gettext_noop("destination holds a warrior of the mover's side"),
    "destination_in_zone": gettext_noop("destination is in {owner} zone of control"),
    "ablated": gettext_noop("{square} is ablated"),
    "cloud_kill": gettext_noop("a warrior in a cloud cannot be killed"),
    "blockader_unkillable": gettext_noop("nothing kills a Blockader"),
    "cannot_move": gettext_noop("a {kind} cannot move from {origin} to {dest}"),
    "path_blocked": gettext_noop("the {kind}'s path to {dest} is blocked"),
    "path_crosses_zone": gettext_noop(
        "the {kind}'s path to {dest} crosses {owner} zone of control"
    ),
    "blockader_kills_nothing": gettext_noop("a Blockader kills nothing"),
    "blockader_on_own_goal": gettext_noop("a Blockader may not end on its own Goal"),
    "blockader_enemy_in_zone": gettext_noop(
        "a Blockader may not end with an enemy warrior in its zone of control"
    ),
    "blockader_goal_in_zone": gettext_noop(
        "a Blockader may not end with a Goal in its zone of control"
    ),
    "zones_overlap": gettext_noop("the Blockaders' zones of control may not overlap"),
    "carried_goal_in_zone": gettext_noop(
        "a carried Goal may not end in a Blockader's zone of control"
    ),
    "goal_into_cloud": gettext_noop("the Goal may not be moved into a cloud"),
    # --- Kinta (rules/kinta.py, rules/kinta_combat.py) -----------------------------------------
    "casts_for_placement": gettext_noop("spindle casts are recorded for a placement"),
    "vanguard_on_blockader": gettext_noop(
        "a Vanguard cannot attack the Blockader unless power-vanguards is played"
    ),
    "casts_without_combat": gettext_noop("spindle casts are recorded for a move that is no combat"),
    "casts_missing": gettext_noop(
        # xgettext:no-python-format
        "a combat needs its spindle casts recorded after the ply ([%cast …])"
    ),
    "combat_not_online": gettext_noop(
        "Kinta's combats are not played online yet: their spindle casts need the server"
    ),
    "one_ply_only": gettext_noop("send one ply, with no comment: {text}"),
    "cast_after_combat": gettext_noop("round {n} is cast after the combat ended in round {ended}"),
    "spindle_face": gettext_noop("a spindle shows 1 to 6, not {value} (round {n})"),
    "round_too_few_casts": gettext_noop(
        "round {n} has {count} casts; the attacker casts two spindles and the defender one"
    ),
    "triple_second_cast": gettext_noop("round {n} lacks the attacker's second cast after a triple"),
    "round_too_many_casts": gettext_noop("round {n} has {count} casts but is over after {used}"),
    "combat_not_over": gettext_noop(
        "the combat is not over after {rounds} rounds (strengths {attacker} and {defender})"
    ),
    "unreadable_cast": gettext_noop("cannot read spindle cast {token}"),
    "empty_cast_round": gettext_noop("round {n} of the casts is empty"),
    # xgettext:no-python-format
    "unreadable_cast_note": gettext_noop("cannot read the [%cast …] note"),
    # xgettext:no-python-format
    "cast_note_twice": gettext_noop("more than one [%cast …] note after one ply"),
    # --- the Reflective Variation (rules/reflective.py) ----------------------------------------
    "reflective_one_squad": gettext_noop(
        "a reflective position has one squad, written under the first placer's colour"
    ),
    "reflective_goal_shared": gettext_noop(
        "the Goal on {square} shares a triangle with a warrior that cannot hold it"
    ),
    "reflective_goal_with_first": gettext_noop(
        "the Goal must be placed with the first warrior placed (2.6 as 13.7 reads it)"
    ),
    "reflective_goal_comes_first": gettext_noop(
        "the Goal is placed with the first warrior, which comes first (2.5 as 13.7 reads it)"
    ),
    "reflective_goal_placed": gettext_noop("the Goal is already placed"),
    "reflective_goal_before_other": gettext_noop(
        "the Goal is placed with the first warrior, before any other (2.6 as 13.7 reads it)"
    ),
    "reflective_first_carrier": gettext_noop(
        "the first warrior placed must be a carrier, to hold the Goal (2.6 as 13.7 reads it)"
    ),
    "reflective_outside_region": gettext_noop(
        "{square} is outside the one region the squad is placed in (2.5 as 13.7 reads it)"
    ),
    "reflective_first_in_cloud": gettext_noop(
        "the first warrior holds the Goal, and a Goal may not be placed in a cloud"
    ),
    "reflective_blockader_by_goal": gettext_noop(
        "a Blockader may not be placed with the Goal in its zone of control"
    ),
    "reflective_no_warrior_on": gettext_noop("no warrior on {square}"),
    "reflective_blockader_warrior_in_zone": gettext_noop(
        "a Blockader may not end with a warrior in its zone of control (every other warrior "
        "is its enemy, 13.7)"
    ),
    # --- the tri-level board (rules/trilevel.py) -----------------------------------------------
    "tri_level_bottom": gettext_noop("warriors and Goals are placed on the bottom level"),
    "tri_level_goal_inside": gettext_noop(
        "a Goal may not be placed in the bottom level's covered (inner) space, where nothing "
        "could ever capture it"
    ),
    "tri_level_no_cell": gettext_noop("no such cell on the tri-level board"),
    "tri_level_inside_closed": gettext_noop(
        "no piece may enter the bottom level's covered (inner) space once the battle has begun"
    ),
    "tri_level_vertical_kill": gettext_noop(
        "the {kind} reaches {dest} only by a vertical step: kills and captures are made only "
        "horizontally, face to face"
    ),
    "tri_level_never_down": gettext_noop("a {kind} never moves down; only Fliers and Swifts do"),
    "tri_level_climb": gettext_noop("a {kind} climbs one level a move"),
    # --- the Italian society's rules (rules/italian.py) ----------------------------------------
    "italian_goal_first_of_all": gettext_noop(
        "the Goal is placed first, before the carrier and the squad"
    ),
    "italian_goal_alone": gettext_noop("the Goal is placed alone on an empty triangle"),
    "shared_triangle": gettext_noop("{square} is a shared triangle, not used for placement"),
    "italian_goal_first": gettext_noop("the Goal is placed first"),
    "italian_carrier_kind": gettext_noop(
        "the warrior placed after the Goal is the declared carrier: a Fencer, Lancer or Vanguard"
    ),
    "italian_goal_not_loaded": gettext_noop(
        "the Goal is not loaded onto a warrior during placement"
    ),
    "italian_outside_region": gettext_noop("{square} is outside the region of this squad's Goal"),
    "italian_warrior_in_field": gettext_noop(
        "a warrior may not be placed inside a Blockader's field"
    ),
    "italian_goal_in_field": gettext_noop("a Goal may not be placed inside a Blockader's field"),
    "italian_fields_overlap": gettext_noop("the Blockaders' fields may not overlap"),
    "italian_behind_blockader": gettext_noop(
        "a warrior may not be placed behind its own Blockader, between it and the Goal"
    ),
    "italian_trapped": gettext_noop("the {kind} on {square} is trapped in a Blockader's field"),
    "italian_declared_carrier": gettext_noop("only the declared carrier carries the Goal"),
    "italian_flier_over_blockader": gettext_noop("a Flier may not fly over a Blockader"),
    "italian_blockader_captures": gettext_noop(
        "a Blockader captures the enemy Goal only as its side's last warrior"
    ),
    "italian_not_allowed": gettext_noop("not allowed by the Italian society's rules"),
    "italian_no_draws": gettext_noop("the Italian society's tournaments have no draws"),
    "italian_count_tie": gettext_noop(
        "time-out count green {green}, gold {gold} is a tie: a Coin tag (green or gold) must "
        "say who won"
    ),
    "italian_count_winner": gettext_noop(
        "time-out count green {green}, gold {gold}: the winner is {expected}, not {claimed}"
    ),
}


class Message(str):
    """A validator message: its English text, with the code and parameters it was built from.

    It is a str so that every place that prints, compares or stores the English keeps doing
    so unchanged; `code` and `params` ride along for the pages that translate it."""

    code: str
    params: dict[str, str]

    def __new__(cls, code: str, params: Mapping[str, object]) -> Message:
        text = {k: str(v) for k, v in params.items()}
        self = super().__new__(cls, MESSAGES[code].format(**text))
        self.code = code
        self.params = text
        return self

    def __reduce__(self) -> tuple[type[Message], tuple[str, dict[str, str]]]:
        # Pickled or copied (a worker's result, a cached form error) it is built again.
        return Message, (self.code, self.params)


_PLAIN: dict[str, Message] = {}


def message(code: str, **params: object) -> Message:
    """The catalogued message `code` with its named parameters (KeyError for an unknown code
    or a missing parameter: a programming error, not bad input)."""
    if params:
        return Message(code, params)
    # A message without parameters is built once: move generation refuses moves in bulk.
    plain = _PLAIN.get(code)
    if plain is None:
        plain = _PLAIN[code] = Message(code, params)
    return plain


def message_code(text: str) -> tuple[str | None, dict[str, str]]:
    """The code and parameters a message was built from (its own dict: read, never change
    it); (None, {}) for a bare string."""
    if isinstance(text, Message):
        return text.code, text.params
    return None, {}


def template_fields(template: str) -> list[str]:
    """The named placeholders of a template, in order."""
    return [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]


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


@cache
def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Each template's pattern by code, most specific first (the template with the longest
    fixed text wins an ambiguous match); compiled by the first reading, not at import."""
    return sorted(
        ((code, _template_pattern(t)) for code, t in MESSAGES.items()),
        key=lambda item: -len(re.sub(r"\{[^{}]*\}", "", MESSAGES[item[0]])),
    )


def parse_reason(reason: str) -> tuple[str, dict[str, str]] | None:
    """The code and parameters of a catalogued message from its English text (what a verdict
    stored before messages had codes says); None when no template gives exactly that text."""
    for code, pattern in _patterns():
        m = pattern.fullmatch(reason)
        if m is not None:
            params = m.groupdict()
            if MESSAGES[code].format(**params) == reason:
                return code, params
    return None


__all__ = [
    "MESSAGES",
    "WORDS",
    "WORD_PARAMS",
    "Message",
    "gettext_noop",
    "message",
    "message_code",
    "parse_reason",
    "template_fields",
]
