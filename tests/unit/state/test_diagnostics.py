"""What the shop does when an event fails, and when a tab's page state was lost: the event is set
aside, the browser is asked to hydrate again (sending its cookies), and the shopper is told."""

from __future__ import annotations

import logging

import pytest
import redis
from reflex.state import State
from reflex_base.event import Event

from shop_app.domain.cart_cookie import cart_token_from_header
from shop_app.domain.messages import ServiceMessage
from shop_app.logs import KeyValueFormatter
from shop_app.state.cart import CartState
from shop_app.state.diagnostics import (
    EVENT_PROCESSOR_LOGGER,
    HYDRATE_EVENT,
    MAX_FRONTEND_REPORT_CHARS,
    BrowserLink,
    ShopMiddleware,
    client_hash,
    install_log_filters,
    on_backend_error,
    on_frontend_error,
)
from shop_app.state.notify import NotificationState

# The cart's state is imported (registered) here, not left to whichever test ran before: the event
# guard refuses an event naming a state it does not know.
ADD = f"{CartState.get_full_name()}.add"
ADD_ONE = Event(name=ADD, payload={"product_id": 1})


class _App:
    """What the middleware asks of the app: the current page's loads (none here)."""

    @staticmethod
    def get_load_events(_path: str) -> list:
        return []


def test_a_failed_handler_tells_the_shopper_to_try_again() -> None:
    spec = on_backend_error(ValueError("bug"))

    assert spec is not None
    assert spec.handler.fn.__name__ == "show"
    assert ServiceMessage.TRY_AGAIN.value in str(spec.args)


def test_a_failing_state_store_gets_no_notification_event_that_would_fail_again() -> None:
    assert on_backend_error(redis.ConnectionError("down")) is None


async def test_an_event_on_a_lost_state_is_set_aside_and_the_browser_hydrates_again() -> None:
    root = State(_reflex_internal_init=True)

    update = await ShopMiddleware().preprocess(app=_App(), state=root, event=ADD_ONE)

    assert update is not None
    assert [event.name for event in update.events] == ["_remove_local_storage"]
    notification = await root.get_state(NotificationState)
    assert (notification.message, notification.kind) == (ServiceMessage.RECONNECTED.value, "info")


async def test_events_after_the_browser_hydrated_run() -> None:
    root = State(_reflex_internal_init=True)
    middleware = ShopMiddleware()

    assert await middleware.preprocess(app=_App(), state=root, event=Event(name=HYDRATE_EVENT)) is None
    assert await middleware.preprocess(app=_App(), state=root, event=ADD_ONE) is None
    assert (await root.get_state(BrowserLink))._hydrated


async def test_an_event_the_guard_refuses_never_reaches_its_handler() -> None:
    root = State(_reflex_internal_init=True)
    middleware = ShopMiddleware()
    await middleware.preprocess(app=_App(), state=root, event=Event(name=HYDRATE_EVENT))

    update = await middleware.preprocess(
        app=_App(), state=root, event=Event(name=ADD, payload={"product_id": 10**30})
    )

    assert update is not None
    (notice,) = update.events
    assert notice.name.endswith("notification_state.show")
    assert notice.payload["message"] == ServiceMessage.BAD_REQUEST.value


def test_the_log_names_a_tab_by_a_short_one_way_hash() -> None:
    token = "5503b711-af93-476c-b4a7-d4c23cbd97af"

    assert client_hash(token) == client_hash(token)
    assert len(client_hash(token)) == 12 and token not in client_hash(token)


def test_the_cart_cookie_is_read_back_from_the_handshake() -> None:
    assert cart_token_from_header("theme=dark; cart=tok_123; other=1") == "tok_123"
    assert cart_token_from_header("") == cart_token_from_header(None) == ""
    assert cart_token_from_header("cart=" + "x" * 200) == ""  # not a token of ours
    assert cart_token_from_header('cart="abc"') == cart_token_from_header("cart=a b") == ""  # not base64url


def test_an_unknown_event_name_is_one_warning_line_not_two_tracebacks(
    caplog: pytest.LogCaptureFixture,
) -> None:
    install_log_filters()
    reflex_log = logging.getLogger(EVENT_PROCESSOR_LOGGER)
    name = "reflex___state____state.shop_app___state___auth____auth_state.signed_in"
    try:
        raise KeyError(f"No registered handler found for event: {name}")
    except KeyError:
        with caplog.at_level(logging.WARNING):
            reflex_log.exception("Error processing event queue entry for Event(... cookie: secret ...)")

    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        ("shop_app.state.diagnostics", "WARNING", "event refused: no such handler")
    ]
    assert caplog.records[0].event == name
    assert "secret" not in caplog.text


def test_other_errors_of_reflex_are_logged_as_they_are(caplog: pytest.LogCaptureFixture) -> None:
    install_log_filters()
    try:
        raise KeyError("something else")
    except KeyError:
        with caplog.at_level(logging.WARNING):
            logging.getLogger(EVENT_PROCESSOR_LOGGER).exception("Error processing event queue entry")

    assert [r.levelname for r in caplog.records] == ["ERROR"] and caplog.records[0].exc_info


def test_a_page_error_a_browser_reports_is_one_capped_line(caplog: pytest.LogCaptureFixture) -> None:
    forged = (
        'x\nts=2026-11-25T20:00:00Z level=info logger=shop_app.services.auth msg="reset done"' + "y" * 5000
    )

    with caplog.at_level(logging.WARNING):
        on_frontend_error(Exception(forged))

    (record,) = caplog.records
    assert record.levelname == "WARNING" and record.getMessage() == "page error reported by a browser"
    assert len(record.report) == MAX_FRONTEND_REPORT_CHARS
    line = KeyValueFormatter().format(record)
    assert "\n" not in line  # the forged second line stays inside one escaped value
