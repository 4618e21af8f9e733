#!/usr/bin/python3
"""The boards application: a tiny Trello-like demo for untangle's Selenium examples.

    python3 server.py --port 18080 --db /tmp/boards.sqlite3

Python standard library only. Server-rendered HTML, sessions by cookie, SQLite
storage (the admin account is seeded when the database is created). Every POST
answers with a redirect (POST/redirect/GET) except when the form has to be shown
again with an error. See ../SCENARIO.md for the pages and element ids.
"""

import argparse
import contextlib
import hashlib
import html
import os
import re
import secrets
import sqlite3
import threading
from http import cookies
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
ADMIN = ("John", "Admin", "john@phoenix-trello.com", "12345678")

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id));
CREATE TABLE IF NOT EXISTS boards (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, owner_id INTEGER NOT NULL REFERENCES users(id));
CREATE TABLE IF NOT EXISTS lists (
    id INTEGER PRIMARY KEY, board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
    name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS members (
    board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id), PRIMARY KEY (board_id, user_id));
"""


# --- storage -----------------------------------------------------------------

class Store:
    """One SQLite connection per call, serialised by a lock (the demo is tiny)."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        with self.db() as db:
            db.executescript(SCHEMA)
            if not db.execute("SELECT 1 FROM users").fetchone():
                first, last, email, password = ADMIN
                db.execute("INSERT INTO users (first_name, last_name, email, password_hash) "
                           "VALUES (?, ?, ?, ?)", (first, last, email, hash_password(password)))

    @contextlib.contextmanager
    def db(self):
        with self.lock:
            conn = sqlite3.connect(self.path)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA foreign_keys = ON")
            try:
                yield conn
                conn.commit()
            finally:
                conn.close()


def hash_password(password, salt=None):
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 10_000).hex()
    return f"{salt}${digest}"


def check_password(password, stored):
    salt, _ = stored.split("$", 1)
    return secrets.compare_digest(hash_password(password, salt), stored)


# --- HTML --------------------------------------------------------------------

e = html.escape  # every piece of user text goes through this


def layout(title, body, user=None):
    nav = ""
    if user:
        nav = (f'<nav><a id="boards_link" href="/boards">Boards</a> '
               f'<span id="current_user">{e(user["first_name"])} {e(user["last_name"])}</span> '
               f'<a id="sign_out_link" href="/sign_out">Sign out</a></nav>')
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{e(title)} - Boards</title>
<style>
  body {{ font-family: sans-serif; margin: 2em; max-width: 40em; }}
  nav {{ display: flex; gap: 1em; border-bottom: 1px solid #ccc; padding-bottom: .5em; }}
  #error {{ color: #b00; }}
  .list {{ border: 1px solid #ccc; padding: 0 .5em; margin: .5em 0; }}
  form {{ margin: .5em 0; }}
</style>
<script src="/static/app.js" defer></script>
</head>
<body>
{nav}
{body}
</body>
</html>
"""


def error_p(message):
    return f'<p id="error">{e(message)}</p>' if message else ""


def sign_in_page(error=None, email=""):
    return layout("Sign in", f"""<h1>Sign in</h1>
{error_p(error)}
<form id="sign_in_form" method="post" action="/sessions">
  <p><label>Email <input id="user_email" name="email" type="email" value="{e(email)}"></label></p>
  <p><label>Password <input id="user_password" name="password" type="password"></label></p>
  <button id="sign_in_button" type="submit">Sign in</button>
</form>
<p><a id="sign_up_link" href="/sign_up">Create new account</a></p>""")


def sign_up_page(error=None, form=None):
    form = form or {}

    def field(name, label, kind="text"):
        value = "" if kind == "password" else f' value="{e(form.get(name, ""))}"'
        return (f'<p><label>{label} <input id="user_{name}" name="{name}" type="{kind}"{value}>'
                f'</label></p>')

    return layout("Sign up", f"""<h1>Sign up</h1>
{error_p(error)}
<form id="sign_up_form" method="post" action="/users">
  {field("first_name", "First name")}
  {field("last_name", "Last name")}
  {field("email", "Email", "email")}
  {field("password", "Password", "password")}
  {field("password_confirmation", "Confirm password", "password")}
  <button id="sign_up_button" type="submit">Sign up</button>
</form>
<p><a href="/">Sign in</a></p>""")


def board_links(boards):
    return "".join(f'<li><a class="board" href="/boards/{b["id"]}">{e(b["name"])}</a></li>'
                   for b in boards)


def boards_page(user, owned, shared):
    return layout("Boards", f"""<h2>My boards</h2>
<ul id="owned_boards">{board_links(owned)}</ul>
<p id="boards_count"></p>
<p><a id="add_new_board" href="#new_board_form">Add new board</a></p>
<form id="new_board_form" method="post" action="/boards" hidden>
  <label>Name <input id="board_name" name="name"></label>
  <button id="create_board_button" type="submit">Create board</button>
</form>
<h2>Shared with me</h2>
<ul id="shared_boards">{board_links(shared)}</ul>""", user)


def board_page(user, board, lists, members, error=None):
    path = f'/boards/{board["id"]}'
    lists_html = "".join(f'<div class="list"><h4 class="list_name">{e(l["name"])}</h4></div>'
                         for l in lists)
    options = "".join(f'<option value="{l["id"]}">{e(l["name"])}</option>' for l in lists)
    members_html = "".join(f'<li>{e(m["email"])}</li>' for m in members)
    return layout(board["name"], f"""<h3 id="board_name_title">{e(board["name"])}</h3>
{error_p(error)}
<section id="lists">{lists_html}</section>
<form id="new_list_form" method="post" action="{path}/lists">
  <label>New list <input id="list_name" name="name"></label>
  <button id="add_list_button" type="submit">Add list</button>
</form>
<form id="rename_list_form" method="post" action="{path}/lists/rename">
  <select id="rename_list_select" name="list_id">{options}</select>
  <input id="new_list_name" name="name">
  <button id="rename_list_button" type="submit">Rename list</button>
</form>
<h4>Members</h4>
<ul id="members">{members_html}</ul>
<form id="add_member_form" method="post" action="{path}/members">
  <label>Email <input id="member_email" name="email" type="email"></label>
  <button id="add_member_button" type="submit">Share</button>
</form>
<form id="rename_board_form" method="post" action="{path}/rename">
  <label>New name <input id="new_board_name" name="name"></label>
  <button id="rename_board_button" type="submit">Rename board</button>
</form>
<form id="delete_board_form" method="post" action="{path}/delete">
  <button id="delete_board_button" type="submit">Delete board</button>
</form>""", user)


# --- HTTP --------------------------------------------------------------------

BOARD_URL = re.compile(r"^/boards/(\d+)(/[a-z/]*)?$")


class Handler(BaseHTTPRequestHandler):
    store = None  # set in main()
    server_version = "Boards/1.0"

    # responses

    def send(self, status, body, content_type="text/html; charset=utf-8", headers=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def redirect(self, location, headers=()):
        self.send_response(303)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()

    def not_found(self):
        self.send(404, layout("Not found", "<h1>Not found</h1>", self.current_user()))

    # request helpers

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        data = parse_qs(self.rfile.read(length).decode(), keep_blank_values=True)
        return {key: values[0] for key, values in data.items()}

    def session_token(self):
        jar = cookies.SimpleCookie(self.headers.get("Cookie", ""))
        return jar["session"].value if "session" in jar else None

    def current_user(self):
        token = self.session_token()
        if not token:
            return None
        with self.store.db() as db:
            return db.execute("SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id "
                              "WHERE token = ?", (token,)).fetchone()

    def sign_in_as(self, user_id):
        token = secrets.token_urlsafe(24)
        with self.store.db() as db:
            db.execute("INSERT INTO sessions (token, user_id) VALUES (?, ?)", (token, user_id))
        self.redirect("/boards", [("Set-Cookie",
                                   f"session={token}; Path=/; HttpOnly; SameSite=Lax")])

    def visible_board(self, board_id):
        """The board if the current user owns it or is a member, else None."""
        user_id = self.current_user()["id"]
        with self.store.db() as db:
            return db.execute(
                "SELECT * FROM boards WHERE id = ? AND (owner_id = ? OR id IN "
                "(SELECT board_id FROM members WHERE user_id = ?))",
                (board_id, user_id, user_id)).fetchone()

    # routing

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        user = self.current_user()
        if path == "/static/app.js":
            with open(os.path.join(STATIC_DIR, "app.js"), encoding="utf-8") as f:
                return self.send(200, f.read(), "text/javascript; charset=utf-8")
        if path == "/":
            return self.redirect("/boards") if user else self.send(200, sign_in_page())
        if path == "/sign_up":
            return self.redirect("/boards") if user else self.send(200, sign_up_page())
        if path == "/sign_out":
            with self.store.db() as db:
                db.execute("DELETE FROM sessions WHERE token = ?", (self.session_token(),))
            return self.redirect("/", [("Set-Cookie", "session=; Path=/; Max-Age=0")])
        if not user:
            return self.redirect("/") if path.startswith("/boards") else self.not_found()
        if path == "/boards":
            return self.show_boards()
        match = BOARD_URL.match(path)
        if match and not match.group(2):
            return self.show_board(int(match.group(1)))
        return self.not_found()

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        form = self.form()
        if path == "/sessions":
            return self.create_session(form)
        if path == "/users":
            return self.create_user(form)
        if not self.current_user():
            return self.redirect("/")
        if path == "/boards":
            return self.create_board(form)
        match = BOARD_URL.match(path)
        action = match and {"/lists": self.add_list, "/lists/rename": self.rename_list,
                            "/members": self.add_member, "/rename": self.rename_board,
                            "/delete": self.delete_board}.get(match.group(2))
        board = action and self.visible_board(int(match.group(1)))
        if not board:
            return self.not_found()
        return action(board, form)

    # pages

    def show_boards(self):
        user = self.current_user()
        with self.store.db() as db:
            owned = db.execute("SELECT * FROM boards WHERE owner_id = ? ORDER BY id",
                               (user["id"],)).fetchall()
            shared = db.execute("SELECT boards.* FROM boards JOIN members ON board_id = boards.id "
                                "WHERE user_id = ? ORDER BY boards.id", (user["id"],)).fetchall()
        self.send(200, boards_page(user, owned, shared))

    def show_board(self, board_id, error=None):
        board = self.visible_board(board_id)
        if not board:
            return self.not_found()
        with self.store.db() as db:
            lists = db.execute("SELECT * FROM lists WHERE board_id = ? ORDER BY id",
                               (board_id,)).fetchall()
            members = db.execute("SELECT users.email FROM members JOIN users ON users.id = user_id "
                                 "WHERE board_id = ? ORDER BY users.email", (board_id,)).fetchall()
        self.send(422 if error else 200,
                  board_page(self.current_user(), board, lists, members, error))

    # actions

    def create_session(self, form):
        email = form.get("email", "").strip().lower()
        with self.store.db() as db:
            user = db.execute("SELECT * FROM users WHERE email = ?", (email,)).fetchone()
        if not user or not check_password(form.get("password", ""), user["password_hash"]):
            return self.send(422, sign_in_page("Invalid email or password", email))
        self.sign_in_as(user["id"])

    def create_user(self, form):
        first, last = form.get("first_name", "").strip(), form.get("last_name", "").strip()
        email, password = form.get("email", "").strip().lower(), form.get("password", "")
        error = None
        if not (first and last and email and password):
            error = "All fields are required"
        elif password != form.get("password_confirmation", ""):
            error = "Password confirmation doesn't match"
        else:
            with self.store.db() as db:
                try:
                    user_id = db.execute(
                        "INSERT INTO users (first_name, last_name, email, password_hash) "
                        "VALUES (?, ?, ?, ?)", (first, last, email, hash_password(password))).lastrowid
                except sqlite3.IntegrityError:
                    error = "Email has already been taken"
        if error:
            return self.send(422, sign_up_page(error, form))
        self.sign_in_as(user_id)

    def create_board(self, form):
        name = form.get("name", "").strip()
        if name:
            owner_id = self.current_user()["id"]
            with self.store.db() as db:
                db.execute("INSERT INTO boards (name, owner_id) VALUES (?, ?)", (name, owner_id))
        self.redirect("/boards")

    def add_list(self, board, form):
        name = form.get("name", "").strip()
        if name:
            with self.store.db() as db:
                db.execute("INSERT INTO lists (board_id, name) VALUES (?, ?)", (board["id"], name))
        self.redirect(f'/boards/{board["id"]}')

    def rename_list(self, board, form):
        name = form.get("name", "").strip()
        if name:
            with self.store.db() as db:
                db.execute("UPDATE lists SET name = ? WHERE id = ? AND board_id = ?",
                           (name, form.get("list_id"), board["id"]))
        self.redirect(f'/boards/{board["id"]}')

    def add_member(self, board, form):
        email = form.get("email", "").strip().lower()
        with self.store.db() as db:
            member = db.execute("SELECT id FROM users WHERE email = ?", (email,)).fetchone()
            if member and member["id"] != board["owner_id"]:
                db.execute("INSERT OR IGNORE INTO members (board_id, user_id) VALUES (?, ?)",
                           (board["id"], member["id"]))
        if not member:
            return self.show_board(board["id"], "User not found")
        self.redirect(f'/boards/{board["id"]}')

    def rename_board(self, board, form):
        name = form.get("name", "").strip()
        if name:
            with self.store.db() as db:
                db.execute("UPDATE boards SET name = ? WHERE id = ?", (name, board["id"]))
        self.redirect(f'/boards/{board["id"]}')

    def delete_board(self, board, form):
        if board["owner_id"] != self.current_user()["id"]:
            return self.not_found()  # members may look, only the owner deletes
        with self.store.db() as db:
            db.execute("DELETE FROM boards WHERE id = ?", (board["id"],))
        self.redirect("/boards")

    def log_message(self, fmt, *args):  # one line per request, to the log file
        print(f"{self.address_string()} {fmt % args}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--db", required=True, help="SQLite file (created and seeded if missing)")
    args = parser.parse_args()
    Handler.store = Store(args.db)
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    print(f"boards listening on http://{args.host}:{args.port} (db {args.db})", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
