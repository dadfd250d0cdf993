"""The audit trail as a reader reads it: each entry one sentence with names, in the reader's
language (the trail itself, the API and `kz audit` keep the stored data as it is)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.utils.translation import gettext

from tournaments.audit import Action
from tournaments.models import AuditEntry, Game, Penalty, Player, Registration, Tournament

# The stored keys a sentence names a value by, where the generic details show one.
_KEY_WORDS: dict[str, Callable[[], str]] = {
    "reason": lambda: gettext("reason"),
    "result": lambda: gettext("result"),
    "status": lambda: gettext("status"),
    "round": lambda: gettext("round"),
    "player": lambda: gettext("player"),
    "account": lambda: gettext("account"),
    "version": lambda: gettext("version"),
    "decision": lambda: gettext("decision"),
    "article": lambda: gettext("Art."),
}


class _Names:
    """The players an entry names by id, read once for a page of entries."""

    def __init__(self, names: Mapping[int, str]) -> None:
        self.names = names

    def of(self, pid: Any) -> str:
        """A player's name (their id only where no player has it any more)."""
        if pid is None:
            return gettext("bye")
        if isinstance(pid, int) and pid in self.names:
            return self.names[pid]
        return gettext("player %(id)s") % {"id": pid}

    def pairings(self, pairs: Any) -> str:
        """Pairings as "Ann – Bob, Cid – bye"."""
        if not isinstance(pairs, list):
            return ""
        return ", ".join(
            f"{self.of(p[0])} – {self.of(p[1])}"
            for p in pairs
            if isinstance(p, list | tuple) and len(p) == 2
        )


def _ids_named(entries: Iterable[AuditEntry]) -> set[int]:
    """The player ids the entries' data hold (in pairings, byes and penalties)."""
    ids: set[int] = set()
    for e in entries:
        for data in (e.before, e.after):
            if not isinstance(data, dict):
                continue
            for pair in data.get("pairings") or []:
                if isinstance(pair, list):
                    ids.update(x for x in pair if isinstance(x, int))
            ids.update(x for x in data.get("requested_byes") or [] if isinstance(x, int))
            if isinstance(data.get("player"), int):
                ids.add(data["player"])
    return ids


def _result_words(code: Any) -> str:
    """A stored result code as the site names it ("none yet" for an empty one)."""
    if not code:
        return gettext("none yet")
    try:
        return str(Game.Result(code).label)
    except ValueError:
        return str(code)


def _value_words(value: Any, names: _Names) -> str:
    """A stored value in words: lists joined, nothing empty shown as Python would."""
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list | tuple):
        return ", ".join(_value_words(v, names) for v in value) or "–"
    if isinstance(value, dict):
        return _details(value, names)
    return str(value)


def _details(data: Any, names: _Names) -> str:
    """An entry's data as "key: value; key: value", keys in words."""
    if not isinstance(data, dict):
        return "" if data is None else _value_words(data, names)
    parts = []
    for key, value in data.items():
        word = _KEY_WORDS.get(key)
        if key == "result":
            shown = _result_words(value)
        elif key == "player" and isinstance(value, int):
            shown = names.of(value)
        else:
            shown = _value_words(value, names)
        parts.append(f"{word() if word else key.replace('_', ' ')}: {shown}")
    return "; ".join(parts)


def _setting_name(key: str) -> str:
    try:
        field = Tournament._meta.get_field(key)
    except FieldDoesNotExist:
        return key.replace("_", " ")
    return str(getattr(field, "verbose_name", key.replace("_", " ")))


def _changes(before: Any, after: Any, names: _Names) -> str:
    """What changed from `before` to `after`, field by field: "Rounds: 5 → 7"."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    return "; ".join(
        f"{_setting_name(k)}: {_value_words(before.get(k), names)} → {_value_words(v, names)}"
        for k, v in after.items()
    )


Context = dict[str, str]
Sentence = Callable[[AuditEntry, Context, _Names], str]


def _result(e: AuditEntry, c: Context, n: _Names) -> str:
    text = gettext("%(who)s entered the result of %(what)s: %(new)s (before: %(old)s)") % {
        **c,
        "new": _result_words((e.after or {}).get("result")),
        "old": _result_words((e.before or {}).get("result")),
    }
    reason = (e.after or {}).get("reason")
    return f"{text}; {reason}" if reason else text


def _round_paired(e: AuditEntry, c: Context, n: _Names) -> str:
    after = e.after or {}
    text = gettext("%(who)s paired %(what)s: %(pairings)s") % {
        **c,
        "pairings": n.pairings(after.get("pairings")) or "–",
    }
    byes = after.get("requested_byes") or []
    if byes:
        text += "; " + gettext("requested byes: %(names)s") % {
            "names": ", ".join(n.of(p) for p in byes)
        }
    return text


def _pairings_edited(e: AuditEntry, c: Context, n: _Names) -> str:
    after = e.after or {}
    text = gettext("%(who)s edited the pairings of %(what)s: %(new)s (before: %(old)s)") % {
        **c,
        "new": n.pairings(after.get("pairings")) or "–",
        "old": n.pairings((e.before or {}).get("pairings")) or "–",
    }
    warnings = after.get("warnings") or []
    if warnings:
        text += "; " + gettext("warnings: %(list)s") % {"list": "; ".join(map(str, warnings))}
    return text


def _penalty(e: AuditEntry, c: Context, n: _Names) -> str:
    after = e.after or {}
    kind = str(after.get("kind", ""))
    with contextlib.suppress(ValueError):
        kind = str(Penalty.Kind(kind).label)
    text = gettext("%(who)s imposed a penalty on %(player)s: %(kind)s") % {
        **c,
        "player": n.of(after.get("player")),
        "kind": kind,
    }
    if after.get("amount"):
        text += f" ({after['amount']})"
    return f"{text}; {after['reason']}" if after.get("reason") else text


def _withdrawal(e: AuditEntry, c: Context, n: _Names) -> str:
    status = str((e.after or {}).get("status", ""))
    if status == Registration.Status.ACTIVE:
        return gettext("%(who)s took back the withdrawal of %(what)s") % c
    with contextlib.suppress(ValueError):
        status = str(Registration.Status(status).label)
    return gettext("%(who)s withdrew %(what)s (%(status)s)") % {**c, "status": status}


def _registration(e: AuditEntry, c: Context, n: _Names) -> str:
    after = e.after or {}
    return gettext(
        "%(who)s registered %(player)s from round %(round)s (start rank %(rank)s, rating "
        "%(rating)s)"
    ) % {
        **c,
        "player": after.get("player", c["what"]),
        "round": after.get("first_round", 1),
        "rank": after.get("start_rank", "–"),
        "rating": after.get("rating", "–"),
    }


def _bye(e: AuditEntry, c: Context, n: _Names) -> str:
    data = (e.before if e.action == Action.BYE_REQUEST_CANCELLED else e.after) or {}
    words = {
        Action.BYE_REQUEST: gettext("%(who)s requested a bye for %(player)s in round %(round)s"),
        Action.BYE_REQUEST_CANCELLED: gettext(
            "%(who)s cancelled the bye requested for %(player)s in round %(round)s"
        ),
        Action.BYE_ASKED: gettext("%(who)s asked for a bye for %(player)s in round %(round)s"),
    }[Action(e.action)]
    if e.action == Action.BYE_REQUEST and data.get("confirmed"):
        words = gettext("%(who)s confirmed the bye %(player)s asked for in round %(round)s")
    return words % {**c, "player": data.get("player", "?"), "round": data.get("round", "?")}


def _check_in(e: AuditEntry, c: Context, n: _Names) -> str:
    data = e.after or {}
    names = {"player": data.get("player", "?"), "round": data.get("round", "?")}
    if e.action == Action.CHECK_IN_CLOSED:
        missing = ", ".join(data.get("missing", [])) or "–"
        return gettext(
            "%(who)s closed the check-in of round %(round)s; not checked in: %(missing)s"
        ) % {**c, **names, "missing": missing}
    if e.action == Action.CHECK_IN_WINDOW:
        return gettext(
            "%(who)s set the check-in of round %(round)s: from %(opens)s to %(closes)s"
        ) % {**c, **names, "opens": data.get("opens_at", "?"), "closes": data.get("closes_at", "?")}
    if data.get("present", True):
        return gettext("%(who)s checked %(player)s in for round %(round)s") % {**c, **names}
    return gettext("%(who)s marked %(player)s absent for round %(round)s") % {**c, **names}


def _start_ranks(e: AuditEntry, c: Context, n: _Names) -> str:
    before = {name: rank for name, rank in (e.before or {}).get("start_ranks", [])}
    moved = [
        f"{name} {before.get(name, '–')} → {rank}"
        for name, rank in (e.after or {}).get("start_ranks", [])
        if before.get(name) != rank
    ]
    return gettext("%(who)s changed the start ranks: %(moves)s") % {
        **c,
        "moves": ", ".join(moved) or "–",
    }


def _settings(e: AuditEntry, c: Context, n: _Names) -> str:
    return gettext("%(who)s changed the settings: %(changes)s") % {
        **c,
        "changes": _changes(e.before, e.after, n) or "–",
    }


def _officials(e: AuditEntry, c: Context, n: _Names) -> str:
    return gettext("%(who)s changed the officials: %(changes)s") % {
        **c,
        "changes": _changes(e.before, e.after, n) or "–",
    }


def _simple(template: Callable[[], str]) -> Sentence:
    """An entry whose sentence needs only who and what."""
    return lambda e, c, n: template() % c


def _generic(e: AuditEntry, c: Context, n: _Names) -> str:
    """Any other entry: who did what to which object, then its data in words."""
    text = gettext("%(who)s: %(action)s, %(what)s") % c
    before, after = _details(e.before, n), _details(e.after, n)
    if before:
        text += "; " + gettext("before: %(data)s") % {"data": before}
    if after:
        text += "; " + gettext("after: %(data)s") % {"data": after}
    return text


SENTENCES: dict[str, Sentence] = {
    Action.RESULT: _result,
    Action.ROUND_PAIRED: _round_paired,
    Action.PAIRINGS_EDITED: _pairings_edited,
    Action.PENALTY: _penalty,
    Action.WITHDRAWAL: _withdrawal,
    Action.REGISTRATION: _registration,
    Action.LATE_ENTRY: _registration,
    Action.BYE_REQUEST: _bye,
    Action.BYE_REQUEST_CANCELLED: _bye,
    Action.BYE_ASKED: _bye,
    Action.WITHDRAWAL_ASKED: _simple(lambda: gettext("%(who)s asked to withdraw %(what)s")),
    Action.START_RANKS: _start_ranks,
    Action.CHECK_IN: _check_in,
    Action.CHECK_IN_CLOSED: _check_in,
    Action.CHECK_IN_WINDOW: _check_in,
    Action.SETTINGS: _settings,
    Action.OFFICIALS: _officials,
    Action.ROUND_PUBLISHED: _simple(lambda: gettext("%(who)s published %(what)s")),
    Action.ROUND_DISCARDED: _simple(lambda: gettext("%(who)s discarded the proposed %(what)s")),
    Action.ROUND_UNPUBLISHED: _simple(lambda: gettext("%(who)s took %(what)s back to a proposal")),
}


def audit_sentences(
    *,
    entries: Sequence[AuditEntry],
    labels: Mapping[tuple[str, str], str],
    action_labels: Mapping[str, Any],
) -> list[str]:
    """One sentence per entry, in order. `labels` names the entries' objects (from
    audit_selectors.audit_object_labels), `action_labels` the actions."""
    ids = _ids_named(entries)
    names = _Names(dict(Player.objects.filter(pk__in=ids).values_list("pk", "name")))
    out = []
    for e in entries:
        who = e.actor if e.actor and e.actor != "system" else gettext("the system")
        context = {
            "who": who,
            "what": labels.get((e.object_type, e.object_id), ""),
            "action": str(action_labels.get(e.action, e.action)),
        }
        if e.action == Action.ROUND_DISCARDED and not context["what"]:
            number = (e.before or {}).get("round", "?")
            context["what"] = gettext("round %(number)s") % {"number": number}
        out.append(SENTENCES.get(e.action, _generic)(e, context, names))
    return out
