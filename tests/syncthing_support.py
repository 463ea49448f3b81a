"""Real Syncthing daemons for the end-to-end sync test: two on loopback, sharing one folder.

Each daemon gets its own home (keys, config, database), listens on 127.0.0.1 only and talks to
nobody else: global and local discovery, relays, NAT traversal, usage and crash reporting and
upgrade checks are off. Waiting is done on Syncthing's event long-poll (``/rest/events``), each
wait bounded, with the daemon's log in the failure message.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FOLDER_ID = "localmind"
#: localmind writes ``.NAME.HEX.tmp`` first and renames: such a file must never travel.
IGNORES = "// Files still being written under a temporary name\n(?d).*.tmp\n"
READY = re.compile(r"GUI and API listening on")


def syncthing_binary() -> str | None:
    return shutil.which("syncthing")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SyncthingError(AssertionError):
    """A daemon did not do in time what the test waited for (the message has its log)."""


@dataclass
class Daemon:
    """One Syncthing instance: its home, its shared folder, its ports and its process."""

    name: str
    home: Path
    folder: Path
    device_id: str
    gui_port: int = field(default_factory=free_port)
    listen_port: int = field(default_factory=free_port)
    api_key: str = field(default_factory=lambda: os.urandom(16).hex())
    process: subprocess.Popen[str] | None = None
    log: list[str] = field(default_factory=list)
    _logged: threading.Condition = field(default_factory=threading.Condition)
    _since: int = 0  # the last event id seen

    # --- configuration ---------------------------------------------------------------------

    @classmethod
    def generate(cls, name: str, root: Path) -> Daemon:
        home, folder = root / f"{name}-home", root / f"{name}-folder"
        binary = syncthing_binary()
        assert binary, "syncthing is not installed"
        subprocess.run(
            [binary, "generate", f"--home={home}", "--no-default-folder", "--skip-port-probing"],
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        device_id = subprocess.run(
            [binary, "serve", f"--home={home}", "--device-id"],
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.strip()
        folder.mkdir(parents=True)
        (folder / ".stfolder").mkdir()  # the marker Syncthing wants before it uses a folder
        (folder / ".stignore").write_text(IGNORES, encoding="utf-8")
        return cls(name, home, folder, device_id)

    def configure(self, peers: list[Daemon]) -> None:
        """Write config.xml: loopback only, nothing phones home, ``peers`` known by address,
        one send-receive folder shared with them all."""
        path = self.home / "config.xml"
        tree = ET.parse(path)
        root = tree.getroot()
        gui = _child(root, "gui")
        _set(gui, "address", f"127.0.0.1:{self.gui_port}")
        _set(gui, "apikey", self.api_key)
        options = _child(root, "options")
        for option, value in {
            "listenAddress": f"tcp://127.0.0.1:{self.listen_port}",
            "globalAnnounceEnabled": "false",
            "localAnnounceEnabled": "false",
            "relaysEnabled": "false",
            "natEnabled": "false",
            "urAccepted": "-1",  # usage reporting declined
            "crashReportingEnabled": "false",
            "startBrowser": "false",
            "autoUpgradeIntervalH": "0",
            "stunKeepaliveStartS": "0",  # no STUN either
            "reconnectionIntervalS": "2",
        }.items():
            _set(options, option, value)
        defaults = _child(root, "defaults")
        for peer in peers:
            device = copy.deepcopy(_child(defaults, "device"))
            device.set("id", peer.device_id)
            device.set("name", peer.name)
            _set(device, "address", f"tcp://127.0.0.1:{peer.listen_port}")
            root.insert(1, device)
        folder = copy.deepcopy(_child(defaults, "folder"))
        folder.attrib.update(
            id=FOLDER_ID,
            label=FOLDER_ID,
            path=str(self.folder),
            type="sendreceive",
            fsWatcherEnabled="true",
            fsWatcherDelayS="1",
        )
        for member in folder.findall("device"):
            folder.remove(member)
        for device_id in [self.device_id, *(p.device_id for p in peers)]:
            member = ET.SubElement(folder, "device", id=device_id, introducedBy="")
            ET.SubElement(member, "encryptionPassword")
        root.insert(0, folder)
        tree.write(path, encoding="utf-8", xml_declaration=False)

    # --- the process ---------------------------------------------------------------------

    def start(self, timeout: float = 60.0) -> None:
        binary = syncthing_binary()
        assert binary, "syncthing is not installed"
        environment = {
            **os.environ,
            "STNODEFAULTFOLDER": "1",
            "STNOUPGRADE": "1",
            "STNORESTART": "1",
            "HOME": str(self.home),
        }
        self.process = subprocess.Popen(
            [
                binary,
                "serve",
                f"--home={self.home}",
                "--no-browser",
                "--no-restart",
                "--no-upgrade",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=environment,
            start_new_session=True,  # its own process group: stop() ends it and only it
        )
        threading.Thread(target=self._read_log, daemon=True).start()
        self.wait_for_log(READY, timeout, "its REST API to listen")

    def _read_log(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            with self._logged:
                self.log.append(line.rstrip("\n"))
                self._logged.notify_all()
        with self._logged:
            self._logged.notify_all()

    def wait_for_log(self, pattern: re.Pattern[str], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        with self._logged:
            while not any(pattern.search(line) for line in self.log):
                remaining = deadline - time.monotonic()
                exited = self.process is not None and self.process.poll() is not None
                if remaining <= 0 or exited:
                    raise SyncthingError(self._failure(f"waiting for {what}"))
                self._logged.wait(remaining)  # woken by each new line, and at exit

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=15)

    # --- the REST API --------------------------------------------------------------------

    def rest(
        self, method: str, path: str, query: dict[str, Any] | None = None, wait: float = 30.0
    ) -> Any:
        url = f"http://127.0.0.1:{self.gui_port}{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        request = urllib.request.Request(url, method=method, headers={"X-API-Key": self.api_key})
        with urllib.request.urlopen(request, timeout=wait) as response:
            body = response.read()
        return json.loads(body) if body.strip() else None

    def scan(self) -> None:
        """Rescan the folder now (returns once the scan is done) rather than wait for the
        file watcher's delay."""
        self.rest("POST", "/rest/db/scan", {"folder": FOLDER_ID})

    def wait_until(self, condition: Callable[[], bool], what: str, timeout: float = 90.0) -> None:
        """Check ``condition`` after each batch of this daemon's events until it holds; fail
        with the log after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not condition():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SyncthingError(self._failure(f"waiting for {what}"))
            # Long-poll: returns as soon as anything happens, or after ``poll`` seconds.
            poll = max(1, min(int(remaining), 10))
            events = self.rest(
                "GET", "/rest/events", {"since": self._since, "timeout": poll}, wait=poll + 10
            )
            for event in events or []:
                self._since = max(self._since, int(event["id"]))

    def _failure(self, doing: str) -> str:
        state = "running" if self.process and self.process.poll() is None else "exited"
        connections = ""
        if state == "running":
            with contextlib.suppress(Exception):
                connections = json.dumps(
                    {
                        device: info.get("connected")
                        for device, info in self.rest("GET", "/rest/system/connections", wait=5.0)[
                            "connections"
                        ].items()
                    }
                )
        tail = "\n".join(self.log[-40:])
        return (
            f"Syncthing {self.name} ({state}) timed out {doing}; connected: {connections or '?'}"
            f"\n--- last log lines ---\n{tail}"
        )


def _child(parent: ET.Element, tag: str) -> ET.Element:
    found = parent.find(tag)
    assert found is not None, f"config.xml has no <{tag}>"
    return found


def _set(parent: ET.Element, tag: str, value: str) -> None:
    element = parent.find(tag)
    if element is None:
        element = ET.SubElement(parent, tag)
    element.text = value


def same_files(source: Path, target: Path, relative: str = "") -> Callable[[], bool]:
    """A condition: every visible file under ``source/relative`` is in ``target`` with the
    same bytes (what Syncthing has delivered once it holds)."""

    def holds() -> bool:
        for path in sorted((source / relative).rglob("*")):
            if path.name.startswith(".") or not path.is_file():
                continue
            copy_ = target / path.relative_to(source)
            try:
                if copy_.read_bytes() != path.read_bytes():
                    return False
            except FileNotFoundError:
                return False
        return True

    return holds


@contextlib.contextmanager
def syncthing_pair(root: Path) -> Iterator[tuple[Daemon, Daemon]]:
    """Two daemons that know each other and share one folder; both are stopped on the way
    out, whatever happened."""
    alpha, beta = Daemon.generate("alpha", root), Daemon.generate("beta", root)
    alpha.configure([beta])
    beta.configure([alpha])
    try:
        alpha.start()
        beta.start()
        yield alpha, beta
    finally:
        for daemon in (beta, alpha):
            daemon.stop()
