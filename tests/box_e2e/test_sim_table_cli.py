"""`python -m hardware.sim.table`, as a person runs it: the command prints the four box commands,
the boxes are started from them (real firmware on MicroPython), and the real tablet behind the
command takes their calls, holds the auction for the director and starts the next board."""
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.conftest import ROOT

pytestmark = [pytest.mark.micropython, pytest.mark.slow]


class Lines:
    """A process's stdout, line by line, read in a thread (so a wait can time out)."""

    def __init__(self, stream):
        self.q: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=lambda: [self.q.put(ln) for ln in stream], daemon=True).start()

    def wait(self, pred, timeout: float = 60.0) -> str:  # the limit only ends a hang
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.q.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"not printed within {timeout} s; printed: {self.seen}") from None
            self.seen.append(line.rstrip("\n"))
            if pred(line):
                return line

    def rest(self) -> list[str]:
        """What was printed and not waited for yet (e.g. a traceback at the end)."""
        while not self.q.empty():
            self.seen.append(self.q.get().rstrip("\n"))
        return self.seen


def wait_file(path, text: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not (path.exists() and text in path.read_text()):
        assert time.monotonic() < deadline, (text, path.read_text() if path.exists() else None)
        time.sleep(0.02)


def _ctrl_c_as_in_a_terminal() -> None:
    """The command runs as a person starts it in a terminal, where Ctrl-C is not ignored: a
    suite started in the background without job control (`nohup make test &`) passes SIGINT on
    ignored, and Python then installs no KeyboardInterrupt handler in the child, so the Ctrl-C
    below would not end it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_sim_table_command_plays_a_board_on_the_real_tablet(tmp_path, micropython_bin):
    # -X faulthandler: a hang at Ctrl-C is ended with SIGABRT below, which prints every thread's stack
    cli = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "hardware.sim.table", "--journal",
                            str(tmp_path / "j")],
                           cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, preexec_fn=_ctrl_c_as_in_a_terminal)
    out = Lines(cli.stdout)
    boxes: dict[str, subprocess.Popen] = {}
    try:
        for _ in range(4):
            cmd = shlex.split(out.wait(lambda ln: "--seat" in ln))
            seat = cmd[cmd.index("--seat") + 1]
            boxes[seat] = subprocess.Popen(cmd + ["--screen-file", str(tmp_path / seat)], cwd=ROOT,
                                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.STDOUT, text=True)
        out.wait(lambda ln: ln.startswith("board 1: -"))

        def press(seat: str, keys: str) -> None:
            stdin = boxes[seat].stdin
            assert stdin is not None
            stdin.write(keys + "\n")
            stdin.flush()

        # Board 1, dealer N. S calls the director (2017 L9B): the auction waits for him.
        wait_file(tmp_path / "N", "YOUR TURN")
        press("S", "TD")
        out.wait(lambda ln: "waits for the director" in ln)
        wait_file(tmp_path / "N", "DIRECTOR: wait")  # N's box takes no call meanwhile
        cli.stdin.write("\n")                        # the director has seen to it
        cli.stdin.flush()
        out.wait(lambda ln: "director has seen to it" in ln)
        for seat, keys in (("N", "1 NT OK"), ("E", "P OK"), ("S", "P OK"), ("W", "P OK")):
            wait_file(tmp_path / seat, "YOUR TURN")
            press(seat, keys)
        out.wait(lambda ln: ln.startswith("board 1: 1NT P P P (1NT"))
        # the result is entered and confirmed; the next board comes to the boxes
        out.wait(lambda ln: ln.startswith("board 2: -"))
        wait_file(tmp_path / "E", "Bd2")
    finally:
        for p in boxes.values():
            p.kill()
            p.wait()
        cli.send_signal(signal.SIGINT)  # Ctrl-C, as a person ends it
        try:
            cli.wait(120)  # a busy machine shuts it down slowly: the limit only ends a hang
        except subprocess.TimeoutExpired:
            cli.send_signal(signal.SIGABRT)  # where it hangs, in the output below
            try:
                cli.wait(30)
            except subprocess.TimeoutExpired:
                cli.kill()
                cli.wait()
            time.sleep(1)  # the last lines reach `out`
    assert cli.returncode == 0, "\n".join(out.rest()[-60:])
