"""Month names marked for the catalogues, so that dates read as each language writes them.

Django's own Italian catalogue capitalises the months ("21 Novembre 2026"); Italian writes
them in lower case. Marking them here puts them in our catalogues, which Django reads before
its own (LOCALE_PATHS), and the translations give each language its usual spelling.
"""

from django.utils.translation import gettext_noop

MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
