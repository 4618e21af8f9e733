#!/usr/bin/python3
"""wrap.py MODES OUTDIR STOP_PID -- COMMAND...: what a hostile test does before the runner
(COMMAND) runs, for tests/contain/run. MODES is a comma-separated list of:

  probe         every ancestor's environment, up to (not including) STOP_PID, the test
                harness, read from /proc/PID/environ (and `cat /proc/$PPID/environ` from a
                shell, as a test would), appended to OUTDIR/environ
  daemon        once per OUTDIR: a double-forked setsid(2) daemon that appends a line to
                OUTDIR/daemon.log every 20 ms for 60 s
  daemon-noenv  the same daemon with an empty environment (no UNTANGLE_RUN marker)
  daemon-child  the same daemon forked once: it stays the runner's child, in its own
                session
  late          the daemon is started by the second invocation, not the first"""
import os
import subprocess
import sys
import time


def ancestors(stop):
    pid, out = os.getpid(), []
    while pid > 1 and pid != stop:
        out.append(pid)
        stat = open(f"/proc/{pid}/stat").read()
        pid = int(stat[stat.rindex(")") + 2:].split()[1])
    return out


def probe(outdir, stop):
    with open(os.path.join(outdir, "environ"), "ab") as f:
        for pid in ancestors(stop):
            comm = open(f"/proc/{pid}/comm").read().strip()
            f.write(f"\n== {pid} {comm}\n".encode())
            try:
                f.write(open(f"/proc/{pid}/environ", "rb").read())
            except OSError as e:
                f.write(f"unreadable: {e}".encode())
        f.write(b"\n== cat /proc/$PPID/environ\n")
        f.write(subprocess.run(["sh", "-c", "cat /proc/$PPID/environ"],
                               stdout=subprocess.PIPE).stdout)


LOOP = ("import sys, time\n"
        "end = time.time() + 60\n"
        "while time.time() < end:\n"
        "    with open(sys.argv[1], 'a') as f:\n"
        "        f.write('%f\\n' % time.time())\n"
        "    time.sleep(0.02)\n")


def daemon(outdir, clear_env, twice=True, late=False):
    with open(os.path.join(outdir, "invocations"), "a+") as f:
        f.write("x\n")
        f.seek(0)
        if late and len(f.read().split()) < 2:
            return
    try:
        os.close(os.open(os.path.join(outdir, "daemon.started"), os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return
    if os.fork():
        return
    os.setsid()
    if twice and os.fork():
        os._exit(0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    env = {} if clear_env else dict(os.environ)
    os.execve(sys.executable, [sys.executable, "-c", LOOP,
                               os.path.join(outdir, "daemon.log")], env)


def main():
    modes, outdir, stop = sys.argv[1].split(","), sys.argv[2], int(sys.argv[3])
    command = sys.argv[sys.argv.index("--") + 1:]
    if "probe" in modes:
        probe(outdir, stop)
    if "daemon" in modes or "daemon-noenv" in modes or "daemon-child" in modes:
        daemon(outdir, "daemon-noenv" in modes, "daemon-child" not in modes, "late" in modes)
        time.sleep(0.1)  # the daemon is on its own before the runner goes on
    os.execvp(command[0], command)


main()
