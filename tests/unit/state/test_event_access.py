"""The app's event handlers are exactly the reviewed list of state/access.py, and each takes only
arguments the event guard can check (docs/architecture.md#event-channel; docs/security.md, "The event
channel").

A new public method of a state class becomes an event any browser may send: this test fails until
it is made private (``_name``) or added to the list with the access it needs.
"""

from __future__ import annotations

import pytest
from reflex_base.registry import RegistrationContext

import shop_app.shop_app  # noqa: F401 - registers every state and handler of the app
from shop_app.state import event_guard
from shop_app.state.access import HANDLERS, SETVAR, Access
from shop_app.state.admin.guard import ADMIN_EVENT_MARK


def _registered() -> dict[str, event_guard.Rule]:
    return dict(event_guard._rules())


def test_every_handler_of_the_app_is_on_the_reviewed_list() -> None:
    registered = {rule.key for rule in _registered().values() if not rule.key.endswith(f".{SETVAR}")}

    unlisted = sorted(registered - set(HANDLERS))
    stale = sorted(set(HANDLERS) - registered)

    assert not unlisted, (
        "public state methods are events any browser may send: make these private (_name) "
        f"or add them to state/access.py with the access they need: {unlisted}"
    )
    assert not stale, f"state/access.py lists handlers the app no longer has: {stale}"


def test_the_takeover_helpers_are_no_longer_events() -> None:
    keys = {rule.key for rule in _registered().values()}

    for helper in (
        "shop_app.state.auth.AuthState.signed_in",
        "shop_app.state.auth.AuthState.user",
        "shop_app.state.cart.CartState.durable_token",
        "shop_app.state.cart.CartState.add_product",
        "shop_app.state.notify.NotificationState.put",
    ):
        assert helper not in keys


def test_reflex_generic_setter_is_refused_on_every_state() -> None:
    setters = [rule for rule in _registered().values() if rule.key.endswith(f".{SETVAR}")]

    assert len(setters) > 20
    assert {rule.access for rule in setters} == {Access.REFUSED}


@pytest.mark.parametrize(
    "rule", sorted(_registered().values(), key=lambda rule: rule.key), ids=lambda r: r.key
)
def test_every_argument_is_of_a_type_the_guard_checks(rule: event_guard.Rule) -> None:
    """No dataclass, model or other object the client could forge: plain values only."""
    for param in rule.params:
        assert event_guard.checkable(param.hint), f"{rule.key}({param.name}: {param.hint})"


def test_back_office_handlers_are_for_admins_and_uploads_too() -> None:
    """Everything under state/admin is ADMIN but the page guard and the legacy login page, which
    decide for everyone where they go; every upload handler is ADMIN (api/uploads.py lets only
    administrators upload)."""
    gatekeepers = ("shop_app.state.admin.guard.", "shop_app.state.admin.login.")
    for key, access in HANDLERS.items():
        if key.startswith("shop_app.state.admin.") and not key.startswith(gatekeepers):
            assert access == Access.ADMIN, key
    uploads = [
        rule
        for rule in _registered().values()
        if any("UploadFile" in str(param.hint) for param in rule.params)
    ]
    assert uploads and all(rule.access == Access.ADMIN for rule in uploads)


def test_every_admin_handler_is_written_with_admin_event() -> None:
    """The role is re-checked by ``admin_event`` (state/admin/guard.py), never by hand."""
    rules = _registered()
    admin = {
        name: entry
        for name, entry in RegistrationContext.get().event_handlers.items()
        if rules[name].access == Access.ADMIN
    }
    unguarded = sorted(
        rules[name].key for name, entry in admin.items() if not hasattr(entry.handler.fn, ADMIN_EVENT_MARK)
    )

    assert len(admin) > 100
    assert not unguarded, f"write these admin handlers with @admin_event: {unguarded}"
