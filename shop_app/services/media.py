"""Stored images: sniffed, re-encoded and resized to WebP renditions, served under ``/media/``.

Every image the shop serves from its own origin goes through this module, whether an administrator
uploaded it or the demo seeding drew it (docs/architecture.md#stack: "never trust a file's name or header";
security requirement 11). An upload is identified by Pillow from its bytes alone — its name,
extension and content type are ignored — and only JPEG, PNG, WebP and GIF (first frame) are
accepted; SVG and everything else are refused. The pixels are decoded, turned upright (EXIF
orientation), converted to sRGB and re-encoded, so no metadata (EXIF, GPS, XMP, ICC, comments) and
no foreign bytes survive. File names are random and chosen here.

Layout on disk, for an image stored with ``folder="products"`` and a stored width of 1200::

    <media_dir>/products/<stem>.webp          1200 px wide: the largest rendition (``url``)
    <media_dir>/products/<stem>-320w.webp     one file per width of IMAGE_WIDTHS below 1200
    <media_dir>/products/<stem>-640w.webp
    <media_dir>/products/<stem>-960w.webp

``<stem>`` is 32 random hex digits. The database keeps only the URL of the largest rendition
(``/media/products/<stem>.webp``) and its width and height; :func:`srcset` derives the other
files from the naming convention.

Using it in a page (the UI calls this module through its state; nothing here imports Reflex)::

    rx.image(
        src=url,                                    # StoredImage.url, or the row's image_url
        srcset=srcset(url, width),                  # "" for external or placeholder URLs
        sizes=PRODUCT_CARD_SIZES,
        width=width, height=height,                 # intrinsic size: the browser reserves the box
        loading="lazy",
    )

When the row has no dimensions (rows written before they were recorded, external URLs), leave
``srcset`` empty and keep a CSS aspect ratio on the box; a missing or broken file is the UI's
placeholder's job (``onError``).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import secrets
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from PIL import ExifTags, Image, ImageCms, ImageOps

from shop_app.domain.admin_messages import ProductFormMessage

__all__ = [
    "ACCEPTED_FORMATS",
    "HERO_SIZES",
    "IMAGE_WIDTHS",
    "MAX_IMAGE_BYTES",
    "MAX_PIXELS",
    "MAX_STORED_HEIGHT",
    "MAX_STORED_WIDTH",
    "MEDIA_URL",
    "PRODUCT_CARD_SIZES",
    "PRODUCT_PAGE_SIZES",
    "SITE_CARD_SIZES",
    "EncodedImage",
    "ImageError",
    "StoredImage",
    "encode_pil_image",
    "remove_image",
    "rendition_file",
    "rendition_widths",
    "srcset",
    "store_encoded",
    "store_image",
    "store_pil_image",
]

#: URL prefix under which ``media_dir`` is served (``shop_app.api`` mounts it).
MEDIA_URL = "/media"
#: Widths of the smaller renditions; only those narrower than the stored image are written.
IMAGE_WIDTHS: tuple[int, ...] = (320, 640, 960, 1280)
# : Largest accepted upload (the admin wizard's limit, docs/spec/admin-products.md#wizard-images: "Maximum
# size is 5MB").
MAX_IMAGE_BYTES = 5 * 1024 * 1024
#: Largest accepted pixel count (decompression bombs): a few bytes can claim a huge canvas.
#: 40 MP is above any phone photo that fits in 5 MB (12-24 MP) and about 160 MB decoded as RGBA.
MAX_PIXELS = 40_000_000
#: Size cap of the largest stored rendition (bigger images are scaled down, never up).
MAX_STORED_WIDTH = 1600
MAX_STORED_HEIGHT = 4000  # keeps very tall images reasonable (and far below WebP's 16383 px limit)
#: Formats Pillow may recognise an upload as (by its bytes); anything else is refused.
ACCEPTED_FORMATS: tuple[str, ...] = ("JPEG", "PNG", "WEBP", "GIF")
WEBP_QUALITY = 82

# ``sizes`` attributes: how wide the image is drawn, so the browser picks the right rendition.
# They follow the layout: content at most 1200 px wide with 1.5 rem padding (1152 px), Reflex
# breakpoints xs 30em, sm 48em, md 62em, lg 80em, and the product grid's 1/2/3/4 columns.
#: Product card in the listing grid (components/product_card.py: 1, xs 2, md 3, lg 4 columns).
PRODUCT_CARD_SIZES = "(min-width: 80em) 280px, (min-width: 62em) 33vw, (min-width: 30em) 50vw, 100vw"
#: Main image of the product page (gallery beside the details from sm, full width below).
PRODUCT_PAGE_SIZES = "(min-width: 80em) 576px, (min-width: 48em) 50vw, 100vw"
#: Full-width home page hero.
HERO_SIZES = "100vw"
#: Site cards three to a row from sm (category cards, mission, about), full width below.
SITE_CARD_SIZES = "(min-width: 80em) 384px, (min-width: 48em) 33vw, 100vw"

_STEM_BYTES = 16
_FOLDER_PATTERN = r"[a-z0-9_-]+(?:/[a-z0-9_-]+)*"
_FOLDER = re.compile(_FOLDER_PATTERN)
_STORED_URL = re.compile(
    rf"{re.escape(MEDIA_URL)}/(?P<folder>{_FOLDER_PATTERN})/(?P<stem>[0-9a-f]{{{_STEM_BYTES * 2}}})\.webp"
)
_SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


class ImageError(ValueError):
    """An image was refused; ``str(error)`` is the message to show the user
    (docs/spec/admin-products.md#wizard-images)."""


@dataclass(frozen=True)
class StoredImage:
    """A stored image: the same-origin URL of its largest rendition and that rendition's size."""

    url: str  # e.g. "/media/products/3f9c…e1.webp"
    width: int
    height: int


# --------------------------------------------------------------------------- storing


def store_image(data: bytes, *, media_dir: Path, folder: str, filename_hint: str = "image") -> StoredImage:
    """Check, clean and store an uploaded image; return where it is and how big.

    ``data`` is the uploaded file's content. ``folder`` is chosen by the caller's code (for example
    ``"products"`` or ``"site"``; lowercase letters, digits, ``-``, ``_`` and ``/``), never by the
    user. ``filename_hint`` is the uploaded name, used only inside error messages.

    Raises :class:`ImageError` with the seed's message ("{file} is not a valid image file",
    "{file} is too large. Maximum size is 5MB") when the bytes are not a JPEG, PNG, WebP or GIF
    Pillow can decode completely, exceed :data:`MAX_IMAGE_BYTES`, or claim more than
    :data:`MAX_PIXELS` pixels. Nothing is left on disk when it raises.
    """
    name = _display_name(filename_hint)
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageError(ProductFormMessage.IMAGE_TOO_LARGE.format(file=name))
    image = _decode(data, name)
    with contextlib.suppress(Exception):  # a malformed EXIF block: keep the pixels as they are
        image = ImageOps.exif_transpose(image)
    return _store(_to_srgb(image), media_dir=media_dir, folder=folder)


def store_pil_image(image: Image.Image, *, media_dir: Path, folder: str) -> StoredImage:
    """Store an image the server made itself (the demo artwork) exactly like an upload.

    Same renditions, size cap, metadata stripping and random name as :func:`store_image`; the
    image is not sniffed or size-checked because it does not come from outside.
    """
    return _store(_to_srgb(image), media_dir=media_dir, folder=folder)


@dataclass(frozen=True)
class EncodedImage:
    """An image's renditions, encoded and not yet stored: each file's name suffix (``"-320w"``…,
    ``""`` for the largest, last) with its WebP bytes, and the largest rendition's size."""

    width: int
    height: int
    files: tuple[tuple[str, bytes], ...]


def encode_pil_image(image: Image.Image) -> EncodedImage:
    """What :func:`store_pil_image` would write for ``image``, in memory (the demo artwork's cache
    keeps it so the next shop stores the same files without drawing and encoding again)."""
    return _encode_renditions(_to_srgb(image))


def store_encoded(encoded: EncodedImage, *, media_dir: Path, folder: str) -> StoredImage:
    """Store renditions :func:`encode_pil_image` made, under a new random name."""
    return _write_renditions(encoded, media_dir=media_dir, folder=folder)


def rendition_widths(width: int) -> tuple[int, ...]:
    """The widths of the smaller renditions written for an image stored ``width`` pixels wide."""
    return tuple(w for w in IMAGE_WIDTHS if w < width)


def srcset(url: str, width: int | None, *, src: Callable[[str], str] | None = None) -> str:
    """The ``srcset`` value for a stored image, or ``""`` when there is nothing to offer.

    ``url`` and ``width`` are a :class:`StoredImage`'s (or a row's ``image_url`` and ``width``).
    For ``/media/x/ab.webp`` stored 1200 px wide this gives
    ``"/media/x/ab-320w.webp 320w, /media/x/ab-640w.webp 640w, /media/x/ab-960w.webp 960w,
    /media/x/ab.webp 1200w"``. External URLs, the placeholder, files not written by this module
    and unknown widths give ``""`` (the browser then uses ``src``).

    ``src`` maps each same-origin path to what the browser should load (for example the state
    layer's ``media_src``, which makes ``/media`` absolute in the development loop).
    """
    match = _STORED_URL.fullmatch(url)
    if match is None or not width or width <= 0:
        return ""
    resolve = src or (lambda path: path)
    base = f"{MEDIA_URL}/{match['folder']}/{match['stem']}"
    entries = [f"{resolve(f'{base}-{w}w.webp')} {w}w" for w in rendition_widths(width)]
    entries.append(f"{resolve(url)} {width}w")
    return ", ".join(entries)


def rendition_file(url: str, media_dir: Path, *, stored_width: int | None, width: int | None) -> Path | None:
    """Where on disk the rendition of a stored image to send for ``width`` pixels is.

    The narrowest rendition at least ``width`` wide, else (no width asked, unknown stored width,
    or nothing that wide) the stored, largest one. None for URLs this module did not write. The
    file may be missing (deleted meanwhile): the caller checks.
    """
    match = _STORED_URL.fullmatch(url)
    if match is None:
        return None
    folder = Path(media_dir) / match["folder"]
    if width and stored_width:
        for candidate in rendition_widths(stored_width):
            if candidate >= width:
                return folder / f"{match['stem']}-{candidate}w.webp"
    return folder / f"{match['stem']}.webp"


def remove_image(url: str, media_dir: Path) -> int:
    """Delete every rendition of a stored image; return how many files were removed.

    URLs this module did not produce (external, placeholder, legacy names) are left alone (0).
    Removing an image that is already gone is not an error.
    """
    match = _STORED_URL.fullmatch(url)
    if match is None:
        return 0
    folder_path = Path(media_dir) / match["folder"]
    stem = match["stem"]
    rendition = re.compile(rf"{stem}-\d+w\.webp")
    paths = [folder_path / f"{stem}.webp"]
    if folder_path.is_dir():
        paths += [p for p in folder_path.glob(f"{stem}-*w.webp") if rendition.fullmatch(p.name)]
    removed = 0
    for path in paths:
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed += 1
    return removed


# --------------------------------------------------------------------------- decoding


def _display_name(hint: str) -> str:
    """The uploaded file's base name, for messages only (never for paths)."""
    name = PurePosixPath(str(hint).replace("\\", "/")).name.strip()
    return (name or "image")[:120]


def _decode(data: bytes, name: str) -> Image.Image:
    """Identify ``data`` by its bytes and decode the first frame completely."""
    not_an_image = ImageError(ProductFormMessage.NOT_AN_IMAGE.format(file=name))
    too_large = ImageError(ProductFormMessage.IMAGE_TOO_LARGE.format(file=name))
    try:
        # Pillow itself refuses canvases over 2 x Image.MAX_IMAGE_PIXELS on open (and warns above
        # it); MAX_PIXELS is lower and is checked from the header, before any pixel is decoded.
        with Image.open(io.BytesIO(data), formats=ACCEPTED_FORMATS) as probe:
            _check_pixels(probe.size, too_large)
            probe.verify()  # structure and checksums, without decoding
        image = Image.open(io.BytesIO(data), formats=ACCEPTED_FORMATS)
        _check_pixels(image.size, too_large)
        _draft(image)
        image.load()  # decodes frame 0 fully; truncated data raises here
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise too_large from error
    except Exception as error:  # anything Pillow cannot read is not an image we accept
        raise not_an_image from error
    return image


def _check_pixels(size: tuple[int, int], too_large: ImageError) -> None:
    width, height = size
    if width < 1 or height < 1:
        raise ValueError("empty image")
    if width * height > MAX_PIXELS:
        raise too_large


def _draft(image: Image.Image) -> None:
    """Let JPEG decode directly at a reduced scale when the image will be shrunk anyway."""
    if image.format != "JPEG":
        return
    width, height = image.size
    try:
        orientation = image.getexif().get(ExifTags.Base.Orientation, 1)
    except Exception:  # unreadable EXIF: exif_transpose will leave the image as it is too
        orientation = 1
    upright = (height, width) if orientation in (5, 6, 7, 8) else (width, height)
    target = _stored_size(*upright)
    if target == upright:
        return
    scale = target[0] / upright[0]
    image.draft(image.mode, (max(1, int(width * scale)), max(1, int(height * scale))))


def _to_srgb(image: Image.Image) -> Image.Image:
    """A new ``RGB`` image, or ``RGBA`` when it has real transparency, in sRGB colours."""
    original = image
    alpha = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    icc = image.info.get("icc_profile")
    if image.mode in ("I", "F") or image.mode.startswith("I;16"):  # 16-bit or float greyscale
        image = image.convert("I").point(lambda v: v * (1 / 256)).convert("L")
    if alpha:
        image = image.convert("RGBA")
        if image.getchannel("A").getextrema()[0] == 255:  # fully opaque after all
            image, alpha = image.convert("RGB"), False
    elif image.mode not in ("RGB", "CMYK", "L"):
        image = image.convert("RGB")
    mode = "RGBA" if alpha else "RGB"
    if icc:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            converted = ImageCms.profileToProfile(image, source, _SRGB, outputMode=mode)
            if converted is not None:
                image = converted
        except Exception:  # a broken or unsupported profile: keep the plain conversion
            pass
    if image.mode != mode:
        image = image.convert(mode)
    return image.copy() if image is original else image  # never alter the caller's image


# --------------------------------------------------------------------------- writing


def _stored_size(width: int, height: int) -> tuple[int, int]:
    scale = min(1.0, MAX_STORED_WIDTH / width, MAX_STORED_HEIGHT / height)
    if scale >= 1.0:
        return width, height
    return max(1, round(width * scale)), max(1, round(height * scale))


def _encode(image: Image.Image) -> bytes:
    image.info = {}
    buffer = io.BytesIO()
    image.save(buffer, format="WEBP", quality=WEBP_QUALITY, method=4, exif=b"", xmp=b"", icc_profile=None)
    return buffer.getvalue()


def _store(image: Image.Image, *, media_dir: Path, folder: str) -> StoredImage:
    """Resize, encode every rendition in memory, then write them atomically."""
    _check_folder(folder)  # before the encoding, which costs far more than the check
    return _write_renditions(_encode_renditions(image), media_dir=media_dir, folder=folder)


def _check_folder(folder: str) -> None:
    if not _FOLDER.fullmatch(folder):
        raise ValueError(f"invalid media folder {folder!r}")


def _encode_renditions(image: Image.Image) -> EncodedImage:
    width, height = _stored_size(*image.size)
    if (width, height) != image.size:
        image = image.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=3.0)
    files: list[tuple[str, bytes]] = []
    for w in rendition_widths(width):
        h = max(1, round(height * w / width))
        files.append((f"-{w}w", _encode(image.resize((w, h), Image.Resampling.LANCZOS))))
    files.append(("", _encode(image)))  # the largest last: once it exists, all renditions do
    return EncodedImage(width=width, height=height, files=tuple(files))


def _write_renditions(encoded: EncodedImage, *, media_dir: Path, folder: str) -> StoredImage:
    _check_folder(folder)
    width, height = encoded.width, encoded.height
    directory = Path(media_dir) / folder
    directory.mkdir(parents=True, exist_ok=True)
    stem = secrets.token_hex(_STEM_BYTES)
    while (directory / f"{stem}.webp").exists():  # pragma: no cover - 128 random bits
        stem = secrets.token_hex(_STEM_BYTES)
    written: list[Path] = []
    try:
        for suffix, content in encoded.files:
            path = directory / f"{stem}{suffix}.webp"
            _write_atomically(path, content)
            written.append(path)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    return StoredImage(url=f"{MEDIA_URL}/{folder}/{stem}.webp", width=width, height=height)


def _write_atomically(path: Path, content: bytes) -> None:
    """Write ``content`` to a temporary file beside ``path`` and rename it into place."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes 0600; a front web server may serve the folder
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
