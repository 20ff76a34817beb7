"""Backups (``./scripts/backup``, ``python -m shop_app backup``) and restores: a restore brings back
the database and the images exactly as they were when the backup was taken, on SQLite and on
PostgreSQL (``TEST_DATABASE_URL``), and first saves what it replaces."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Session, select

from shop_app import backup
from shop_app.models import Product
from shop_app.settings import Settings
from tests.support.databases import migrated_engine, temporary_database

pytestmark = pytest.mark.slow  # subprocesses, servers or a benchmark at tiny scale

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def shop(tmp_path: Path) -> Iterator[Settings]:
    """A migrated database of its own with one product, and a media folder with one image."""
    with temporary_database(tmp_path / "db") as url:
        with migrated_engine(url) as engine, Session(engine) as session:
            session.add(Product(name="Cedar Candle", base_price_cents=2800, stock_quantity=5))
            session.commit()
        media = tmp_path / "media"
        (media / "products").mkdir(parents=True)
        (media / "products" / "cedar.webp").write_bytes(b"RIFF-cedar")
        yield Settings(database_url=url, media_dir=media)


def _names(settings: Settings) -> list[str]:
    with migrated_engine(settings.database_url) as engine, Session(engine) as session:
        return sorted(session.exec(select(Product.name)))


def _files(settings: Settings) -> dict[str, bytes]:
    root = settings.media_dir
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _change_everything(settings: Settings) -> None:
    with migrated_engine(settings.database_url) as engine, Session(engine) as session:
        product = session.exec(select(Product)).one()
        product.name = "Renamed"
        session.add(Product(name="Added Later", base_price_cents=900, stock_quantity=1))
        session.commit()
    (settings.media_dir / "products" / "cedar.webp").unlink()
    (settings.media_dir / "products" / "new.webp").write_bytes(b"RIFF-new")


def test_a_restore_brings_back_the_database_and_the_images_of_the_backup(
    shop: Settings, tmp_path: Path
) -> None:
    folder = backup.backup(shop, tmp_path / "backups")
    manifest = json.loads((folder / backup.MANIFEST).read_text())
    assert manifest["media_files"] == 1
    assert manifest["schema_revision"]
    _change_everything(shop)

    replaced = backup.restore(shop, folder)

    assert _names(shop) == ["Cedar Candle"]
    assert _files(shop) == {"products/cedar.webp": b"RIFF-cedar"}
    assert replaced.parent == folder.parent / "replaced"  # what was replaced can be put back too
    backup.restore(shop, replaced)
    assert _names(shop) == ["Added Later", "Renamed"]
    assert _files(shop) == {"products/new.webp": b"RIFF-new"}


def test_the_scripts_back_up_and_restore(shop: Settings, tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": shop.database_url, "MEDIA_DIR": str(shop.media_dir)}

    def script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(ROOT / "scripts" / name), *args]
        return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)

    saved = script("backup", str(tmp_path / "backups"))
    assert saved.returncode == 0, saved.stderr
    (folder,) = (tmp_path / "backups").glob("shop-backup-*")
    assert f"into {folder}" in saved.stdout
    _change_everything(shop)

    restored = script("restore", str(folder))

    assert restored.returncode == 0, restored.stderr
    assert _names(shop) == ["Cedar Candle"]
    assert _files(shop) == {"products/cedar.webp": b"RIFF-cedar"}
    refused = script("restore", str(tmp_path))
    assert refused.returncode == 1 and "is not a shop backup" in refused.stderr


def test_a_backup_of_the_other_database_kind_is_refused(shop: Settings, tmp_path: Path) -> None:
    folder = backup.backup(shop, tmp_path / "backups")
    manifest = json.loads((folder / backup.MANIFEST).read_text())
    other = "postgresql" if manifest["database"] == "sqlite" else "sqlite"
    (folder / backup.MANIFEST).write_text(json.dumps({**manifest, "database": other}))

    with pytest.raises(backup.BackupError, match=f"holds a {other} database"):
        backup.restore(shop, folder)
    assert _names(shop) == ["Cedar Candle"]
