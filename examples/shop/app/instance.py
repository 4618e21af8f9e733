"""Worker instances of the shop application: the boards example's instance handling
(examples/boards/app/instance.py: reset, stop, stray servers, pid files) with the shop's
server, name and ports. Worker W listens on port 18180 + W and keeps its files in
${TMPDIR:-/tmp}/untangle-shop-W/ (shop.sqlite3, server.pid, server.log)."""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "boards_instance", os.path.join(HERE, "..", "..", "boards", "app", "instance.py"))
_boards = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_boards)
_boards.SERVER = os.path.join(HERE, "server.py")
_boards.BASE_PORT = 18180
_boards.NAME = "shop"

port, runtime_dir, reset, stop, main = (_boards.port, _boards.runtime_dir, _boards.reset,
                                        _boards.stop, _boards.main)
