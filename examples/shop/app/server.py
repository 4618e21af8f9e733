#!/usr/bin/python3
"""The shop application: a small web shop that behaves like a real one, for untangle's examples.

    python3 server.py --port 18180 --db /tmp/shop.sqlite3

Python standard library only. Server-rendered HTML, sessions by cookie, SQLite storage
(the admin account is seeded when the database is created). What makes it realistic,
and its suite hard to untangle (see ../README.md and ../EXPECTED.md):

- signing in and signing up take LOGIN_DELAY_S seconds (a slow password check);
- each user sees a "What's new" dialog covering every page after signing in, until
  they dismiss it once (a flag stored with the user);
- the product page's "Add to cart" button is enabled by app.js once the stock check
  is done: at once, or now and then (SHOP_FLAKY, default 0.05 of the renders) after
  500-1000 ms, so that a test clicking it without waiting fails now and then, even on a
  loaded machine (a click 100-200 ms late found it enabled at a load of 12);
- archived products leave the catalogue until they are restored.

Environment: SHOP_FLAKY, the share of product pages whose button comes late (0 turns
the flakiness off); SHOP_FLAKY_SEED, an integer seed for that draw (default: random).
"""

import argparse
import contextlib
import hashlib
import html
import os
import random
import re
import secrets
import sqlite3
import threading
import time
from http import cookies
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
ADMIN = ("Ada", "Admin", "admin@shop.test", "s3cret-admin")
LOGIN_DELAY_S = 0.7

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
    is_admin INTEGER NOT NULL DEFAULT 0, welcome_dismissed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id));
CREATE TABLE IF NOT EXISTS products (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, price_cents INTEGER NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS cart_items (
    user_id INTEGER NOT NULL REFERENCES users(id),
    product_id INTEGER NOT NULL REFERENCES products(id),
    quantity INTEGER NOT NULL, PRIMARY KEY (user_id, product_id));
CREATE TABLE IF NOT EXISTS orders (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
    total_cents INTEGER NOT NULL);
"""


# --- storage -----------------------------------------------------------------

class Store:
    """One SQLite connection per call, serialised by a lock (the shop is tiny)."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        with self.db() as db:
            db.executescript(SCHEMA)
            if not db.execute("SELECT 1 FROM users").fetchone():
                first, last, email, password = ADMIN
                db.execute("INSERT INTO users (first_name, last_name, email, password_hash, "
                           "is_admin) VALUES (?, ?, ?, ?, 1)",
                           (first, last, email, hash_password(password)))

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


def money(cents):
    return f"{cents // 100}.{cents % 100:02d}"


def parse_money(text):
    match = re.fullmatch(r"\s*(\d{1,6})(?:[.,](\d{1,2}))?\s*", text or "")
    if not match:
        return None
    return int(match.group(1)) * 100 + int((match.group(2) or "0").ljust(2, "0"))


class StockCheck:
    """How long app.js waits before enabling "Add to cart" (the intermittent element)."""

    def __init__(self):
        self.share = float(os.environ.get("SHOP_FLAKY", "0.05") or 0)
        seed = os.environ.get("SHOP_FLAKY_SEED")
        self.random = random.Random(int(seed) if seed else None)
        self.lock = threading.Lock()

    def delay_ms(self):
        with self.lock:
            if self.share > 0 and self.random.random() < self.share:
                return self.random.randint(500, 1000)
            return 0


# --- HTML --------------------------------------------------------------------

e = html.escape  # every piece of user text goes through this


def welcome_dialog(path):
    return f"""<div id="welcome_modal" role="dialog" aria-modal="true">
<div class="dialog">
<h2 id="welcome_title">What's new in the shop</h2>
<p>Free delivery on every order this month, and a brand-new order history.</p>
<form method="post" action="/welcome">
  <input type="hidden" name="next" value="{e(path)}">
  <button id="dismiss_welcome" type="submit">Got it</button>
</form>
</div>
</div>"""


def layout(title, body, user=None, path="/", cart_count=0):
    if user:
        admin = '<a id="admin_link" href="/admin/products">Admin</a> ' if user["is_admin"] else ""
        nav = (f'<a id="catalogue_link" href="/products">Shop</a> {admin}'
               f'<a id="cart_link" href="/cart">Cart (<span id="cart_count">{cart_count}</span>)</a> '
               f'<a id="orders_link" href="/orders">My orders</a> '
               f'<span id="current_user">{e(user["first_name"])} {e(user["last_name"])}</span> '
               f'<a id="sign_out_link" href="/sign_out">Sign out</a>')
    else:
        nav = ('<a id="catalogue_link" href="/products">Shop</a> '
               '<a id="sign_in_link" href="/login">Sign in</a> '
               '<a id="sign_up_link" href="/sign_up">Create account</a>')
    modal = welcome_dialog(path) if user and not user["welcome_dismissed"] else ""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{e(title)} - Shop</title>
<style>
  body {{ font-family: sans-serif; margin: 2em; max-width: 40em; }}
  nav {{ display: flex; gap: 1em; border-bottom: 1px solid #ccc; padding-bottom: .5em; }}
  #error {{ color: #b00; }}
  form {{ margin: .5em 0; }}
  #welcome_modal {{ position: fixed; inset: 0; background: rgba(0, 0, 0, .5); z-index: 10; }}
  #welcome_modal .dialog {{ background: #fff; margin: 6em auto; padding: 1em; width: 20em; }}
</style>
<script src="/static/app.js" defer></script>
</head>
<body>
<nav>{nav}</nav>
{body}
{modal}
</body>
</html>
"""


def error_p(message):
    return f'<p id="error">{e(message)}</p>' if message else ""


def login_page(error=None, email=""):
    return f"""<h1>Sign in</h1>
{error_p(error)}
<form id="sign_in_form" method="post" action="/sessions">
  <p><label>Email <input id="user_email" name="email" type="email" value="{e(email)}"></label></p>
  <p><label>Password <input id="user_password" name="password" type="password"></label></p>
  <button id="sign_in_button" type="submit">Sign in</button>
</form>"""


def sign_up_page(error=None, form=None):
    form = form or {}

    def field(name, label, kind="text"):
        value = "" if kind == "password" else f' value="{e(form.get(name, ""))}"'
        return (f'<p><label>{label} <input id="user_{name}" name="{name}" type="{kind}"{value}>'
                f'</label></p>')

    return f"""<h1>Create account</h1>
{error_p(error)}
<form id="sign_up_form" method="post" action="/users">
  {field("first_name", "First name")}
  {field("last_name", "Last name")}
  {field("email", "Email", "email")}
  {field("password", "Password", "password")}
  <button id="sign_up_button" type="submit">Create account</button>
</form>"""


def catalogue_page(products, query):
    count = f'{len(products)} product{"" if len(products) == 1 else "s"}'
    items = "".join(f'<li><a class="product" href="/products/{p["id"]}">{e(p["name"])}</a> '
                    f'<span class="price">{money(p["price_cents"])}</span></li>' for p in products)
    return f"""<h1>Products</h1>
<form id="search_form" method="get" action="/products">
  <input id="search_query" name="q" value="{e(query)}">
  <button id="search_button" type="submit">Search</button>
</form>
<p id="product_count">{count}</p>
<ul id="products">{items}</ul>"""


def product_page(product, user, delay_ms):
    if user:
        buy = (f'<form id="add_to_cart_form" method="post" action="/cart">'
               f'<input type="hidden" name="product_id" value="{product["id"]}">'
               f'<button id="add_to_cart" type="submit" disabled data-stock-check-ms="{delay_ms}">'
               f'Add to cart</button></form>')
    else:
        buy = '<p><a id="sign_in_to_buy" href="/login">Sign in to buy</a></p>'
    return f"""<h1 id="product_name">{e(product["name"])}</h1>
<p>Price: <span id="product_price">{money(product["price_cents"])}</span></p>
{buy}"""


def cart_page(items):
    if not items:
        return '<h1>Cart</h1>\n<p id="cart_empty">Your cart is empty</p>'
    rows = "".join(f'<li>{e(i["name"])} x {i["quantity"]}</li>' for i in items)
    total = sum(i["price_cents"] * i["quantity"] for i in items)
    return f"""<h1>Cart</h1>
<ul id="cart_items">{rows}</ul>
<p>Total: <span id="cart_total">{money(total)}</span></p>
<form method="post" action="/orders"><button id="checkout_button" type="submit">Check out</button></form>"""


def orders_page(orders):
    if not orders:
        return '<h1>My orders</h1>\n<p id="no_orders">You have no orders yet</p>'
    rows = "".join(f'<li><a class="order" href="/orders/{o["id"]}">Order #{o["id"]}</a> '
                   f'<span class="order_total">{money(o["total_cents"])}</span></li>' for o in orders)
    return f'<h1>My orders</h1>\n<ul id="orders">{rows}</ul>'


def order_page(order):
    return f"""<h1 id="order_title">Thank you for your order</h1>
<p>Order <span id="order_number">#{order["id"]}</span>,
total <span id="order_total">{money(order["total_cents"])}</span></p>"""


def admin_products_page(active, archived):
    def rows(products, action, label):
        return "".join(
            f'<li><span class="name">{e(p["name"])}</span> {money(p["price_cents"])} '
            f'<form method="post" action="/admin/products/{p["id"]}/{action}">'
            f'<button class="{action}" type="submit">{label}</button></form></li>'
            for p in products)

    return f"""<h1>Manage products</h1>
<p><a id="add_product_link" href="/admin/products/new">Add product</a></p>
<h2>Active</h2>
<ul id="active_products">{rows(active, "archive", "Archive")}</ul>
<h2>Archived</h2>
{"" if archived else '<p id="no_archived">No archived products</p>'}
<ul id="archived_products">{rows(archived, "restore", "Restore")}</ul>
<form method="post" action="/admin/products/restore_all">
  <button id="restore_all_button" type="submit">Restore all archived products</button>
</form>"""


def new_product_page(error=None, form=None):
    form = form or {}
    return f"""<h1>Add product</h1>
{error_p(error)}
<form id="new_product_form" method="post" action="/admin/products">
  <p><label>Name <input id="product_name_input" name="name" value="{e(form.get("name", ""))}"></label></p>
  <p><label>Price <input id="product_price_input" name="price" value="{e(form.get("price", ""))}"></label></p>
  <button id="save_product_button" type="submit">Save product</button>
</form>"""


# --- HTTP --------------------------------------------------------------------

ID_URL = re.compile(r"^/(products|orders)/(\d+)$")
ADMIN_ACTION_URL = re.compile(r"^/admin/products/(\d+)/(archive|restore)$")


class Handler(BaseHTTPRequestHandler):
    store = None        # set in main()
    stock_check = None  # set in main()
    server_version = "Shop/1.0"

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

    def page(self, title, body, status=200):
        user = self.current_user()
        count = 0
        if user:
            with self.store.db() as db:
                count = db.execute("SELECT COALESCE(SUM(quantity), 0) FROM cart_items "
                                   "WHERE user_id = ?", (user["id"],)).fetchone()[0]
        self.send(status, layout(title, body, user, self.path, count))

    def redirect(self, location, headers=()):
        self.send_response(303)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()

    def not_found(self):
        self.page("Not found", "<h1>Not found</h1>", 404)

    # request helpers

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        data = parse_qs(self.rfile.read(length).decode(), keep_blank_values=True)
        return {key: values[0] for key, values in data.items()}

    def query(self):
        data = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
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
        self.redirect("/products", [("Set-Cookie",
                                     f"session={token}; Path=/; HttpOnly; SameSite=Lax")])

    # routing

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = urlsplit(self.path).path
        user = self.current_user()
        if path == "/static/app.js":
            with open(os.path.join(STATIC_DIR, "app.js"), encoding="utf-8") as f:
                return self.send(200, f.read(), "text/javascript; charset=utf-8")
        if path == "/":
            return self.redirect("/products")
        if path in ("/login", "/sign_up"):
            if user:
                return self.redirect("/products")
            return self.page("Sign in", login_page()) if path == "/login" else \
                self.page("Create account", sign_up_page())
        if path == "/sign_out":
            with self.store.db() as db:
                db.execute("DELETE FROM sessions WHERE token = ?", (self.session_token(),))
            return self.redirect("/products", [("Set-Cookie", "session=; Path=/; Max-Age=0")])
        if path == "/products":
            return self.show_catalogue(self.query().get("q", "").strip())
        match = ID_URL.match(path)
        if match and match.group(1) == "products":
            return self.show_product(int(match.group(2)), user)
        if not user:
            return self.redirect("/login")
        if path == "/cart":
            return self.show_cart(user)
        if path == "/orders":
            return self.show_orders(user)
        if match:
            return self.show_order(int(match.group(2)), user)
        if user["is_admin"] and path == "/admin/products":
            return self.show_admin_products()
        if user["is_admin"] and path == "/admin/products/new":
            return self.page("Add product", new_product_page())
        return self.not_found()

    def do_POST(self):
        path = urlsplit(self.path).path
        form = self.form()
        if path == "/sessions":
            return self.create_session(form)
        if path == "/users":
            return self.create_user(form)
        user = self.current_user()
        if not user:
            return self.redirect("/login")
        if path == "/welcome":
            return self.dismiss_welcome(user, form)
        if path == "/cart":
            return self.add_to_cart(user, form)
        if path == "/orders":
            return self.check_out(user)
        if not user["is_admin"]:
            return self.not_found()
        if path == "/admin/products":
            return self.create_product(form)
        if path == "/admin/products/restore_all":
            return self.restore_all()
        match = ADMIN_ACTION_URL.match(path)
        if match:
            return self.set_archived(int(match.group(1)), match.group(2) == "archive")
        return self.not_found()

    # pages

    def show_catalogue(self, query):
        with self.store.db() as db:
            products = db.execute("SELECT * FROM products WHERE archived = 0 AND name LIKE ? "
                                  "ORDER BY id", (f"%{query}%",)).fetchall()
        self.page("Products", catalogue_page(products, query))

    def show_product(self, product_id, user):
        with self.store.db() as db:
            product = db.execute("SELECT * FROM products WHERE id = ? AND archived = 0",
                                 (product_id,)).fetchone()
        if not product:
            return self.not_found()
        self.page(product["name"], product_page(product, user, self.stock_check.delay_ms()))

    def show_cart(self, user):
        with self.store.db() as db:
            items = db.execute("SELECT products.name, products.price_cents, quantity FROM cart_items "
                               "JOIN products ON products.id = product_id WHERE user_id = ? "
                               "ORDER BY products.id", (user["id"],)).fetchall()
        self.page("Cart", cart_page(items))

    def show_orders(self, user):
        with self.store.db() as db:
            orders = db.execute("SELECT * FROM orders WHERE user_id = ? ORDER BY id",
                                (user["id"],)).fetchall()
        self.page("My orders", orders_page(orders))

    def show_order(self, order_id, user):
        with self.store.db() as db:
            order = db.execute("SELECT * FROM orders WHERE id = ? AND user_id = ?",
                               (order_id, user["id"])).fetchone()
        if not order:
            return self.not_found()
        self.page(f"Order #{order_id}", order_page(order))

    def show_admin_products(self):
        with self.store.db() as db:
            products = db.execute("SELECT * FROM products ORDER BY id").fetchall()
        self.page("Manage products", admin_products_page(
            [p for p in products if not p["archived"]], [p for p in products if p["archived"]]))

    # actions

    def create_session(self, form):
        time.sleep(LOGIN_DELAY_S)  # a slow password check, as in real applications
        email = form.get("email", "").strip().lower()
        with self.store.db() as db:
            user = db.execute("SELECT * FROM users WHERE email = ?", (email,)).fetchone()
        if not user or not check_password(form.get("password", ""), user["password_hash"]):
            return self.page("Sign in", login_page("Invalid email or password", email), 422)
        self.sign_in_as(user["id"])

    def create_user(self, form):
        time.sleep(LOGIN_DELAY_S)
        first, last = form.get("first_name", "").strip(), form.get("last_name", "").strip()
        email, password = form.get("email", "").strip().lower(), form.get("password", "")
        error = None
        if not (first and last and email and password):
            error = "All fields are required"
        else:
            with self.store.db() as db:
                try:
                    user_id = db.execute(
                        "INSERT INTO users (first_name, last_name, email, password_hash) "
                        "VALUES (?, ?, ?, ?)", (first, last, email, hash_password(password))).lastrowid
                except sqlite3.IntegrityError:
                    error = "Email has already been taken"
        if error:
            return self.page("Create account", sign_up_page(error, form), 422)
        self.sign_in_as(user_id)

    def dismiss_welcome(self, user, form):
        with self.store.db() as db:
            db.execute("UPDATE users SET welcome_dismissed = 1 WHERE id = ?", (user["id"],))
        target = form.get("next", "/")
        self.redirect(target if target.startswith("/") and not target.startswith("//") else "/")

    def add_to_cart(self, user, form):
        with self.store.db() as db:
            product = db.execute("SELECT id FROM products WHERE id = ? AND archived = 0",
                                 (form.get("product_id"),)).fetchone()
            if product:
                db.execute("INSERT INTO cart_items (user_id, product_id, quantity) VALUES (?, ?, 1) "
                           "ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = quantity + 1",
                           (user["id"], product["id"]))
        if not product:
            return self.not_found()
        self.redirect("/cart")

    def check_out(self, user):
        with self.store.db() as db:
            total = db.execute("SELECT SUM(price_cents * quantity) FROM cart_items JOIN products "
                               "ON products.id = product_id WHERE user_id = ?",
                               (user["id"],)).fetchone()[0]
            if total is None:
                order_id = None
            else:
                order_id = db.execute("INSERT INTO orders (user_id, total_cents) VALUES (?, ?)",
                                      (user["id"], total)).lastrowid
                db.execute("DELETE FROM cart_items WHERE user_id = ?", (user["id"],))
        self.redirect(f"/orders/{order_id}" if order_id else "/cart")

    def create_product(self, form):
        name, price = form.get("name", "").strip(), parse_money(form.get("price"))
        error = None
        if not name or price is None:
            error = "Name and a price like 12.50 are required"
        else:
            with self.store.db() as db:
                try:
                    db.execute("INSERT INTO products (name, price_cents) VALUES (?, ?)", (name, price))
                except sqlite3.IntegrityError:
                    error = "A product with that name exists"
        if error:
            return self.page("Add product", new_product_page(error, form), 422)
        self.redirect("/admin/products")

    def set_archived(self, product_id, archived):
        with self.store.db() as db:
            db.execute("UPDATE products SET archived = ? WHERE id = ?", (int(archived), product_id))
        self.redirect("/admin/products")

    def restore_all(self):
        with self.store.db() as db:
            db.execute("UPDATE products SET archived = 0")
        self.redirect("/admin/products")

    def log_message(self, fmt, *args):  # one line per request, to the log file
        print(f"{self.address_string()} {fmt % args}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18180)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--db", required=True, help="SQLite file (created and seeded if missing)")
    args = parser.parse_args()
    Handler.store = Store(args.db)
    Handler.stock_check = StockCheck()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    print(f"shop listening on http://{args.host}:{args.port} (db {args.db}, "
          f"flaky share {Handler.stock_check.share})", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
