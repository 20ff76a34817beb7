"""Product uploads: checked before decoding, staged, adopted by copy, abandoned ones purged."""

from __future__ import annotations

import io
import os
import time
from datetime import timedelta
from pathlib import Path

import pytest
from PIL import Image

from shop_app.services.admin.product_images import (
    PRODUCT_FOLDER,
    STAGING_FOLDER,
    ImageGoneError,
    ImageRef,
    adopt,
    discard_staged,
    display_name,
    purge_stale_staging,
    read_limited,
    remove_files,
    stage_upload,
)
from shop_app.services.media import MAX_IMAGE_BYTES, ImageError


def png_bytes(size: tuple[int, int] = (1000, 800)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (120, 60, 200)).save(buffer, format="PNG")
    return buffer.getvalue()


def stage(media_dir: Path, data: bytes | None = None, name: str = "photo.png") -> ImageRef:
    data = png_bytes() if data is None else data
    return stage_upload(io.BytesIO(data), filename=name, size=len(data), media_dir=media_dir)


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


class CountingStream(io.BytesIO):
    """Remembers how much was read."""

    read_bytes = 0

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        self.read_bytes += len(chunk)
        return chunk


def test_an_upload_is_staged_with_its_renditions(media_dir: Path) -> None:
    image = stage(media_dir)

    assert image.url.startswith("/media/products/staging/") and (image.width, image.height) == (1000, 800)
    assert names(media_dir / STAGING_FOLDER) == sorted(
        [image.url.rsplit("/", 1)[1]]
        + [image.url.rsplit("/", 1)[1].replace(".webp", f"-{w}w.webp") for w in (320, 640, 960)]
    )


def test_a_file_that_is_not_an_image_is_refused_with_the_seed_text(media_dir: Path) -> None:
    with pytest.raises(ImageError) as refused:
        stage(media_dir, b"GIF89a but not really an image at all", name="C:\\photos\\x.png")

    assert str(refused.value) == "x.png is not a valid image file"
    assert names(media_dir / STAGING_FOLDER) == []


def test_a_declared_size_over_5mb_is_refused_before_reading() -> None:
    stream = CountingStream(b"x" * 100)

    with pytest.raises(ImageError) as refused:
        read_limited(stream, filename="big.jpg", size=MAX_IMAGE_BYTES + 1)

    assert str(refused.value) == "big.jpg is too large. Maximum size is 5MB"
    assert stream.read_bytes == 0


def test_an_undeclared_size_is_refused_after_5mb_are_read() -> None:
    stream = CountingStream(b"\0" * (MAX_IMAGE_BYTES * 2))

    with pytest.raises(ImageError, match="too large"):
        read_limited(stream, filename="huge.png", size=None)

    assert MAX_IMAGE_BYTES < stream.read_bytes <= MAX_IMAGE_BYTES + 64 * 1024
    assert read_limited(io.BytesIO(b"abc"), filename="a", size=None) == b"abc"


def test_exactly_5mb_is_accepted() -> None:
    assert len(read_limited(io.BytesIO(b"\0" * MAX_IMAGE_BYTES), filename="a", size=MAX_IMAGE_BYTES)) == (
        MAX_IMAGE_BYTES
    )


def test_adopting_copies_into_the_product_folder_and_leaves_the_upload(media_dir: Path) -> None:
    staged = stage(media_dir)
    stored = ImageRef("/media/products/" + "a" * 32 + ".webp", 10, 10)

    adopted = adopt([staged, stored], media_dir)

    assert adopted[1] == stored
    assert adopted[0].url == staged.url.replace("/staging/", "/")
    assert names(media_dir / PRODUCT_FOLDER) == names(media_dir / STAGING_FOLDER)
    remove_files([adopted[0].url], media_dir)
    assert names(media_dir / PRODUCT_FOLDER) == [] and len(names(media_dir / STAGING_FOLDER)) == 4


def test_adopting_a_vanished_upload_fails_without_leaving_copies(media_dir: Path) -> None:
    kept, gone = stage(media_dir), stage(media_dir)
    discard_staged(gone.url, media_dir)

    with pytest.raises(ImageGoneError):
        adopt([kept, gone], media_dir)

    assert names(media_dir / PRODUCT_FOLDER) == []


def test_only_staged_urls_are_discarded(media_dir: Path) -> None:
    (media_dir / "site").mkdir()
    (media_dir / "site" / "hero.webp").write_bytes(b"x")

    discard_staged("/media/site/hero.webp", media_dir)
    discard_staged("/media/products/staging/../../site/hero.webp", media_dir)
    remove_files(["/media/site/hero.webp"], media_dir)

    assert (media_dir / "site" / "hero.webp").exists()


def test_stale_uploads_are_purged_fresh_ones_kept(media_dir: Path) -> None:
    old, fresh = stage(media_dir), stage(media_dir)
    day_ago = time.time() - 25 * 3600
    for path in (media_dir / STAGING_FOLDER).glob(old.url.rsplit("/", 1)[1].removesuffix(".webp") + "*"):
        os.utime(path, (day_ago, day_ago))

    removed = purge_stale_staging(media_dir)

    assert removed == 4
    assert all(fresh.url.rsplit("/", 1)[1][:32] in name for name in names(media_dir / STAGING_FOLDER))
    assert purge_stale_staging(media_dir / "nowhere", older_than=timedelta(0)) == 0


def test_display_name_is_the_base_name() -> None:
    assert display_name("../../etc/passwd") == "passwd"
    assert display_name(None) == "image" and display_name("  ") == "image"
