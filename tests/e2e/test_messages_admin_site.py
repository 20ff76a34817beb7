"""The back office's site messages (categories, administrators, the website's images), each shown in
the browser (issue 15, acceptance 4; the table is tests/support/message_journeys/admin_site.py).

The failures are real: a table or a column of the running shop's database is taken away, a row
the screen reads cannot be read, or the media folder cannot be written. Everything is put back
afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from shop_app import routes
from shop_app.domain.admin_messages import AdminUserMessage, CategoryMessage, WebsiteImageMessage
from tests.e2e.helpers import SignIn
from tests.e2e.test_accounts import _register_in_dialog, _sign_in_in_dialog, _wait_for_cookie

FIRST, LAST = "Ines", "Okafor"
SLOT = "mission"  # a website image slot no other journey changes
SLOT_TITLE = "Our Mission"

BrokenColumn = Callable[[str, str], AbstractContextManager[None]]


@pytest.fixture
def broken_column(shop_database_url: str) -> Iterator[BrokenColumn]:
    """``with broken_column("admin_roles", "granted_by"):`` renames a column of the running shop's
    database away (a migration not run: every query naming it raises) and puts it back."""
    engine = sa.create_engine(shop_database_url)

    @contextmanager
    def hide(table: str, column: str) -> Iterator[None]:
        hidden = f"{column}__hidden_by_test"
        with engine.begin() as connection:
            connection.exec_driver_sql(f'ALTER TABLE "{table}" RENAME COLUMN "{column}" TO "{hidden}"')
        try:
            yield
        finally:
            with engine.begin() as connection:
                connection.exec_driver_sql(f'ALTER TABLE "{table}" RENAME COLUMN "{hidden}" TO "{column}"')

    try:
        yield hide
    finally:
        engine.dispose()


@pytest.fixture
def shopper(shop_database_url: str) -> Iterator[str]:
    """A fresh shopper's e-mail; any admin role they were given is withdrawn afterwards."""
    email = f"site-{uuid.uuid4().hex[:8]}@example.com"
    yield email
    engine = sa.create_engine(shop_database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "DELETE FROM admin_roles WHERE user_id IN (SELECT id FROM users WHERE email = :email)"
                ),
                {"email": email},
            )
    finally:
        engine.dispose()


def _register(browser: Browser, shop_url: str, email: str, *, sign_in: bool = False) -> Page:
    """A shopper's own browser, with their new account."""
    page = browser.new_context().new_page()
    page.goto(f"{shop_url}/")
    _register_in_dialog(page, email, first=FIRST, last=LAST)
    if sign_in:
        _sign_in_in_dialog(page, email)
        _wait_for_cookie(page, "shop_session")
    return page


@pytest.mark.broken_table
def test_categories_that_cannot_be_read_say_so(
    shop_url: str, page: Page, broken_table, sign_in: SignIn
) -> None:
    sign_in(page)
    with broken_table("categories"):
        page.goto(f"{shop_url}/admin/manage-categories")
        expect(page.get_by_text(str(CategoryMessage.LOAD_FAILED))).to_be_visible(timeout=15_000)
    page.reload()
    expect(page.get_by_role("button", name="Add Main Category")).to_be_visible(timeout=15_000)
    expect(page.get_by_role("heading", name="Candles")).to_be_visible(timeout=15_000)


@pytest.mark.broken_table
def test_admin_changes_the_database_cannot_take_fail_with_the_seeds_messages(
    shop_url: str, page: Page, browser: Browser, shopper: str, broken_column: BrokenColumn, *, sign_in: SignIn
) -> None:
    _register(browser, shop_url, shopper).context.close()
    sign_in(page)
    page.goto(f"{shop_url}/admin/manage-admins")
    expect(page.get_by_role("heading", name="Manage Admins")).to_be_visible(timeout=15_000)
    page.get_by_role("button", name="Add Admin").click()
    dialog = page.get_by_role("dialog", name="Add Admin")
    dialog.get_by_label("User email").fill(shopper)
    dialog.get_by_role("button", name="Add Admin").click()
    expect(page.get_by_text(str(AdminUserMessage.ADMIN_ADDED))).to_be_visible(timeout=15_000)
    remove = (
        page.get_by_role("row").filter(has_text=shopper).get_by_role("button", name=f"Remove {FIRST} {LAST}")
    )
    expect(remove).to_be_visible()

    # The admin roles lose a column (a migration not run): the shop cannot read their rows.
    with broken_column("admin_roles", "granted_by"):
        remove.click()
        page.get_by_role("alertdialog", name="Remove Admin").get_by_role("button", name="Remove").click()
        expect(page.get_by_text(str(AdminUserMessage.REMOVE_FAILED))).to_be_visible(timeout=15_000)

        page.get_by_role("button", name="Add Admin").click()
        dialog = page.get_by_role("dialog", name="Add Admin")
        dialog.get_by_label("User email").fill(shopper)
        dialog.get_by_role("button", name="Add Admin").click()
        expect(dialog.get_by_text(str(AdminUserMessage.ADD_FAILED))).to_be_visible(timeout=15_000)
        dialog.get_by_role("button", name="Cancel").click()
        expect(page.get_by_role("dialog")).to_have_count(0)

        page.reload()
        expect(page.get_by_text(str(AdminUserMessage.LOAD_ADMINS_FAILED))).to_be_visible(timeout=15_000)

    page.reload()
    remove.click()
    page.get_by_role("alertdialog", name="Remove Admin").get_by_role("button", name="Remove").click()
    expect(page.get_by_text(str(AdminUserMessage.ADMIN_REMOVED))).to_be_visible(timeout=15_000)
    expect(page.get_by_role("row").filter(has_text=shopper)).to_have_count(0)


@pytest.mark.broken_table
def test_a_customer_row_that_cannot_be_read_fails_the_customer_list(
    shop_url: str, shop_database_url: str, page: Page, browser: Browser, shopper: str, *, sign_in: SignIn
) -> None:
    _register(browser, shop_url, shopper).context.close()
    sign_in(page)
    page.goto(f"{shop_url}/admin/view-users")
    expect(page.get_by_role("heading", name="Customers")).to_be_visible(timeout=15_000)

    engine = sa.create_engine(shop_database_url)
    with engine.connect() as connection:
        created = connection.execute(
            sa.text("SELECT created_at FROM users WHERE email = :email"), {"email": shopper}
        ).scalar_one()
    try:
        with engine.begin() as connection:  # a damaged row: its date is no date
            connection.execute(
                sa.text("UPDATE users SET created_at = 'not a date' WHERE email = :email"), {"email": shopper}
            )
        page.get_by_label("Search customers").fill(shopper)
        expect(page.get_by_text(str(AdminUserMessage.LOAD_USERS_FAILED))).to_be_visible(timeout=15_000)
    finally:
        with engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE users SET created_at = :created WHERE email = :email"),
                {"created": created, "email": shopper},
            )
        engine.dispose()
    page.get_by_label("Search customers").fill(shopper.upper())
    expect(page.get_by_role("rowheader")).to_have_count(1, timeout=15_000)


def test_a_customer_who_opens_a_back_office_link_reads_access_denied(
    shop_url: str, browser: Browser, shopper: str
) -> None:
    customer = _register(browser, shop_url, shopper, sign_in=True)
    customer.goto(f"{shop_url}{routes.ADMIN_PRODUCTS_CSV}")
    expect(customer.locator("body")).to_contain_text(str(AdminUserMessage.ACCESS_DENIED))
    customer.context.close()


@pytest.fixture
def mission_image_restored(shop_database_url: str, shop_workdir: Path) -> Iterator[Path]:
    """The website images' folder; the mission slot has no image of its own afterwards and the
    folder is a folder again."""
    folder = shop_workdir / "media" / "website-images"
    moved = folder.with_name("website-images__moved_by_test")
    yield folder
    if folder.is_file():
        folder.unlink()
    if moved.exists():
        moved.rename(folder)
    engine = sa.create_engine(shop_database_url)
    with engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM website_images WHERE image_type = :t"), {"t": SLOT})
    engine.dispose()


@contextmanager
def _insert_refused(database_url: str, table: str) -> Iterator[None]:
    """The running shop's database refuses every new row of ``table`` (a trigger), until the end."""
    engine = sa.create_engine(database_url)
    name = f"refused_by_test_{table}"
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql(
                f'CREATE TRIGGER "{name}" BEFORE INSERT ON "{table}" '
                "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
            )
        yield
    finally:
        with engine.begin() as connection:
            connection.exec_driver_sql(f'DROP TRIGGER IF EXISTS "{name}"')
        engine.dispose()


def _upload(page: Page, folder: Path, name: str, colour: str) -> None:
    """Choose a new picture for the slot (a file of its own each time: the same file chosen again is
    not a new choice)."""
    picture = folder / f"{name}.png"
    Image.new("RGB", (1200, 800), colour).save(picture)
    page.locator(f"[data-testid=website-image-upload-{SLOT}] input[type=file]").set_input_files(picture)


@pytest.mark.broken_table
def test_website_image_uploads_removals_and_failed_saves_are_told(
    shop_url: str,
    shop_database_url: str,
    page: Page,
    tmp_path: Path,
    mission_image_restored: Path,
    *,
    sign_in: SignIn,
) -> None:
    folder = mission_image_restored
    sign_in(page)
    page.goto(f"{shop_url}/admin/manage-images")
    expect(page.get_by_role("heading", name="Website Images")).to_be_visible(timeout=15_000)
    save = page.get_by_role("button", name="Save All Changes")
    uploaded = page.get_by_text(str(WebsiteImageMessage.UPLOADED))

    before = set(folder.glob("*.webp")) if folder.is_dir() else set()
    _upload(page, tmp_path, "first", "#3d5a40")
    expect(uploaded).to_be_visible(timeout=15_000)
    expect(page.get_by_text("New image, not saved yet")).to_be_visible()
    with _insert_refused(shop_database_url, "website_images"):  # the database refuses the write
        save.click()
        expect(page.get_by_text(str(WebsiteImageMessage.SAVE_FAILED))).to_be_visible(timeout=15_000)

    # The upload held for the slot is lost from the disk before it is saved.
    staged = set(folder.glob("*.webp")) - before
    assert staged
    for stored in staged:
        stored.unlink()
    save.click()
    failed = WebsiteImageMessage.SAVE_TYPE_FAILED.format(type=SLOT)
    expect(page.get_by_text(failed)).to_be_visible(timeout=15_000)

    # The media folder cannot be written (a file stands where the folder should be).
    folder.rename(folder.with_name("website-images__moved_by_test"))
    folder.write_bytes(b"")
    try:
        _upload(page, tmp_path, "second", "#5a3d40")
        expect(page.get_by_text(str(WebsiteImageMessage.UPLOAD_IMAGE_FAILED))).to_be_visible(timeout=15_000)
    finally:
        folder.unlink()
        folder.with_name("website-images__moved_by_test").rename(folder)

    _upload(page, tmp_path, "third", "#403d5a")
    expect(uploaded.first).to_be_visible(timeout=15_000)
    save.click()
    expect(page.get_by_text(str(WebsiteImageMessage.ALL_SAVED))).to_be_visible(timeout=15_000)
    expect(save).to_be_disabled()

    page.get_by_role("button", name=f"Remove {SLOT_TITLE} image").click()
    expect(page.get_by_text(str(WebsiteImageMessage.REMOVED))).to_be_visible(timeout=15_000)
    save.click()
    expect(save).to_be_disabled(timeout=15_000)
    expect(page.get_by_role("button", name=f"Remove {SLOT_TITLE} image")).to_have_count(0)


@pytest.mark.broken_table
def test_without_the_website_images_table_the_screen_shows_the_static_images_and_cannot_save(
    shop_url: str, page: Page, tmp_path: Path, broken_table, mission_image_restored: Path, *, sign_in: SignIn
) -> None:
    sign_in(page)
    save = page.get_by_role("button", name="Save All Changes")
    with broken_table("website_images"):
        page.goto(f"{shop_url}/admin/manage-images")
        expect(page.get_by_text(str(WebsiteImageMessage.STATIC_FALLBACK))).to_be_visible(timeout=15_000)
        expect(
            page.get_by_role("alert").filter(has_text=str(WebsiteImageMessage.TABLE_MISSING))
        ).to_be_visible()
        expect(page.get_by_role("img", name=f"{SLOT_TITLE} preview")).to_be_visible()

        _upload(page, tmp_path, "held", "#6b4f2a")
        expect(page.get_by_text(str(WebsiteImageMessage.UPLOADED))).to_be_visible(timeout=15_000)
        save.click()
        expect(page.get_by_text(str(WebsiteImageMessage.CANNOT_SAVE_NO_TABLE))).to_be_visible(timeout=15_000)

    # With the table back, the upload held meanwhile is saved.
    page.reload()
    expect(page.get_by_text("New image, not saved yet")).to_be_visible(timeout=15_000)
    expect(page.get_by_text(str(WebsiteImageMessage.TABLE_MISSING))).to_have_count(0)
    save.click()
    expect(page.get_by_text(str(WebsiteImageMessage.ALL_SAVED))).to_be_visible(timeout=15_000)
