"""The back office's access check. Every admin handler re-checks the role on the server.

``AdminGuardState`` only decides what an admin page shows: a spinner until the check is done,
then the page for admins; everyone else is sent home (the dashboard shows "Access Denied"
instead). It never grants anything: every admin handler is written with :func:`admin_event`,
which asks ``_admin_user_id()`` again before the handler runs, so a stale tab of a demoted
admin cannot act.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any, Final

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain.admin_messages import AdminLabel
from shop_app.domain.messages import ServiceMessage
from shop_app.state import notify
from shop_app.state.auth import AuthState, private_state

log = logging.getLogger(__name__)

ACCESS_DENIED = AdminLabel.ACCESS_DENIED.value

ADMIN_ID: Final = "admin_id"
"""The parameter through which :func:`admin_event` hands a handler the acting admin's user id."""
ADMIN_EVENT_MARK: Final = "__shop_admin_event__"
"""Set on every function :func:`admin_event` made (tests/unit/state/test_event_access.py)."""


def admin_event(
    fn: Callable[..., Any] | None = None,
    *,
    failure: str = ServiceMessage.TRY_AGAIN.value,
    background: bool = False,
) -> Any:
    """``@rx.event`` for the back office: the one way an admin handler is written.

    Before the handler runs, the role is read again from the database (``_admin_user_id()``):
    anyone else gets nothing, and the refusal is logged (the event guard has already told the
    tab why). A handler that declares an ``admin_id`` parameter receives the acting admin's user
    id there; the browser never sees or sends that parameter (it is left out of the signature
    Reflex and the event guard read). An exception the handler does not handle itself is logged
    with its traceback and the admin is shown ``failure``, never the exception's text.

    Works for plain, ``async`` and async-generator handlers (a plain one becomes ``async``: the
    check reads the database), and with ``background=True`` (the check then holds the state's
    lock, as Reflex requires of a background task reading other states).
    """
    if fn is None:
        return functools.partial(admin_event, failure=failure, background=background)
    signature = inspect.signature(fn)
    wants_id = ADMIN_ID in signature.parameters
    name = fn.__qualname__

    async def admin_id_of(state: Any) -> int | None:
        if background:
            async with state:
                admin_id = await state._admin_user_id()
        else:
            admin_id = await state._admin_user_id()
        if admin_id is None:
            log.warning("admin handler %s refused: not an administrator", name)
        return admin_id

    def call(state: Any, admin_id: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return fn(state, *args, **({**kwargs, ADMIN_ID: admin_id} if wants_id else kwargs))

    def failed() -> Any:
        log.exception("admin handler %s failed", name)
        return notify.error(failure)

    if inspect.isasyncgenfunction(fn):

        @functools.wraps(fn)
        async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            if (admin_id := await admin_id_of(self)) is None:
                return
            try:
                async for update in call(self, admin_id, args, kwargs):
                    yield update
            except Exception:
                yield failed()

    elif inspect.isgeneratorfunction(fn):
        raise TypeError(f"{name}: an admin handler that yields must be async")
    else:

        @functools.wraps(fn)
        async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            if (admin_id := await admin_id_of(self)) is None:
                return None
            try:
                result = call(self, admin_id, args, kwargs)
                return await result if inspect.isawaitable(result) else result
            except Exception:
                return failed()

    # What Reflex and the event guard read: the handler's parameters without ``admin_id``.
    wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p for p in signature.parameters.values() if p.name != ADMIN_ID]
    )
    wrapper.__annotations__ = {k: v for k, v in fn.__annotations__.items() if k != ADMIN_ID}
    setattr(wrapper, ADMIN_EVENT_MARK, True)
    return rx.event(wrapper, background=background)


class AdminGuardMixin(rx.State, mixin=True):
    """``_admin_user_id()`` is the only way an admin handler learns who acts."""

    async def _admin_user_id(self) -> int | None:
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth._user(session)
        return current.user_id if current and current.is_admin else None


@private_state
class AdminGuardState(AdminGuardMixin, rx.State):
    """Whether this tab may see the back office (checked on every admin page load)."""

    checked: bool = False
    allowed: bool = False

    async def _check(self) -> bool:
        self.allowed = await self._admin_user_id() is not None
        self.checked = True
        return self.allowed

    @rx.event
    async def check(self):
        """Admin pages: admins stay, everyone else goes to the home page."""
        if not await self._check():
            return rx.redirect(routes.HOME)
        return None

    @rx.event
    async def check_dashboard(self) -> None:
        """The dashboard: non-admins stay and read "Access Denied"."""
        await self._check()
