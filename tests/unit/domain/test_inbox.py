"""The inbox's pure rules: filters, type labels, previews, reply subjects and mailto links."""

from __future__ import annotations

import pytest

from shop_app.domain.inbox import InboxFilter, kind_label, mailto_link, preview, reply_subject


def test_the_filters_in_screen_order_and_an_unknown_one_shows_everything() -> None:
    assert [(f.value, f.label) for f in InboxFilter] == [
        ("all", "All"),
        ("message", "Messages"),
        ("custom", "Custom"),
        ("bulk", "Bulk"),
        ("wholesale", "Wholesale"),
    ]
    assert InboxFilter.parse("bulk") is InboxFilter.BULK
    assert InboxFilter.parse("<script>") is InboxFilter.ALL


@pytest.mark.parametrize(
    ("kind", "label"),
    [("message", "Message"), ("custom", "Custom Order"), ("bulk", "Bulk Order"), ("wholesale", "Wholesale")],
)
def test_type_labels(kind: str, label: str) -> None:
    assert kind_label(kind) == label


def test_a_preview_is_one_line_cut_at_a_word() -> None:
    assert preview("Sixty candles?\n\nIn   June.") == "Sixty candles? In June."
    long = "word " * 40
    cut = preview(long, limit=30)
    assert cut == "word word word word word word…" and len(cut) <= 30
    assert preview("x" * 50, limit=20) == "x" * 19 + "…"


def test_reply_subjects() -> None:
    assert reply_subject("message", "Wedding\nfavours") == "Re: Wedding favours"
    assert reply_subject("message", "re: again") == "re: again"
    assert reply_subject("custom") == "Re: your custom order inquiry"
    assert reply_subject("bulk") == "Re: your bulk order inquiry"


def test_a_mailto_link_encodes_everything_a_visitor_typed() -> None:
    link = mailto_link("ana@example.com", "Re: a&b=c?d#e <script>\nBcc: x@evil.example")
    assert link == (
        "mailto:ana@example.com?subject=Re%3A%20a%26b%3Dc%3Fd%23e%20%3Cscript%3E%20Bcc%3A%20x%40evil.example"
    )
    assert mailto_link("odd?cc=x@evil.example", "Hi") == "mailto:odd%3Fcc%3Dx@evil.example?subject=Hi"
