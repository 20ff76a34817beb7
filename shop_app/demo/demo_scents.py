"""The demo catalogue's scents: notes, a one-sentence blurb, an artwork accent and a SKU code.

No scent contains a vessel word (:data:`shop_app.domain.product_names.VESSELS`), so
the storefront's grouping can never mistake a scent for a vessel.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SCENTS", "DemoScent"]


@dataclass(frozen=True, slots=True)
class DemoScent:
    """A scent: its notes, the sentence that opens a description, the artwork accent and the SKU code."""

    notes: tuple[str, ...]
    blurb: str
    accent: str
    code: str


SCENTS: dict[str, DemoScent] = {
    # Signature
    "Lavender Fields": DemoScent(
        ("French lavender", "chamomile", "white musk"),
        "Sun-warmed lavender and a whisper of chamomile, "
        "like an evening walk through an Okanagan lavender farm.",
        "#b7a3d3",
        "LAV",
    ),
    "Vanilla Bean": DemoScent(
        ("Madagascar vanilla", "tonka bean", "creamy sandalwood"),
        "Rich, creamy vanilla with a soft, toasty warmth that makes any room feel like home.",
        "#ecd9b0",
        "VAN",
    ),
    "Cedar & Sage": DemoScent(
        ("clary sage", "western red cedar", "vetiver"),
        "Crisp sage over the grounding scent of western red cedar, inspired by rainy hikes on the coast.",
        "#9fb39a",
        "CDS",
    ),
    "Fresh Linen": DemoScent(
        ("bergamot", "cotton blossom", "clean musk"),
        "Line-dried cotton and a breath of bergamot: the scent of crisp sheets on a breezy spring morning.",
        "#c9d8e4",
        "LIN",
    ),
    "Eucalyptus Mint": DemoScent(
        ("eucalyptus", "spearmint", "cool moss"),
        "A bright, spa-like blend of eucalyptus and cool mint "
        "that clears the head and freshens the whole house.",
        "#a9cfc0",
        "EUM",
    ),
    "Sea Salt & Orchid": DemoScent(
        ("sea salt", "white orchid", "driftwood"),
        "Salty Pacific air meets delicate orchid petals in a fresh, airy coastal scent.",
        "#b9d3dc",
        "SSO",
    ),
    # Summer
    "Mango Sorbet": DemoScent(
        ("ripe mango", "pineapple", "sugared vanilla"),
        "Juicy mango and a scoop of pineapple sorbet, pure sunshine in a jar.",
        "#f7b267",
        "MAN",
    ),
    "Watermelon Mint": DemoScent(
        ("juicy watermelon", "crushed mint", "cucumber"),
        "Cool, crunchy watermelon with a sprig of fresh mint, as refreshing as a picnic in the shade.",
        "#f4a3a8",
        "WAT",
    ),
    "Coconut Lime": DemoScent(
        ("key lime", "coconut milk", "vanilla"),
        "Zesty lime and creamy coconut for an instant beach-day mood.",
        "#cfe39a",
        "COL",
    ),
    "Pink Grapefruit": DemoScent(
        ("pink grapefruit", "rhubarb", "white musk"),
        "Sparkling pink grapefruit with a tart twist of rhubarb, bright and uplifting.",
        "#f6a58f",
        "PGF",
    ),
    "Beach Bonfire": DemoScent(
        ("sea salt", "toasted marshmallow", "driftwood smoke"),
        "Toasted marshmallows, salty air and driftwood smoke from a late-night fire on the beach.",
        "#e3b27a",
        "BBF",
    ),
    # Fall
    "Pumpkin Chai": DemoScent(
        ("spiced pumpkin", "cardamom chai", "clove"),
        "Creamy pumpkin folded into a mug of cardamom chai, the coziest way to welcome fall.",
        "#d98b4a",
        "PCH",
    ),
    "Apple Orchard": DemoScent(
        ("crisp apple", "cinnamon", "oak barrel"),
        "Crisp, just-picked apples and a dusting of cinnamon, straight from a Fraser Valley orchard.",
        "#d0674d",
        "APO",
    ),
    "Maple Bourbon": DemoScent(
        ("maple syrup", "bourbon", "toasted oak"),
        "Golden maple and a splash of bourbon over toasted oak, sweet, smooth and a little indulgent.",
        "#b98040",
        "MBO",
    ),
    "Harvest Spice": DemoScent(
        ("nutmeg", "cinnamon bark", "brown sugar"),
        "Nutmeg, cinnamon bark and brown sugar, like a pie cooling on the counter.",
        "#b76a3c",
        "HSP",
    ),
    "Flannel & Firewood": DemoScent(
        ("cedarwood", "crackling firewood", "soft suede"),
        "Your favourite flannel shirt and a crackling fire on a chilly night.",
        "#9a6a52",
        "FLF",
    ),
    # Mandles
    "Whiskey & Tobacco": DemoScent(
        ("aged whiskey", "sweet tobacco leaf", "oak"),
        "Aged whiskey and sweet tobacco leaf over smooth oak, like a leather armchair by the fire.",
        "#b07c3e",
        "WHT",
    ),
    "Leather & Oak": DemoScent(
        ("saddle leather", "oakmoss", "cedar"),
        "Worn saddle leather and oakmoss with a dry cedar finish.",
        "#8a5c3c",
        "LEO",
    ),
    "Campfire Pine": DemoScent(
        ("pine needle", "campfire smoke", "birch tar"),
        "Fresh-cut pine and drifting campfire smoke, a weekend in the backcountry without the bugs.",
        "#6f8a5e",
        "CPI",
    ),
    "Bay Rum": DemoScent(
        ("bay leaf", "dark rum", "clove"),
        "A classic barbershop blend of bay leaf, dark rum and clove.",
        "#a2613f",
        "BRM",
    ),
    "Black Pepper & Vetiver": DemoScent(
        ("black pepper", "vetiver", "smoked cedar"),
        "Cracked black pepper and earthy vetiver with a hint of smoked cedar, sharp and sophisticated.",
        "#7a7a6a",
        "BPV",
    ),
    # Holiday
    "Sugared Cranberry": DemoScent(
        ("tart cranberry", "sugared orange", "vanilla"),
        "Tart cranberries rolled in sugar with a twist of orange, festive from the first light.",
        "#c23b4b",
        "SCR",
    ),
    "Winter Fir": DemoScent(
        ("balsam fir", "eucalyptus", "cedar"),
        "A freshly cut balsam fir, snowy air and a hint of cedar, like bringing the tree home.",
        "#5e8a6c",
        "WFR",
    ),
    "Christmas Cabin": DemoScent(
        ("spruce", "cinnamon stick", "wood smoke"),
        "Spruce boughs, cinnamon sticks and wood smoke curling from a snowy cabin chimney.",
        "#8a5442",
        "CCB",
    ),
    "Peppermint Bark": DemoScent(
        ("peppermint", "dark chocolate", "vanilla cream"),
        "Cool peppermint swirled through dark chocolate and vanilla cream, "
        "a holiday treat with zero calories.",
        "#e48d98",
        "PMB",
    ),
    "Gingerbread Cottage": DemoScent(
        ("ginger", "molasses", "brown sugar"),
        "Warm ginger, molasses and brown sugar, like a tray of gingerbread fresh from the oven.",
        "#bf8350",
        "GBC",
    ),
    # Body care only
    "Honey & Oat": DemoScent(
        ("wildflower honey", "oat milk", "sweet almond"),
        "Soft, comforting wildflower honey and oat milk with a touch of sweet almond.",
        "#e2c27e",
        "HOA",
    ),
    "Cucumber Melon": DemoScent(
        ("cucumber", "honeydew melon", "green tea"),
        "Cool cucumber and ripe honeydew with a splash of green tea, light and clean.",
        "#b5dca8",
        "CUM",
    ),
    "Unscented": DemoScent(
        (),
        "No added fragrance at all, made for sensitive skin and anyone who prefers it pure.",
        "#e6ded0",
        "UNS",
    ),
    # Custom
    "Your Signature Blend": DemoScent(
        ("your choice of up to three scents",),
        "Your favourite scents blended into one candle that is entirely yours.",
        "#e8c9a0",
        "BLD",
    ),
}
