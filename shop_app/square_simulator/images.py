"""CreateCatalogImage (``POST /v2/catalog/images``, multipart) and the image files it serves.

The request is multipart/form-data with a ``request`` part (JSON CreateCatalogImageRequest) and
an ``image_file`` part: JPEG, PJPEG, PNG or GIF (checked by content type and by the file's first
bytes), at most 15 MB. The new IMAGE object's ``image_data.url`` points at the simulator's own
``/files/{image_id}/original.{ext}``, where the bytes are served without authentication (as
Square's image CDN does). With ``object_id`` the image is attached to that object's
``image_ids`` (first when ``is_primary``).
"""

from __future__ import annotations

import hashlib

from shop_app.square_simulator.catalog import CATALOG_KEY_MAX, data_key, present
from shop_app.square_simulator.http import (
    SimError,
    SimRequest,
    SimResponse,
    idempotency_key,
    invalid,
    not_found,
    ok,
    optional_bool,
    optional_object,
    optional_str,
    require_object,
    run_idempotent,
)
from shop_app.square_simulator.state import Json, StoredImage, new_upper_id

MAX_IMAGE_BYTES = 15 * 1024 * 1024
_SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/pjpeg": (b"\xff\xd8\xff",),
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/gif": (b"GIF87a", b"GIF89a"),
}
_EXTENSIONS = {"image/jpeg": "jpeg", "image/pjpeg": "jpeg", "image/png": "png", "image/gif": "gif"}


def create_image(req: SimRequest) -> SimResponse:
    """POST /v2/catalog/images."""
    body, ledger = req.body, req.ledger
    key = idempotency_key(body, CATALOG_KEY_MAX)
    image = require_object(body, "image")
    if image.get("type") != "IMAGE":
        raise invalid("INVALID_VALUE", "The image object must have type IMAGE.", "image.type")
    image_data = optional_object(image, "image_data", "image") or {}
    object_id = optional_str(body, "object_id")
    is_primary = optional_bool(body, "is_primary") or False
    upload = req.files.get("image_file")
    if upload is None:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", "image_file")
    content_type = upload.content_type.split(";")[0].strip().lower()
    signatures = _SIGNATURES.get(content_type)
    if signatures is None or not upload.data.startswith(signatures):
        raise invalid(
            "INVALID_CONTENT_TYPE", "The image must be a JPEG, PJPEG, PNG or GIF file.", "image_file"
        )
    if len(upload.data) > MAX_IMAGE_BYTES:
        raise SimError(
            413,
            [
                {
                    "category": "INVALID_REQUEST_ERROR",
                    "code": "REQUEST_ENTITY_TOO_LARGE",
                    "detail": "The image must not be larger than 15 MB.",
                    "field": "image_file",
                }
            ],
        )
    fingerprint = {
        "request": body,
        "image_file": {
            "filename": upload.filename,
            "content_type": content_type,
            "sha256": hashlib.sha256(upload.data).hexdigest(),
        },
    }

    def create() -> SimResponse:
        target = ledger.state.catalog.get(object_id) if object_id else None
        if object_id and (target is None or target.get("is_deleted")):
            raise not_found(f"Object with id {object_id} not found.", "object_id")
        version = ledger.next_catalog_version()
        now = ledger.timestamp()
        image_id = new_upper_id()
        url = f"{req.public_url}/files/{image_id}/original.{_EXTENSIONS[content_type]}"
        record: Json = {
            "type": "IMAGE",
            "id": image_id,
            "updated_at": now,
            "version": version,
            "is_deleted": False,
            "present_at_all_locations": True,
            "image_data": {**image_data, "url": url},
        }
        ledger.state.catalog[image_id] = record
        ledger.state.images[image_id] = StoredImage(content_type, upload.data)
        if target is not None:
            data = target.setdefault(data_key(target["type"]), {})
            ids = [i for i in data.get("image_ids") or [] if i != image_id]
            data["image_ids"] = [image_id, *ids] if is_primary else [*ids, image_id]
            target.update(version=version, updated_at=now)
        return ok({"image": present(ledger, record)})

    return run_idempotent(ledger, "CreateCatalogImage", key, fingerprint, create)
