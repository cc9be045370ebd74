"""Progress on stderr: a plain line with rate and ETA when stderr is not a terminal."""

from __future__ import annotations

import io

from crewcheck.runtime.progress import Progress, format_duration


def test_a_plain_line_per_period_with_rate_and_eta_from_the_share_read() -> None:
    """Not a terminal: whole lines (no carriage returns); the ETA comes from the share of
    the input read when the total is unknown."""
    out = io.StringIO()
    bar = Progress("decide", unit="deal", stream=out, every=0.0)
    bar.update(5, fraction=0.25)
    bar.close()
    line = out.getvalue()
    assert "\r" not in line and line.endswith("\n")
    assert line.startswith("decide: 5 deals (25 % of the input), ") and "deals/s" in line and "ETA" in line


def test_no_line_before_the_period_and_none_when_disabled() -> None:
    out = io.StringIO()
    bar = Progress("x", total=10, stream=out, every=3600.0)
    bar.update(3)
    assert out.getvalue() == ""
    quiet = Progress("x", total=10, stream=out, every=0.0, enabled=False)
    quiet.update(3)
    assert out.getvalue() == "" and "3/10 items (30 %)" in quiet.line()


def test_durations() -> None:
    assert [format_duration(s) for s in (42, 723, 11100, 2 * 86400 + 14400)] == ["0:42", "12:03", "3:05:00",
                                                                               "2d 4:00:00"]
