"""Carrier tracking links: explicit carriers, guesses from the number's shape, encoding."""

from __future__ import annotations

import pytest

from shop_app.domain.tracking import CARRIERS, Carrier, carrier_from_name, guess_carrier, tracking_url


@pytest.mark.parametrize(
    ("number", "carrier", "expected"),
    [
        (
            "7023210039414604",
            "Canada Post",
            "https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=7023210039414604",
        ),
        ("1Z999AA10123456784", "UPS", "https://www.ups.com/track?tracknum=1Z999AA10123456784"),
        ("123456789012", "FedEx", "https://www.fedex.com/fedextrack/?trknbr=123456789012"),
        (
            "9400111899223197428490",
            "USPS",
            "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490",
        ),
        ("329012345678", "Purolator", "https://www.purolator.com/en/shipping/tracker?pin=329012345678"),
    ],
)
def test_each_carrier_links_to_its_public_tracking_page(number: str, carrier: str, expected: str) -> None:
    assert tracking_url(number, carrier) == expected


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        ("1Z999AA10123456784", Carrier.UPS),
        ("1z999aa10123456784", Carrier.UPS),  # typed in lower case
        ("7023210039414604", Carrier.CANADA_POST),  # 16 digits
        ("RR123456789CA", Carrier.CANADA_POST),  # 2 letters, 9 digits, CA
        ("94001118992231974284", Carrier.USPS),  # 20 digits starting with 9
        ("9400111899223197428490", Carrier.USPS),  # 22 digits
        ("123456789012", Carrier.FEDEX),  # 12 digits
        ("123456789012345", Carrier.FEDEX),  # 15 digits
    ],
)
def test_the_carrier_is_guessed_from_the_number(number: str, expected: Carrier) -> None:
    assert guess_carrier(number) is expected


@pytest.mark.parametrize(
    "number",
    [
        "",
        "   ",
        "ABC123",
        "1Z999AA1012345678",  # UPS needs 16 characters after 1Z
        "84001118992231974284",  # 20 digits not starting with 9
        "RR123456789US",  # not a Canada Post suffix
        "1234567890123",  # 13 digits: nobody's
        "١٢٣٤٥٦٧٨٩٠١٢",  # Arabic-Indic digits are not tracking numbers
    ],
)
def test_no_link_when_the_carrier_cannot_be_told(number: str) -> None:
    assert guess_carrier(number) is None
    assert tracking_url(number) is None


def test_purolator_is_only_used_when_chosen_because_its_pins_look_like_fedex() -> None:
    assert tracking_url("329012345678") == "https://www.fedex.com/fedextrack/?trknbr=329012345678"
    assert tracking_url("329012345678", "Purolator") == (
        "https://www.purolator.com/en/shipping/tracker?pin=329012345678"
    )


def test_spaces_are_stripped_and_the_number_is_url_encoded() -> None:
    assert (
        tracking_url(" 1Z 999 AA1 0123 4567 84\t") == "https://www.ups.com/track?tracknum=1Z999AA10123456784"
    )
    # Whatever the back office stored cannot break out of the query string.
    assert tracking_url("AB&x=1#frag", "UPS") == "https://www.ups.com/track?tracknum=AB%26X%3D1%23FRAG"
    assert tracking_url("a/b?c", "FedEx") == "https://www.fedex.com/fedextrack/?trknbr=A%2FB%3FC"


def test_an_explicit_carrier_wins_over_the_guess_and_is_matched_loosely() -> None:
    assert tracking_url("1Z999AA10123456784", "canada_post") == (
        "https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=1Z999AA10123456784"
    )
    assert carrier_from_name(" fedex ") is Carrier.FEDEX
    assert carrier_from_name("Canada-Post") is Carrier.CANADA_POST


def test_an_unknown_carrier_gives_no_link_rather_than_a_wrong_one() -> None:
    assert tracking_url("123456789012", "DHL") is None


def test_a_blank_carrier_means_not_chosen() -> None:
    assert tracking_url("RR123456789CA", "") == tracking_url("RR123456789CA", None)
    assert tracking_url("RR123456789CA", " ") == tracking_url("RR123456789CA")


def test_no_number_no_link() -> None:
    assert tracking_url("", "UPS") is None
    assert tracking_url(None, "UPS") is None


def test_carriers_for_the_dropdown() -> None:
    assert CARRIERS == ("Canada Post", "UPS", "FedEx", "USPS", "Purolator")
    assert all(name.strip() for name in CARRIERS)  # dropdown values must not be empty
    assert all(carrier_from_name(name) is not None for name in CARRIERS)
