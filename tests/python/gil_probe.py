"""A probe for tests that a call releases the GIL: a thread spins, counting,
while the call runs; with the GIL held throughout, it would not count at all."""
import threading
import time


def ticks_during(call, warmup_s=0.05):
    """(ticks the spinning thread made while `call()` ran, seconds the call took)."""
    ticks, stop = [0], threading.Event()

    def spin():
        while not stop.is_set():
            ticks[0] += 1

    thread = threading.Thread(target=spin)
    thread.start()
    try:
        time.sleep(warmup_s)
        start = time.perf_counter()
        before = ticks[0]
        call()
        after = ticks[0]
        elapsed = time.perf_counter() - start
    finally:
        stop.set()
        thread.join()
    return after - before, elapsed
