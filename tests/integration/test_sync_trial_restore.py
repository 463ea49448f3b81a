"""A trial restore and device names (sync9: review9 S3, S3b): a backup restored to another
path does not join the sync folder until `sync join` makes it a laptop of its own, is never
told to forget the live laptop, and two laptops never share a name."""

from __future__ import annotations

from pathlib import Path

import pytest

from localmind import Memory
from localmind.backup import backup_store, restore_backup
from sync import folder as sync_folder
from sync.devices import forget_device
from sync.folder import SyncError, init_folder, join_folder, sync_once
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.integration import test_sync_identity as identity

Laptops, texts = identity.Laptops, identity.texts
laptops = identity.laptops  # the fixture: stores opened by path, closed at the end


def test_a_trial_restore_elsewhere_stays_out_of_the_folder_until_joined(
    laptops: Laptops, tmp_path: Path
) -> None:
    shared = tmp_path / "Sync"
    a = laptops.open("a")
    a.remember("My favourite tea is green tea")
    init_folder(a, shared, PASSPHRASE, FAST_KDF, name="home")
    sync_once(a, shared)
    backup_store(a.path, tmp_path / "bk.db", PASSPHRASE)
    restore_backup(tmp_path / "bk.db", tmp_path / "trial.db", PASSPHRASE)
    trial = laptops.open("trial")
    before = sorted(p.name for p in shared.iterdir())

    with pytest.raises(SyncError, match="does not sync") as refused:
        sync_once(trial, shared)
    assert f"localmind sync join {shared} --name NAME" in str(refused.value)
    assert sorted(p.name for p in shared.iterdir()) == before  # nothing exported
    [advice] = sync_folder.status(trial, shared)["advice"]
    assert "forget-device" not in advice and a.device_id not in advice

    with pytest.raises(SyncError, match="already syncs with this folder"):
        join_folder(trial, shared, PASSPHRASE, name="home")  # S3b: a name is one laptop's
    join_folder(trial, shared, PASSPHRASE)  # the name it brought along gets a number
    assert sync_folder.device_name(trial) == "home 2"
    trial.remember("The cat is called Miso")
    for memory in (trial, a, trial):
        sync_once(memory, shared)
    assert texts(a) == texts(trial)
    assert sync_folder.status(trial, shared)["advice"] == []  # a is not its former self
    names = sorted(d["name"] for d in sync_folder.status(a, shared)["devices"])
    assert names == ["home 2"]


def desk_and_work(laptops: Laptops, shared: Path) -> tuple[Memory, Memory]:
    """Two laptops syncing, "desk" with a memory."""
    a, c = laptops.open("a"), laptops.open("c")
    init_folder(a, shared, PASSPHRASE, FAST_KDF, name="desk")
    join_folder(c, shared, PASSPHRASE, name="work")
    a.remember("My favourite tea is green tea")
    for memory in (a, c, a):
        sync_once(memory, shared)
    return a, c


def test_a_restore_in_place_syncs_on_and_names_its_former_self(
    laptops: Laptops, tmp_path: Path
) -> None:
    shared = tmp_path / "Sync"
    a, c = desk_and_work(laptops, shared)
    former = a.device_id
    backup_store(a.path, tmp_path / "a.backup", PASSPHRASE)
    laptops.close(a)
    restore_backup(tmp_path / "a.backup", tmp_path / "a.db", PASSPHRASE, replace=True)
    a = laptops.open("a")
    sync_once(a, shared)  # not refused: it is where the store that synced was
    report = sync_folder.status(a, shared)
    [advice] = report["advice"]
    assert f"forget-device {former}" in advice
    labels = sorted(sync_folder.device_label(d) for d in report["devices"])
    # S3c: both rows are called desk; when each id was made tells them apart too
    assert labels[0].startswith(f"desk ({former}, since 20")
    assert labels[0].endswith(", this laptop before its restore)")
    assert labels[1] == f"work ({c.device_id})"  # a name of its own needs no date
    join_folder(a, shared, PASSPHRASE)  # its former self's name is its own
    assert sync_folder.device_name(a) == "desk"


def test_a_name_given_for_a_second_laptop_that_another_has_is_refused(
    laptops: Laptops, tmp_path: Path
) -> None:
    shared = tmp_path / "Sync"
    a, b = laptops.open("a"), laptops.open("b")
    init_folder(a, shared, PASSPHRASE, FAST_KDF, name="home")
    sync_once(a, shared)
    with pytest.raises(SyncError, match=r"'home'.*another name with --name"):
        join_folder(b, shared, PASSPHRASE, name="home")
    assert sync_folder.device_name(b) is None  # nothing was changed
    join_folder(b, shared, PASSPHRASE, name="work")
    sync_once(b, shared)
    join_folder(a, shared, PASSPHRASE, name="home")  # a laptop may repeat its own name


def test_every_former_id_of_a_laptop_restored_twice_is_named_and_advised(
    laptops: Laptops, tmp_path: Path
) -> None:
    """S3d: the second restore's advice names both ids this laptop had, not the last only."""
    shared = tmp_path / "Sync"
    a, c = desk_and_work(laptops, shared)
    backup_store(a.path, tmp_path / "a.backup", PASSPHRASE)
    formers = []
    for _ in range(2):  # the same backup restored in place twice, syncing in between
        formers.append(a.device_id)
        laptops.close(a)
        restore_backup(tmp_path / "a.backup", tmp_path / "a.db", PASSPHRASE, replace=True)
        a = laptops.open("a")
        sync_once(a, shared)
    report = sync_folder.status(a, shared)
    advice = "\n".join(report["advice"])
    for former in formers:
        assert f"forget-device {former}" in advice
    ours = [d["device_id"] for d in report["devices"] if d["former_self"]]
    assert sorted(ours) == sorted(formers)
    assert f"forget-device {c.device_id}" not in advice  # the other laptop is alive
    for former in formers:
        forget_device(a, shared, former)
    assert sync_folder.status(a, shared)["advice"] == []
