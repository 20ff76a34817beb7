"""Backups of the shop: the database and the uploaded images, and putting them back.

``backup(settings, into)`` writes a new folder ``into/shop-backup-<UTC time>/`` holding

- ``database.dump``: PostgreSQL, ``pg_dump --format=custom`` (a consistent snapshot, taken while
  the shop runs), or ``database.sqlite3``: SQLite, the online backup API (consistent too);
- ``media.tar.gz``: every file under ``MEDIA_DIR`` (product and site images);
- ``manifest.json``: when, which database kind, the schema revision, the media file count.

``restore(settings, folder)`` first backs up what is there now (next to ``folder``, so a wrong
restore can be undone), then replaces the database and the images with the backup's:

- PostgreSQL: the ``public`` schema is dropped and the dump replayed by ``psql`` in a single
  transaction, so the database holds either the old or the restored data, never a mix (it needs
  the database's owner, as migrations do);
- SQLite: the backup API copies the saved pages over the live file under its lock;
- images: the archive is unpacked next to ``MEDIA_DIR`` and swapped in by renaming.

Stop the shop (and ``release-unpaid``'s cron) while restoring; run ``python -m shop_app migrate``
afterwards when the backup is older than the code. Passwords never appear on a command line:
``pg_dump``, ``pg_restore`` and ``psql`` get them in ``PGPASSWORD``.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

from shop_app.settings import Settings

PG_DUMP = "database.dump"
SQLITE_COPY = "database.sqlite3"
MEDIA_ARCHIVE = "media.tar.gz"
MANIFEST = "manifest.json"
_RESET_SCHEMA = "DROP SCHEMA public CASCADE; CREATE SCHEMA public;"


class BackupError(Exception):
    """A backup or restore could not be done; the message says why."""


def _postgres(url: str) -> tuple[str, dict[str, str]]:
    """A libpq URL without the password, and the environment carrying it."""
    parsed = sa.engine.make_url(url).set(drivername="postgresql")
    env = {**os.environ}
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    return parsed.set(password=None).render_as_string(hide_password=False), env


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{command[0]} failed: {done.stderr.strip() or done.stdout.strip()}")


def _sqlite_path(url: str) -> Path:
    database = sa.engine.make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database cannot be backed up")
    return Path(database)


def _revision(url: str) -> str | None:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    except sa.exc.SQLAlchemyError:
        return None
    finally:
        engine.dispose()


def backup(settings: Settings, into: Path) -> Path:
    """Back up the database and the images into a new folder under ``into``; that folder."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    folder = into / f"shop-backup-{stamp}"
    folder.mkdir(parents=True)
    if settings.is_sqlite:
        source = sqlite3.connect(_sqlite_path(settings.database_url))
        target = sqlite3.connect(folder / SQLITE_COPY)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
    else:
        url, env = _postgres(settings.database_url)
        dump = ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={folder / PG_DUMP}"]
        _run([*dump, f"--dbname={url}"], env)
    media_files = 0
    with tarfile.open(folder / MEDIA_ARCHIVE, "w:gz") as archive:
        if settings.media_dir.is_dir():
            for path in sorted(settings.media_dir.rglob("*")):
                archive.add(path, arcname=str(path.relative_to(settings.media_dir)), recursive=False)
                media_files += path.is_file()
    manifest = {
        "created_at": datetime.now(UTC).isoformat(),
        "database": "sqlite" if settings.is_sqlite else "postgresql",
        "schema_revision": _revision(settings.database_url),
        "media_files": media_files,
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return folder


def restore(settings: Settings, folder: Path) -> Path:
    """Replace the database and the images with the backup in ``folder``.

    Returns the safety backup of what was replaced (a sibling of ``folder``).
    """
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError) as error:
        raise BackupError(f"{folder} is not a shop backup (no readable {MANIFEST})") from error
    kind = "sqlite" if settings.is_sqlite else "postgresql"
    if manifest.get("database") != kind:
        raise BackupError(f"the backup holds a {manifest.get('database')} database, the shop uses {kind}")
    safety = backup(settings, folder.parent / "replaced")
    if settings.is_sqlite:
        saved = sqlite3.connect(folder / SQLITE_COPY)
        live = sqlite3.connect(_sqlite_path(settings.database_url))
        try:
            saved.backup(live)
        finally:
            live.close()
            saved.close()
    else:
        _restore_postgres(settings.database_url, folder / PG_DUMP)
    _restore_media(settings.media_dir, folder / MEDIA_ARCHIVE)
    return safety


def _restore_postgres(database_url: str, dump: Path) -> None:
    url, env = _postgres(database_url)
    with tempfile.TemporaryDirectory(prefix="shop-restore-") as scratch:
        script = Path(scratch) / "database.sql"
        _run(["pg_restore", "--no-owner", "--no-privileges", f"--file={script}", str(dump)], env)
        psql = ["psql", "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--single-transaction"]
        _run([*psql, f"--command={_RESET_SCHEMA}", f"--file={script}", f"--dbname={url}"], env)


def _restore_media(media_dir: Path, archive_path: Path) -> None:
    incoming = media_dir.with_name(f"{media_dir.name}.restoring")
    replaced = media_dir.with_name(f"{media_dir.name}.replaced")
    for leftover in (incoming, replaced):
        shutil.rmtree(leftover, ignore_errors=True)
    incoming.mkdir(parents=True)
    with tarfile.open(archive_path, "r:gz") as archive:
        archive.extractall(incoming, filter="data")  # no absolute paths, links out or devices
    if media_dir.exists():
        media_dir.rename(replaced)
    incoming.rename(media_dir)
    shutil.rmtree(replaced, ignore_errors=True)
