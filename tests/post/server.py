"""server.py: a real HTTP server on 127.0.0.1 for tests/post/run: it answers from a
script of responses and records every request (method, path, headers, body, time).
Otherwise it answers as GitHub would and remembers what it created: the check runs
(listed by GET .../commits/SHA/check-runs?check_name=NAME) and the comments (listed by
GET .../issues/N/comments). A scripted reply with "stall": S first does what GitHub
would (creates the check run or comment) and then answers only after S seconds, as a
server whose answer is lost ("create": false: it answers late without creating)."""
import http.server
import json
import threading
import time
import urllib.parse


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace")
        srv = self.server
        with srv.lock:
            srv.requests.append({
                "method": self.command, "path": self.path, "body": body,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "time": time.monotonic()})
            reply = None
            for i, r in enumerate(srv.script):
                if r["method"] == self.command and r["path"] in self.path:
                    reply = srv.script.pop(i)
                    break
            if reply is None:
                reply = github(srv, self.command, self.path, body)
            elif reply.get("stall") and reply.get("create", True):
                reply = dict(github(srv, self.command, self.path, body), stall=reply["stall"])
        if reply.get("stall"):
            time.sleep(reply["stall"])
        data = reply.get("body", "").encode()
        try:
            self.send_response(reply["status"])
            for k, v in reply.get("headers", {}).items():
                self.send_header(k, v)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up waiting

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _any


def github(srv, method, path, body):
    """What GitHub answers when all goes well, and what it keeps (under srv.lock)."""
    url = urllib.parse.urlparse(path)
    query = urllib.parse.parse_qs(url.query)
    try:
        doc = json.loads(body) if body else {}
    except ValueError:
        doc = {}
    if method == "GET" and url.path.endswith("/check-runs"):
        sha = url.path.split("/commits/")[-1].split("/")[0]
        name = query.get("check_name", [None])[0]
        runs = [r for r in srv.check_runs if r["head_sha"] == sha
                and (name is None or r["name"] == name)]
        return {"status": 200, "body": json.dumps({"total_count": len(runs), "check_runs": runs})}
    if method == "GET" and url.path.endswith("/comments"):
        return {"status": 200, "body": json.dumps(srv.comments)}
    if "/comments" in path:
        srv.comments.append({"id": 5 + len(srv.comments), "body": doc.get("body")})
        return {"status": 201, "body": json.dumps({"id": srv.comments[-1]["id"]})}
    if method == "POST":
        srv.check_runs.append({"id": 77 + len(srv.check_runs), "name": doc.get("name"),
                               "head_sha": doc.get("head_sha"),
                               "external_id": doc.get("external_id")})
        return {"status": 201, "body": json.dumps({"id": srv.check_runs[-1]["id"]})}
    return {"status": 200, "body": json.dumps({"id": 77})}


class Recorder(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Lock()
        self.requests = []
        self.script = []
        self.check_runs = []
        self.comments = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.server_address[1]

    def reset(self, script=()):
        """Forgets the requests; `script` is a list of replies, each {"method", "path"
        (a substring), "status", "headers", "body"}, used once, first match first."""
        with self.lock:
            self.requests = []
            self.script = list(script)
            self.check_runs = []
            self.comments = []
