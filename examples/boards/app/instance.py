"""Start and stop the application instance of one worker (used by ../reset and ../stop).

Worker W listens on port $BOARDS_PORT_BASE (default 18080) + W and keeps its files in ${TMPDIR:-/tmp}/untangle-boards-W/:
boards.sqlite3 (database), server.pid, server.log. Workers never share any of them.
"""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")
BASE_PORT = int(os.environ.get("BOARDS_PORT_BASE") or 18080)  # ci/test runs lanes side by side
NAME = "boards"  # the runtime folder and database are named after it (the shop example sets its own)
LIMIT_S = 15.0


class Failure(Exception):
    pass


def port(worker):
    return BASE_PORT + worker


def runtime_dir(worker):
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", f"untangle-{NAME}-{worker}")


def is_our_server(pid, worker=None):
    """True when pid is a live server (of that worker's port, if given)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().decode(errors="replace").split("\0")
    except OSError:
        return False
    if not any(arg.endswith("server.py") for arg in argv):
        return False
    return worker is None or str(port(worker)) in argv


def port_in_use(worker):
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port(worker))) == 0


def kill(pid, deadline):
    """SIGTERM, then SIGKILL if it is still alive at the deadline."""
    try:
        os.kill(pid, signal.SIGTERM)
        while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}"):
            try:  # reap it when it is our own child; otherwise just wait
                if os.waitpid(pid, os.WNOHANG)[0]:
                    return
            except ChildProcessError:
                pass
            state = open(f"/proc/{pid}/stat").read().split(") ")[-1][:1]
            if state == "Z":
                return
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, FileNotFoundError):
        pass


def stray_servers(worker):
    """Servers started for this worker's port whose pid file was lost."""
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and is_our_server(int(p), worker)]


def stop(worker, deadline=None):
    deadline = deadline or time.monotonic() + 5
    pid_file = os.path.join(runtime_dir(worker), "server.pid")
    try:
        pid = int(open(pid_file).read().strip())
    except (OSError, ValueError):
        pid = None
    if pid and is_our_server(pid, worker):
        kill(pid, deadline)
    for stray in stray_servers(worker):
        kill(stray, deadline)
    if os.path.exists(pid_file):
        os.remove(pid_file)
    while port_in_use(worker):
        if time.monotonic() > deadline:
            raise Failure(f"port {port(worker)} is still in use by another program")
        time.sleep(0.05)


def reset(worker):
    deadline = time.monotonic() + LIMIT_S
    stop(worker, deadline)
    directory = runtime_dir(worker)
    os.makedirs(directory, exist_ok=True)
    db = os.path.join(directory, f"{NAME}.sqlite3")
    for path in (db, db + "-journal", db + "-wal", db + "-shm"):
        if os.path.exists(path):
            os.remove(path)
    log_path = os.path.join(directory, "server.log")
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [sys.executable, SERVER, "--port", str(port(worker)), "--db", db],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)  # detached: survives the caller, own process group
    with open(os.path.join(directory, "server.pid"), "w") as f:
        f.write(f"{server.pid}\n")
    url = f"http://127.0.0.1:{port(worker)}/"
    while True:
        if server.poll() is not None:
            raise Failure(f"the server exited with {server.returncode}; log {log_path}:\n"
                          + open(log_path, errors="replace").read()[-2000:])
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                if answer.status == 200:
                    return url
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            kill(server.pid, time.monotonic() + 1)
            raise Failure(f"{url} did not answer within {LIMIT_S:.0f} s; log {log_path}")
        time.sleep(0.05)


def main(action):
    name = os.path.basename(sys.argv[0])
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit(f"usage: {name} WORKER   (worker index 0, 1, ...; port {BASE_PORT} + WORKER)")
    worker = int(sys.argv[1])
    try:
        result = action(worker)
    except Failure as failure:
        sys.exit(f"{name} {worker}: {failure}")
    if result:
        print(f"{name} {worker}: {result} is up")
