"""A folder of demo artwork already drawn and encoded, shared by every shop on this machine.

Drawing the demo catalogue's pictures and encoding their WebP renditions takes about 15 CPU
seconds, for the same pixels every time: the drawing is seeded by what it draws
(``demo.artwork.render``). The test suite fills many empty shops (each end-to-end worker's shop,
the integration tests that load the demo catalogue), so with ``DEMO_ARTWORK_CACHE`` set (by
``scripts/test``) the first one keeps each image's encoded files here and the next ones store
copies of them, under new random names, exactly as if they had drawn them.

An entry is named by a digest of what decides its bytes: the image's spec and size, the source
of the drawing code and of the media module's encoder, and Pillow's version. Change any of those
and the old entries are simply never read again. An entry is written to a temporary folder and
renamed into place, so a reader never sees half of one; an entry that cannot be read is drawn
again. Without the setting nothing is kept and every shop draws its own.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import PIL

from shop_app.demo import artwork
from shop_app.demo.artwork import DemoImageSpec, render
from shop_app.services import media
from shop_app.services.media import EncodedImage, encode_pil_image

logger = logging.getLogger(__name__)

_META = "meta.json"


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """Digest of the code that decides an entry's bytes (the artwork package, the encoder)."""
    digest = hashlib.sha256(PIL.__version__.encode())
    sources = [*sorted(Path(artwork.__file__).parent.glob("*.py")), Path(media.__file__)]
    for source in sources:
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def entry_name(spec: DemoImageSpec, size: tuple[int, int]) -> str:
    """The name of the entry holding ``spec`` drawn at ``size``."""
    return hashlib.sha256(f"{_code_digest()}|{spec!r}|{size!r}".encode()).hexdigest()[:32]


def encoded_artwork(spec: DemoImageSpec, size: tuple[int, int], cache: Path | None) -> EncodedImage:
    """``spec`` drawn at ``size`` and encoded as the media module stores it: read from ``cache``
    when an entry is there, else drawn (and kept in ``cache`` when given)."""
    if cache is None:
        return encode_pil_image(render(spec, size))
    entry = Path(cache) / entry_name(spec, size)
    found = _read(entry)
    if found is not None:
        return found
    encoded = encode_pil_image(render(spec, size))
    _write(entry, encoded)
    return encoded


def _read(entry: Path) -> EncodedImage | None:
    if not entry.is_dir():
        return None
    try:
        meta = json.loads((entry / _META).read_text(encoding="utf-8"))
        files = tuple(
            (str(suffix), (entry / f"{index}.webp").read_bytes())
            for index, suffix in enumerate(meta["files"])
        )
        return EncodedImage(width=int(meta["width"]), height=int(meta["height"]), files=files)
    except (OSError, ValueError, KeyError, TypeError) as error:
        logger.warning("demo artwork cache entry %s unreadable (%s): drawing it again", entry.name, error)
        shutil.rmtree(entry, ignore_errors=True)
        return None


def _write(entry: Path, encoded: EncodedImage) -> None:
    """Keep ``encoded`` as ``entry``; a cache that cannot be written only costs the next shop time."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=entry.parent, prefix=".staging-"))
    except OSError as error:
        logger.warning("demo artwork cache %s not writable (%s)", entry.parent, error)
        return
    try:
        for index, (_suffix, content) in enumerate(encoded.files):
            (staging / f"{index}.webp").write_bytes(content)
        meta = {"width": encoded.width, "height": encoded.height, "files": [s for s, _ in encoded.files]}
        (staging / _META).write_text(json.dumps(meta), encoding="utf-8")
        os.rename(staging, entry)  # atomic; fails when another process kept the same entry first
    except OSError:
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
