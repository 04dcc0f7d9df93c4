"""Loading a page in Debian's headless Chromium, for the HTML report tests.

load_page(path, fragment) runs `chromium --headless --dump-dom` on file://PATH#FRAGMENT
and returns the DOM after the page's script ran, parsed (stdlib html.parser), with
every console line Chromium logged (--enable-logging=stderr prints console messages
and uncaught exceptions as "CONSOLE" lines). screenshot(path, name) saves a PNG under
build/html-screenshots/ (kept as a CI artifact). Each call starts a fresh browser with
its own profile folder, offline: a page that tried the network would log an error.
"""
import html.parser
import pathlib
import shutil
import subprocess
import tempfile
import warnings

from griffin_cli import REPO_ROOT

import pytest

SCREENSHOT_DIR = REPO_ROOT / "build" / "html-screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
         "--disable-background-networking", "--disable-sync", "--disable-default-apps",
         "--proxy-server=127.0.0.1:9", "--enable-logging=stderr", "--v=0"]


def chromium():
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("Debian's chromium is not installed (ci/apt-packages.txt; run scripts/setup.sh)")
    return path


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text_parts = [], []

    def text(self):
        return "".join(part if isinstance(part, str) else part.text() for part in self.text_parts)

    def iter(self, tag=None):
        for child in self.children:
            if tag is None or child.tag == tag:
                yield child
            yield from child.iter(tag)

    def find_id(self, element_id):
        return next((e for e in self.iter() if e.attrs.get("id") == element_id), None)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _TreeBuilder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", [], None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.current)
        self.current.children.append(element)
        self.current.text_parts.append(element)
        if tag not in VOID:
            self.current = element

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.text_parts.append(data)


class Page:
    def __init__(self, dom_text, console):
        self.dom_text, self.console = dom_text, console
        builder = _TreeBuilder()
        builder.feed(dom_text)
        self.root = builder.root

    def by_id(self, element_id):
        return self.root.find_id(element_id)

    def all(self, tag):
        return list(self.root.iter(tag))


def _url(path, fragment):
    url = pathlib.Path(path).resolve().as_uri()
    return url + ("#" + fragment if fragment else "")


CRASH_ATTEMPTS = 3


def _crashed(done):
    """Chromium itself crashed (a signal, or its crash handler ran), as opposed to exiting
    with an error about the page or its flags."""
    return done.returncode < 0 or b"crashpad" in done.stderr


def _run_chromium(args):
    """Runs Chromium with a fresh profile. A browser crash (seen once in CI under load, rc != 0
    with crashpad writing a dump, and not reproduced in 85 runs here, idle or under load) is retried up to
    CRASH_ATTEMPTS times with a warning; any other failure, or a crash every time, fails the test
    with the exit codes and the end of Chromium's log."""
    codes = []
    for _ in range(CRASH_ATTEMPTS):
        with tempfile.TemporaryDirectory() as profile:
            done = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
                                  capture_output=True, timeout=60)
        codes.append(done.returncode)
        if done.returncode == 0 or not _crashed(done):
            break
        warnings.warn(f"chromium crashed (exit {done.returncode}); starting it again")
    assert done.returncode == 0, (f"chromium exit codes {codes}: "
                                  + done.stderr.decode(errors="replace")[-2000:])
    return done


def load_page(path, fragment=""):
    done = _run_chromium(["--dump-dom", _url(path, fragment)])
    console = [line for line in done.stderr.decode(errors="replace").splitlines() if ":CONSOLE" in line]
    return Page(done.stdout.decode(), console)


def screenshot(path, name, fragment=""):
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    target = SCREENSHOT_DIR / f"{name}.png"
    _run_chromium([f"--screenshot={target}", "--window-size=1200,2400", "--hide-scrollbars",
                   _url(path, fragment)])
    assert target.stat().st_size > 10_000, f"{target}: a blank screenshot?"
    return target
