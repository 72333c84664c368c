"""Live updates: every change of a table reaches every phone watching it.

A :class:`Hub` keeps the WebSocket connections open on *this* process, by
table code, and sends each one its messages through its own bounded queue:
a phone that stops reading is dropped when its queue is full or a send
takes longer than :data:`SEND_TIMEOUT`, and never holds anyone else up.

* :class:`Hub` (the embedded default) delivers a broadcast to the sockets
  of this process only — right for one ``hefen serve``.
* :class:`RedisHub` (``HEFEN_REDIS_URL``) publishes every broadcast on the
  table's Redis channel and delivers to its own sockets what it receives,
  so that any process can serve any phone: a hand recorded through one
  process reaches the phones connected to all of them. A process
  subscribes only to the channels of the tables it has phones for.

The interface is the same: ``add(code, ws)`` then ``await follow(code)``
(with Redis: subscribed, confirmed), ``remove(code, ws)``,
``await broadcast(code, message)``, ``publish(code, message)`` (from any
thread), ``await start()``, ``await stop()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import uuid
from typing import Any, Protocol

__all__ = ["Hub", "RedisHub", "make_hub", "REDIS_URL_ENV", "QUEUE_LIMIT", "SEND_TIMEOUT"]

REDIS_URL_ENV = "HEFEN_REDIS_URL"
#: messages waiting for one socket before it is dropped as too slow
QUEUE_LIMIT = 64
#: seconds one send may take before the socket is dropped
SEND_TIMEOUT = 5.0
CHANNEL_PREFIX = "hefen:live:"

log = logging.getLogger("hefen.hub")


class Socket(Protocol):
    async def send_json(self, data: Any) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


class _Payload:
    """One message for many sockets: encoded to JSON text once, when the
    first socket that takes text sends it."""

    __slots__ = ("message", "_text")

    def __init__(self, message: Any, text: str | None = None) -> None:
        self.message, self._text = message, text

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = json.dumps(self.message, ensure_ascii=False)
        return self._text


class _Outbox:
    """One socket's queue and the task, on the socket's own event loop, that
    drains it. A broadcast from any thread or loop only queues."""

    def __init__(self, hub: Hub, code: str, ws: Socket) -> None:
        self.hub, self.code, self.ws = hub, code, ws
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[Any] = asyncio.Queue(QUEUE_LIMIT)
        self.task: asyncio.Task[None] = self.loop.create_task(self._drain())

    def put(self, message: Any) -> None:
        def put_here() -> None:
            try:
                self.queue.put_nowait(message)
            except asyncio.QueueFull:
                self.hub._drop(self.code, self.ws)

        if _running_loop() is self.loop:
            put_here()
            return
        try:
            self.loop.call_soon_threadsafe(put_here)
        except RuntimeError:  # its loop is closed: the socket is gone
            self.hub.remove(self.code, self.ws)

    def cancel(self) -> None:
        if self.task is _current_task():
            return
        if _running_loop() is self.loop:
            self.task.cancel()
        else:
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self.task.cancel)

    async def _drain(self) -> None:
        while True:
            message = await self.queue.get()
            send_text = getattr(self.ws, "send_text", None)
            try:
                if isinstance(message, _Payload):
                    if send_text is not None:
                        sending = send_text(message.text)
                    elif message.message is None:
                        sending = self.ws.send_json(json.loads(message.text))
                    else:
                        sending = self.ws.send_json(message.message)
                else:
                    sending = self.ws.send_json(message)
                await asyncio.wait_for(sending, SEND_TIMEOUT)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - closed, broken or too slow: forget it
                self.hub._drop(self.code, self.ws)
                return


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Hub:
    """The open WebSocket connections of each table on this process."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict[Any, _Outbox]] = {}
        self.lock = threading.Lock()
        self.dropped = 0

    # -- connections -------------------------------------------------------
    def add(self, code: str, ws: Any) -> None:
        with self.lock:
            self.rooms.setdefault(code, {})[ws] = _Outbox(self, code, ws)

    def remove(self, code: str, ws: Any) -> None:
        with self.lock:
            room = self.rooms.get(code)
            if not room:
                return
            box = room.pop(ws, None)
            if not room:
                del self.rooms[code]
        if box is not None:
            box.cancel()

    def _drop(self, code: str, ws: Any) -> None:
        """A socket too slow or gone: out of its room, and closed."""
        self.dropped += 1
        with self.lock:
            box = self.rooms.get(code, {}).get(ws)
        self.remove(code, ws)
        if box is not None:
            with contextlib.suppress(RuntimeError):
                box.loop.call_soon_threadsafe(lambda: box.loop.create_task(_close(ws)))

    def sockets(self, code: str) -> int:
        with self.lock:
            return len(self.rooms.get(code, ()))

    # -- messages ----------------------------------------------------------
    def deliver(self, code: str, message: Any, text: str | None = None) -> None:
        """Queue ``message`` for every socket of ``code`` on this process
        (encoded once for all of them; ``text``: already encoded)."""
        with self.lock:
            boxes = list(self.rooms.get(code, {}).values())
        payload = _Payload(message, text)
        for box in boxes:
            box.put(payload)

    async def broadcast(
        self, code: str, message: dict[str, Any] | None, text: str | None = None
    ) -> None:
        """Send ``message`` to every phone watching table ``code`` (``text``:
        it as JSON already; ``message`` may then be None)."""
        self.deliver(code, message, text)

    def publish(self, code: str, message: dict[str, Any]) -> None:
        """:meth:`broadcast` from any thread (an online game's bot driver)."""
        self.deliver(code, message)

    async def follow(self, code: str) -> None:
        """Once a socket of ``code`` is added: make sure this process hears
        every change of that table from now on (the local hub always does)."""

    async def start(self) -> None:
        """Begin (for hubs that listen to others); nothing for the local hub."""

    async def stop(self) -> None:
        with self.lock:
            boxes = [b for room in self.rooms.values() for b in room.values()]
            self.rooms.clear()
        for box in boxes:
            box.cancel()


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


async def _close(ws: Any) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=1013)


class RedisHub(Hub):
    """A hub whose broadcasts travel through Redis pub/sub to every process."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.origin = uuid.uuid4().hex
        self._redis: Any = None
        self._sync: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._pubsub: Any = None
        self._followed: set[str] = set()  # the tables whose channel we subscribe to
        self._waiting: dict[str, list[asyncio.Future[None]]] = {}

    async def start(self) -> None:
        if self._listener is not None:
            return
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self.url)
        self._listener = asyncio.get_running_loop().create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), 10)

    async def _listen(self) -> None:
        """Subscribed to the channel of each table with a phone here (and to
        this process's own, so that the subscription is never empty): a
        process reads only the changes of the tables it serves."""
        while True:
            pubsub = self._redis.pubsub()
            try:
                with self.lock:
                    codes = list(self.rooms)
                await pubsub.subscribe(
                    CHANNEL_PREFIX + "~" + self.origin, *(CHANNEL_PREFIX + c for c in codes)
                )
                self._followed = set(codes)
                self._pubsub = pubsub
                with self.lock:  # a socket added while that subscription was sent
                    late = [c for c in self.rooms if c not in self._followed]
                if late:
                    self._followed.update(late)
                    await pubsub.subscribe(*(CHANNEL_PREFIX + c for c in late))
                self._ready.set()
                async for item in pubsub.listen():
                    kind = item.get("type")
                    channel = item["channel"]
                    if isinstance(channel, bytes):
                        channel = channel.decode()
                    code = channel[len(CHANNEL_PREFIX) :]
                    if kind == "subscribe":
                        for waiter in self._waiting.pop(code, []):
                            if not waiter.done():
                                waiter.set_result(None)
                        continue
                    if kind != "message" or not self.sockets(code):
                        continue  # no phone of that table here (any more): nothing to decode
                    data = item["data"]
                    try:
                        text = data.decode() if isinstance(data, bytes) else str(data)
                    except UnicodeDecodeError:
                        continue
                    if text.startswith("{"):  # a JSON object, as every process sends;
                        self.deliver(code, None, text)  # sent on as it came
            except asyncio.CancelledError:
                self._pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as exc:  # noqa: BLE001 - Redis went away: retry
                self._pubsub = None
                log.warning("hefen hub: lost Redis (%s); reconnecting", exc)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(0.5)

    async def follow(self, code: str) -> None:
        """Subscribe to ``code``'s channel and wait (up to 5 s) until Redis
        confirms it: a change published after this returns reaches us. A
        table already followed costs nothing."""
        if code in self._followed:
            return
        pubsub = self._pubsub
        if pubsub is None:  # reconnecting: the new subscription will hold it
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(code, []).append(waiter)
        self._followed.add(code)
        try:
            await pubsub.subscribe(CHANNEL_PREFIX + code)
            await asyncio.wait_for(waiter, 5)
        except Exception as exc:  # noqa: BLE001 - the listener reconnects and resubscribes
            log.warning("hefen hub: could not follow %s (%s)", code, exc)

    def remove(self, code: str, ws: Any) -> None:
        super().remove(code, ws)
        if self.sockets(code) or code not in self._followed:
            return
        loop = self._listener.get_loop() if self._listener is not None else None
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(lambda: loop.create_task(self._unfollow(code)))

    async def _unfollow(self, code: str) -> None:
        """The last phone of ``code`` here has gone: stop hearing it (unless
        another has come meanwhile; this runs on the listener's loop, as do
        :meth:`follow` and the sockets)."""
        pubsub = self._pubsub
        if self.sockets(code) or code not in self._followed or pubsub is None:
            return
        self._followed.discard(code)
        with contextlib.suppress(Exception):
            await pubsub.unsubscribe(CHANNEL_PREFIX + code)

    async def broadcast(
        self, code: str, message: dict[str, Any] | None, text: str | None = None
    ) -> None:
        if self._redis is None:
            await self.start()
        if text is None:
            text = json.dumps(message, ensure_ascii=False)
        await self._redis.publish(CHANNEL_PREFIX + code, text)

    def publish(self, code: str, message: dict[str, Any]) -> None:
        with self.lock:
            if self._sync is None:
                import redis

                self._sync = redis.Redis.from_url(self.url)
            client = self._sync
        client.publish(CHANNEL_PREFIX + code, json.dumps(message, ensure_ascii=False))

    async def stop(self) -> None:
        await super().stop()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
            self._listener = None
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
            self._redis = None


def make_hub(redis_url: str | None = None) -> Hub:
    """The hub for this process: Redis when a URL is given or
    ``HEFEN_REDIS_URL`` is set, else the in-process hub."""
    url = redis_url if redis_url is not None else os.environ.get(REDIS_URL_ENV)
    if url:
        return RedisHub(url)
    return Hub()
