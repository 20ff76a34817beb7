"""The HTML of invoices and packing slips (``services.invoices`` gives their data): pure functions,
no I/O.

One self-contained page (no script or style from elsewhere) with its own stylesheet, made to be
printed: black on white, A4 or Letter (``@page`` leaves the paper size to the printer), the shop's
serif for headings and sans for text, the lines as a table, the amounts right-aligned. A "Print"
button calls ``window.print()`` (an inline script, which the shop's CSP allows:
``api/security.py``) and is hidden in print. A batch puts several orders one after another, each
starting on a new page (``break-after: page``).

Every text that comes from the database (product names, options, addresses, notes, the store
settings) is escaped: shoppers and admins type them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Final

from shop_app.domain.addresses import address_lines
from shop_app.domain.money import format_cents
from shop_app.services.invoices import OrderDocument
from shop_app.services.ordering.receipt import Receipt

PRINT_BUTTON_ID: Final = "print-button"
PRINT_LABEL: Final = "Print"

STYLESHEET: Final = """
@page { size: auto; margin: 14mm 12mm; }
* { box-sizing: border-box; }
html { background: #fff; color: #000; }
body { margin: 0; font: 10.5pt/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue",
  Arial, sans-serif; }
h1, h2, .shop-name { font-family: Georgia, "Times New Roman", serif; font-weight: 600; }
h1 { font-size: 20pt; margin: 0 0 4pt; }
h2 { font-size: 11pt; margin: 0 0 4pt; text-transform: uppercase; letter-spacing: .04em; }
p { margin: 0 0 2pt; }
.toolbar { max-width: 190mm; margin: 16px auto 0; padding: 0 8mm; text-align: right; }
.toolbar button { font: inherit; padding: 6px 18px; border: 1px solid #000; border-radius: 4px;
  background: #fff; color: #000; cursor: pointer; }
.toolbar button:focus-visible { outline: 2px solid #000; outline-offset: 2px; }
.doc { max-width: 190mm; margin: 0 auto; padding: 8mm; break-after: page; page-break-after: always; }
.doc:last-of-type { break-after: auto; page-break-after: auto; }
.doc-head { display: flex; justify-content: space-between; gap: 12mm; align-items: flex-start;
  border-bottom: 1.5pt solid #000; padding-bottom: 6pt; margin-bottom: 10pt; }
.shop-name { font-size: 15pt; margin-bottom: 2pt; }
.doc-title { flex: none; text-align: right; }
.doc-title h1 { overflow-wrap: anywhere; }
.facts { margin: 0; display: grid; grid-template-columns: auto auto; gap: 1pt 10pt; text-align: right; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
.parties { display: flex; gap: 12mm; margin-bottom: 12pt; }
.parties > section { flex: 1; }
table { width: 100%; border-collapse: collapse; margin-bottom: 10pt; }
th, td { padding: 4pt 6pt; text-align: left; vertical-align: top; }
thead th { border-bottom: 1pt solid #000; font-size: 9pt; text-transform: uppercase; letter-spacing: .04em; }
tbody td { border-bottom: .5pt solid #999; }
.num { text-align: right; white-space: nowrap; }
tr { break-inside: avoid; page-break-inside: avoid; }
.totals { width: auto; min-width: 70mm; margin-left: auto; }
.totals th { font-weight: normal; }
.totals td, .totals th { border: 0; padding: 2pt 6pt; }
.totals .grand th, .totals .grand td { border-top: 1pt solid #000; font-weight: 700; }
.note { white-space: pre-wrap; border: .5pt solid #999; padding: 6pt; }
.muted { color: #333; font-size: 9pt; }
section { margin-bottom: 10pt; }
@media screen and (max-width: 600px) {  /* a phone: one column, nothing wider than the screen */
  body { font-size: 10pt; }
  .toolbar { padding: 0 12px; }
  .doc { padding: 12px; }
  .doc-head, .parties { flex-direction: column; gap: 8pt; }
  .doc-title, .facts { text-align: left; }
  .doc-title { flex: auto; }
  th, td { padding: 3pt 4pt; }
  td { overflow-wrap: break-word; }
  .totals { min-width: 0; width: 100%; }
}
@media print {
  .toolbar { display: none; }
  .doc { max-width: none; padding: 0; }
  a { color: #000; text-decoration: none; }
}
"""

_SCRIPT: Final = (
    f'document.getElementById("{PRINT_BUTTON_ID}")'
    '.addEventListener("click", function () { window.print(); });'
)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def page(title: str, documents: Sequence[str]) -> str:
    """A whole page: the Print button, then each document (an order's invoice or slip) in turn."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex, nofollow">'
        f"<title>{_e(title)}</title><style>{STYLESHEET}</style></head>\n<body>\n"
        f'<div class="toolbar"><button type="button" id="{PRINT_BUTTON_ID}">{PRINT_LABEL}</button></div>\n'
        + "\n".join(documents)
        + f"\n<script>{_SCRIPT}</script>\n</body></html>\n"
    )


def message_page(title: str, message: str) -> str:
    """A page that only says why nothing is shown (not found, a bad request)."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="robots" content="noindex, nofollow">'
        f"<title>{_e(title)}</title><style>{STYLESHEET}</style></head>\n<body>\n"
        f'<main class="doc"><h1>{_e(title)}</h1><p>{_e(message)}</p></main>\n</body></html>\n'
    )


def invoice_title(document: OrderDocument) -> str:
    """The invoice's title: "Invoice CE-…"."""
    return f"Invoice {document.receipt.order_number}"


def packing_slip_title(document: OrderDocument) -> str:
    """The packing slip's title: "Packing slip CE-…"."""
    return f"Packing slip {document.receipt.order_number}"


def invoice(document: OrderDocument) -> str:
    """One order's invoice (an ``<article>``)."""
    receipt = document.receipt
    rows = "".join(
        "<tr>"
        f"<td>{_e(line.name)}</td><td>{_e(line.options_label)}</td>"
        f'<td class="num">{line.quantity}</td>'
        f'<td class="num">{format_cents(line.unit_price_cents)}</td>'
        f'<td class="num">{format_cents(line.total_cents)}</td>'
        "</tr>"
        for line in receipt.lines
    )
    totals = [
        ("Subtotal", receipt.subtotal_cents),
        *receipt.discount_rows,
        ("Shipping", receipt.shipping_cents),
        *receipt.tax_rows,
    ]
    total_rows = "".join(
        f'<tr><th scope="row">{_e(label)}</th><td class="num">{format_cents(cents)}</td></tr>'
        for label, cents in totals
    )
    total_rows += (
        f'<tr class="grand"><th scope="row">Total ({_e(document.currency)})</th>'
        f'<td class="num">{format_cents(receipt.total_cents)}</td></tr>'
    )
    return (
        '<article class="doc invoice">'
        + _head(document, invoice_title(document), _facts(receipt))
        + '<div class="parties">'
        + f"<section><h2>Bill to</h2><p>{_e(receipt.email)}</p></section>"
        + f"<section><h2>Ship to</h2>{_address(receipt)}</section>"
        + "</div>"
        + '<table class="lines"><thead><tr><th scope="col">Item</th><th scope="col">Options</th>'
        '<th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th>'
        f'<th scope="col" class="num">Line total</th></tr></thead><tbody>{rows}</tbody></table>'
        + f'<table class="totals"><tbody>{total_rows}</tbody></table>'
        + _payment(document)
        + f'<p class="muted">All amounts in Canadian dollars ({_e(document.currency)}).</p>'
        + "</article>"
    )


def packing_slip(document: OrderDocument) -> str:
    """One order's packing slip (an ``<article>``): what to pack and where to send it, no prices."""
    receipt = document.receipt
    rows = "".join(
        f"<tr><td>{_e(line.name)}</td><td>{_e(line.options_label)}</td>"
        f'<td class="num">{line.quantity}</td></tr>'
        for line in receipt.lines
    )
    count = sum(line.quantity for line in receipt.lines)
    notes = (
        f'<section><h2>Special instructions</h2><p class="note">{_e(receipt.notes)}</p></section>'
        if receipt.notes.strip()
        else ""
    )
    return (
        '<article class="doc packing-slip">'
        + _head(document, packing_slip_title(document), _facts(receipt))
        + f"<section><h2>Ship to</h2>{_address(receipt)}</section>"
        + '<table class="lines"><thead><tr><th scope="col">Item</th><th scope="col">Options</th>'
        f'<th scope="col" class="num">Qty</th></tr></thead><tbody>{rows}</tbody>'
        f'<tfoot><tr><th scope="row" colspan="2">Items</th><td class="num">{count}</td></tr></tfoot></table>'
        + notes
        + _gift(receipt)
        + "</article>"
    )


def _gift(receipt: Receipt) -> str:
    """The gift wrap and the gift message (its line breaks kept), when the shopper asked."""
    if not receipt.gift_wrap and not receipt.gift_message.strip():
        return ""
    wrap = "<p><strong>Gift wrap this order.</strong></p>" if receipt.gift_wrap else ""
    message = (
        f'<p>Gift message for the card:</p><p class="note">{_e(receipt.gift_message)}</p>'
        if receipt.gift_message.strip()
        else ""
    )
    return f'<section class="gift"><h2>Gift</h2>{wrap}{message}</section>'


def _head(document: OrderDocument, title: str, facts: str) -> str:
    shop = document.shop
    seller = [f'<p class="shop-name">{_e(shop.company_name)}</p>']
    seller += [f"<p>{_e(line)}</p>" for line in _lines(shop.address)]
    seller += [f"<p>{_e(text)}</p>" for text in (shop.email, shop.phone) if text]
    if shop.gst_hst_number:
        seller.append(f"<p>GST/HST No. {_e(shop.gst_hst_number)}</p>")
    return (
        '<header class="doc-head">'
        f'<div class="seller">{"".join(seller)}</div>'
        f'<div class="doc-title"><h1>{_e(title)}</h1>{facts}</div>'
        "</header>"
    )


def _facts(receipt: Receipt) -> str:
    facts = [("Order number", receipt.order_number), ("Date", receipt.placed_on)]
    return (
        '<dl class="facts">'
        + "".join(f"<dt>{_e(term)}</dt><dd>{_e(value)}</dd>" for term, value in facts)
        + "</dl>"
    )


def _address(receipt: Receipt) -> str:
    lines = address_lines(
        receipt.ship_address_line1,
        receipt.ship_address_line2,
        receipt.ship_city,
        region=receipt.ship_state,
        postal_code=receipt.ship_zip,
        country=receipt.ship_country,
    )
    shown = [receipt.ship_name, *lines] if receipt.ship_name else lines
    if receipt.ship_phone:
        shown.append(f"Phone: {receipt.ship_phone}")
    return "".join(f"<p>{_e(line)}</p>" for line in shown) or "<p>No shipping address</p>"


def _payment(document: OrderDocument) -> str:
    payment = document.payment
    if payment is None:
        return ""
    parts = [payment.provider, payment.card, payment.status]
    if payment.paid_on:
        parts.append(f"paid on {payment.paid_on}")
    text = "<p>" + " · ".join(_e(part) for part in parts if part) + "</p>"
    if document.refunds:
        text += "".join(
            f"<p>Refunded {format_cents(refund.amount_cents)} on {_e(refund.refunded_on)}</p>"
            for refund in document.refunds
        )
        text += f"<p><strong>Refunds so far: {format_cents(document.refunded_cents)}</strong></p>"
    return f"<section><h2>Payment</h2>{text}</section>"


def _lines(text: str) -> Iterable[str]:
    return (line.strip() for line in text.splitlines() if line.strip())
