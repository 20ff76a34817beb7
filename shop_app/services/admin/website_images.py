"""Website images (docs/spec/admin-site.md#website-images, #website-images-rules): upload, hold, then save the
site's slot images.

The screen holds its edits until Save All Changes (docs/spec/admin-site.md#website-images-rules). An upload is
checked and stored at once (:func:`stage_upload`: sniffed and re-encoded by ``services.media``) in its own
folder, ``/media/website-images/``, but no row points at it until the save. :func:`save_changes` then,
in one transaction, deletes the removed types first and upserts each replaced type by
``image_type``; only after the commit are the files of the replaced and removed images deleted,
so a failed save leaves both the database and the files as they were.

Only the slots the administrator changed are written. The seed upserts every image on show;
doing so here would put back, from a stale screen, an image another administrator has replaced
meanwhile (whose file is gone by then).

An upload left unsaved (the tab closed, the page left) is a file nothing points at. The screen
deletes one replaced before saving at once (:func:`discard_upload`); the others are swept when the
screen loads (:func:`sweep_stale_uploads`): files of the folder that no row points at and that
are older than :data:`STALE_UPLOAD_AGE`. A day is far longer than the upload can still be saved
(a tab's state expires after an hour idle) and keeps another administrator's pending upload safe.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import session_scope, write_transaction
from shop_app.domain.admin_messages import WebsiteImageMessage
from shop_app.models import ProductImage, WebsiteImage
from shop_app.models.base import table_of, utcnow
from shop_app.services.media import MEDIA_URL, StoredImage, remove_image, store_image
from shop_app.services.site_images import IMAGE_TYPES, default_alt

__all__ = [
    "FOLDER",
    "STALE_UPLOAD_AGE",
    "SavedImage",
    "WebsiteImageError",
    "WebsiteImagesTableMissing",
    "discard_upload",
    "load_images",
    "save_changes",
    "stage_upload",
    "sweep_stale_uploads",
]

FOLDER = "website-images"  # the seed's storage bucket name
STALE_UPLOAD_AGE = timedelta(days=1)
_UPLOAD_NAME = re.compile(r"[0-9a-f]{32}\.webp")


class WebsiteImageError(ValueError):
    """A save was refused; ``str(error)`` is the message for the administrator."""


class WebsiteImagesTableMissing(WebsiteImageError):
    """The ``website_images`` table is not in the database (restored without it, or its migration
    was not run): the seed's 'Database table not found' messages."""


def _table_missing(error: sa.exc.DBAPIError) -> bool:
    """Whether a database error says the website images' table does not exist (SQLite's "no such
    table", PostgreSQL's undefined_table, SQLSTATE 42P01)."""
    original = error.orig
    name = WebsiteImage.__tablename__
    if getattr(original, "sqlstate", None) == "42P01" or getattr(original, "pgcode", None) == "42P01":
        return name in str(original)
    return f"no such table: {name}" in str(original)


@dataclass(frozen=True, slots=True)
class SavedImage:
    """A stored website image row."""

    image_type: str
    image_url: str
    alt_text: str
    width: int | None
    height: int | None
    is_active: bool


def load_images(session: Session) -> dict[str, SavedImage]:
    """Every website image row by type, in ``image_type`` order
    (docs/spec/admin-site.md#website-images-rules).

    Raises:
        WebsiteImagesTableMissing: the table is not in the database (the seed's "Database table
            not found. Please set up the website_images table first.").
    """
    try:
        rows = session.exec(select(WebsiteImage).order_by(WebsiteImage.image_type)).all()
    except sa.exc.DBAPIError as error:
        if _table_missing(error):
            raise WebsiteImagesTableMissing(WebsiteImageMessage.TABLE_MISSING.value) from error
        raise
    return {
        row.image_type: SavedImage(
            row.image_type, row.image_url, row.alt_text, row.width, row.height, row.is_active
        )
        for row in rows
    }


def stage_upload(data: bytes, *, filename: str, media_dir: Path) -> StoredImage:
    """Check and store an uploaded image for a slot; nothing points at it until the save.

    Raises:
        ImageError: the seed's "{file} is not a valid image file" or "{file} is too large.
            Maximum size is 5MB" (``services.media.store_image``).
    """
    return store_image(data, media_dir=media_dir, folder=FOLDER, filename_hint=filename)


def discard_upload(url: str, *, media_dir: Path, engine: Engine | None = None) -> bool:
    """Delete a staged upload's files, unless a row points at them (then it was saved)."""
    with session_scope(engine) as session:
        if _referenced(session, [url]):
            return False
    return remove_image(url, media_dir) > 0


def save_changes(
    *,
    staged: Mapping[str, StoredImage],
    removed: Iterable[str],
    media_dir: Path,
    engine: Engine | None = None,
) -> int:
    """Persist the screen's edits in one transaction; return how many old images were deleted.

    ``removed`` types are deleted first, then each ``staged`` type is upserted by
    ``image_type`` (image_url, alt_text, width, height, is_active, updated_at; created_at for a
    new row). A replaced row keeps its alt text; a new one gets the slot's default. After the
    commit, the files of the replaced and removed images are deleted when nothing else points
    at them.

    Raises:
        WebsiteImageError: a type is unknown, or a staged file is no longer on disk
            ("Failed to save {type} image"); nothing is written then.
        WebsiteImagesTableMissing: the table is not in the database ("Cannot save changes -
            website_images table not found. …").
    """
    removed_types = sorted(set(removed) - set(staged))
    for image_type in [*removed_types, *staged]:
        if image_type not in IMAGE_TYPES:
            raise WebsiteImageError(WebsiteImageMessage.SAVE_TYPE_FAILED.format(type=image_type))
    for image_type, image in staged.items():
        if not _is_upload(image.url) or not _path(image.url, media_dir).is_file():
            raise WebsiteImageError(WebsiteImageMessage.SAVE_TYPE_FAILED.format(type=image_type))
    try:
        old_urls = _write_changes(staged, removed_types, engine)
    except sa.exc.DBAPIError as error:
        if _table_missing(error):
            raise WebsiteImagesTableMissing(WebsiteImageMessage.CANNOT_SAVE_NO_TABLE.value) from error
        raise
    replaced = [url for url in old_urls.values() if url not in {image.url for image in staged.values()}]
    return _remove_unreferenced(replaced, media_dir=media_dir, engine=engine)


def _write_changes(
    staged: Mapping[str, StoredImage], removed_types: list[str], engine: Engine | None
) -> dict[str, str]:
    """Delete the removed types and upsert the staged ones in one transaction; the URLs they had."""
    with write_transaction(engine) as session:
        changed = [*removed_types, *staged]
        old_urls = dict(
            session.execute(
                select(col(WebsiteImage.image_type), col(WebsiteImage.image_url)).where(
                    col(WebsiteImage.image_type).in_(changed)
                )
            ).all()
        )
        # docs/spec/admin-site.md#website-images-rules: one DELETE per removed type
        for image_type in removed_types:
            session.execute(sa.delete(WebsiteImage).where(col(WebsiteImage.image_type) == image_type))
        for image_type, image in staged.items():
            _upsert(session, image_type, image)
    return old_urls


def sweep_stale_uploads(
    *,
    media_dir: Path,
    engine: Engine | None = None,
    now: datetime | None = None,
    older_than: timedelta = STALE_UPLOAD_AGE,
) -> int:
    """Delete uploads no row points at that are older than ``older_than``; return how many.

    Raises:
        WebsiteImagesTableMissing: the table is not in the database (nothing is deleted).
    """
    folder = Path(media_dir) / FOLDER
    if not folder.is_dir():
        return 0
    cutoff = (now or datetime.now(UTC)).timestamp() - older_than.total_seconds()
    candidates = [
        f"{MEDIA_URL}/{FOLDER}/{path.name}"
        for path in folder.iterdir()
        if _UPLOAD_NAME.fullmatch(path.name) and path.stat().st_mtime < cutoff
    ]
    try:
        return _remove_unreferenced(candidates, media_dir=media_dir, engine=engine)
    except sa.exc.DBAPIError as error:  # without the table, no file is known to be unused
        if _table_missing(error):
            raise WebsiteImagesTableMissing(WebsiteImageMessage.TABLE_MISSING.value) from error
        raise


def _upsert(session: Session, image_type: str, image: StoredImage) -> None:
    """INSERT … ON CONFLICT (image_type) DO UPDATE (docs/spec/admin-site.md#website-images-rules), on
    PostgreSQL and SQLite."""
    now = utcnow()
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    table = table_of(WebsiteImage)
    insert = dialect.insert(table).values(
        image_type=image_type,
        image_url=image.url,
        alt_text=default_alt(image_type),
        width=image.width,
        height=image.height,
        is_active=True,
        created_at=now,
        updated_at=now,
    )
    columns = ("image_url", "width", "height", "is_active", "updated_at")
    session.execute(
        insert.on_conflict_do_update(
            index_elements=[table.c.image_type],
            set_={
                **{name: insert.excluded[name] for name in columns},
                # A replaced image keeps the alt text it had; an empty one gets the default.
                "alt_text": sa.func.coalesce(sa.func.nullif(table.c.alt_text, ""), insert.excluded.alt_text),
            },
        )
    )


def _remove_unreferenced(urls: Iterable[str], *, media_dir: Path, engine: Engine | None) -> int:
    """Delete the files of ``urls`` that no website or product image row points at."""
    wanted = sorted(set(urls))
    if not wanted:
        return 0
    with session_scope(engine) as session:
        kept = _referenced(session, wanted)
    return sum(1 for url in wanted if url not in kept and remove_image(url, media_dir) > 0)


def _referenced(session: Session, urls: list[str]) -> set[str]:
    site = select(col(WebsiteImage.image_url)).where(col(WebsiteImage.image_url).in_(urls))
    products = select(col(ProductImage.image_url)).where(col(ProductImage.image_url).in_(urls))
    return set(session.execute(site.union(products)).scalars())


def _is_upload(url: str) -> bool:
    prefix = f"{MEDIA_URL}/{FOLDER}/"
    return url.startswith(prefix) and _UPLOAD_NAME.fullmatch(url.removeprefix(prefix)) is not None


def _path(url: str, media_dir: Path) -> Path:
    return Path(media_dir) / url.removeprefix(f"{MEDIA_URL}/")
