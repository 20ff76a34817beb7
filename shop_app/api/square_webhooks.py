"""POST /api/square/webhooks: Square's payment and refund events, signature-checked."""

from __future__ import annotations

import json
import logging

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from shop_app.db import session_scope
from shop_app.services.square import webhooks
from shop_app.settings import get_settings

log = logging.getLogger(__name__)

PATH = "/api/square/webhooks"
MAX_BODY_BYTES = 256 * 1024


async def receive(request: Request) -> Response:
    """401 for a bad signature (nothing changes); 200 otherwise, also for repeats and other events."""
    body = await request.body()
    settings = get_settings()
    if len(body) > MAX_BODY_BYTES or not webhooks.signature_is_valid(
        body=body,
        header=request.headers.get(webhooks.SIGNATURE_HEADER, ""),
        key=settings.square_webhook_signature_key,
        notification_url=f"{settings.site_url}{PATH}",
    ):
        return Response(status_code=401)
    try:
        event = json.loads(body)
    except ValueError:
        return Response(status_code=400)
    if not isinstance(event, dict):
        return Response(status_code=400)

    def apply() -> str:
        with session_scope() as session:
            if webhooks.already_handled(session, event):
                return "duplicate"
            result = webhooks.handle(session, event).result
        with session_scope() as session:
            webhooks.record_event(session, event)
        return result

    result = await run_in_threadpool(apply)
    return JSONResponse({"result": result})
