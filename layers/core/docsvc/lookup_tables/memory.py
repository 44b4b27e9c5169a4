"""Building or loading millions of small objects at once, without the cyclic garbage collector
walking them over and over."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for the block, then restore it as it was. The block must not create
    reference cycles: reference counting still frees everything else."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
