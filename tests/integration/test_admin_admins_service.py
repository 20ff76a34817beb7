"""Manage Admins: every rule and message of its service (docs/spec/admin-people.md#admins, #admin-messages,
#records, #admin-rules; docs/spec/README.md#roles); the customer list is tested in
``test_admin_customers_service.py``.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import contextlib
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import AdminUserMessage
from shop_app.models import AdminRole, User
from shop_app.services import sessions
from shop_app.services.admin import admins
from shop_app.services.admin.admins import AdminError

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _emptied_after(session: Session) -> None:
    """Every test starts on an empty database (the session fixture empties it afterwards)."""


def _user(session: Session, email: str, first: str = "", last: str = "", **fields: Any) -> User:
    user = User(email=email, password_hash="x", first_name=first, last_name=last, **fields)
    session.add(user)
    session.commit()
    return user


def _admin(session: Session, user: User, **fields: Any) -> AdminRole:
    role = AdminRole(user_id=user.id, **fields)
    session.add(role)
    session.commit()
    return role


def _refused(call: Any) -> str:
    with pytest.raises(AdminError) as refused:
        call()
    return str(refused.value)


# --------------------------------------------------------------------------- the admin list


def test_the_list_shows_every_role_newest_grant_first_with_who_granted_it(session: Session) -> None:
    owner = _user(session, "owner@example.com", "Olive", "Owner")
    helper = _user(session, "helper@example.com", "Hal", "Helper")
    nameless = _user(session, "quiet@example.com")
    resting = _user(session, "resting@example.com", "Rae", "Rest")
    _admin(session, owner, granted_at=NOW - timedelta(days=30))
    _admin(session, helper, granted_at=NOW - timedelta(days=2), granted_by=owner.id)
    _admin(session, nameless, granted_at=NOW - timedelta(days=1), granted_by=nameless.id)
    _admin(session, resting, granted_at=NOW, is_active=False)

    entries = admins.list_admins(session)

    assert [(e.email, e.name, e.granted_by, e.role, e.is_active) for e in entries] == [
        ("resting@example.com", "Rae Rest", "", "admin", False),
        ("quiet@example.com", "", "quiet@example.com", "admin", True),
        ("helper@example.com", "Hal Helper", "Olive Owner", "admin", True),
        ("owner@example.com", "Olive Owner", "", "admin", True),
    ]
    assert admins.admin_stats(entries) == admins.AdminStats(total=4, active=3)
    # The dashboard's tab lists the active roles only.
    assert [e.email for e in admins.current_admins(session)] == [
        "quiet@example.com",
        "helper@example.com",
        "owner@example.com",
    ]


def test_a_disabled_account_is_an_admin_but_not_an_active_one(session: Session) -> None:
    locked = _user(session, "locked@example.com", "Lo", "Cked", is_active=False)
    _admin(session, locked)

    (entry,) = admins.list_admins(session)

    assert entry.role_active and not entry.account_active and not entry.is_active
    assert admins.admin_stats([entry]) == admins.AdminStats(total=1, active=0)


def test_the_search_matches_name_email_or_role(session: Session) -> None:
    for email, first, last in (("olive@example.com", "Olive", "Owner"), ("hal@shop.ca", "Hal", "Helper")):
        _admin(session, _user(session, email, first, last))
    entries = admins.list_admins(session)

    def found(text: str) -> list[str]:
        return [e.email for e in admins.search_admins(entries, text)]

    assert found("  olive   OWNER ") == ["olive@example.com"]
    assert found("SHOP.CA") == ["hal@shop.ca"]
    assert sorted(found("Admin")) == ["hal@shop.ca", "olive@example.com"]
    assert sorted(found("")) == ["hal@shop.ca", "olive@example.com"]
    assert found("nobody") == []


# --------------------------------------------------------------------------- Add Admin


@pytest.mark.parametrize(
    ("email", "role"), [("", "admin"), ("   ", "admin"), ("fan@example.com", ""), ("", "")]
)
def test_adding_needs_both_fields(engine: Engine, session: Session, email: str, role: str) -> None:
    owner = _user(session, "owner@example.com")
    _user(session, "fan@example.com")

    message = _refused(lambda: admins.add_admin(actor_id=owner.id, email=email, role=role, engine=engine))

    assert message == AdminUserMessage.ALL_FIELDS == "Please fill in all fields"


def test_the_only_role_offered_is_admin(engine: Engine, session: Session) -> None:
    owner = _user(session, "owner@example.com")
    _user(session, "fan@example.com")

    message = _refused(
        lambda: admins.add_admin(actor_id=owner.id, email="fan@example.com", role="superuser", engine=engine)
    )

    assert message == AdminUserMessage.ROLE_NOT_OFFERED
    assert admins.ROLES == ("admin",) and admins.DEFAULT_ROLE == "admin" and admins.ROLE_MAX_LENGTH == 50
    assert session.exec(select(AdminRole)).all() == []


def test_the_user_must_have_an_account_first(engine: Engine, session: Session) -> None:
    owner = _user(session, "owner@example.com")

    message = _refused(
        lambda: admins.add_admin(actor_id=owner.id, email="stranger@example.com", role="admin", engine=engine)
    )

    assert (
        message == AdminUserMessage.USER_NOT_FOUND == "User not found. The user must have an account first."
    )


def test_an_admin_cannot_be_added_twice(engine: Engine, session: Session) -> None:
    owner = _user(session, "owner@example.com")
    _admin(session, owner)

    message = _refused(
        lambda: admins.add_admin(actor_id=owner.id, email="OWNER@example.com", role="admin", engine=engine)
    )

    assert message == AdminUserMessage.ALREADY_ADMIN == "User is already an admin"


def test_adding_grants_the_role_at_once_and_records_who_granted_it(engine: Engine, session: Session) -> None:
    owner = _user(session, "owner@example.com", "Olive", "Owner")
    _admin(session, owner)
    fan = _user(session, "fan@example.com", "Fan", "Shopper")
    fan_session = sessions.start(session, user=fan, remember_me=False)
    session.commit()
    assert not sessions.resolve_key(session, fan_session.state_key).is_admin

    entry = admins.add_admin(actor_id=owner.id, email="  Fan@Example.com ", role="admin", engine=engine)

    assert (entry.email, entry.name, entry.role, entry.granted_by, entry.is_active) == (
        "fan@example.com",
        "Fan Shopper",
        "admin",
        "Olive Owner",
        True,
    )
    session.rollback()  # a fresh read: end the snapshot, forget loaded rows
    session.expire_all()
    assert sessions.resolve_key(session, fan_session.state_key).is_admin  # their very next request


def test_a_withdrawn_role_is_granted_again(engine: Engine, session: Session) -> None:
    owner = _user(session, "owner@example.com")
    _admin(session, owner)
    fan = _user(session, "fan@example.com")
    old = _admin(session, fan, is_active=False, granted_at=NOW - timedelta(days=400))

    admins.add_admin(actor_id=owner.id, email="fan@example.com", role="admin", engine=engine)

    session.rollback()  # a fresh read: end the snapshot, forget loaded rows
    session.expire_all()
    (role,) = session.exec(select(AdminRole).where(AdminRole.user_id == fan.id)).all()
    assert role.id == old.id and role.is_active and role.granted_by == owner.id
    assert role.granted_at > NOW - timedelta(days=400)


# --------------------------------------------------------------------------- Remove


def test_removing_deletes_the_role_keeps_the_account_and_ends_admin_access_at_once(
    engine: Engine, session: Session
) -> None:
    owner = _user(session, "owner@example.com")
    _admin(session, owner)
    helper = _user(session, "helper@example.com")
    role = _admin(session, helper)
    helper_session = sessions.start(session, user=helper, remember_me=False)
    session.commit()
    assert sessions.resolve_key(session, helper_session.state_key).is_admin

    admins.remove_admin(actor_id=owner.id, role_id=role.id, engine=engine)

    session.rollback()  # a fresh read: end the snapshot, forget loaded rows
    session.expire_all()
    assert session.exec(select(AdminRole.user_id)).all() == [owner.id]
    assert session.get(User, helper.id) is not None
    still = sessions.resolve_key(session, helper_session.state_key)
    assert still is not None and not still.is_admin  # signed in, as a customer


def test_nobody_removes_their_own_access(engine: Engine, session: Session) -> None:
    owner = _user(session, "owner@example.com")
    mine = _admin(session, owner)
    _admin(session, _user(session, "helper@example.com"))

    message = _refused(lambda: admins.remove_admin(actor_id=owner.id, role_id=mine.id, engine=engine))

    assert message == AdminUserMessage.CANNOT_REMOVE_SELF
    assert len(session.exec(select(AdminRole)).all()) == 2


def test_two_admins_removing_each_other_leave_one(engine: Engine, session: Session) -> None:
    """The second of two crossing removals is refused: the shop always keeps an active admin."""
    olive, hal = _user(session, "olive@example.com"), _user(session, "hal@example.com")
    olive_role, hal_role = _admin(session, olive), _admin(session, hal)

    admins.remove_admin(actor_id=olive.id, role_id=hal_role.id, engine=engine)
    message = _refused(lambda: admins.remove_admin(actor_id=hal.id, role_id=olive_role.id, engine=engine))

    assert message == AdminUserMessage.LAST_ADMIN
    session.rollback()  # a fresh read: end the snapshot, forget loaded rows
    session.expire_all()
    assert session.exec(select(AdminRole.user_id)).all() == [olive.id]


def test_crossing_removals_at_the_same_moment_leave_one_admin(
    engine: Engine, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two removals in two threads, each pausing after its count of active admins until the
    other has counted too: without the lock both would count two and both delete. With it the
    second waits for the first to commit (the pause times out), counts again and is refused."""
    olive, hal = _user(session, "olive@example.com"), _user(session, "hal@example.com")
    olive_role, hal_role = _admin(session, olive), _admin(session, hal)
    counted = threading.Barrier(2, timeout=1.0)
    count_active = admins._active_admin_ids

    def count_then_pause(tx: Session) -> set[int]:
        active = count_active(tx)
        with contextlib.suppress(threading.BrokenBarrierError):
            counted.wait()
        return active

    monkeypatch.setattr(admins, "_active_admin_ids", count_then_pause)
    outcomes: list[str] = []

    def remove(actor: int, role: int) -> None:
        try:
            admins.remove_admin(actor_id=actor, role_id=role, engine=engine)
            outcomes.append("removed")
        except AdminError as refused:
            outcomes.append(str(refused))

    threads = [
        threading.Thread(target=remove, args=(olive.id, hal_role.id)),
        threading.Thread(target=remove, args=(hal.id, olive_role.id)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(outcomes) == sorted(["removed", AdminUserMessage.LAST_ADMIN.value])
    session.rollback()
    assert len(session.exec(select(AdminRole)).all()) == 1


def test_an_inactive_role_can_always_be_removed(engine: Engine, session: Session) -> None:
    owner = _user(session, "owner@example.com")
    _admin(session, owner)
    resting = _admin(session, _user(session, "resting@example.com"), is_active=False)

    admins.remove_admin(actor_id=owner.id, role_id=resting.id, engine=engine)

    session.rollback()  # a fresh read: end the snapshot, forget loaded rows
    session.expire_all()
    assert session.exec(select(AdminRole.user_id)).all() == [owner.id]


def test_a_role_removed_meanwhile_is_reported(engine: Engine, session: Session) -> None:
    owner = _user(session, "owner@example.com")
    _admin(session, owner)

    message = _refused(lambda: admins.remove_admin(actor_id=owner.id, role_id=999_999, engine=engine))

    assert message == AdminUserMessage.ADMIN_GONE


# --------------------------------------------------------------------------- Your Session


def test_the_session_card_shows_who_since_when_and_until_when(session: Session) -> None:
    owner = _user(session, "owner@example.com", "Olive", "Owner")
    _admin(session, owner)
    started = sessions.start(session, user=owner, remember_me=True).row
    session.commit()

    card = admins.session_card(session, session_id=started.id)

    assert (card.name, card.email, card.role, card.remember_me) == (
        "Olive Owner",
        "owner@example.com",
        "admin",
        True,
    )
    assert card.signed_in_at == started.created_at
    assert card.expires_at == started.created_at + sessions.REMEMBER_IDLE_TIMEOUT
    assert admins.session_card(session, session_id=999_999) is None
