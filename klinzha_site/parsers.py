"""The API's and the pages' edge: a JSON parser with a depth limit for DRF, a strict text
field for serializers, and a middleware refusing control characters in paths and forms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext
from rest_framework import serializers
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from klinzha_site.parsing import control_character, json_loads_bounded


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing bodies nested deeper than MAX_JSON_DEPTH, NaN and
    Infinity, and control characters in strings (400, naming the field)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        raw = stream.read() if stream is not None else b""
        try:
            return json_loads_bounded(raw)
        except DjangoValidationError as exc:
            if hasattr(exc, "error_dict"):
                raise ValidationError(exc.message_dict) from None
            raise ParseError(" ".join(exc.messages)) from None


def _form_check(data: Any) -> None:
    for key, values in data.lists():
        for value in values:
            bad = control_character(value)
            if bad is not None:
                raise ValidationError(
                    {key: [gettext("control character %(bad)s is not allowed") % {"bad": bad}]}
                )


class BoundedFormParser(FormParser):
    """DRF's form parser, refusing control characters in values (PATCH and PUT bodies, which
    the middleware does not read)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        _form_check(data)
        return data


class BoundedMultiPartParser(MultiPartParser):
    """DRF's multipart parser, refusing control characters in the fields (not the files)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        _form_check(parsed.data)
        return parsed


class StrictCharField(serializers.CharField):
    """Text that was sent as text: DRF's CharField turns 123 into "123"; this refuses it, and
    refuses control characters (a tab and line breaks allowed where `multiline`)."""

    default_error_messages = {
        "not_text": "a string is expected",
        "control": "control character {char} is not allowed",
    }

    def __init__(self, *, multiline: bool = True, **kwargs: Any) -> None:
        self.multiline = multiline
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_text")
        bad = control_character(data, multiline=self.multiline)
        if bad is not None:
            self.fail("control", char=bad)
        return str(super().to_internal_value(data))


class ControlCharactersMiddleware:
    """Refuse (400) a path, query or form that holds NUL or another control character before
    any view sees it: PostgreSQL cannot store NUL, and no name, reason or slug has one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = _request_problem(request)
        if problem is not None:
            return HttpResponseBadRequest(problem, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _request_problem(request: HttpRequest) -> str | None:
    bad = control_character(request.path, multiline=False)
    if bad is not None:
        return f"control character {bad} in the address"
    sources = [("query", request.GET, False)]
    if request.method == "POST":
        try:
            sources.append(("form", request.POST, True))
        except MultiPartParserError:
            return "the form cannot be read (malformed multipart)"
    for where, data, multiline in sources:
        for key, values in data.lists():
            if control_character(key, multiline=False) is not None:
                return f"control character in a {where} field name"
            for value in values:
                bad = control_character(value, multiline=multiline)
                if bad is not None:
                    return f"{key}: control character {bad} is not allowed"
    return None
