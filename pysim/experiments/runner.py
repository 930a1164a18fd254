"""Running an experiment's batches: in this process, on a local Dask
cluster (one single-threaded worker process per core), or on an existing
cluster by its scheduler's address; writing each row as its batch completes.

Only this (the client) process writes rows, one whole batch per write,
flushed and synced, when the batch's result has arrived. A worker that dies
mid-batch has written nothing; the scheduler runs its batch again on
another worker (Dask's own recovery: a task survives up to
`distributed.scheduler.allowed-failures` worker deaths), and the rows file
gets that batch once. A run killed mid-write leaves at most a partial last
line, which `RowFile.done` (pysim/experiments/rows.py) cuts off before
resuming, after checking every other line.
"""
from __future__ import annotations

import logging
import os
import sys
import time

from pysim.experiments.rows import RowError, RowFile  # noqa: F401 - the rows file, re-exported for the command
from pysim.experiments.trials import Job, run_batch, warm

TIMEOUT = 30.0  # seconds, the default bound on waiting for a scheduler or for a cluster's workers


class ClusterError(RuntimeError):
    """The cluster cannot run the trials: no scheduler answered, or it has no workers.
    timed_out: the timeout ended the wait (the command then names its option)."""

    def __init__(self, message: str, timed_out: bool = True) -> None:
        super().__init__(message)
        self.timed_out = timed_out


def cost(point, trials) -> float:
    """A batch's work, roughly: frames cost a fixed part plus one per boid."""
    return len(trials) * (point.boids + 20.0)


def batch_size(trials: int, workers: int) -> int:
    """Trials per task: about 20 tasks per worker, so the last ones leave
    little idle (a task's overhead is a few ms against a trial's ~0.1 s),
    at most 25 trials (a lost worker costs little), at least 1."""
    return max(1, min(25, -(-trials // max(1, workers * 20))))


def make_batches(todo, size: int) -> list:
    """[(point, [(trial, seed), ...]), ...]: `todo` (point, trial, seed) in
    runs of at most `size` trials of one point."""
    out, cur = [], None
    for point, trial, seed in todo:
        if cur is None or cur[0].index != point.index or len(cur[1]) >= size:
            cur = (point, [])
            out.append(cur)
        cur[1].append((trial, seed))
    return out


class Progress:
    """trials done / total, trials per second (this run's), time left; a
    bar redrawn in place on a terminal, a line every 10 s otherwise. The
    time left weighs each trial by its flock size (`cost`), since a
    200-boid trial takes far longer than a 10-boid one."""

    def __init__(self, total: int, done: int = 0, stream=None, every: float = 10.0, work: float = 0.0) -> None:
        self.total, self.start_done, self.done = total, done, done
        self.work_left, self.work_done = work, 0.0
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = self.last = time.monotonic()
        self.every = 0.2 if self.tty else every
        self.shown = -1

    def text(self) -> str:
        dt = time.monotonic() - self.t0
        ran = self.done - self.start_done
        rate = ran / dt if dt > 0 else 0.0
        if self.work_left > 0 and self.work_done > 0:
            left = (self.work_left - self.work_done) * dt / self.work_done
        else:
            left = (self.total - self.done) / rate if rate > 0 else None
        pct = 100.0 * self.done / self.total if self.total else 100.0
        width = 24
        fill = int(width * self.done / self.total) if self.total else width
        return (f"[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} trials ({pct:.0f}%), "
                f"{rate:.1f} trials/s, {_duration(left)} left")

    def update(self, n: int, work: float = 0.0) -> None:
        self.done += n
        self.work_done += work
        now = time.monotonic()
        if now - self.last >= self.every or self.done >= self.total:
            self.last = now
            self._show()

    def _show(self) -> None:
        self.shown = self.done
        if self.tty:
            self.stream.write("\r" + self.text() + "\x1b[K")
        else:
            self.stream.write(self.text() + "\n")
        self.stream.flush()

    def close(self, drawn_only: bool = False) -> None:
        """Show the last count and end the bar's line; drawn_only (a run
        stopped before any trial): only end a bar already drawn."""
        if drawn_only and self.shown < 0:
            return
        if self.shown != self.done:
            self._show()
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()


def _duration(s) -> str:
    if s is None:
        return "?"
    s = int(round(s))
    return f"{s // 3600}h{s // 60 % 60:02d}m" if s >= 3600 else (f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s")


def run(job: Job, batches: list, sink: RowFile, workers: int | None = None, scheduler: str | None = None,
        progress: Progress | None = None, on_rows=None, clock: dict | None = None,
        timeout: float = TIMEOUT) -> str:
    """Run the batches; rows go to `sink` as each batch completes. workers:
    0 = in this process (no Dask), None = one per core, N = N local
    workers; `scheduler` = an existing cluster. on_rows(rows, client) is
    called after each batch is written (client None in-process). Returns
    a sentence saying where it ran. `clock`, if given, gets the
    perf_counter times 'ready' (workers up) and 'end' (last row written).
    `timeout` bounds each wait on the cluster: a scheduler that does not
    answer, a cluster with no workers (at the start or later, while no
    batch completes): ClusterError."""
    clock = {} if clock is None else clock
    if scheduler is None and workers == 0:
        clock["ready"] = time.perf_counter()
        for point, trials in batches:
            rows = run_batch(job, point, trials)
            sink.append(rows)
            _after(rows, cost(point, trials), None, progress, on_rows)
        clock["end"] = time.perf_counter()
        return "in this process"
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=f"{timeout}s")
        except (OSError, TimeoutError, ValueError) as e:
            if "Timed out" in str(e) or isinstance(e, TimeoutError):
                raise ClusterError(f"no Dask scheduler answered at {scheduler} within {timeout:g} s") from None
            raise ClusterError(f"cannot reach a Dask scheduler at {scheduler}: {e}", timed_out=False) from None
        with client:
            try:
                client.wait_for_workers(1, timeout=timeout)
            except TimeoutError:
                raise ClusterError(f"the Dask cluster at {scheduler} has no workers: none joined within "
                                   f"{timeout:g} s") from None
            n = len(client.nthreads())
            _run_dask(client, job, batches, sink, progress, on_rows, clock, timeout)
        return f"on the cluster at {scheduler} ({n} workers when it started)"
    import dask

    n = workers or os.cpu_count() or 1
    # on the loopback only; the scheduler's HTTP server (always started) on a free port
    with dask.config.set(WORKER_CONFIG), \
            LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as client:
        client.wait_for_workers(n, timeout=120)
        _run_dask(client, job, batches, sink, progress, on_rows, clock, timeout)
    return f"on a local Dask cluster of {n} worker process{'es' if n != 1 else ''}"


# The worker processes' settings. Dask's nanny sets MALLOC_TRIM_THRESHOLD_=65536 in a worker's
# environment (and its own): glibc then returns freed memory to the system eagerly, and the
# trials' many small numpy arrays ran 20 % slower in a worker than in-process; unset, the same.
# The workers' statistical profiler (a thread taking the GIL every 10 ms to walk the running
# task's stack) feeds only the dashboard: off.
WORKER_CONFIG = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                 "distributed.worker.profile.enabled": False,
                 "distributed.admin.system-monitor.gil.enabled": False}


def _run_dask(client, job: Job, batches: list, sink: RowFile, progress, on_rows, clock: dict,
              timeout: float = TIMEOUT) -> None:
    from distributed import wait

    client.run(warm, job)  # every worker loads the model and its kernel once, before the clock
    clock["ready"] = time.perf_counter()
    # the largest batches first (Dask runs in submission order): no 200-boid batch left alone at the end
    batches = sorted(batches, key=lambda b: -cost(*b))
    futures = [client.submit(run_batch, job, point, trials, pure=False, retries=2,
                             key=f"boidsgen-trials-{job.key[:8]}-p{point.index}-t{trials[0][0]}")
               for point, trials in batches]
    work = {f.key: cost(p, t) for f, (p, t) in zip(futures, batches)}
    pending = set(futures)
    try:
        while pending:
            try:
                done, pending = wait(pending, timeout=timeout, return_when="FIRST_COMPLETED")
            except TimeoutError:
                _still_has_workers(client, timeout)
                continue
            for fut in done:
                rows = _result(client, fut, timeout)
                sink.append(rows)
                _after(rows, work[fut.key], client, progress, on_rows)
        clock["end"] = time.perf_counter()
    finally:
        client.cancel(futures)


def _still_has_workers(client, timeout: float) -> None:
    """After a wait of `timeout` with nothing done: a long batch (go on
    waiting), or a cluster whose workers all left (ClusterError)."""
    if not client.nthreads():
        raise ClusterError(f"the Dask cluster has had no workers for {timeout:g} s")


def _result(client, fut, timeout: float):
    """A finished batch's rows. Bounded too: a result held by a worker that
    then left is computed again, which needs a worker."""
    while True:
        try:
            return fut.result(timeout=timeout)
        except TimeoutError:
            _still_has_workers(client, timeout)


def _after(rows, work: float, client, progress, on_rows) -> None:
    if progress is not None:
        progress.update(len(rows), work)
    if on_rows is not None:
        on_rows(rows, client)
