"""Product images between upload and publish: a staging folder, then the product's own files.

An image uploaded in the wizard or the local product form is checked and re-encoded at once
(``services.media.store_image``) and stored under ``<media_dir>/products/staging/``, so the
screen can show its thumbnail from ``/media/products/staging/<stem>.webp``. Nothing in the
database points at it yet.

- Removing a thumbnail deletes the staged files at once (:func:`discard_staged`).
- Publishing or saving *copies* the staged renditions into ``<media_dir>/products/`` (a hard link
  where the file system allows it) before the transaction (:func:`adopt`). If the transaction
  fails, the copies are removed and the staged originals are still there, so the administrator
  can press Publish again without uploading anew; once it commits, the staged originals go.
- Abandoned uploads (a tab closed mid-wizard, a session that expired or signed out; Reflex forgets
  a tab's state after an hour without activity) stay in the staging folder until
  :func:`purge_stale_staging` removes those older than :data:`STAGING_MAX_AGE`. The wizard and the
  form call it when they load, so no scheduled job is needed. A draft left open longer than that
  in a living tab loses those images; Publish then says so (``ProductDraftText.IMAGE_GONE``).

Only URLs this module produced are ever touched: staged URLs match :data:`STAGED_URL` and
adopted ones :data:`PRODUCT_URL`; anything else is left alone.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from shop_app.domain.admin_messages import ProductDraftText, ProductFormMessage
from shop_app.services.media import MAX_IMAGE_BYTES, MEDIA_URL, ImageError, remove_image, store_image

logger = logging.getLogger(__name__)

PRODUCT_FOLDER = "products"
STAGING_FOLDER = "products/staging"
STAGING_MAX_AGE = timedelta(hours=24)
READ_CHUNK = 64 * 1024
STAGED_URL = re.compile(rf"{re.escape(MEDIA_URL)}/{STAGING_FOLDER}/(?P<stem>[0-9a-f]{{32}})\.webp")
PRODUCT_URL = re.compile(rf"{re.escape(MEDIA_URL)}/{PRODUCT_FOLDER}/(?P<stem>[0-9a-f]{{32}})\.webp")
_RENDITION = re.compile(r"(?P<stem>[0-9a-f]{32})(?:-\d+w)?\.webp")


class ImageGoneError(RuntimeError):
    """A staged image was removed before it could be adopted (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(ProductDraftText.IMAGE_GONE.value)


@dataclass(frozen=True, slots=True)
class ImageRef:
    """An image of a product form: where its largest rendition is and how big it is."""

    url: str
    width: int | None = None
    height: int | None = None


def display_name(filename: str | None) -> str:
    """The uploaded file's base name, for messages only (never for paths)."""
    name = PurePosixPath(str(filename or "").replace("\\", "/")).name.strip()
    return (name or "image")[:120]


def read_limited(stream: BinaryIO, *, filename: str | None, size: int | None = None) -> bytes:
    """The upload's bytes, refusing more than 5 MB before reading (or decoding) any more.

    ``size`` is what the request said the part holds; the stream is read in chunks and given up
    as soon as it passes the limit anyway, so a lying or missing size costs at most 5 MB.
    """
    too_large = ImageError(ProductFormMessage.IMAGE_TOO_LARGE.format(file=display_name(filename)))
    if size is not None and size > MAX_IMAGE_BYTES:
        raise too_large
    chunks: list[bytes] = []
    total = 0
    while chunk := stream.read(READ_CHUNK):
        total += len(chunk)
        if total > MAX_IMAGE_BYTES:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def stage_upload(stream: BinaryIO, *, filename: str | None, size: int | None, media_dir: Path) -> ImageRef:
    """Check, re-encode and stage one uploaded file; ``ImageError`` carries the seed's message."""
    data = read_limited(stream, filename=filename, size=size)
    stored = store_image(
        data, media_dir=media_dir, folder=STAGING_FOLDER, filename_hint=display_name(filename)
    )
    return ImageRef(stored.url, stored.width, stored.height)


def is_staged(url: str) -> bool:
    """Whether ``url`` is an upload waiting in the staging folder."""
    return STAGED_URL.fullmatch(url) is not None


def discard_staged(url: str, media_dir: Path) -> None:
    """Delete a staged upload's files (a no-op for any other URL)."""
    if is_staged(url):
        remove_image(url, media_dir)


def _rendition_files(folder: Path, stem: str) -> list[Path]:
    if not folder.is_dir():
        return []
    return [
        p for p in folder.glob(f"{stem}*.webp") if (m := _RENDITION.fullmatch(p.name)) and m["stem"] == stem
    ]


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system, or links not allowed: a plain copy does the same
        shutil.copyfile(source, target)


def adopt(images: Sequence[ImageRef], media_dir: Path) -> list[ImageRef]:
    """The images as the product's own files: staged ones copied into the product folder.

    Images already in the product folder (editing) are returned as they are. On failure the
    copies made so far are removed and :class:`ImageGoneError` (a staged file is missing) or the
    ``OSError`` is raised; the staged originals are never touched here.
    """
    media_dir = Path(media_dir)
    staging, products = media_dir / STAGING_FOLDER, media_dir / PRODUCT_FOLDER
    adopted: list[ImageRef] = []
    made: list[str] = []
    try:
        for image in images:
            match = STAGED_URL.fullmatch(image.url)
            if match is None:
                adopted.append(image)
                continue
            stem = match["stem"]
            sources = _rendition_files(staging, stem)
            if not (staging / f"{stem}.webp").is_file():
                raise ImageGoneError()
            products.mkdir(parents=True, exist_ok=True)
            url = f"{MEDIA_URL}/{PRODUCT_FOLDER}/{stem}.webp"
            made.append(url)
            # The largest rendition last, as services.media writes them: once it exists, all do.
            for source in sorted(sources, key=lambda p: p.name == f"{stem}.webp"):
                _link_or_copy(source, products / source.name)
            adopted.append(ImageRef(url, image.width, image.height))
    except BaseException:
        remove_files(made, media_dir)
        raise
    return adopted


def remove_files(urls: Iterable[str], media_dir: Path) -> None:
    """Delete the product-folder files of ``urls`` (other URLs are ignored; never raises)."""
    for url in urls:
        if PRODUCT_URL.fullmatch(url):
            try:
                remove_image(url, media_dir)
            except OSError:
                logger.exception("could not remove the files of %s", url)


def discard_all_staged(images: Iterable[ImageRef | str], media_dir: Path) -> None:
    """Delete the staged originals among ``images`` (after a commit, or when a draft is dropped)."""
    for image in images:
        url = image.url if isinstance(image, ImageRef) else image
        with contextlib.suppress(OSError):
            discard_staged(url, media_dir)


def purge_stale_staging(
    media_dir: Path, *, older_than: timedelta = STAGING_MAX_AGE, now: float | None = None
) -> int:
    """Delete staged files not modified for ``older_than``; return how many were removed."""
    folder = Path(media_dir) / STAGING_FOLDER
    if not folder.is_dir():
        return 0
    cutoff = (time.time() if now is None else now) - older_than.total_seconds()
    removed = 0
    for path in folder.iterdir():
        try:
            if path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except FileNotFoundError:  # removed meanwhile by another worker
            continue
    return removed
