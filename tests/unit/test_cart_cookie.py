"""The guest cart cookie's script (shop_app/domain/cart_cookie.py), run by Node.js as a browser
would: it makes a token of the server's form once, and never replaces a token the browser has."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from shop_app.domain.cart_cookie import CART_COOKIE_MAX_AGE_S, cart_cookie_script

NODE = Path(__file__).resolve().parents[2] / "tools" / "node_modules" / ".bin" / "node"
HARNESS = """
const {webcrypto} = require("node:crypto");
let jar = process.argv[2];
const written = [];
globalThis.crypto = webcrypto;
globalThis.location = {protocol: process.argv[3]};
globalThis.document = {
  get cookie() { return jar; },
  set cookie(value) { written.push(value); jar = (jar ? jar + "; " : "") + value.split(";")[0]; },
};
eval(process.argv[1]);
process.stdout.write(JSON.stringify(written));
"""


def _run(jar: str, protocol: str = "http:") -> list[str]:
    node = str(NODE) if NODE.exists() else shutil.which("node")
    if node is None:
        pytest.fail("Node.js is missing: run scripts/_setup.sh (tools/node_modules)")
    done = subprocess.run(
        [node, "-e", HARNESS, cart_cookie_script(), jar, protocol], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_a_browser_without_a_cart_cookie_gets_a_random_token_of_the_servers_form() -> None:
    [first] = _run("theme=light")
    [second] = _run("theme=light")

    token = re.fullmatch(
        rf"cart=([A-Za-z0-9_-]{{43}}); Path=/; Max-Age={CART_COOKIE_MAX_AGE_S}; SameSite=Lax", first
    ).group(1)
    assert token not in second


def test_an_https_page_makes_a_secure_cookie() -> None:
    [cookie] = _run("", "https:")
    assert cookie.endswith("; SameSite=Lax; Secure")


@pytest.mark.parametrize("jar", ["cart=abc", "theme=light; cart=abc", "a=1;cart=abc; b=2"])
def test_a_token_the_browser_has_is_kept(jar: str) -> None:
    assert _run(jar) == []


@pytest.mark.parametrize("jar", ["cart=", "mycart=abc", "cartx=abc; cart="])
def test_an_empty_or_other_cookie_is_not_a_token(jar: str) -> None:
    assert len(_run(jar)) == 1


def test_the_script_can_sit_in_a_prerendered_page_unescaped() -> None:
    assert not set("<>&") & set(cart_cookie_script())
