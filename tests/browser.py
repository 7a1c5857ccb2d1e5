"""A small headless-Chromium driver over the DevTools protocol (``--remote-debugging-pipe``), no
dependency beyond the standard library: load a page, evaluate script (awaiting promises), press
keys, and collect console errors, exceptions and every request the page made.

Used by the review page's tests (tests/outputs/test_review_page.py) and its benchmark
(bench/bench_review_page.py), and by the report's tests (tests/outputs/test_report.py, which add
``--hide-scrollbars`` through ``extra_flags``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--autoplay-policy=no-user-gesture-required",
    "--mute-audio",
]


def find_browser() -> str | None:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium with one page; ``with Browser(path) as b: b.open(url); b.eval('1+1')``."""

    def __init__(self, executable: str, profile: Path | None = None, extra_flags: tuple[str, ...] = ()) -> None:
        self._tmp = None if profile else tempfile.TemporaryDirectory()
        self.profile = profile or Path(self._tmp.name)  # type: ignore[union-attr]
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def child_fds() -> None:  # the pipe protocol: the browser reads fd 3, writes fd 4
            read_end, write_end = os.dup(to_browser_r), os.dup(from_browser_w)  # above 4: dup2 clobbers nothing
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.proc = subprocess.Popen(
            [
                executable,
                *FLAGS,
                *extra_flags,
                f"--user-data-dir={self.profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            pass_fds=(3, 4),  # kept open after preexec_fn (which runs before the other fds are closed)
            preexec_fn=child_fds,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable", session=True)

    # --- the protocol -------------------------------------------------------------------------
    def _send(self, method: str, params: dict[str, Any], session: bool) -> int:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return self._next

    def _read(self, timeout: float) -> dict[str, Any]:
        import select

        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise TimeoutError("no answer from the browser")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, *, session: bool = False, timeout: float = 60, **params: Any) -> dict[str, Any]:
        wanted = self._send(method, params, session)
        while True:
            message = self._read(timeout)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method: str, timeout: float = 30) -> dict[str, Any]:
        """The next event ``method`` (events already received count)."""
        for i, event in enumerate(self.events):
            if event["method"] == method:
                return self.events.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            message = self._read(max(0.01, deadline - time.monotonic()))
            if message.get("method") == method:
                return message
            if "method" in message:
                self.events.append(message)

    # --- what tests use -----------------------------------------------------------------------
    def open(self, url: str) -> float:
        """Load ``url``; return the seconds from the navigation to the load event."""
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        t0 = time.perf_counter()
        self.call("Page.navigate", session=True, url=url)
        self.wait_for("Page.loadEventFired")
        return time.perf_counter() - t0

    def reload(self) -> None:
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        self.call("Page.reload", session=True)
        self.wait_for("Page.loadEventFired")

    def eval(self, expression: str, timeout: float = 60) -> Any:
        """The value of ``expression`` (a promise is awaited); a thrown error raises RuntimeError."""
        answer = self.call(
            "Runtime.evaluate",
            session=True,
            timeout=timeout,
            expression=expression,
            awaitPromise=True,
            returnByValue=True,
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(json.dumps(answer["exceptionDetails"])[:2000])
        return answer["result"].get("value")

    def key(self, key: str) -> None:
        """Press and release a key the way a user does (trusted key events)."""
        codes = {" ": ("Space", 32), "ArrowDown": ("ArrowDown", 40), "ArrowUp": ("ArrowUp", 38), "Enter": ("Enter", 13)}
        code, vk = codes.get(key, (f"Key{key.upper()}" if key.isalpha() else f"Digit{key}", ord(key.upper()[0])))
        text = key if len(key) == 1 else ""
        self.call(
            "Input.dispatchKeyEvent",
            session=True,
            type="keyDown",
            key=key,
            code=code,
            windowsVirtualKeyCode=vk,
            text=text,
        )
        self.call("Input.dispatchKeyEvent", session=True, type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk)

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                out.append(json.dumps(p.get("exceptionDetails", {}))[:500])
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") == "error":
                out.append(json.dumps(p.get("args", []))[:500])
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(str(p["entry"].get("text"))[:500])
        return out

    def requests(self) -> list[str]:
        """The URLs of every request the page made."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
