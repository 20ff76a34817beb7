"""Stored images: sniffing, re-encoding to WebP renditions, refusals, srcset and removal."""

from __future__ import annotations

import io
import re
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageCms

from shop_app.domain.admin_messages import ProductFormMessage
from shop_app.services import media
from shop_app.services.media import (
    IMAGE_WIDTHS,
    MAX_IMAGE_BYTES,
    ImageError,
    StoredImage,
    remove_image,
    srcset,
    store_image,
    store_pil_image,
)

RED = (200, 30, 30)
BLUE = (30, 30, 200)
URL = re.compile(r"/media/products/[0-9a-f]{32}\.webp")


def _encode(image: Image.Image, fmt: str, **params: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **params)
    return buffer.getvalue()


def _picture(size: tuple[int, int] = (1000, 750), mode: str = "RGB") -> Image.Image:
    """Left half red, right half blue: orientation and scaling stay visible."""
    image = Image.new("RGB", size, BLUE)
    image.paste(RED, (0, 0, size[0] // 2, size[1]))
    return image.convert(mode)


def _files(media_dir: Path) -> list[Path]:
    return sorted(p for p in media_dir.rglob("*") if p.is_file())


def _path(media_dir: Path, url: str) -> Path:
    return media_dir / url.removeprefix("/media/")


def _close(actual: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected, strict=False))


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def _png_claiming(width: int, height: int) -> bytes:
    """A small, well-formed PNG file whose header announces a ``width`` x ``height`` canvas."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    pixels = zlib.compress(b"\x00" * 4096, 9)  # a sliver: the decoder would inflate zeros for ever
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", ihdr)
        + _png_chunk(b"IDAT", pixels)
        + _png_chunk(b"IEND", b"")
    )


# --------------------------------------------------------------------------- accepted images


@pytest.mark.parametrize(
    ("fmt", "mode", "params"),
    [
        ("JPEG", "RGB", {"quality": 90}),
        ("JPEG", "CMYK", {"quality": 90}),
        ("PNG", "RGB", {}),
        ("PNG", "P", {}),
        ("WEBP", "RGB", {"quality": 90}),
        ("GIF", "P", {}),
    ],
)
def test_valid_images_are_stored_as_webp_renditions(
    media_dir: Path, fmt: str, mode: str, params: dict[str, object]
) -> None:
    data = _encode(_picture((1000, 750), mode), fmt, **params)

    stored = store_image(data, media_dir=media_dir, folder="products", filename_hint="photo.bin")

    assert URL.fullmatch(stored.url)
    assert (stored.width, stored.height) == (1000, 750)
    stem = _path(media_dir, stored.url).stem
    expected = {f"{stem}.webp"} | {f"{stem}-{w}w.webp" for w in (320, 640, 960)}
    assert {p.name for p in _files(media_dir)} == expected  # no temporary file left over
    for path in _files(media_dir):
        with Image.open(path) as picture:
            assert picture.format == "WEBP"
            assert picture.mode == "RGB"
            width = int(path.stem.rsplit("-", 1)[1].removesuffix("w")) if "-" in path.stem else 1000
            assert picture.size == (width, round(750 * width / 1000))
            assert _close(picture.getpixel((width // 8, picture.height // 2)), RED, 40)
            assert _close(picture.getpixel((width * 7 // 8, picture.height // 2)), BLUE, 40)


def test_large_images_are_capped_at_1600_pixels_wide_with_every_rendition(media_dir: Path) -> None:
    data = _encode(_picture((3000, 2000)), "JPEG", quality=85)

    stored = store_image(data, media_dir=media_dir, folder="products")

    assert (stored.width, stored.height) == (1600, 1067)
    with Image.open(_path(media_dir, stored.url)) as picture:
        assert picture.size == (1600, 1067)
    for width in IMAGE_WIDTHS:
        with Image.open(_path(media_dir, stored.url.replace(".webp", f"-{width}w.webp"))) as picture:
            assert picture.size == (width, round(1067 * width / 1600))


def test_small_images_are_not_enlarged_and_get_no_smaller_renditions(media_dir: Path) -> None:
    stored = store_image(_encode(_picture((300, 200)), "PNG"), media_dir=media_dir, folder="products")

    assert (stored.width, stored.height) == (300, 200)
    assert len(_files(media_dir)) == 1
    assert srcset(stored.url, stored.width) == f"{stored.url} 300w"


def test_an_exif_rotated_jpeg_comes_out_upright(media_dir: Path) -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: rotate 90° clockwise to display
    data = _encode(_picture((400, 200)), "JPEG", quality=95, exif=exif)

    stored = store_image(data, media_dir=media_dir, folder="products")

    assert (stored.width, stored.height) == (200, 400)
    with Image.open(_path(media_dir, stored.url)) as picture:
        assert picture.size == (200, 400)
        assert _close(picture.getpixel((100, 50)), RED, 40)  # the left half is now on top
        assert _close(picture.getpixel((100, 350)), BLUE, 40)
        assert picture.getexif().get(0x0112) is None


def test_a_large_rotated_jpeg_is_decoded_at_reduced_scale_and_capped(media_dir: Path) -> None:
    exif = Image.Exif()
    exif[0x0112] = 8
    data = _encode(_picture((4000, 3000)), "JPEG", quality=80, exif=exif)

    stored = store_image(data, media_dir=media_dir, folder="products")

    assert (stored.width, stored.height) == (1600, round(4000 * 1600 / 3000))


def test_only_the_first_frame_of_an_animated_gif_is_kept(media_dir: Path) -> None:
    frames = [Image.new("RGB", (400, 400), RED), Image.new("RGB", (400, 400), BLUE)]
    data = _encode(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)

    stored = store_image(data, media_dir=media_dir, folder="products")

    with Image.open(_path(media_dir, stored.url)) as picture:
        assert getattr(picture, "n_frames", 1) == 1
        assert _close(picture.getpixel((200, 200)), RED)


def test_transparency_is_kept_and_opaque_alpha_is_dropped(media_dir: Path) -> None:
    cutout = Image.new("RGBA", (400, 400), (0, 0, 0, 0))
    cutout.paste((*RED, 255), (100, 100, 300, 300))
    opaque = _picture((400, 400), "RGBA")

    transparent = store_image(_encode(cutout, "PNG"), media_dir=media_dir, folder="products")
    solid = store_image(_encode(opaque, "PNG"), media_dir=media_dir, folder="products")

    with Image.open(_path(media_dir, transparent.url)) as picture:
        assert picture.mode == "RGBA"
        assert picture.getpixel((10, 10))[3] == 0
        assert picture.getpixel((200, 200))[3] == 255
    with Image.open(_path(media_dir, solid.url)) as picture:
        assert picture.mode == "RGB"


def test_metadata_is_stripped(media_dir: Path) -> None:
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x0131] = "Editor 1.0"  # Software
    exif[0x8825] = {2: (49.0, 17.0, 0.0)}  # GPS latitude
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    data = _encode(_picture((800, 600)), "JPEG", exif=exif, icc_profile=icc, comment=b"hello")
    with Image.open(io.BytesIO(data)) as original:
        assert original.getexif()[0x010F] == "SecretCam"

    store_image(data, media_dir=media_dir, folder="products")

    for path in _files(media_dir):
        content = path.read_bytes()
        assert b"SecretCam" not in content
        assert b"hello" not in content
        for chunk in (b"EXIF", b"ICCP", b"XMP "):
            assert chunk not in content
        with Image.open(path) as picture:
            assert not picture.getexif()
            assert not {"exif", "icc_profile", "xmp"} & set(picture.info)


def test_names_are_random_and_never_the_uploaded_name(media_dir: Path) -> None:
    data = _encode(_picture((400, 300)), "PNG")

    first = store_image(data, media_dir=media_dir, folder="products", filename_hint="../../evil.png")
    second = store_image(data, media_dir=media_dir, folder="products", filename_hint="../../evil.png")

    assert first.url != second.url
    assert "evil" not in first.url
    assert all(path.parent == media_dir / "products" for path in _files(media_dir))


def test_server_rendered_images_go_through_the_same_pipeline(media_dir: Path) -> None:
    image = _picture((2100, 900))
    image.info["exif"] = b"Exif\x00\x00junk"

    stored = store_pil_image(image, media_dir=media_dir, folder="site")

    assert (stored.width, stored.height) == (1600, 686)
    assert stored.url.startswith("/media/site/")
    assert len(_files(media_dir)) == 1 + len(IMAGE_WIDTHS)
    assert image.size == (2100, 900)
    assert image.info["exif"] == b"Exif\x00\x00junk"  # the caller's image is left alone


def test_the_folder_is_chosen_by_code_and_cannot_escape_the_media_folder(media_dir: Path) -> None:
    data = _encode(_picture((100, 100)), "PNG")

    for folder in ("../outside", "/abs", "Products", "a//b", ""):
        with pytest.raises(ValueError, match="invalid media folder"):
            store_image(data, media_dir=media_dir, folder=folder)
    assert _files(media_dir) == []


# --------------------------------------------------------------------------- refused images


def _truncated_png() -> bytes:
    data = _encode(Image.effect_noise((600, 600), 64).convert("RGB"), "PNG")
    return data[: len(data) // 2]


SVG = (
    b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(1)</script><rect width='10' height='10'/></svg>"
)


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"These are my notes, not a picture.\n" * 20, "notes.jpg"),
        (SVG, "logo.svg"),
        (SVG, "logo.png"),
        (_truncated_png(), "broken.png"),
        (b"", "empty.png"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "header-only.png"),
        (_encode(_picture((64, 64)), "BMP"), "bitmap.png"),  # a real image, not an accepted format
        (_encode(_picture((64, 64)), "TIFF"), "scan.jpg"),
    ],
)
def test_non_images_are_refused_with_the_seed_message(media_dir: Path, data: bytes, name: str) -> None:
    with pytest.raises(ImageError) as refused:
        store_image(data, media_dir=media_dir, folder="products", filename_hint=name)

    assert str(refused.value) == ProductFormMessage.NOT_AN_IMAGE.format(file=name)
    assert str(refused.value) == f"{name} is not a valid image file"
    assert _files(media_dir) == []


def test_an_upload_over_5mb_is_refused_with_the_seed_message(media_dir: Path) -> None:
    data = _encode(_picture((64, 64)), "PNG")
    data += b"\x00" * (MAX_IMAGE_BYTES + 1 - len(data))

    with pytest.raises(ImageError) as refused:
        store_image(data, media_dir=media_dir, folder="products", filename_hint="huge.png")

    assert str(refused.value) == "huge.png is too large. Maximum size is 5MB"
    assert str(refused.value) == ProductFormMessage.IMAGE_TOO_LARGE.format(file="huge.png")
    assert _files(media_dir) == []


@pytest.mark.parametrize("size", [(8000, 6000), (100_000, 100_000)])
def test_decompression_bombs_are_refused_before_decoding(media_dir: Path, size: tuple[int, int]) -> None:
    with pytest.raises(ImageError, match=r"^bomb\.png is too large"):
        store_image(_png_claiming(*size), media_dir=media_dir, folder="products", filename_hint="bomb.png")

    assert _files(media_dir) == []


def test_a_failed_write_leaves_no_file_behind(media_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = media._write_atomically
    calls: list[Path] = []

    def failing_write(path: Path, content: bytes) -> None:
        calls.append(path)
        if len(calls) == 3:
            raise OSError("disk full")
        real_write(path, content)

    monkeypatch.setattr(media, "_write_atomically", failing_write)

    with pytest.raises(OSError, match="disk full"):
        store_image(_encode(_picture((1000, 750)), "PNG"), media_dir=media_dir, folder="products")

    assert len(calls) == 3
    assert _files(media_dir) == []


# --------------------------------------------------------------------------- srcset and removal


def test_srcset_lists_every_rendition_of_a_stored_image() -> None:
    url = "/media/products/" + "ab" * 16 + ".webp"
    base = url.removesuffix(".webp")

    assert srcset(url, 1200) == (
        f"{base}-320w.webp 320w, {base}-640w.webp 640w, {base}-960w.webp 960w, {url} 1200w"
    )
    assert srcset(url, 1600).endswith(f"{base}-1280w.webp 1280w, {url} 1600w")
    assert srcset(url, 640) == f"{base}-320w.webp 320w, {url} 640w"


def test_srcset_can_map_paths_to_what_the_browser_loads() -> None:
    url = "/media/site/" + "0f" * 16 + ".webp"

    value = srcset(url, 700, src=lambda path: f"http://localhost:8000{path}")

    assert value == (
        f"http://localhost:8000{url.removesuffix('.webp')}-320w.webp 320w, "
        f"http://localhost:8000{url.removesuffix('.webp')}-640w.webp 640w, "
        f"http://localhost:8000{url} 700w"
    )


@pytest.mark.parametrize(
    ("url", "width"),
    [
        ("https://cdn.example.com/products/" + "ab" * 16 + ".webp", 1200),  # external
        ("/placeholder.svg", 400),
        ("/media/products/cp-001.webp", 800),  # a legacy name: no renditions were written
        ("/media/products/" + "ab" * 16 + ".webp", None),  # size unknown
        ("/media/products/" + "ab" * 16 + ".webp", 0),
        ("", 800),
    ],
)
def test_srcset_is_empty_when_there_are_no_renditions(url: str, width: int | None) -> None:
    assert srcset(url, width) == ""


def test_remove_image_deletes_every_rendition_and_nothing_else(media_dir: Path) -> None:
    data = _encode(_picture((1400, 700)), "PNG")
    doomed = store_image(data, media_dir=media_dir, folder="products")
    kept = store_image(data, media_dir=media_dir, folder="products")
    kept_files = {p for p in _files(media_dir) if p.stem.startswith(_path(media_dir, kept.url).stem)}

    assert remove_image(doomed.url, media_dir) == 1 + 4  # 1400 px: 320, 640, 960 and 1280 renditions

    assert set(_files(media_dir)) == kept_files
    assert remove_image(doomed.url, media_dir) == 0  # already gone: not an error
    assert remove_image("https://cdn.example.com/x.webp", media_dir) == 0
    assert remove_image("/media/../shop.db", media_dir) == 0
    assert set(_files(media_dir)) == kept_files


def test_stored_image_is_a_small_value() -> None:
    image = StoredImage(url="/media/x/" + "a" * 32 + ".webp", width=10, height=20)

    with pytest.raises(AttributeError):
        image.width = 30  # type: ignore[misc]
