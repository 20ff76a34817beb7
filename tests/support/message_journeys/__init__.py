"""Which browser journey shows each seed message (issue 15, acceptance 4).

Every validation and status message the seeds name (``tests.support.seed_messages.seed_messages``)
is in exactly one table of one section:

* ``SHOWN``: the e2e test (``"test_file.py::test_name"``, in ``tests/e2e``) that makes the running
  shop show the message in Chromium and asserts it is visible. The test (or a helper of its module
  it calls) names the member (``AuthMessage.WELCOME_BACK``) or its text.
* ``NOT_SHOWN``: a seed text the shop never shows, with the reason (the seed's wording for a
  back end or an SDK this shop does not have). The shop's code must not use it.

``tests/unit/test_message_journeys.py`` checks both against the code.
"""

from __future__ import annotations

from enum import StrEnum

from tests.support.message_journeys import admin_products, admin_site, checkout, storefront

SECTIONS = (storefront, checkout, admin_products, admin_site)


def shown() -> dict[StrEnum, str]:
    """Every section's SHOWN table, merged."""
    return {member: test for section in SECTIONS for member, test in section.SHOWN.items()}


def not_shown() -> dict[StrEnum, str]:
    """Every section's NOT_SHOWN table, merged."""
    return {member: why for section in SECTIONS for member, why in section.NOT_SHOWN.items()}
