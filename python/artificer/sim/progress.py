"""The sweep's progress on the terminal (rich): runs done, each build's W20 clear rate so far, ETA.
Without rich, or off a terminal, a plain line every tenth of the sweep on stderr."""

from __future__ import annotations

import sys
from collections import Counter
from types import TracebackType
from typing import Any

from artificer.sim.sweep import Task


class SweepProgress:
    def __init__(self, tasks: list[Task], builds: list[str], enabled: bool = True) -> None:
        self.total = len(tasks)
        self.builds = builds
        self.enabled = enabled
        self.finished: Counter[str] = Counter()
        self.cleared: Counter[str] = Counter()
        self._bar: Any = None
        self._task_id: Any = None
        self._count = 0

    def clear_rates(self) -> str:
        return "  ".join(f"{b} {self.cleared[b]}/{self.finished[b]}" for b in self.builds if self.finished[b])

    def __enter__(self) -> SweepProgress:
        if not self.enabled or not sys.stderr.isatty():
            return self
        try:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        except ImportError:
            return self
        self._bar = Progress(
            TextColumn("runs"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            TextColumn("W20 clears: {task.fields[rates]}"),
            transient=False,
        )
        self._bar.__enter__()
        self._task_id = self._bar.add_task("sweep", total=self.total, rates="")
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, error, trace)

    def done(self, task: Task, rows: dict[str, Any]) -> None:
        self._count += 1
        self.finished[task.build] += 1
        self.cleared[task.build] += int(rows["run"]["cleared_w20"])
        if self._bar is not None:
            self._bar.update(self._task_id, advance=1, rates=self.clear_rates())
        elif self.enabled and (self._count == self.total or self._count % max(1, self.total // 10) == 0):
            print(f"artificer sim: {self._count}/{self.total} runs; W20 clears: {self.clear_rates()}", file=sys.stderr)
