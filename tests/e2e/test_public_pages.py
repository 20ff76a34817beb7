"""The information pages in the browser: FAQ by keyboard, reviews, the contact form (happy path,
every validation message, hostile text shown as text), the About image, and the mailing list from
sign-up to the mailed unsubscribe link."""

from __future__ import annotations

import re
import time
import uuid

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.models import ContactMessage, Subscriber, WebsiteImage
from shop_app.services.seeding import DEMO_STORE
from tests.e2e.conftest import Mailbox
from tests.e2e.test_accessibility import _violations

SHOP_ADDRESS = DEMO_STORE["email"]  # the demo store settings' e-mail
UNSUBSCRIBE_LINK = re.compile(r"https?://\S+/newsletter/unsubscribe\?token=[\w-]+")


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _rows(database_url: str, model, *where) -> list:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return list(session.exec(select(model).where(*where)).all())
    finally:
        engine.dispose()


# --- FAQ ---------------------------------------------------------------------------------------


def test_faq_guide_and_an_accordion_used_with_the_keyboard_only(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/faq")
    expect(page.get_by_role("heading", name="How to Order")).to_be_visible()
    for step in ("Browse", "Add to cart", "Checkout", "Enjoy"):
        expect(page.get_by_role("heading", name=step, exact=False).first).to_be_visible()
    shipping = page.get_by_role("button", name="Where do you ship, and what does it cost?")
    ingredients = page.get_by_role("button", name="What are your candles made of?")
    expect(shipping).to_have_attribute("aria-expanded", "false")

    # From the top of the page, Tab past the header's controls reaches the first question.
    page.wait_for_load_state("networkidle")
    for _ in range(25):
        page.keyboard.press("Tab")
        if shipping.evaluate("(el) => el === document.activeElement"):
            break
    expect(shipping).to_be_focused()

    page.keyboard.press("Enter")
    expect(shipping).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_text("We ship to Canada and the United States.")).to_be_visible()
    expect(
        page.get_by_text("Shipping is a flat $15.00 per order, free on orders of $100.00 or more.")
    ).to_be_visible()
    page.keyboard.press("Enter")
    expect(shipping).to_have_attribute("aria-expanded", "false")

    page.keyboard.press("Tab")
    expect(ingredients).to_be_focused()
    page.keyboard.press("Space")
    expect(ingredients).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_text("100% natural soy wax", exact=False)).to_be_visible()

    custom = page.get_by_role("button", name="Do you make custom or bulk orders?")
    custom.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("link", name="custom orders page")).to_have_attribute("href", "/custom-orders")
    for question in ("How do I care for my candle?", "Which charity does my purchase support?"):
        expect(page.get_by_role("button", name=question)).to_be_visible()


# --- Reviews -----------------------------------------------------------------------------------


def test_reviews_show_the_summary_six_cards_and_the_shops_instagram(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/reviews")

    expect(page.get_by_role("heading", name="Customer Reviews", level=1)).to_be_visible()
    expect(page.get_by_text("Based on 6 customer reviews")).to_be_visible()
    expect(page.get_by_role("img", name="4.8 out of 5 stars")).to_be_visible()
    expect(page.locator(".review-card")).to_have_count(6)
    expect(page.get_by_role("heading", level=3)).to_have_count(6)
    expect(page.get_by_role("link", name="Follow us on Instagram")).to_have_attribute(
        "href", DEMO_STORE["instagram"]
    )


# --- Contact -----------------------------------------------------------------------------------


def _fill_contact(page: Page, *, name: str, email: str, subject: str, message: str) -> None:
    page.get_by_label("Name").fill(name)
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Subject").fill(subject)
    page.get_by_label("Message").fill(message)


def test_contact_sends_stores_notifies_and_clears(
    shop_url: str, shop_database_url: str, page: Page, mailbox: Mailbox
) -> None:
    subject = _unique("Wedding favours")
    sender = f"{_unique('ana')}@example.com"
    page.goto(f"{shop_url}/contact")
    expect(page.get_by_role("heading", name="Get in Touch")).to_be_visible()
    expect(page.get_by_role("link", name=SHOP_ADDRESS)).to_have_attribute("href", f"mailto:{SHOP_ADDRESS}")
    expect(page.get_by_role("main").get_by_role("link", name="(250) 555-0142")).to_have_attribute(
        "href", "tel:2505550142"
    )
    expect(page.get_by_role("main").get_by_text(DEMO_STORE["address"])).to_be_visible()

    _fill_contact(page, name="Ana Lopez", email=sender, subject=subject, message="Sixty candles?\nIn June.")
    started = time.monotonic()
    page.get_by_role("button", name="Send Message").click()

    sending = page.get_by_role("button", name="Sending...")
    expect(sending).to_be_disabled()
    expect(page.get_by_text("Thank you, Ana Lopez!")).to_be_visible()
    assert time.monotonic() - started >= 1.4  # the seed's 1.5 s sending state
    expect(page.get_by_role("button", name="Send Message")).to_be_enabled()
    for label in ("Name", "Subject", "Message"):
        expect(page.get_by_label(label)).to_have_value("")
    expect(page.get_by_label("Email", exact=True)).to_have_value("")

    notification = mailbox.latest(SHOP_ADDRESS, subject_contains=subject)
    assert notification["Subject"] == f"Contact form: {subject}"
    body = notification.get_body(preferencelist=("plain",)).get_content()
    assert f"Ana Lopez <{sender}>" in body
    assert "Sixty candles?" in body
    assert "We received your message" in mailbox.latest(sender)["Subject"]
    [stored] = _rows(shop_database_url, ContactMessage, ContactMessage.subject == subject)
    assert (stored.name, stored.email, stored.message) == ("Ana Lopez", sender, "Sixty candles?\nIn June.")


def test_contact_names_every_wrong_field_and_keeps_what_was_typed(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    page.goto(f"{shop_url}/contact")
    send = page.get_by_role("button", name="Send Message")

    send.click()
    for message in (
        "Please enter your name",
        "Please enter your email address",
        "Please enter a subject",
        "Please enter your message",
    ):
        expect(page.get_by_text(message, exact=True)).to_be_visible()
    expect(page.get_by_label("Name")).to_be_focused()
    expect(page.get_by_label("Name")).to_have_attribute("aria-invalid", "true")

    subject = _unique("Over-long")
    _fill_contact(page, name="N" * 201, email="ana@", subject=subject, message="M" * 5001)
    send.click()
    expect(page.get_by_text("Name can be at most 200 characters long")).to_be_visible()
    expect(page.get_by_text("Please enter a valid email address")).to_be_visible()
    expect(page.get_by_text("Message can be at most 5,000 characters long")).to_be_visible()
    expect(page.get_by_text("Please enter a subject")).to_have_count(0)
    expect(page.get_by_label("Subject")).to_have_attribute("aria-invalid", "false")
    expect(page.get_by_label("Name")).to_have_value("N" * 201)  # nothing typed is lost
    expect(page.get_by_label("Email", exact=True)).to_have_value("ana@")
    expect(page.get_by_label("Message")).to_have_value("M" * 5001)

    page.get_by_label("Name").fill("Ana")
    page.get_by_label("Email", exact=True).fill("ana@example.com")
    page.get_by_label("Message").fill("Short now.")
    page.get_by_label("Subject").fill("")
    send.click()
    expect(page.get_by_text("Please enter a subject")).to_be_visible()
    expect(page.get_by_text("Name can be at most 200 characters long")).to_have_count(0)
    expect(page.get_by_label("Subject")).to_be_focused()
    assert _rows(shop_database_url, ContactMessage, ContactMessage.subject == subject) == []


def test_a_hostile_contact_message_is_shown_and_mailed_as_text(
    shop_url: str, shop_database_url: str, page: Page, mailbox: Mailbox
) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    name = '<img src=x onerror="window.__xss=1">Eve'
    subject = _unique("<script>window.__xss=2</script>")
    message = "<script>alert('x')</script><b>bold</b>"
    page.goto(f"{shop_url}/contact")

    _fill_contact(page, name=name, email="eve@example.com", subject=subject, message=message)
    page.get_by_role("button", name="Send Message").click()

    expect(page.get_by_text(f"Thank you, {name}!")).to_be_visible()
    assert page.evaluate("() => window.__xss") is None
    expect(page.locator("img[src='x']")).to_have_count(0)
    assert dialogs == []
    html = (
        mailbox.latest(SHOP_ADDRESS, subject_contains=subject)
        .get_body(preferencelist=("html",))
        .get_content()
    )
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in html
    assert "&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;Eve" in html
    [stored] = _rows(shop_database_url, ContactMessage, ContactMessage.subject == subject)
    assert (stored.name, stored.message) == (name, message)


# --- About -------------------------------------------------------------------------------------


def test_about_shows_the_story_and_the_stored_about_image(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    [about] = _rows(shop_database_url, WebsiteImage, WebsiteImage.image_type == "about")
    page.goto(f"{shop_url}/about")

    for heading in ("About Us", "Our Story", "Our Mission", "Our Commitment", "Our Charity Partnership"):
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(page.get_by_role("main").get_by_role("listitem")).to_have_count(4)
    image = page.get_by_role("img", name=about.alt_text)
    expect(image).to_have_attribute("src", about.image_url)
    expect(image).to_have_js_property("complete", True)
    assert image.evaluate("(img) => img.naturalWidth") > 0


# --- Newsletter --------------------------------------------------------------------------------


def test_subscribe_once_then_unsubscribe_with_the_mailed_link(
    shop_url: str, shop_database_url: str, page: Page, mailbox: Mailbox
) -> None:
    email = f"{_unique('glow')}@example.com"
    page.goto(f"{shop_url}/faq")
    box = page.get_by_label("Email address")
    subscribe = page.get_by_role("button", name="Subscribe")

    subscribe.click()  # empty: the browser asks for the address, nothing is sent
    assert box.evaluate("(input) => input.validity.valueMissing")
    box.fill(email)
    subscribe.click()
    thanks = page.get_by_text("Thank you for subscribing!", exact=False)
    expect(thanks).to_be_visible()
    # Closed at once: the notification also goes by itself after 4 s, and the mail below may take
    # longer than that to arrive on a busy machine.
    page.get_by_role("button", name="Close notification").click()
    expect(thanks).to_have_count(0)
    expect(box).to_have_value("")
    welcome = mailbox.latest(email, subject_contains="Welcome")
    box.fill(email.upper())
    subscribe.click()
    expect(thanks).to_be_visible()  # a repeat is not an error
    [subscriber] = _rows(shop_database_url, Subscriber, Subscriber.email == email)
    assert subscriber.unsubscribed_at is None
    # The handler sends its mail before it answers, so a second welcome would be here by now.
    assert [m for m in mailbox.messages if m["To"] == email] == [welcome]  # welcomed once

    [link] = UNSUBSCRIBE_LINK.findall(welcome.get_body(preferencelist=("plain",)).get_content())
    page.goto(link)
    expect(
        page.get_by_text(re.compile(r"Unsubscribe g•••@example\.com from our mailing list\?"))
    ).to_be_visible()
    [subscriber] = _rows(shop_database_url, Subscriber, Subscriber.email == email)
    assert subscriber.unsubscribed_at is None  # opening the link changes nothing

    page.get_by_role("button", name="Unsubscribe").click()
    expect(page.get_by_role("main").get_by_text("You have been unsubscribed.", exact=False)).to_be_visible()
    [subscriber] = _rows(shop_database_url, Subscriber, Subscriber.email == email)
    assert subscriber.unsubscribed_at is not None

    page.goto(f"{shop_url}/newsletter/unsubscribe?token=not-a-real-token")
    expect(page.get_by_text("This unsubscribe link is not valid.", exact=False)).to_be_visible()
    expect(page.get_by_role("button", name="Unsubscribe")).to_have_count(0)


# --- Accessibility -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/faq", "/reviews", "/contact", "/about"])
def test_information_pages_have_no_serious_accessibility_violations(
    shop_url: str, page: Page, path: str
) -> None:
    page.goto(f"{shop_url}{path}")
    page.wait_for_load_state("networkidle")
    if path == "/contact":  # with the field errors on show
        page.get_by_role("button", name="Send Message").click()
        expect(page.get_by_text("Please enter your name")).to_be_visible()

    assert _violations(page) == []
