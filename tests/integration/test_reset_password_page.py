"""The reset page's Save new password: a second click does nothing once the first changed the
password (stranger-found, 2026-11-26: the second spent the used link again and said "This
password reset link is invalid or has expired" after the password had been changed)."""

from __future__ import annotations

import re
from collections.abc import Callable

import bcrypt
from reflex.state import State
from reflex_base.constants import RouteVar
from sqlmodel import Session, select

from shop_app.models import OutgoingMail, User
from shop_app.services import auth
from shop_app.services.passwords import verify_password
from shop_app.state.reset_password import ResetPasswordState

EMAIL = "mia@example.com"
LINKS = auth.Links(site_url="https://shop.example", brand="Cedar & Ember")


async def _page(token: str) -> ResetPasswordState:
    root = State(_reflex_internal_init=True)
    router = {
        RouteVar.CLIENT_IP: "203.0.113.7",
        RouteVar.HEADERS: {},
        RouteVar.PATH: "/reset-password",
        RouteVar.ORIGIN: f"/reset-password?token={token}",
        RouteVar.QUERY: {"token": token},
    }
    root.router_data = root._update_router_vars(router, {})
    return await root.get_state(ResetPasswordState)


async def test_a_second_save_after_the_password_changed_does_nothing(
    app_env: Callable[..., None], session: Session
) -> None:
    app_env()
    old_hash = bcrypt.hashpw(b"old-secret", bcrypt.gensalt(rounds=4)).decode()
    session.add(User(email=EMAIL, password_hash=old_hash, first_name="Mia"))
    session.commit()
    auth.request_password_reset(session, email=EMAIL, links=LINKS)
    session.commit()
    mail = session.exec(select(OutgoingMail).where(OutgoingMail.to_address == EMAIL)).one()
    token = re.search(r"token=([\w-]+)", mail.body_text).group(1)
    page = await _page(token)
    page.load()
    assert page.link_ok
    form = {"password": "new-secret-1", "confirm_password": "new-secret-1"}

    first = [update async for update in page.submit(form)]
    second = [update async for update in page.submit(form)]

    assert first and second == []
    assert page.error == "" and page.link_ok
    session.rollback()
    assert verify_password("new-secret-1", session.exec(select(User)).one().password_hash)
