"""A minimal Socket.IO client over one websocket, enough to speak Reflex's event protocol.

Reflex's frontend (``socket.io-client``, see ``utils/state.js`` in a build) opens a websocket to
``/_event/?EIO=4&transport=websocket&token=<tab token>`` with the Reflex version as the websocket
subprotocol, sends a Socket.IO CONNECT to the ``/_event`` namespace whose auth payload carries
the ``hydrate_and_load`` event, then emits ``event`` messages and receives ``event`` updates
(``{"delta": ..., "events": [...]}``). This client does the same with ``wsproto`` (a sans-I/O
websocket library Reflex's dependencies already bring) on asyncio streams, so a hundred shoppers
run in one process without a browser. Text frames only: the shop's events carry no binary
attachments.

Engine.IO 4 framing: one text message per packet, the first character is the packet type
(``0`` open, ``2`` ping, ``3`` pong, ``4`` message); a message carries a Socket.IO packet whose
first character is its type (``0`` connect, ``1`` disconnect, ``2`` event, ``4`` connect error),
then ``/<namespace>,`` and the JSON payload.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)

READ_CHUNK = 65536


class ProtocolError(RuntimeError):
    """The server refused the connection or spoke something unexpected."""


@dataclass(frozen=True, slots=True)
class Received:
    """A Socket.IO event from the server and when its last frame was read (perf_counter)."""

    name: str
    args: list[Any]
    at: float
    size: int  # characters of the Engine.IO packet


class SocketIOClient:
    """One Socket.IO connection to one namespace; events arrive in :attr:`inbox`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, namespace: str) -> None:
        self._reader = reader
        self._writer = writer
        self._ws = WSConnection(ConnectionType.CLIENT)
        self.namespace = namespace
        self.inbox: asyncio.Queue[Received] = asyncio.Queue()
        self._accepted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._connected: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
        self._parts: list[str] = []
        self._task: asyncio.Task | None = None
        self.closed = False

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        *,
        path: str,
        namespace: str,
        query: dict[str, str],
        origin: str,
        subprotocol: str | None = None,
        auth: dict[str, Any] | None = None,
        timeout: float = 30.0,
    ) -> SocketIOClient:
        """Open the websocket, then the namespace (sending ``auth`` in the CONNECT packet)."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        client = cls(reader, writer, namespace)
        target = f"{path.rstrip('/')}/?{urlencode({'EIO': '4', 'transport': 'websocket', **query})}"
        request = Request(
            host=f"{host}:{port}",
            target=target,
            subprotocols=[subprotocol] if subprotocol else [],
            extra_headers=[(b"origin", origin.encode())],
        )
        writer.write(client._ws.send(request))
        client._task = asyncio.create_task(client._read_loop())
        try:
            await asyncio.wait_for(asyncio.shield(client._accepted), timeout)
            payload = json.dumps(auth) if auth is not None else ""
            client._send_text(f"40{namespace},{payload}")
            await asyncio.wait_for(asyncio.shield(client._connected), timeout)
        except BaseException:
            await client.close()
            raise
        return client

    def emit(self, event: str, *args: Any) -> None:
        """Send a Socket.IO event to the namespace (no acknowledgement asked)."""
        self._send_text(f"42{self.namespace},{json.dumps([event, *args], separators=(',', ':'))}")

    async def close(self) -> None:
        """Leave the namespace and close the websocket."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                self._send_text(f"41{self.namespace},")
                self._writer.write(self._ws.send(CloseConnection(code=1000)))
                await self._writer.drain()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()

    def _send_text(self, text: str) -> None:
        self._writer.write(self._ws.send(TextMessage(data=text)))

    async def _read_loop(self) -> None:
        try:
            while True:
                data = await self._reader.read(READ_CHUNK)
                self._ws.receive_data(data or None)
                for event in self._ws.events():
                    self._on_ws_event(event)
                if not data:
                    break
        except (ConnectionError, asyncio.IncompleteReadError) as error:
            self._fail(ProtocolError(f"connection lost: {error}"))
        finally:
            self.closed = True
            self._fail(ProtocolError("connection closed"))
            self.inbox.put_nowait(Received("__closed__", [], time.perf_counter(), 0))

    def _fail(self, error: Exception) -> None:
        for future in (self._accepted, self._connected):
            if not future.done():
                future.set_exception(error)
                future.exception()  # retrieved: nobody may be waiting any more

    def _on_ws_event(self, event: object) -> None:
        if isinstance(event, AcceptConnection):
            self._accepted.set_result(None)
        elif isinstance(event, RejectConnection):
            self._fail(ProtocolError(f"websocket refused: HTTP {event.status_code}"))
        elif isinstance(event, TextMessage):
            self._parts.append(event.data)
            if event.message_finished:
                text, self._parts = "".join(self._parts), []
                self._on_engineio(text, time.perf_counter())
        elif isinstance(event, Ping):
            self._writer.write(self._ws.send(event.response()))
        elif isinstance(event, CloseConnection):
            with contextlib.suppress(Exception):
                self._writer.write(self._ws.send(event.response()))

    def _on_engineio(self, text: str, at: float) -> None:
        kind, body = text[:1], text[1:]
        if kind == "2":  # the server's heartbeat: answer at once
            self._send_text("3" + body)
        elif kind == "4":
            self._on_socketio(body, at, len(text))
        elif kind == "1":
            self._fail(ProtocolError("the server closed the session"))

    def _on_socketio(self, packet: str, at: float, size: int) -> None:
        kind, rest = packet[:1], packet[1:]
        prefix = f"{self.namespace},"
        rest = rest.removeprefix(prefix) if rest.startswith(prefix) else rest
        while rest[:1].isdigit():  # an acknowledgement id (never asked for here)
            rest = rest[1:]
        if kind == "0":
            if not self._connected.done():
                self._connected.set_result(json.loads(rest) if rest else {})
        elif kind == "4":
            self._fail(ProtocolError(f"namespace refused: {rest}"))
        elif kind == "1":
            self._fail(ProtocolError("the server left the namespace"))
        elif kind == "2":
            name, *args = json.loads(rest)
            self.inbox.put_nowait(Received(name, args, at, size))
