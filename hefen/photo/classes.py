"""The tile classes the photo recogniser knows, in the project's tile codes."""

from __future__ import annotations

SUITED: tuple[str, ...] = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10))
HONORS: tuple[str, ...] = ("E", "S", "W", "N", "C", "F", "P")
BONUS: tuple[str, ...] = tuple(f"{n}h" for n in range(1, 9))

#: The 42 tile codes, in the order of the classifier's first 42 outputs.
TILE_CODES: tuple[str, ...] = SUITED + HONORS + BONUS

#: A tile lying face down (its back): two of them between two alike faces, or four, are
#: a concealed kong (:func:`hefen.photo.hand.read_hand`). Reported as a tile, never a
#: tile code of a hand.
BACK = "back"

#: What a recognised tile can be reported as: the 42 tile codes and :data:`BACK`.
READ_CODES: tuple[str, ...] = TILE_CODES + (BACK,)

#: The bonus look's last output (:class:`hefen.photo.model.BonusLook`): a tile that is no
#: flower or season.
OTHER_TILE = "other"

#: The bonus look's outputs: the eight flowers and seasons, then :data:`OTHER_TILE`.
BONUS_LOOK_CLASSES: tuple[str, ...] = BONUS + (OTHER_TILE,)

#: The character look's last output (:class:`hefen.photo.model.CharLook`): a window with
#: none of the eight characters printed on the flowers and seasons.
NO_CHARACTER = "none"

#: The character look's outputs: the eight bonus tiles (their characters, 春夏秋冬梅蘭菊竹),
#: then :data:`NO_CHARACTER`.
CHAR_CLASSES: tuple[str, ...] = BONUS + (NO_CHARACTER,)

#: The number look's outputs (:class:`hefen.photo.model.NumberLook`): the numbers 1-9,
#: as a flower or season prints its place in its family (spring 1 ... winter 4, plum 1
#: ... bamboo 4) and a suit tile its number (a corner index, a character's numeral), then
#: a window with none of them.
NUMBER_CLASSES: tuple[str, ...] = tuple(str(n) for n in range(1, 10)) + (NO_CHARACTER,)

#: The classifier's extra output for a crop that is not one whole tile
#: (a cut between two tiles, half a tile, table). Never reported as a tile.
NOT_A_TILE = "-"

#: The outputs of the shipped model, in order: the 42 tile codes and :data:`NOT_A_TILE`.
#: It was made before the back class; the runtime gives its outputs as
#: :data:`READ_CLASSES`, with a probability of 0 for the back.
MODEL_CLASSES: tuple[str, ...] = TILE_CODES + (NOT_A_TILE,)

#: The classifier's outputs as the runtime gives them (and as ``scripts/train_photo.py``
#: now trains them): the 42 tile codes, :data:`BACK`, then :data:`NOT_A_TILE`.
READ_CLASSES: tuple[str, ...] = READ_CODES + (NOT_A_TILE,)


def copies_allowed(code: str) -> int:
    """How many copies of ``code`` a mahjong set holds: one of each bonus tile, else four
    (any number of tiles may lie face down)."""
    if code == BACK:
        return 144
    return 1 if code.endswith("h") else 4
