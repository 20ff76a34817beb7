"""The mailing list: stored once, welcomed once, every mail with a working unsubscribe link that
only the button on its page uses, and no link that can be guessed.

Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlmodel import Session, func, select

from shop_app import routes
from shop_app.models import OutgoingMail, StoreSettings, Subscriber, UnsubscribeToken
from shop_app.services import newsletter
from shop_app.services.sessions import hash_secret

CLIENT = "203.0.113.9"
LINK = re.compile(r"https?://\S+/newsletter/unsubscribe\?token=[\w-]+")


@pytest.fixture(autouse=True)
def shop(session: Session) -> StoreSettings:
    settings = StoreSettings(id=1, company_name="Cedar & Ember", email="hello@cedar-ember.example")
    session.add(settings)
    session.commit()
    return settings


def _welcomes(session: Session) -> list[OutgoingMail]:
    return list(session.exec(select(OutgoingMail).where(OutgoingMail.kind == newsletter.WELCOME_KIND)).all())


def _link(mail: OutgoingMail) -> str:
    [link] = LINK.findall(mail.body_text)
    assert f'href="{link}"' in mail.body_html
    return link


def _token(link: str) -> str:
    parts = urlsplit(link)
    assert parts.path == routes.NEWSLETTER_UNSUBSCRIBE
    return parse_qs(parts.query)["token"][0]


def test_an_address_is_stored_once_and_a_repeat_is_not_an_error(session: Session) -> None:
    first = newsletter.subscribe(session, email=" Ana@Example.CA ", source="footer", client=CLIENT)
    again = newsletter.subscribe(session, email="ana@example.ca", source="home", client=CLIENT)

    assert first.id == again.id
    assert session.exec(select(func.count()).select_from(Subscriber)).one() == 1
    assert (again.email, again.source, again.unsubscribed_at) == ("ana@example.ca", "footer", None)
    assert len(_welcomes(session)) == 1  # a repeat mails nothing: the box cannot flood an inbox


@pytest.mark.parametrize(
    ("email", "message"),
    [
        ("", "Please fill in all required fields"),
        ("  ", "Please fill in all required fields"),
        ("not-an-email", "Please enter a valid email address"),
        ("a@" + "b" * 260 + ".ca", "Please enter a valid email address"),
    ],
)
def test_the_email_is_required_and_must_be_an_address(session: Session, email: str, message: str) -> None:
    with pytest.raises(newsletter.NewsletterError, match=message):
        newsletter.subscribe(session, email=email, source="footer", client=CLIENT)

    assert session.exec(select(func.count()).select_from(Subscriber)).one() == 0


def test_the_welcome_mail_carries_an_unsubscribe_link_whose_token_is_stored_hashed(session: Session) -> None:
    subscriber = newsletter.subscribe(session, email="ana@example.ca", source="footer", client=CLIENT)

    [welcome] = _welcomes(session)
    assert welcome.to_address == "ana@example.ca"
    assert welcome.subject == "Welcome to our mailing list | Cedar & Ember"
    assert "You are receiving this email because you joined our mailing list." in welcome.body_text
    token = _token(_link(welcome))
    assert len(token) >= 43  # 256 random bits
    [stored] = session.exec(select(UnsubscribeToken)).all()
    assert (stored.subscriber_id, stored.token_hash) == (subscriber.id, hash_secret(token))
    assert token not in stored.token_hash


def test_opening_the_link_changes_nothing_and_the_button_unsubscribes(session: Session) -> None:
    subscriber = newsletter.subscribe(session, email="ana@example.ca", source="footer", client=CLIENT)
    token = _token(_link(_welcomes(session)[0]))

    assert newsletter.subscriber_for_token(session, token).id == subscriber.id
    assert subscriber.unsubscribed_at is None

    assert newsletter.unsubscribe(session, token).id == subscriber.id
    first_time = subscriber.unsubscribed_at
    assert first_time is not None
    assert newsletter.unsubscribe(session, token).unsubscribed_at == first_time  # again is fine


@pytest.mark.parametrize("token", ["", "nope", "x" * 43, "x" * 10_000])
def test_a_link_that_is_not_ours_finds_nobody(session: Session, token: str) -> None:
    newsletter.subscribe(session, email="ana@example.ca", source="footer", client=CLIENT)

    assert newsletter.subscriber_for_token(session, token) is None
    assert newsletter.unsubscribe(session, token) is None
    assert session.exec(select(Subscriber)).one().unsubscribed_at is None


def test_coming_back_after_unsubscribing_welcomes_again_and_old_links_still_work(session: Session) -> None:
    newsletter.subscribe(session, email="ana@example.ca", source="footer", client=CLIENT)
    old = _token(_link(_welcomes(session)[0]))
    newsletter.unsubscribe(session, old)

    subscriber = newsletter.subscribe(session, email="ana@example.ca", source="home", client=CLIENT)

    assert subscriber.unsubscribed_at is None
    assert len(_welcomes(session)) == 2
    assert newsletter.unsubscribe(session, old).unsubscribed_at is not None


def test_every_mail_to_a_subscriber_gets_its_own_working_link(session: Session) -> None:
    subscriber = newsletter.subscribe(session, email="ana@example.ca", source="footer", client=CLIENT)

    sent = newsletter.mail_subscriber(
        session, subscriber, subject="New fall scents", paragraphs=["Pumpkin spice is back."], kind="campaign"
    )

    links = {_link(_welcomes(session)[0]), _link(sent)}
    assert len(links) == 2
    assert all(newsletter.subscriber_for_token(session, _token(link)).id == subscriber.id for link in links)


def test_a_burst_of_sign_ups_from_one_client_is_refused(session: Session) -> None:
    for n in range(newsletter.MAX_PER_WINDOW):
        newsletter.subscribe(session, email=f"victim{n}@example.ca", source="footer", client=CLIENT)

    with pytest.raises(newsletter.NewsletterError, match="Please wait 15 minutes"):
        newsletter.subscribe(session, email="one-more@example.ca", source="footer", client=CLIENT)

    assert len(_welcomes(session)) == newsletter.MAX_PER_WINDOW
    newsletter.subscribe(session, email="one-more@example.ca", source="footer", client="198.51.100.4")


def test_a_simultaneous_sign_up_of_the_same_address_finds_the_stored_row(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sign-ups both see no row; the second insert hits the unique address, uses the first row
    and mails no second welcome."""
    first = newsletter.subscribe(session, email="ana@example.ca", source="footer", client=CLIENT)
    session.commit()
    real_find = newsletter._find
    calls = iter([None])
    monkeypatch.setattr(newsletter, "_find", lambda s, a: next(calls, None) or real_find(s, a))

    again = newsletter.subscribe(session, email="ana@example.ca", source="home", client=CLIENT)
    session.commit()

    assert again.id == first.id
    assert session.exec(select(func.count()).select_from(Subscriber)).one() == 1
    assert len(_welcomes(session)) == 1
