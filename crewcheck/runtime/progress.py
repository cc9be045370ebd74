"""Progress of long work on stderr: a bar with rate and ETA on a terminal, a plain line
now and then otherwise (a log file gets a readable history, not carriage returns).

The total may be unknown (a batch read from a pipe); when the share of the input read so
far is known (bytes read of a file's size) the ETA is estimated from it.

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> bar = Progress("decide", total=4, unit="deal", stream=out, every=0.0)
>>> bar.update(2)
>>> "2/4 deals" in out.getvalue()
True
>>> bar.close()
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress", "format_duration"]


def format_duration(seconds: float) -> str:
    """``"0:42"``, ``"12:03"``, ``"3:05:00"``, ``"2d 4:00:00"``."""
    s = max(0, int(round(seconds)))
    days, s = divmod(s, 86400)
    hours, s = divmod(s, 3600)
    minutes, s = divmod(s, 60)
    text = f"{hours}:{minutes:02d}:{s:02d}" if hours else f"{minutes}:{s:02d}"
    return f"{days}d {text}" if days else text


class Progress:
    """Counts finished units and reports them on ``stream``.

    Parameters
    ----------
    label
        What is running (``"decide"``).
    total
        Units in all, or ``None`` if unknown.
    unit
        Singular name of a unit (``"deal"``).
    stream
        Where to write (default: stderr). A terminal gets a bar redrawn in place at most
        ten times a second; anything else a line every ``every`` seconds.
    every
        Seconds between two plain lines (default 30).
    enabled
        ``False``: report nothing.
    """

    def __init__(self, label: str, *, total: int | None = None, unit: str = "item", stream: TextIO | None = None,
                 every: float = 30.0, enabled: bool = True) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = 0.1 if self.tty else every
        self.done = 0
        self.fraction: float | None = None
        self.start = time.monotonic()
        self._shown = self.start
        self._drawn = False

    def update(self, n: int = 1, *, fraction: float | None = None) -> None:
        """Count ``n`` more finished units; ``fraction``: the share of the input read so far."""
        self.done += n
        if fraction is not None:
            self.fraction = fraction
        now = time.monotonic()
        if self.enabled and now - self._shown >= self.every:
            self._shown = now
            self._write(self.line(now))

    def line(self, now: float | None = None) -> str:
        """``"decide: 1,234/10,000 deals (12 %), 15.2 deals/s, ETA 9:36"``."""
        elapsed = max(1e-9, (time.monotonic() if now is None else now) - self.start)
        rate = self.done / elapsed
        share = None
        if self.total:
            share = self.done / self.total
            count = f"{self.done:,}/{self.total:,} {self.unit}s ({100 * share:.0f} %)"
        else:
            share = self.fraction
            count = f"{self.done:,} {self.unit}s" + (f" ({100 * share:.0f} % of the input)" if share else "")
        eta = ""
        if share and 0 < share < 1 and self.done:
            eta = f", ETA {format_duration(elapsed * (1 - share) / share)}"
        return f"{self.label}: {count}, {rate:.3g} {self.unit}s/s, {format_duration(elapsed)} elapsed{eta}"

    def _write(self, text: str) -> None:
        try:
            if self.tty:
                self.stream.write("\r\x1b[K" + text)
                self._drawn = True
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed stderr must not end the run
            self.enabled = False

    def close(self) -> None:
        """Clear the bar from a terminal (the caller prints its own summary)."""
        if self.enabled and self._drawn:
            try:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            except (OSError, ValueError):
                pass
        self._drawn = False
