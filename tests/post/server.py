"""server.py: a real HTTP server on 127.0.0.1 for tests/post/run: it answers from a
script of responses and records every request (method, path, headers, body, time)."""
import http.server
import json
import threading
import time


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
            reply = default_reply(self.command, self.path)
        data = reply.get("body", "").encode()
        self.send_response(reply["status"])
        for k, v in reply.get("headers", {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _any


def default_reply(method, path):
    """What GitHub answers when all goes well."""
    if "/comments" in path:
        return {"status": 201, "body": json.dumps({"id": 5})}
    if method == "POST":
        return {"status": 201, "body": json.dumps({"id": 77})}
    return {"status": 200, "body": json.dumps({"id": 77})}


class Recorder(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Lock()
        self.requests = []
        self.script = []
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
