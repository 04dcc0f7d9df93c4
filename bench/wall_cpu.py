"""Wall and CPU seconds of a step of a benchmark run in this process or in its
children (a griffin subprocess counts once it has exited)."""
import resource
import time


def cpu_seconds():
    """This process's CPU time plus that of its finished children (griffin)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def timed(fn):
    """(wall seconds, CPU seconds, fn's value)."""
    started, cpu = time.perf_counter(), cpu_seconds()
    value = fn()
    return time.perf_counter() - started, cpu_seconds() - cpu, value
