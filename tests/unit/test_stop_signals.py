"""`make dev` stops on Ctrl-C or SIGTERM however the signal falls against the wait for it."""

from __future__ import annotations

import os
import signal
import threading

from docsvc.local.__main__ import StopSignals


def test_a_signal_that_comes_before_the_wait_is_kept() -> None:
    stop = StopSignals()
    try:
        os.kill(os.getpid(), signal.SIGTERM)  # while the stack is still starting
        stop.wait()  # returns at once
    finally:
        stop.close()


def test_signals_sent_at_any_moment_of_the_wait_end_it_every_time() -> None:
    stop = StopSignals()
    try:
        for attempt in range(200):  # many timings against the wait, from before it to well inside it
            sender = threading.Timer(attempt % 7 * 0.0005, os.kill, (os.getpid(), signal.SIGINT))
            sender.start()
            stop.wait()
            sender.join()
    finally:
        stop.close()


def test_closing_gives_back_the_handlers_it_replaced() -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)

    StopSignals().close()

    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
