"""The wheel (issue 14): `pip wheel .` gives griffin-<version>-cp3XX-...-linux_x86_64.whl
that installs into a clean venv and runs there without the project's apt
packages: every shared library the extension and the bundled CLI load is
the C/C++ runtime, pyarrow's, or one bundled in griffin/_libs.

Building the wheel costs a few minutes cold (ccache makes a rebuild quick), so
the test runs when GRIFFIN_WHEEL_TEST=1, or with GRIFFIN_WHEEL=path/to.whl (a
wheel built before: scripts/test.sh builds it once). The venv gets pyarrow and
numpy from pip's cache or index, never from the project venv."""
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from griffin_cli import REPO_ROOT, require_binary

pytestmark = pytest.mark.skipif(
    not (os.environ.get("GRIFFIN_WHEEL_TEST") or os.environ.get("GRIFFIN_WHEEL")),
    reason="set GRIFFIN_WHEEL_TEST=1 (builds the wheel) or GRIFFIN_WHEEL=path")

RULES = REPO_ROOT / "examples" / "transactions.rules.yaml"
DATA = REPO_ROOT / "examples" / "transactions.csv"
# What every Linux has: glibc's libraries, the C++ runtime, the vDSO.
SYSTEM_LIBS = re.compile(r"^(linux-vdso|ld-linux-x86-64|libc|libm|libdl|librt|libpthread|libresolv|libutil|"
                         r"libstdc\+\+|libgcc_s)\.so")


# The wheel built by this pytest process: test_spark_shipping.py installs the same one
# (building it takes minutes).
_BUILT: list = []


def build_wheel(out_dir: pathlib.Path) -> pathlib.Path:
    given = os.environ.get("GRIFFIN_WHEEL")
    if given:
        return pathlib.Path(given)
    if _BUILT:
        return _BUILT[0]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out_dir), str(REPO_ROOT)],
                   check=True, timeout=1800, env={**os.environ, "CCACHE_BASEDIR": str(REPO_ROOT.parent)})
    wheels = list(out_dir.glob("griffin-*.whl"))
    assert len(wheels) == 1, wheels
    _BUILT.append(wheels[0])
    return wheels[0]


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(tmp)
    assert re.fullmatch(r"griffin-\d+\.\d+\.\d+-cp3\d+-cp3\d+-linux_x86_64\.whl", wheel.name), wheel.name
    venv = tmp / "venv"
    # A clean venv: no system site-packages, no .pth into the project venv.
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True, timeout=900)
    return venv


def site_packages(venv: pathlib.Path) -> pathlib.Path:
    return next((venv / "lib").glob("python3*/site-packages"))


def loaded_libraries(path: pathlib.Path) -> dict:
    """ldd's view of `path`: {soname: resolved path}; 'not found' fails."""
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=True, timeout=60).stdout
    libs = {}
    for line in out.splitlines():
        line = line.strip()
        assert "not found" not in line, f"{path.name}: {line}"
        name = line.split()[0]
        match = re.search(r"=> (\S+)", line)
        libs[name] = os.path.realpath(match.group(1)) if match else name
    return libs


def test_every_library_is_bundled_or_the_runtime_or_pyarrow(wheel_venv):
    site = pathlib.Path(os.path.realpath(site_packages(wheel_venv)))
    package = site / "griffin"
    binaries = [package / "bin" / "griffin", *package.glob("_griffin*.so")]
    assert len(binaries) == 2, binaries
    bundled = {p.name for p in (package / "_libs").iterdir()}
    for names in ("libyaml-cpp", "libre2", "libsimdjson", "libpq", "librdkafka"):
        assert any(n.startswith(names) for n in bundled), (names, bundled)
    # ldd resolves each binary's whole closure as the loader does (the
    # binaries' DT_RPATH also serves the bundled libraries' own dependencies).
    for binary in binaries:
        for name, resolved in loaded_libraries(binary).items():
            if SYSTEM_LIBS.match(os.path.basename(name)):
                continue
            assert resolved.startswith(str(package / "_libs")) or resolved.startswith(str(site / "pyarrow")), \
                f"{binary.name} loads {name} from {resolved}, outside the wheel and pyarrow"


def test_cli_runs_the_example_as_the_build_does(wheel_venv):
    args = ["validate", "-r", str(RULES), str(DATA), "--format", "json", "--no-store", "--threads", "2"]
    # No LD_LIBRARY_PATH and no project venv on the way.
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    ours = subprocess.run([str(wheel_venv / "bin" / "griffin"), *args], capture_output=True, text=True,
                          timeout=120, env=env)
    theirs = subprocess.run([str(require_binary()), *args], capture_output=True, text=True, timeout=120)
    assert ours.returncode == theirs.returncode == 1, ours.stderr
    drop = ("run_id", "elapsed_s")
    assert {k: v for k, v in json.loads(ours.stdout).items() if k not in drop} == \
        {k: v for k, v in json.loads(theirs.stdout).items() if k not in drop}


def test_python_runs_the_example_as_the_cli_does(wheel_venv):
    script = (
        "import json, sys, griffin\n"
        "report = griffin.Validator(sys.argv[1]).validate(sys.argv[2])\n"
        "print(json.dumps({'rows': report.rows, 'bad_rows': report.bad_rows, 'score': report.quality_score,\n"
        "                  'file': griffin.__file__}))\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    out = subprocess.run([str(wheel_venv / "bin" / "python"), "-c", script, str(RULES), str(DATA)],
                         capture_output=True, text=True, timeout=120, env=env, cwd="/")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["file"].startswith(str(site_packages(wheel_venv)))
    cli = subprocess.run([str(require_binary()), "validate", "-r", str(RULES), str(DATA), "--format", "json",
                          "--no-store"], capture_output=True, text=True, timeout=120)
    expected = json.loads(cli.stdout)
    assert (got["rows"], got["bad_rows"], got["score"]) == \
        (expected["rows"], expected["bad_rows"], expected["quality_score"])


def test_the_wheel_runs_on_a_bare_debian_without_the_project_packages(tmp_path):
    """The wheel on a machine that never ran scripts/setup.sh: a bare Debian 12
    root (debootstrap minbase + python3, python3-venv and ca-certificates;
    scripts/bare_debian_root.sh) has none of the project's apt packages. A
    venv made there by its own python3 installs the wheel with pyarrow and
    numpy from the index; the CLI and Python then validate the example and
    give the build's report; so does the CLI of a copy installed apart from
    pyarrow (--target). Run through chroot (needs root).
    Found on first run: the wheel's RPATHs carried the build machine's
    pyarrow path (now $ORIGIN only)."""
    import shutil
    if os.geteuid() != 0 or not shutil.which("debootstrap") or not shutil.which("unshare"):
        pytest.skip("needs root and debootstrap (ci/apt-packages.txt) to make a bare Debian root")
    root = pathlib.Path(subprocess.run([str(REPO_ROOT / "scripts" / "bare_debian_root.sh")], capture_output=True,
                                       text=True, check=True, timeout=900).stdout.strip())
    for lib in ("libyaml-cpp.so", "libre2.so", "libsimdjson.so", "libpq.so", "librdkafka.so", "libarrow.so"):
        assert not list(root.glob(f"usr/lib/x86_64-linux-gnu/{lib}*")), f"{lib} is in the bare root"
    wheel = build_wheel(tmp_path)
    work = root / "tmp" / f"griffin-wheel-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        for path in (wheel, RULES, DATA):
            shutil.copy(path, work / path.name)
        inside = "/" + str(work.relative_to(root))
        script = (f"set -e; cd {inside}; python3 -m venv env; env/bin/pip install -q --disable-pip-version-check "
                  f"{wheel.name}; env/bin/griffin validate -r {RULES.name} {DATA.name} --format json --no-store "
                  f"> cli.json || [ $? -eq 1 ]; env/bin/python -c 'import json, griffin; r = griffin.Validator("
                  f"\"{RULES.name}\").validate(\"{DATA.name}\"); print(json.dumps([r.rows, r.bad_rows, "
                  f"r.quality_score]))' > py.json; "
                  # griffin and pyarrow in different site directories (a --user install beside a system
                  # pyarrow): the RPATH misses pyarrow, and _cli.py's LD_LIBRARY_PATH finds it.
                  f"env/bin/pip install -q --disable-pip-version-check --no-deps --target apart {wheel.name}; "
                  f"PYTHONPATH=apart env/bin/python -c 'import griffin._cli as c, sys; sys.argv = [\"griffin\", "
                  f"\"validate\", \"-r\", \"{RULES.name}\", \"{DATA.name}\", \"--format\", \"json\", "
                  f"\"--no-store\"]; c.main()' > apart.json || [ $? -eq 1 ]")
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
               "PIP_DEFAULT_TIMEOUT": os.environ.get("PIP_DEFAULT_TIMEOUT", "180")}
        # /proc mounted in a private mount namespace (gone with it): the loader
        # resolves $ORIGIN in an RPATH through /proc/self/exe.
        run = subprocess.run(["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                              'mount -t proc proc "$0/proc" && exec chroot "$0" /bin/sh -c "$1"', str(root), script],
                             capture_output=True, text=True, timeout=1200, env=env)
        assert run.returncode == 0, run.stderr[-3000:]
        ours = json.loads((work / "cli.json").read_text())
        theirs = subprocess.run([str(require_binary()), "validate", "-r", str(RULES), str(DATA), "--format", "json",
                                 "--no-store"], capture_output=True, text=True, timeout=120)
        expected = json.loads(theirs.stdout)
        drop = ("run_id", "elapsed_s", "inputs", "threads")
        assert {k: v for k, v in ours.items() if k not in drop} == \
            {k: v for k, v in expected.items() if k not in drop}
        assert json.loads((work / "py.json").read_text()) == \
            [expected["rows"], expected["bad_rows"], expected["quality_score"]]
        apart = json.loads((work / "apart.json").read_text())
        assert {k: v for k, v in apart.items() if k not in drop} == {k: v for k, v in ours.items() if k not in drop}
    finally:
        shutil.rmtree(work, ignore_errors=True)
