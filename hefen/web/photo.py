"""Photo scoring in the web app: ``POST /api/recognize``.

The photo comes as a multipart upload (field ``file``, what the calculator's
*Photo* button sends) or as the raw request body; the answer is exactly
``hefen.photo.recognize(photo).to_dict()``. A multipart upload may also carry a
tile memory (field ``memory``, a text field or a file: the JSON of
``hefen.photo.memory``, tiles of the player's own set, read as taught), and
``looks=1`` (a field or the query) adds each tile's ``look`` and the ``model``'s
sha256, from which a client builds that memory when the player corrects a tile. A photo the recogniser refuses, or a bad
memory, is 422 with its one sentence; a body over :data:`MAX_BODY` is refused
with 413 by the app's body limit before it is read. At most :data:`CONCURRENT`
photos are read at once; one that waits over :data:`WAIT` seconds is 503.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException as StarletteHTTPException

from hefen.photo import PhotoError, TileMemory, recognize
from hefen.photo.memory import looks
from hefen.photo.model import classifier
from hefen.photo.pipeline import MAX_BYTES
from hefen.web.models import ErrorOut

__all__ = ["MAX_BODY", "PATH", "RecognitionOut", "router"]

PATH = "/api/recognize"
# The recogniser's own limit on a photo file (20 MB) plus room for the
# multipart envelope around it.
MAX_BODY = MAX_BYTES + 64 * 1024

#: photos read at once by one process (each may hold a 25-megapixel image)
CONCURRENT = 2
#: seconds a photo waits for its turn before the answer is "busy"
WAIT = 20.0

router = APIRouter()
_turns: dict[int, asyncio.Semaphore] = {}


def _turn() -> asyncio.Semaphore:
    """The semaphore of the running event loop (one per loop)."""
    loop = asyncio.get_running_loop()
    sem = _turns.get(id(loop))
    if sem is None:
        sem = _turns[id(loop)] = asyncio.Semaphore(CONCURRENT)
    return sem


_BINARY = {"schema": {"type": "string", "format": "binary"}}
_REQUEST_BODY = {
    "required": True,
    "description": "The photo (JPEG, PNG, WebP, ... up to 20 MB and 25 megapixels): a "
    "multipart upload in the field `file`, or the image itself as the body.",
    "content": {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "properties": {
                    "file": {"type": "string", "format": "binary"},
                    "memory": {
                        "type": "string",
                        "description": "A tile memory (JSON): tiles read as taught.",
                    },
                    "looks": {
                        "type": "string",
                        "description": "`1`: give each tile's look and the model's sha256.",
                    },
                },
                "required": ["file"],
            }
        },
        "image/*": _BINARY,
        "application/octet-stream": _BINARY,
    },
}


class RecognizedTileOut(BaseModel):
    tile: str = Field(description="Tile code, `1m`..`9s`, `E S W N C F P` or `1h`..`8h`.")
    confidence: float = Field(ge=0, le=1, examples=[0.98])
    alternatives: list[tuple[str, float]] = Field(
        description="The next most likely tiles with their probabilities, likeliest first.",
        examples=[[["5s", 0.01], ["2s", 0.004], ["6s", 0.001]]],
    )
    box: tuple[int, int, int, int] = Field(description="x, y, width, height in the photo's pixels.")
    sideways: bool | None = Field(
        None,
        description="Present (true) when the tile lies turned a quarter in its group: a "
        "claimed tile, so the group is read as an exposed meld.",
    )
    look: str | None = Field(
        None,
        description="With `looks=1`: what the tile looks like to the model (base64 float16 "
        "features); send it back in a tile memory with the right code to teach the tile.",
    )


class TileGroupOut(BaseModel):
    tiles: list[RecognizedTileOut]


class PhotoMeldOut(BaseModel):
    kind: str = Field(description="`chow`, `pung` or `kong`.")
    tiles: list[str]
    concealed: bool = Field(description="Always false: a meld lying apart is exposed.")


class HandReadingOut(BaseModel):
    """The groups read as a hand (``hefen.photo.hand.read_hand``), or ``error``."""

    hand: list[str] | None = Field(None, description="The concealed tiles, less the winning tile.")
    melds: list[PhotoMeldOut] | None = None
    win_tile: str | None = Field(None, description="The concealed row's last tile.")
    flowers: list[str] | None = None
    roles: list[list[str]] | None = Field(
        None,
        description="What each recognised tile became, group by group: `hand`, `win`, "
        "`meld`, `flower`, or `repeat` (a bonus tile seen twice).",
    )
    error: str | None = Field(None, description="Why the tiles make no hand to read.")


class RecognitionOut(BaseModel):
    groups: list[TileGroupOut] = Field(
        description="Tiles that touch each other (the concealed hand, a meld, the flowers), "
        "rows top to bottom, then left to right."
    )
    tiles: list[str] = Field(description="Every tile of every group, in order.")
    set_aside: list[TileGroupOut] | None = Field(
        None,
        description="Groups read but left out, as more tiles than a hand holds (most are "
        "things beside the tiles, read as tiles); absent when none was.",
    )
    model: str | None = Field(
        None,
        description="With `looks=1`: what a tile memory is bound to, the model's sha256 "
        "(with the match look, the sha256 of both networks' sha256s).",
    )
    reading: HandReadingOut = Field(
        description="The concealed row (the longest group that is no chow, pung or kong), "
        "the exposed melds apart from it, the flowers and the winning tile."
    )


def _error(sentence: str) -> JSONResponse:
    return JSONResponse({"error": sentence}, status_code=422)


@router.post(
    PATH,
    response_model=RecognitionOut,
    response_model_exclude_none=True,  # a reading has its fields or its error, not both
    responses={
        413: {"model": ErrorOut, "description": "Body over 20 MB"},
        422: {"model": ErrorOut, "description": "Not a photo of mahjong tiles"},
        503: {"model": ErrorOut, "description": "Too many photos being read at once"},
    },
    openapi_extra={"requestBody": _REQUEST_BODY},
    tags=["photo"],
)
async def api_recognize(request: Request) -> Any:
    """Recognise the mahjong tiles in a photo of a hand: every tile with its
    confidence, its likeliest alternatives and its box, group by group, and the
    groups read as a hand (exactly ``hefen recognize --json``)."""
    content_type = request.headers.get("content-type", "").lower()
    memory_text: str | None = None
    want_looks = request.query_params.get("looks") == "1"
    if content_type.startswith("multipart/form-data"):
        try:
            # the memory may come as a text field or as a file of its own
            async with request.form(max_files=2, max_fields=8) as form:
                upload = form.get("file")
                if not isinstance(upload, UploadFile):
                    return _error("The upload has no file in its field 'file'.")
                data = await upload.read()
                field = form.get("memory")
                if isinstance(field, UploadFile):
                    field = (await field.read()).decode("utf-8", errors="replace")
                memory_text = field if field else None
                want_looks = want_looks or form.get("looks") == "1"
        except StarletteHTTPException:
            return _error("The upload is not a valid multipart form.")
    else:
        data = await request.body()
    sem = _turn()
    try:
        await asyncio.wait_for(sem.acquire(), WAIT)
    except TimeoutError:
        return JSONResponse(
            {"error": "The photo reader is busy; try again in a moment."},
            status_code=503,
            headers={"Retry-After": "5"},
        )
    try:
        return await run_in_threadpool(_answer, data, memory_text, want_looks)
    except PhotoError as exc:
        return _error(str(exc))
    finally:
        sem.release()


def _answer(data: bytes, memory_text: str | None, want_looks: bool) -> dict[str, Any]:
    memory = TileMemory.from_json(memory_text) if memory_text is not None else None
    result = recognize(data, memory)
    out = result.to_dict()
    if want_looks:
        out["model"] = classifier().memory_key
        for tile, look in zip(
            (t for g in out["groups"] for t in g["tiles"]), looks(result.crops), strict=True
        ):
            tile["look"] = look
    return out
