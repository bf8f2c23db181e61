"""Starting (or finding) the catalogue server the browser and API tests run against.

CATALOGUE_SERVE: a command with placeholders {port}, {db}, {token_file} and {tmp} filled in
here (the token file gets a fresh token before the server starts), e.g.
  '.build/debug/catalogue serve --db {db} --port {port} --token-file {token_file}'
CATALOGUE_URL: a server already running (its import token in CATALOGUE_TOKEN or the file
CATALOGUE_TOKEN_FILE); with CATALOGUE_SERVE too, where the started server listens.
"""

import json
import os
import secrets
import shlex
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

START_TIMEOUT_S = float(os.environ.get("CATALOGUE_START_TIMEOUT", "60"))

class Server:
    """Where the server answers, and the token its imports need."""

    def __init__(self, url, token):
        self.url = url.rstrip("/")
        self.token = token

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return json.load(response)

    def post(self, path, body, token=None, content_type="text/csv"):
        """POST and return (status, parsed JSON body)."""
        request = urllib.request.Request(self.url + path, data=body.encode(), method="POST")
        request.add_header("Content-Type", content_type)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(url, process, log_path):
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{Path(log_path).read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer at {url} within {START_TIMEOUT_S:.0f} s")


@contextmanager
def running_server():
    """The server under test: started from CATALOGUE_SERVE, or the one at CATALOGUE_URL."""
    command = os.environ.get("CATALOGUE_SERVE")
    url = os.environ.get("CATALOGUE_URL")
    if not command:
        if not url:
            raise RuntimeError("set CATALOGUE_SERVE (a command to start) or CATALOGUE_URL (a running server)")
        token = os.environ.get("CATALOGUE_TOKEN")
        if token is None and os.environ.get("CATALOGUE_TOKEN_FILE"):
            token = Path(os.environ["CATALOGUE_TOKEN_FILE"]).read_text().strip()
        wait_until_up(url.rstrip("/"), None, None)
        yield Server(url, token)
        return
    with tempfile.TemporaryDirectory(prefix="catalogue-browser-") as tmp:
        port = free_port()
        token = secrets.token_hex(24)
        token_file = Path(tmp, "token")
        token_file.write_text(token + "\n")
        token_file.chmod(0o600)
        values = {"port": port, "db": str(Path(tmp, "catalogue.sqlite")), "token_file": str(token_file), "tmp": tmp}
        argv = [part.format(**values) for part in shlex.split(command)]
        if "{port}" not in command and not url:
            raise RuntimeError("CATALOGUE_SERVE has no {port}: set CATALOGUE_URL to where it listens")
        url = url or f"http://127.0.0.1:{port}"
        log_path = Path(tmp, "server.log")
        with open(log_path, "w") as log:
            process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            wait_until_up(url.rstrip("/"), process, log_path)
            yield Server(url, token)
        finally:
            process.send_signal(signal.SIGTERM)  # graceful shutdown
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
