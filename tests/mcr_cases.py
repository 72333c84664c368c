"""One hand with each MCR pattern and a near miss without it.

Each row: pattern id, the hand that has it, the near miss; hands are in the
compact notation, context flags after a ``|`` (``self``, ``last``,
``replacement``, ``rob``, ``fourth``, ``seat=S``, ``round=S``)."""

CASES: list[tuple[str, str, str]] = [
    ("big_four_winds", "EEESSSWWWNNN1m +1m", "EEESSSWWW123mN +N"),
    ("big_three_dragons", "CCCFFFPPP123m5p +5p", "CCCFFFPP123m55p +5p"),
    ("all_green", "223344666888sF +F", "223344666999sF +F"),
    ("nine_gates", "1112345678999m +5m", "1112345678899m +9m"),
    ("four_kongs", "[1111m] [2222p] [3333s] [EEEE] N +N", "[1111m] [2222p] [3333s] EEEN +N"),
    ("seven_shifted_pairs", "1122334455667m +7m", "1122334455668m +8m"),
    ("thirteen_orphans", "19m19p19sESWNCFP +E", "1199m1199p1199sE +E"),
    ("all_terminals", "111999m111999p9s +9s", "111999m111pEEE9s +9s"),
    ("little_four_winds", "EEESSSWWW123mN +N", "EEESSSWWW123m5p +5p"),
    ("little_three_dragons", "CCCFFF123m456pP +P", "CCCFFF123m456pE +E"),
    ("all_honors", "EEESSSWWWCCCF +F", "EEESSSWWWCCC1m +1m"),
    ("four_concealed_pungs", "111m222p333s555sE +E", "111m222p333s55sEE +5s"),
    ("pure_terminal_chows", "1122337788995m +5m", "112233778899m5p +5p"),
    ("quadruple_chow", "[123m] [123m] [123m] 123m5p +5p", "[123m] [123m] [123m] 234m5p +5p"),
    (
        "four_pure_shifted_pungs",
        "[111m] [222m] [333m] 444m5p +5p",
        "[111m] [222m] [333m] 555m5p +5p",
    ),
    (
        "four_pure_shifted_chows",
        "[123m] [234m] [345m] 456m5p +5p",
        "[123m] [234m] [345m] 567m5p +5p",
    ),
    ("three_kongs", "[1111m] [2222p] [3333s] 456sE +E", "[1111m] [2222p] 333s456sE +E"),
    ("all_terminals_and_honors", "111999mEEESSS1p +1p", "111999mEEE123p1s +1s"),
    ("seven_pairs", "1133m5577p2244sE +E", "123m456p789s11sEE +E"),
    ("greater_honors_and_knitted_tiles", "147m258p3sESWNCF +P", "147m258p36sESWNC +F"),
    ("all_even_pungs", "222m444p2p666888s +2p", "222m444p2p555888s +2p"),
    ("full_flush", "123345678999m5m +5m", "123345678999m5p +5p"),
    ("pure_triple_chow", "[123m] [123m] 123m456p5s +5s", "[123m] [123m] 234m456p5s +5s"),
    ("pure_shifted_pungs", "[222m] [333m] [444m] 678p5s +5s", "[222m] [333m] [555m] 678p5s +5s"),
    ("upper_tiles", "789m789p9p789s777s +9p", "789m789p9p789s666s +9p"),
    ("middle_tiles", "456m456p456s444m5p +5p", "456m456p456s333m5p +5p"),
    ("lower_tiles", "123m123p123s111m2p +2p", "123m123p123s444m2p +2p"),
    ("pure_straight", "123456789m11pEE +E", "123456m789p11pEE +E"),
    ("three_suited_terminal_chows", "123789m123789p5s +5s", "123789m123789p6s +6s"),
    ("pure_shifted_chows", "[123m] [234m] 345mEEE5p +5p", "[123m] [234m] 456mEEE5p +5p"),
    ("all_fives", "345m456p567s555m5p +5p", "345m456p567s666m5p +5p"),
    ("triple_pung", "[222m] [222p] [222s] 456s9m +9m", "[222m] [222p] [333s] 456s9m +9m"),
    ("three_concealed_pungs", "222m555p888s456sE +E", "222m555p88s456sEE +8s"),
    ("lesser_honors_and_knitted_tiles", "147m258p369sESNC +W", "147m258p3sESWNCF +P"),
    ("knitted_straight", "147m258p369s123m5p +5p", "123m456p789s123m5p +5p"),
    ("upper_four", "678m678p678s999m6p +6p", "678m678p678s555m6p +6p"),
    ("lower_four", "234m234p234s444m1p +1p", "234m234p234s555m1p +1p"),
    ("big_three_winds", "[EEE] [SSS] [WWW] 123m5p +5p", "[EEE] [SSS] 123m456m5p +5p"),
    ("mixed_straight", "123m456p789sEECC +E", "123m456p678sEECC +E"),
    ("reversible_tiles", "123p345p888p456s4s +4s", "123p345p777p456s4s +4s"),
    ("mixed_triple_chow", "123m123p123sEEEC +C", "123m123p234sEEEC +C"),
    ("mixed_shifted_pungs", "[111m] [222p] [333s] 456mE +E", "[111m] [222p] [444s] 456mE +E"),
    ("chicken_hand", "[234m] [567p] 888mEE34s +5s", "[234m] [567p] 888mEE34s +5s | self"),
    (
        "last_tile_draw",
        "[234m] [567p] 888mEE34s +5s | self last",
        "[234m] [567p] 888mEE34s +5s | last",
    ),
    ("last_tile_claim", "[234m] [567p] 888mEE34s +5s | last", "[234m] [567p] 888mEE34s +5s"),
    (
        "out_with_replacement_tile",
        "[2222m] [567p] 888mEE34s +5s | self replacement",
        "[2222m] [567p] 888mEE34s +5s | self",
    ),
    ("robbing_the_kong", "[234m] [567p] 888mEE34s +5s | rob", "[234m] [567p] 888mEE34s +5s"),
    ("all_pungs", "[111m] [555p] [777s] 999pE +E", "[111m] [555p] [777s] 789pE +E"),
    ("half_flush", "123m456m789mEEEC +C", "123m456m789pEEEC +C"),
    ("mixed_shifted_chows", "123m234p345sEEEC +C", "123m234p456sEEEC +C"),
    ("all_types", "123m456p789sEECC +E", "123m456p789sEESS +E"),
    ("melded_hand", "[123m] [456p] [789s] [EEE] C +C", "[123m] [456p] [789s] [EEE] C +C | self"),
    ("two_concealed_kongs", "(1111m) (2222p) 345s678sE +E", "(1111m) [2222p] 345s678sE +E"),
    ("two_dragon_pungs", "CCCFFF123m456pE +E", "CCC123m456p789sE +E"),
    ("outside_hand", "123m789p111sEEE9m +9m", "123m789p222sEEE9m +9m"),
    ("fully_concealed_hand", "123m456p789sEECC +E | self", "123m456p789sEECC +E"),
    ("two_melded_kongs", "[1111m] [2222p] 345s678sE +E", "(1111m) [2222p] 345s678sE +E"),
    ("last_tile", "[234m] [567p] 888mEE34s +5s | fourth", "[234m] [567p] 888mEE34s +5s"),
    ("dragon_pung", "CCC123m456p789sE +E", "SSS123m456p789sE +E"),
    ("prevalent_wind", "SSS123m456p789sE +E | round=S", "SSS123m456p789sE +E | round=W"),
    ("seat_wind", "SSS123m456p789sE +E | seat=S", "SSS123m456p789sE +E | seat=W"),
    ("concealed_hand", "123m456p789sEECC +E", "[123m] 456p789sEECC +E"),
    ("all_chows", "123m456p789s234s5m +5m", "123m456p789s234sE +E"),
    ("tile_hog", "11123m456p789sEE +1m", "11123m456p789sEE +4m"),
    ("double_pung", "222m222p456s789sE +E", "222m333p456s789sE +E"),
    ("two_concealed_pungs", "222m555p123s789sE +E", "222m55p123s789sEE +5p"),
    ("concealed_kong", "(2222m) 456p123s789sE +E", "[2222m] 456p123s789sE +E"),
    ("all_simples", "234m456p678s222s5m +5m", "234m456p678s999s5m +5m"),
    ("pure_double_chow", "123123m456p789sE +E", "123234m456p789sE +E"),
    ("mixed_double_chow", "123m123p789sEEEC +C", "123m234p789sEEEC +C"),
    ("short_straight", "123456m789pEEEC +C", "123567m789pEEEC +C"),
    ("two_terminal_chows", "123789m456pEEEC +C", "123678m456pEEEC +C"),
    ("pung_of_terminals_or_honors", "111m456p123s789sE +E", "222m456p123s789sE +E"),
    ("melded_kong", "[2222m] 456p123s789sE +E", "[222m] 456p123s789sE +E"),
    ("one_voided_suit", "123m456m789p111p5p +5p", "123m456p789s111p5p +5p"),
    ("no_honors", "123m456p789s111m5p +5p", "123m456p789s111mE +E"),
    ("edge_wait", "12m456p789s111sEE +3m", "23m456p789s111sEE +4m"),
    ("closed_wait", "13m456p789s111sEE +2m", "23m456p789s111sEE +1m"),
    ("single_wait", "123m456p789s111sE +E", "123m456p789s11sEE +E"),
    ("self_drawn", "[123m] 456p789s111sE +E | self", "[123m] 456p789s111sE +E"),
    ("flower_tiles", "[123m] 456p789s111sE +E f:1h", "[123m] 456p789s111sE +E"),
]


def to_object(text: str, variant: str = "green_book") -> dict:
    """The interchange object of a case."""
    from hefen.notation import parse_hand
    from hefen.tiles import tile_to_str

    notation, _, flags = text.partition("|")
    p = parse_hand(notation)
    ctx: dict = {"win": "discard", "seat_wind": "E", "round_wind": "E"}
    for f in flags.split():
        if f == "self":
            ctx["win"] = "self_draw"
        elif f == "last":
            ctx["last_tile_of_wall"] = True
        elif f == "replacement":
            ctx["kong_replacement"] = True
        elif f == "rob":
            ctx["robbing_kong"] = True
        elif f == "fourth":
            ctx["last_of_kind"] = True
        elif f.startswith("seat="):
            ctx["seat_wind"] = f[5:]
        elif f.startswith("round="):
            ctx["round_wind"] = f[6:]
        else:
            raise ValueError(f)
    return {
        "rules": "mcr",
        "hand": [tile_to_str(t) for t in p.concealed],
        "melds": [m.to_dict() for m in p.melds],
        "win_tile": tile_to_str(p.win_tile),
        "flowers": [tile_to_str(t) for t in p.flowers],
        "context": ctx,
        "options": {"variant": variant},
    }
