"""A request whose database connection was lost: a read tried once more, else a 503 to retry."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.template.loader import render_to_string
from django.template.response import SimpleTemplateResponse
from django.utils.translation import gettext

logger = logging.getLogger("klinzha_site.database")

# What the client is told to wait before it asks again: a restarted server or a failover
# takes seconds.
RETRY_AFTER_SECONDS = 5
# Methods that change nothing: asking the database again cannot apply anything twice.
RETRIED_METHODS = ("GET", "HEAD")
# PostgreSQL's own words for a connection that is gone (class 08, "connection exception",
# and the server shutting down, crashing, starting or closing an idle session); a statement
# timeout (57014) is not among them.
LOST_SQLSTATES = ("57P01", "57P02", "57P03", "57P05")
API_PREFIX = "/api/"


def connection_lost(exc: BaseException) -> bool:
    """Whether `exc` says the database connection was lost or never made (the server went
    away, refused, or terminated this session), not that a statement failed on it."""
    if isinstance(exc, InterfaceError):  # Django's word for a connection already closed
        return True
    if not isinstance(exc, OperationalError):
        return False
    raw = connection.connection
    if raw is None or getattr(raw, "closed", False) or getattr(raw, "broken", False):
        return True
    sqlstate = getattr(exc.__cause__, "sqlstate", None) or ""
    return sqlstate.startswith("08") or sqlstate in LOST_SQLSTATES


def _connection_drop() -> None:
    """Close the lost connection: the next query opens a new one."""
    with contextlib.suppress(DatabaseError):
        connection.close()


def _unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON for the API, a plain page (nothing that needs the database)
    for the rest."""
    detail = gettext("The database is unavailable for a moment. Try again in a few seconds.")
    response: HttpResponse
    if request.path.startswith(API_PREFIX):
        response = JsonResponse({"detail": detail}, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"detail": detail}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    # Logged here in one line: Django's own "Service Unavailable" line would be a second.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def _reason(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


class DatabaseOutageMiddleware:
    """A view (or its template) that lost the database connection: a read is answered
    again on a new connection, once; a write is never repeated (its first try may have
    been committed); whatever cannot be answered is a 503 with Retry-After and one log line,
    never a 500 with a traceback."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponseBase | None:
        if not connection_lost(exception):
            return None
        match = request.resolver_match
        retried = getattr(request, "_kz_db_retried", False)
        if request.method in RETRIED_METHODS and match and not retried:
            request._kz_db_retried = True  # type: ignore[attr-defined]
            if not connection.in_atomic_block:
                _connection_drop()
                try:
                    response: HttpResponseBase = match.func(request, *match.args, **match.kwargs)
                    # Rendered here: after a failed render Django renders no response again.
                    if isinstance(response, SimpleTemplateResponse):
                        response = response.render()
                except (OperationalError, InterfaceError) as again:
                    if not connection_lost(again):
                        raise
                    exception = again
                else:
                    logger.warning(
                        "database connection lost (%s): %s %s answered on a new one",
                        _reason(exception),
                        request.method,
                        request.path,
                    )
                    return response
        _connection_drop()
        logger.warning(
            "database unreachable (%s): %s %s answered 503",
            _reason(exception),
            request.method,
            request.path,
        )
        return _unavailable(request)
