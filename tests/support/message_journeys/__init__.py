"""Which browser journey shows each seed message (issue 15, acceptance 4).

Every validation and status message the seeds name (``tests.support.seed_messages.seed_messages``)
is in exactly one table of one section:

* ``SHOWN``: the e2e test (``"test_file.py::test_name"``, in ``tests/e2e``) that makes the running
  shop show the message in Chromium and asserts it is visible. The test (or a helper of its module
  it calls) names the member (``AuthMessage.WELCOME_BACK``) or its text. (The four answers of the
  back office's JSON API for scripts, ``/api/square/*``, are shown to the signed-in admin's
  browser asking the route.)
* ``NOT_SHOWN``: a seed text the shop never shows, with the reason (the seed's wording for a
  back end or an SDK this shop does not have). The shop's code must not use it.

``tests/unit/test_message_journeys.py`` checks both against the code.
"""

from __future__ import annotations

from enum import StrEnum

from tests.support.message_journeys import admin_products, admin_site, checkout, storefront

SECTIONS = (storefront, checkout, admin_products, admin_site)

Entry = tuple[StrEnum, str]
"""A member and its test (SHOWN) or its reason (NOT_SHOWN)."""


def shown() -> list[Entry]:
    """Every section's SHOWN entries. (A list, not a dict: members of different classes with the
    same text, such as AuthMessage.REQUIRED_FIELDS and CheckoutMessage.REQUIRED_FIELDS, are equal
    strings and would be one key. Each section holds at most one of such twins.)"""
    return [entry for section in SECTIONS for entry in section.SHOWN.items()]


def not_shown() -> list[Entry]:
    """Every section's NOT_SHOWN entries (a list, for the same reason)."""
    return [entry for section in SECTIONS for entry in section.NOT_SHOWN.items()]


def identity(member: StrEnum) -> tuple[str, str]:
    """What tells two members apart (their texts may be equal): class and member name."""
    return type(member).__name__, member.name
