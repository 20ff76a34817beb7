"""Website images: upload, hold, save, the files on disk, the storefront showing the result, and
the screen's handlers refusing non-admins (docs/spec/admin-site.md#website-images, #website-images-rules,
#website-images-messages).

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import reflex as rx
from PIL import Image
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import WebsiteImageMessage
from shop_app.models import AdminRole, Product, ProductImage, User, WebsiteImage
from shop_app.services import sessions
from shop_app.services.admin import website_images as service
from shop_app.services.media import MAX_IMAGE_BYTES, ImageError, StoredImage, store_image
from shop_app.services.site_images import IMAGE_TYPES, SLOTS, default_alt, hero_file
from shop_app.settings import get_settings
from shop_app.state.admin.images import UNSAVED_NEW, UNSAVED_REMOVED, WebsiteImagesState
from shop_app.state.auth import AuthState
from shop_app.state.home import DEFAULT_HERO, HomeState
from shop_app.state.views import PLACEHOLDER_IMAGE


@pytest.fixture(autouse=True)
def _emptied_after(session: Session) -> None:
    """Every test starts on an empty database (the session fixture empties it afterwards)."""


def _png(width: int = 40, height: int = 30, colour: str = "red") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def _files(url: str, media_dir: Path) -> list[Path]:
    stem = Path(url).stem
    return sorted((media_dir / Path(url).parent.relative_to("/media")).glob(f"{stem}*"))


def _stage(media_dir: Path, colour: str = "red") -> StoredImage:
    return service.stage_upload(_png(colour=colour), filename=f"{colour}.png", media_dir=media_dir)


def _rows(session: Session) -> dict[str, WebsiteImage]:
    session.rollback()  # a fresh snapshot: the services write through their own connections
    session.expire_all()
    return {row.image_type: row for row in session.exec(select(WebsiteImage)).all()}


def test_the_six_slots_and_their_seed_alt_texts() -> None:
    assert IMAGE_TYPES == (
        "hero",
        "category_candles",
        "category_bodycare",
        "category_fragrance",
        "mission",
        "about",
    )
    assert [slot.default_alt for slot in SLOTS] == [
        "Homepage hero image",
        "Candles category",
        "Body care category",
        "Room fragrance category",
        "Our mission",
        "About us",
    ]
    assert default_alt("unknown") == ""


def test_an_upload_is_sniffed_and_stored_but_not_saved(media_dir: Path, session: Session) -> None:
    stored = _stage(media_dir)

    assert stored.url.startswith("/media/website-images/") and stored.url.endswith(".webp")
    assert (stored.width, stored.height) == (40, 30)
    assert _files(stored.url, media_dir)
    assert _rows(session) == {}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "logo.svg is not a valid image file"),
        (b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "logo.svg is not a valid image file"),
        (b"\0" * (MAX_IMAGE_BYTES + 1), "logo.svg is too large. Maximum size is 5MB"),
    ],
)
def test_an_upload_that_is_not_an_image_gets_the_seeds_message(
    data: bytes, message: str, media_dir: Path
) -> None:
    with pytest.raises(ImageError, match=f"^{message}$"):
        service.stage_upload(data, filename="logo.svg", media_dir=media_dir)
    assert not (media_dir / service.FOLDER).exists() or not any((media_dir / service.FOLDER).iterdir())


def test_save_inserts_new_types_with_the_default_alt_text(
    engine: Engine, session: Session, media_dir: Path
) -> None:
    hero, mission = _stage(media_dir), _stage(media_dir, "blue")

    service.save_changes(
        staged={"hero": hero, "mission": mission}, removed=[], media_dir=media_dir, engine=engine
    )

    rows = _rows(session)
    assert {kind: (r.image_url, r.alt_text, r.width, r.is_active) for kind, r in rows.items()} == {
        "hero": (hero.url, "Homepage hero image", 40, True),
        "mission": (mission.url, "Our mission", 40, True),
    }
    assert rows["hero"].created_at is not None and rows["hero"].updated_at >= rows["hero"].created_at


def test_replacing_keeps_the_alt_text_and_deletes_the_old_file_after_the_commit(
    engine: Engine, session: Session, media_dir: Path
) -> None:
    old = _stage(media_dir)
    service.save_changes(staged={"hero": old}, removed=[], media_dir=media_dir, engine=engine)
    row = _rows(session)["hero"]
    row.alt_text = "Candles on a shelf"
    session.add(row)
    session.commit()
    created = row.created_at
    new = _stage(media_dir, "green")

    deleted = service.save_changes(staged={"hero": new}, removed=[], media_dir=media_dir, engine=engine)

    row = _rows(session)["hero"]
    assert (row.image_url, row.alt_text, row.created_at) == (new.url, "Candles on a shelf", created)
    assert deleted == 1 and _files(old.url, media_dir) == [] and _files(new.url, media_dir)
    assert len(session.exec(select(WebsiteImage)).all()) == 1


def test_removed_types_are_deleted_first_then_the_rest_upserted(
    engine: Engine, session: Session, media_dir: Path
) -> None:
    hero, about = _stage(media_dir), _stage(media_dir, "blue")
    service.save_changes(
        staged={"hero": hero, "about": about}, removed=[], media_dir=media_dir, engine=engine
    )
    mission = _stage(media_dir, "green")

    service.save_changes(staged={"mission": mission}, removed=["about"], media_dir=media_dir, engine=engine)

    assert sorted(_rows(session)) == ["hero", "mission"]
    assert _files(about.url, media_dir) == [] and _files(hero.url, media_dir)


def test_a_failed_save_writes_nothing_and_deletes_no_file(
    engine: Engine, session: Session, media_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hero, about = _stage(media_dir), _stage(media_dir, "blue")
    service.save_changes(
        staged={"hero": hero, "about": about}, removed=[], media_dir=media_dir, engine=engine
    )
    new = _stage(media_dir, "green")

    def broken(*_args: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "_upsert", broken)
    with pytest.raises(RuntimeError):
        service.save_changes(staged={"hero": new}, removed=["about"], media_dir=media_dir, engine=engine)

    rows = _rows(session)
    assert {kind: r.image_url for kind, r in rows.items()} == {"hero": hero.url, "about": about.url}
    assert _files(hero.url, media_dir) and _files(about.url, media_dir)


def test_a_staged_file_that_is_gone_is_refused_before_anything_is_written(
    engine: Engine, session: Session, media_dir: Path
) -> None:
    hero = _stage(media_dir)
    (media_dir / hero.url.removeprefix("/media/")).unlink()

    with pytest.raises(service.WebsiteImageError, match=r"^Failed to save hero image$"):
        service.save_changes(staged={"hero": hero}, removed=[], media_dir=media_dir, engine=engine)
    forged = StoredImage(url="/media/products/" + "a" * 32 + ".webp", width=1, height=1)
    with pytest.raises(service.WebsiteImageError, match=r"^Failed to save mission image$"):
        service.save_changes(staged={"mission": forged}, removed=[], media_dir=media_dir, engine=engine)
    with pytest.raises(service.WebsiteImageError, match=r"^Failed to save banner image$"):
        service.save_changes(staged={}, removed=["banner"], media_dir=media_dir, engine=engine)
    assert _rows(session) == {}


def test_a_file_another_row_still_uses_is_kept(engine: Engine, session: Session, media_dir: Path) -> None:
    shared = _stage(media_dir)
    service.save_changes(staged={"hero": shared}, removed=[], media_dir=media_dir, engine=engine)
    product = Product(name="Jar - Rose", base_price_cents=100)
    session.add(product)
    session.flush()
    session.add(ProductImage(product_id=product.id, image_url=shared.url))
    session.commit()

    service.save_changes(staged={}, removed=["hero"], media_dir=media_dir, engine=engine)

    assert _rows(session) == {} and _files(shared.url, media_dir)
    assert service.discard_upload(shared.url, media_dir=media_dir, engine=engine) is False


def test_a_discarded_upload_is_deleted(engine: Engine, media_dir: Path) -> None:
    staged = _stage(media_dir)

    assert service.discard_upload(staged.url, media_dir=media_dir, engine=engine) is True
    assert _files(staged.url, media_dir) == []


def test_the_sweep_deletes_old_uploads_nothing_points_at(
    engine: Engine, session: Session, media_dir: Path
) -> None:
    saved, abandoned, recent = _stage(media_dir), _stage(media_dir, "blue"), _stage(media_dir, "green")
    service.save_changes(staged={"hero": saved}, removed=[], media_dir=media_dir, engine=engine)
    two_days_ago = time.time() - 2 * 86400
    for image in (saved, abandoned):
        for path in _files(image.url, media_dir):
            os.utime(path, (two_days_ago, two_days_ago))
    other = store_image(_png(), media_dir=media_dir, folder="site")  # not this screen's folder

    assert service.sweep_stale_uploads(media_dir=media_dir, engine=engine) == 1

    assert _files(abandoned.url, media_dir) == []
    assert _files(saved.url, media_dir) and _files(recent.url, media_dir) and _files(other.url, media_dir)
    assert service.sweep_stale_uploads(media_dir=media_dir, engine=engine, older_than=timedelta(0)) == 1
    assert _files(recent.url, media_dir) == [] and _files(saved.url, media_dir)


def test_load_lists_every_row_in_image_type_order(engine: Engine, session: Session, media_dir: Path) -> None:
    service.save_changes(
        staged={"mission": _stage(media_dir), "about": _stage(media_dir)},
        removed=[],
        media_dir=media_dir,
        engine=engine,
    )

    assert list(service.load_images(session)) == ["about", "mission"]


# --------------------------------------------------------------------------- the screen and the home page


@pytest.fixture
def people(app_env: Callable[..., None], session: Session) -> dict[str, Any]:
    """A customer's and an admin's session ids (production mode: stored images keep /media/ paths)."""
    app_env(REFLEX_ENV_MODE="prod")
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan", last_name="Shopper")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner", last_name="Admin")
    session.add_all([customer, admin])
    session.commit()
    session.add(AdminRole(user_id=admin.id))
    customer_session = sessions.start(session, user=customer, remember_me=False)
    admin_session = sessions.start(session, user=admin, remember_me=False)
    session.commit()
    return {"customer": customer_session.state_key, "admin": admin_session.state_key}


async def _screen(session_key: str | None) -> tuple[State, WebsiteImagesState]:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return root, await root.get_state(WebsiteImagesState)


def _upload(data: bytes, name: str = "hero.png") -> list[rx.UploadFile]:
    return [rx.UploadFile(file=io.BytesIO(data), path=Path(name))]


def _slot(screen: WebsiteImagesState, image_type: str):
    return next(slot for slot in screen.slots if slot.image_type == image_type)


async def test_the_handlers_refuse_non_admins(people: dict[str, Any], session: Session) -> None:
    media_dir = get_settings().media_dir
    for who in (None, people["customer"]):
        _, screen = await _screen(who)
        await screen.load()
        await screen.upload(_upload(_png()), "hero")
        await screen.remove("hero")
        await screen.save()

        assert screen.changes == 0 and screen._staged == {} and not _slot(screen, "hero").has_image
    assert _rows(session) == {}
    assert not (media_dir / service.FOLDER).exists()


async def test_an_admin_replaces_the_hero_and_the_home_page_shows_it(
    people: dict[str, Any], session: Session
) -> None:
    root, screen = await _screen(people["admin"])
    await screen.load()
    assert [s.title for s in screen.slots] == [slot.title for slot in SLOTS]
    assert _slot(screen, "hero").src == DEFAULT_HERO and _slot(screen, "mission").src == PLACEHOLDER_IMAGE

    refused = await screen.upload(_upload(b"GIF89a nope", "cat.gif"), "hero")
    assert "cat.gif is not a valid image file" in str(refused) and screen.changes == 0

    result = await screen.upload(_upload(_png(1300, 500)), "hero")
    assert WebsiteImageMessage.UPLOADED.value in str(result)
    hero = _slot(screen, "hero")
    assert hero.has_image and hero.unsaved == UNSAVED_NEW and hero.src.startswith("/media/website-images/")
    assert screen.changes == 1 and _rows(session) == {}

    # A second upload before saving replaces the first, whose file goes at once.
    first = hero.src
    await screen.upload(_upload(_png(1300, 500, "blue")), "hero")
    assert _slot(screen, "hero").src != first and _files(first, get_settings().media_dir) == []

    result = await screen.save()
    assert WebsiteImageMessage.ALL_SAVED.value in str(result)
    saved = _rows(session)["hero"]
    assert saved.image_url == _slot(screen, "hero").src and (saved.width, saved.height) == (1300, 500)
    assert screen.changes == 0 and _slot(screen, "hero").unsaved == ""

    home = await root.get_state(HomeState)
    home.load()
    media_dir = get_settings().media_dir
    assert home.hero_alt == "Homepage hero image"
    assert hero_file(session, media_dir) == media_dir / saved.image_url.removeprefix("/media/")

    result = await screen.remove("hero")
    assert WebsiteImageMessage.REMOVED.value in str(result)
    assert _slot(screen, "hero").unsaved == UNSAVED_REMOVED and _slot(screen, "hero").src == DEFAULT_HERO
    await screen.save()
    home.load()
    assert _rows(session) == {} and hero_file(session, media_dir) is None  # the default hero again


async def test_the_browser_refusing_a_file_names_it(people: dict[str, Any]) -> None:
    _, screen = await _screen(people["admin"])

    result = await screen.upload_rejected("hero", [{"file": {"path": "./notes.txt"}, "errors": []}])

    assert "notes.txt is not a valid image file" in str(result)


async def test_a_failed_save_keeps_the_edits_and_says_so(
    people: dict[str, Any], session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, screen = await _screen(people["admin"])
    await screen.upload(_upload(_png()), "mission")

    def broken(**_kwargs: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "save_changes", broken)
    result = await screen.save()

    assert WebsiteImageMessage.SAVE_FAILED.value in str(result)
    assert screen.changes == 1 and _slot(screen, "mission").unsaved == UNSAVED_NEW
    assert _rows(session) == {}


def test_without_the_table_load_and_save_give_the_seeds_messages(
    engine: Engine, session: Session, media_dir: Path
) -> None:
    hero = _stage(media_dir)
    with engine.begin() as connection:
        connection.exec_driver_sql("ALTER TABLE website_images RENAME TO website_images_gone")
    try:
        with pytest.raises(service.WebsiteImagesTableMissing) as missing, Session(engine) as reading:
            service.load_images(reading)
        assert str(missing.value) == WebsiteImageMessage.TABLE_MISSING
        with pytest.raises(service.WebsiteImagesTableMissing) as refused:
            service.save_changes(staged={"hero": hero}, removed=[], media_dir=media_dir, engine=engine)
        assert str(refused.value) == WebsiteImageMessage.CANNOT_SAVE_NO_TABLE
        assert _files(hero.url, media_dir)  # the upload is kept for a later save
    finally:
        with engine.begin() as connection:
            connection.exec_driver_sql("ALTER TABLE website_images_gone RENAME TO website_images")
    assert _rows(session) == {}
