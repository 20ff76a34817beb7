"""The image list of the product wizard and the local product form (``components.admin.image_picker``).

Uploads arrive through ``rx.upload`` (drag-and-drop or the file picker) and are staged at once by
``services.admin.product_images`` in a worker thread (decoding and re-encoding take a moment):
each file is refused over 5 MB before it is decoded, and refused unless its bytes are a JPEG, PNG,
WebP or GIF, with the seed's messages; the other files of the same drop are kept. The browser's
own checks (type, 5 MB) only spare a useless upload; the server decides.

The list lives in this tab's state; the files it names are staged until Publish or Save adopts
them (abandoned ones are purged later, see ``product_images``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import reflex as rx

from shop_app.domain.admin_messages import ProductFormMessage
from shop_app.services.admin.product_images import ImageRef, discard_staged, display_name, stage_upload
from shop_app.services.media import ImageError
from shop_app.settings import get_settings
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.media import media_src

log = logging.getLogger(__name__)

MAX_IMAGES = 12  # more would not be a product gallery any more


@dataclass
class PickedImage:
    """One thumbnail: the stored path, the browser's src and the stored size."""

    url: str = ""
    src: str = ""
    width: int = 0
    height: int = 0


def picked(image: ImageRef) -> PickedImage:
    """The thumbnail of an image reference."""
    return PickedImage(image.url, media_src(image.url), image.width or 0, image.height or 0)


def _stage(file: Any) -> ImageRef:
    return stage_upload(file.file, filename=file.filename, size=file.size, media_dir=get_settings().media_dir)


def _refusal(entry: object) -> str:
    """The seed's message for a file the browser refused: ``{name, code}`` (react-dropzone's codes)."""
    details = entry if isinstance(entry, dict) else {}
    name = display_name(str(details.get("name") or ""))
    if details.get("code") == "file-too-large":
        return ProductFormMessage.IMAGE_TOO_LARGE.format(file=name)
    return ProductFormMessage.NOT_AN_IMAGE.format(file=name)


class ImagePickerMixin(AdminGuardMixin, mixin=True):
    """Images picked for a product, in gallery order (the first is the main image)."""

    images: list[PickedImage] = []
    uploading: bool = False

    def _image_refs(self) -> list[ImageRef]:
        return [ImageRef(image.url, image.width or None, image.height or None) for image in self.images]

    def _forget_staged(self) -> None:
        """Drop the staged uploads of this draft (the draft is being thrown away)."""
        media_dir = get_settings().media_dir
        for image in self.images:
            discard_staged(image.url, media_dir)

    @admin_event
    async def upload_images(self, files: list[rx.UploadFile]):
        """Stage each dropped file; show the seed's message for each one refused."""
        self.uploading = True
        yield
        problems: list[str] = []
        for file in files:
            if len(self.images) >= MAX_IMAGES:
                break
            try:
                stored = await asyncio.to_thread(_stage, file)
            except ImageError as error:
                problems.append(str(error))
                continue
            except Exception:
                log.exception("staging %r failed", file.filename)
                problems.append(ProductFormMessage.NOT_AN_IMAGE.format(file=display_name(file.filename)))
                continue
            self.images.append(picked(stored))
        self.uploading = False
        if problems:
            yield notify.error(". ".join(problems))

    @admin_event
    async def refuse_images(self, rejected: list[dict]):
        """Files the browser refused before uploading (wrong type, over 5 MB)."""
        if not rejected:
            return None
        return notify.error(". ".join(_refusal(entry) for entry in rejected[:MAX_IMAGES]))

    @admin_event
    async def remove_image(self, index: int) -> None:
        """Take an image off the list; a staged upload's files go at once."""
        if not 0 <= index < len(self.images):
            return
        removed = self.images.pop(index)
        discard_staged(removed.url, get_settings().media_dir)

    @admin_event
    async def move_image(self, index: int, offset: int) -> None:
        """Move an image one place earlier (-1) or later (1); the first one is the main image."""
        target = index + offset
        if not (0 <= index < len(self.images) and 0 <= target < len(self.images)):
            return
        images = list(self.images)
        images[index], images[target] = images[target], images[index]
        self.images = images
