"""A software-rendered screen gives way to the link.

Without a GPU driver (a tablet or board on Mesa's llvmpipe, and Xvfb in the tests and benches)
each frame is rasterised by llvmpipe's worker threads, one per core, for tens of milliseconds
on a small CPU. A box's call arriving meanwhile waits for a core: the link thread that reads it,
the journal commit and the STATEs to the boxes all queue behind the drawing. Those workers are
given a lower scheduling priority (a higher nice value) than the rest of the app, so the kernel
runs the link path first and the drawing takes what is left. The app's own thread keeps its
priority: it holds the GIL while it builds a frame, and the link thread must not wait on a
thread the kernel keeps off the CPU. With a GPU there are no such threads and nothing changes.
"""
from __future__ import annotations

import os

RENDER_NICE = 10  # added to the workers' nice value: about a tenth of a core when others want it
PREFIXES = ("llvmpipe",)  # Mesa's software rasteriser names its workers llvmpipe-0, -1, ...


def lower_render_threads(delta: int = RENDER_NICE) -> int:
    """Raise the nice value of this process's software-rendering threads by `delta` (Linux:
    per-thread priority; elsewhere a no-op). Returns how many threads were changed; threads
    already lowered are left as they are, so calling it again is harmless."""
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return 0
    own = os.getpriority(os.PRIO_PROCESS, 0)
    done = 0
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
            if not name.startswith(PREFIXES):
                continue
            t = int(tid)
            if os.getpriority(os.PRIO_PROCESS, t) < own + delta:
                os.setpriority(os.PRIO_PROCESS, t, min(19, own + delta))
                done += 1
        except (OSError, ValueError):
            continue  # the thread ended meanwhile, or the platform has no per-thread priority
    return done
