"""The machine a benchmark ran on: CPU model, cores, memory, OS, kernel."""
import os
import platform


def _first(path, key):
    try:
        with open(path) as file:
            for line in file:
                if line.startswith(key):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def describe():
    memory_kib = _first("/proc/meminfo", "MemTotal").split()[0]
    os_name = "unknown"
    try:
        with open("/etc/os-release") as file:
            os_name = next(line.split("=", 1)[1].strip().strip('"') for line in file
                           if line.startswith("PRETTY_NAME="))
    except (OSError, StopIteration):
        pass
    return {"cpu": _first("/proc/cpuinfo", "model name"), "cores": os.cpu_count(),
            "memory_gib": round(int(memory_kib) / 2**20, 1) if memory_kib.isdigit() else None,
            "os": os_name, "kernel": platform.release(), "python": platform.python_version()}
