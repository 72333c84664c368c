"""Photo scoring in the web app: ``POST /api/recognize`` and the calculator's Photo button.

The photos are synthetic hands drawn from ``../shared/tiles`` with the seeds of
``tests/test_photo.py`` (which training never uses). The browser test
(``-m browser``) needs Debian's ``/usr/bin/chromium``; with ``HEFEN_SCREENSHOTS``
it saves ``photo.png``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from photo_support import heic
from webserver import ARGS, CHROMIUM, PHONE, needs_chromium, phone_page, running

from hefen import score
from hefen.web import create_app

TILES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "tiles"
TEST_SEED = 31_337_001  # tests/test_photo.py's

# A winning MCR hand (the last tile of the hand is the winning tile) and a flower.
HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "E", "E", "E"]
GROUPS = [HAND, ["1h"]]
# the calculator keeps its hand in palette order (winds before dragons)
CONCEALED = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "C"]

needs_art = pytest.mark.skipif(not TILES_DIR.is_dir(), reason="shared/tiles is not beside the repo")


def hand_jpeg(seed: int) -> bytes:
    from hefen.photo import synth

    art = synth.load_art(tiles_dir=TILES_DIR)
    photo = synth.hand_photo(np.random.default_rng(seed), art, groups=GROUPS, rows=[[0, 1]])
    return photo.jpeg()


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(database_url="sqlite://"))


# --------------------------------------------------------------------------- the API


@needs_art
def test_recognize_reads_a_synthetic_hand_photo(client: TestClient) -> None:
    jpeg = hand_jpeg(TEST_SEED)
    r = client.post("/api/recognize", files={"file": ("hand.jpg", jpeg, "image/jpeg")})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["tiles"] == HAND + ["1h"]
    assert [[t["tile"] for t in g["tiles"]] for g in data["groups"]] == GROUPS
    first = data["groups"][0]["tiles"][0]
    assert set(first) == {"tile", "confidence", "alternatives", "box"}
    assert 0 < first["confidence"] <= 1 and len(first["alternatives"]) == 3
    assert len(first["box"]) == 4
    # and the groups read as a hand, each tile's role beside it
    assert data["reading"] == {
        "hand": CONCEALED,
        "melds": [],
        "win_tile": "E",
        "flowers": ["1h"],
        "roles": [["hand"] * 13 + ["win"], ["flower"]],
    }
    # the raw photo as the body gives the same answer
    raw = client.post("/api/recognize", content=jpeg, headers={"content-type": "image/jpeg"})
    assert raw.status_code == 200 and raw.json() == data


@needs_art
def test_a_heic_photo_from_an_iphone_is_read_as_its_jpeg(client: TestClient) -> None:
    """An iPhone's photo (HEIC), sent as a file or as the body, reads as the JPEG does."""
    import io

    from PIL import Image

    jpeg = hand_jpeg(TEST_SEED)
    photo = heic(Image.open(io.BytesIO(jpeg)))
    want = client.post("/api/recognize", content=jpeg, headers={"content-type": "image/jpeg"})
    r = client.post("/api/recognize", files={"file": ("IMG_0001.HEIC", photo, "image/heic")})
    assert r.status_code == 200, r.text
    assert r.json()["tiles"] == want.json()["tiles"] == HAND + ["1h"]
    raw = client.post("/api/recognize", content=photo, headers={"content-type": "image/heic"})
    assert raw.status_code == 200 and raw.json()["tiles"] == HAND + ["1h"]


@needs_art
def test_a_tile_memory_sent_with_the_photo_reads_taught_tiles_as_taught(
    client: TestClient,
) -> None:
    jpeg = hand_jpeg(TEST_SEED)
    files = {"file": ("hand.jpg", jpeg, "image/jpeg")}
    first = client.post("/api/recognize", files=files, data={"looks": "1"}).json()
    tiles = [t for g in first["groups"] for t in g["tiles"]]
    assert len(first["model"]) == 64 and all(len(t["look"]) > 100 for t in tiles)
    # the player says the first tile (read 1m) is their set's 9p
    memory = {
        "format": "hefen-tile-memory",
        "version": 1,
        "model": first["model"],
        "tiles": [{"tile": "9p", "was": tiles[0]["tile"], "features": tiles[0]["look"]}],
    }
    again = client.post("/api/recognize", files=files, data={"memory": json.dumps(memory)})
    assert again.status_code == 200, again.text
    assert again.json()["tiles"] == ["9p"] + first["tiles"][1:]
    assert "look" not in again.json()["groups"][0]["tiles"][0]  # only when asked
    # the memory as a file of its own (curl -F memory=@my-set.json) reads the same
    as_file = {**files, "memory": ("my-set.json", json.dumps(memory), "application/json")}
    by_file = client.post("/api/recognize", files=as_file)
    assert by_file.status_code == 200, by_file.text
    assert by_file.json()["tiles"] == again.json()["tiles"]
    for bad, words in [("{", "not valid JSON"), ('{"format": "x"}', "not a hefen tile memory")]:
        r = client.post("/api/recognize", files=files, data={"memory": bad})
        assert r.status_code == 422 and words in r.json()["error"]
    stale = client.post(
        "/api/recognize", files=files, data={"memory": json.dumps({**memory, "model": "0" * 64})}
    )
    assert stale.status_code == 422 and "another photo model" in stale.json()["error"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"content": b"three bamboo, red dragon", "headers": {"content-type": "text/plain"}},
        {"files": {"file": ("notes.txt", b"not a photo", "text/plain")}},
        {"files": {"photo": ("hand.jpg", b"\xff\xd8", "image/jpeg")}},
    ],
)
def test_a_non_image_is_422_with_one_sentence(client: TestClient, kwargs: dict[str, Any]) -> None:
    r = client.post("/api/recognize", **kwargs)
    assert r.status_code == 422
    error = r.json()["error"]
    assert error.endswith(".") and "\n" not in error and error[0].isupper()


def test_an_oversized_photo_is_413_while_other_routes_keep_64_kib(client: TestClient) -> None:
    r = client.post("/api/recognize", content=b"\xff\xd8" + b"\0" * (21 * 1024 * 1024))
    assert r.status_code == 413
    assert r.json() == {"error": "The request body is larger than 20 MB."}
    # a photo-sized body is only allowed on the photo route
    r = client.post("/api/score", content=b"{" + b" " * (100 * 1024) + b"}")
    assert r.status_code == 413


def test_recognize_is_typed_in_the_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    op = doc["paths"]["/api/recognize"]["post"]
    content = op["requestBody"]["content"]
    assert content["multipart/form-data"]["schema"]["properties"]["file"]["format"] == "binary"
    assert "image/*" in content
    ok = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ok.endswith("/RecognitionOut")
    assert {"413", "422"} <= set(op["responses"])
    tile = doc["components"]["schemas"]["RecognizedTileOut"]
    assert set(tile["required"]) == {"tile", "confidence", "alternatives", "box"}
    reading = doc["components"]["schemas"]["HandReadingOut"]["properties"]
    assert {"hand", "melds", "win_tile", "flowers", "roles", "error"} <= set(reading)


# --------------------------------------------------------------------------- the page


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A photo of the hand that is read right, with some tiles under 0.8 confidence."""
    out = tmp_path / "hand.jpg"
    out.write_bytes(hand_jpeg(TEST_SEED + 3))
    return out


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running(create_app(database_url="sqlite://")) as url:
        yield url


@needs_art
@pytest.mark.browser
@needs_chromium
def test_photo_button_fills_the_hand_and_a_tile_can_be_replaced(server: str, path: Path) -> None:
    context = {"rules": "mcr", "flowers": ["1h"]}
    context["context"] = {"win": "discard", "seat_wind": "E", "round_wind": "E"}
    expected = score({**context, "hand": HAND[:-1], "win_tile": HAND[-1]}).to_dict()
    assert expected["valid"] and expected["winning"]
    with phone_page() as (page, errors):
        page.goto(f"{server}/calc?rules=mcr&lang=en")
        file_input = page.locator('#photo-file[type="file"][accept="image/*"]')
        assert file_input.get_attribute("capture") == "environment"
        file_input.set_input_files(str(path))
        total = page.locator("#total")
        total.filter(has_text=f"{expected['total']} points").wait_for()
        hand = page.locator("#hand .ht.rec")
        assert hand.count() == 15
        shown = page.evaluate(
            "() => { const s = window.hefenCalc.state;"
            " return {hand: s.hand, win: s.win, flowers: s.flowers}; }"
        )
        assert shown == {"hand": CONCEALED, "win": "E", "flowers": ["1h"]}
        low = page.locator("#hand .ht.rec.low")
        assert low.count() >= 1
        assert "uncertain" in page.locator("#photo-note").inner_text()
        names = page.locator("#patterns .pname").all_inner_texts()
        assert names == [p["name"] for p in expected["patterns"]]
        page.evaluate("window.scrollTo(0, 0)")
        folder = os.environ.get("HEFEN_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / "photo.png"))
        # tap the winning tile and replace it with its first alternative: one tap
        # unsure by confidence or by the margin to the runner-up: as many flagged
        unsure = page.evaluate(
            "() => window.hefenCalc.state.photo.filter((e) => e.confidence < 0.8 ||"
            " e.confidence - (e.alternatives.length ? e.alternatives[0][1] : 0) < 0.9).length"
        )
        assert low.count() == unsure
        page.click("#hand .ht.win.rec")
        sheet = page.locator("#photo-pick")
        sheet.wait_for(state="visible")
        # the sheet names the tile, not its code
        assert page.locator("#pick-conf").inner_text().startswith("East Wind")
        assert page.locator("#pick-tile svg").count() == 1
        alternative = page.locator('#pick-alts .pt:not([data-tile$="h"])').first
        new_tile = alternative.get_attribute("data-tile")
        assert new_tile and new_tile != "E"
        assert page.locator("#pick-all .pt").count() == 42
        alternative.click()
        sheet.wait_for(state="hidden")
        state = page.evaluate("() => window.hefenCalc.state")
        assert state["win"] == new_tile and state["hand"] == CONCEALED
        # and from the whole palette: the winning tile back to East
        page.click("#hand .ht.win.rec")
        sheet.wait_for(state="visible")
        page.click('#pick-all .pt[data-tile="E"]')
        sheet.wait_for(state="hidden")
        total.filter(has_text=f"{expected['total']} points").wait_for()
        assert page.evaluate("() => window.hefenCalc.state.win") == "E"
        assert not errors, errors


@needs_art
@pytest.mark.browser
@needs_chromium
def test_photo_reads_a_pung_apart_from_the_hand_as_an_exposed_meld(
    server: str, tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    from hefen.photo import synth

    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"]
    art = synth.load_art(tiles_dir=TILES_DIR)
    photo = synth.hand_photo(
        np.random.default_rng(TEST_SEED + 5),
        art,
        groups=[concealed, ["C", "C", "C"]],
        rows=[[0, 1]],
    )
    path = tmp_path / "meld.jpg"
    path.write_bytes(photo.jpeg())
    pung = {"kind": "pung", "tiles": ["C", "C", "C"], "concealed": False}
    expected = score(
        {"rules": "mcr", "hand": concealed[:-1], "melds": [pung], "win_tile": "E"}
    ).to_dict()
    assert expected["valid"] and "Concealed Hand" not in [p["name"] for p in expected["patterns"]]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{server}/calc?rules=mcr&lang=en")
        page.locator("#photo-file").set_input_files(str(path))
        page.locator("#total").filter(has_text=f"{expected['total']} points").wait_for()
        state = page.evaluate("() => window.hefenCalc.state")
        assert state["melds"] == [pung] and state["win"] == "E"
        assert state["hand"] == concealed[:-1]
        browser.close()


@needs_art
@pytest.mark.browser
@needs_chromium
def test_a_corrected_tile_is_remembered_for_the_next_photo_until_forgotten(
    server: str, path: Path
) -> None:
    with phone_page() as (page, errors):
        page.goto(f"{server}/calc?rules=mcr&lang=en")
        state = "() => window.hefenCalc.state"
        memory = page.locator("#photo-memory")
        assert memory.is_hidden()

        def upload() -> None:
            page.evaluate("() => { window.hefenCalc.state.win = null; }")
            page.set_input_files("#photo-file", str(path))
            page.wait_for_function("() => window.hefenCalc.state.win !== null")

        upload()
        assert page.evaluate(state)["win"] == "E"
        # the player says this East is their set's West
        page.click("#hand .ht.win.rec")
        page.locator("#photo-pick").wait_for(state="visible")
        page.click('#pick-all .pt[data-tile="W"]')
        page.locator("#photo-pick").wait_for(state="hidden")
        memory.wait_for(state="visible")
        assert "1 tile of your set remembered" in memory.inner_text()
        # the next photo of the set reads every such East as West
        upload()
        read = page.evaluate(state)
        assert read["win"] == "W" and "E" not in read["hand"] and read["hand"].count("W") == 2
        # forgotten, the photo reads as drawn again
        page.click("#btn-forget")
        memory.wait_for(state="hidden")
        upload()
        assert page.evaluate(state)["win"] == "E"
        assert not errors, errors


def test_photos_beyond_the_concurrency_bound_wait_then_are_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    import httpx

    from hefen.web import create_app
    from hefen.web import photo as web_photo

    monkeypatch.setattr(web_photo, "WAIT", 0.2)
    app = create_app(database_url=f"sqlite:///{tmp_path / 'p.sqlite3'}")

    async def run() -> tuple[int, str, int]:
        sem = web_photo._turn()
        for _ in range(web_photo.CONCURRENT):  # every reader busy
            await sem.acquire()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            busy = await c.post("/api/recognize", content=b"not a photo")
            for _ in range(web_photo.CONCURRENT):
                sem.release()
            free = await c.post("/api/recognize", content=b"not a photo")
        return busy.status_code, busy.json()["error"], free.status_code

    status, error, after = asyncio.run(run())
    assert status == 503 and error == "The photo reader is busy; try again in a moment."
    assert after == 422  # a turn free again: the photo is read (and refused as no image)


@needs_art
@pytest.mark.browser
@needs_chromium
def test_the_photo_note_tells_of_tiles_left_out_beside_the_hand(
    server: str, tmp_path: Path
) -> None:
    """A cluttered photo whose reading holds more tiles than a hand: the group left out
    (a pale thing read as a white dragon) is named in the note, not silently lost."""
    from hefen.photo import recognize, synth

    art = synth.load_art(tiles_dir=TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 500)
    for _ in range(13):
        photo = synth.cluttered_photo(rng, art)
    path = tmp_path / "cluttered.jpg"
    path.write_bytes(photo.jpeg())
    rec = recognize(path.read_bytes())
    assert rec.tiles == photo.tiles and [len(g.tiles) for g in rec.set_aside] == [1]
    with phone_page() as (page, errors):
        page.goto(f"{server}/calc?rules=mcr&lang=en")
        page.locator("#photo-file").set_input_files(str(path))
        note = page.locator("#photo-note")
        note.filter(has_text="left out").wait_for()
        assert "1 more tile read beside the hand was left out" in note.inner_text()
        folder = os.environ.get("HEFEN_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / "photo-set-aside.png"))
        assert not errors, errors
