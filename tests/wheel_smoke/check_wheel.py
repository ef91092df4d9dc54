"""Checks a repaired cunumpy wheel: a manylinux tag; each library once
(libcunumpy a single file, neither OpenBLAS nor a CUDA library bundled);
every library that needs another of the wheel finds it through a RUNPATH
entry relative to $ORIGIN; libcunumpy's RUNPATH names scipy-openblas32's
folder and the CUDA plugin's NVIDIA's wheel folder; the scipy-openblas32
dependency and the [ctk] extra in the metadata; the license files, with
every bundled library named in LICENSES_bundled.txt. Usage: check_wheel.py WHEEL"""
import os
import re
import subprocess
import sys
import tempfile
import zipfile

whl = sys.argv[1]
errors = []
name = os.path.basename(whl)
if not re.search(r"-manylinux_2_\d+_x86_64\.whl$", name):
    errors.append(f"{name}: no manylinux platform tag")


def dynamic(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True,
                         text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\).*\[(.+)\]", out)
    runpath = re.findall(r"\((?:RUNPATH|RPATH)\).*\[(.+)\]", out)
    return needed, (runpath[0].split(":") if runpath else [])


with tempfile.TemporaryDirectory() as tmp:
    with zipfile.ZipFile(whl) as z:
        z.extractall(tmp)
        meta = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = z.read(meta[0]).decode()
        info = os.path.dirname(meta[0])
        names = set(z.namelist())
        bundled = ""
        for f in ("LICENSE", "LICENSES_bundled.txt"):
            member = [n for n in names
                      if n.startswith(info + "/") and n.endswith("/" + f)]
            if not member:
                errors.append(f"{info}: no {f}")
            elif f == "LICENSES_bundled.txt":
                bundled = z.read(member[0]).decode()
        for text in re.findall(r"^License text: (.+)$", bundled, re.M):
            for t in text.split(", "):
                if not any(n.startswith(info + "/") and n.endswith("/" + t)
                           for n in names):
                    errors.append(f"{info}: no {t}, named in "
                                  "LICENSES_bundled.txt")
        named = {s.strip() for line in
                 re.findall(r"^Files: (.+)$", bundled, re.M)
                 for s in line.split(",")}
    libs = {}
    for root, _, files in os.walk(tmp):
        for f in files:
            p = os.path.join(root, f)
            if os.path.islink(p):
                errors.append(f"{f}: a symbolic link")
            if ".so" in f:
                libs[os.path.relpath(p, tmp)] = p
    # one file per library: the name up to auditwheel's hash or ".so"
    stems = {}
    for rel in libs:
        stem = re.sub(r"(-[0-9a-f]{8})?\.so.*$", "", os.path.basename(rel))
        stems.setdefault(stem, []).append(rel)
    for stem, rels in stems.items():
        if len(rels) > 1:
            errors.append(f"{stem} is in the wheel {len(rels)} times: {rels}")
    if "libcunumpy" not in stems:
        errors.append("no libcunumpy in the wheel")
    for stem, rels in stems.items():
        if (any(r.startswith("cunumpy.libs/") for r in rels)
                and stem not in named):
            errors.append(f"{stem}: bundled, but LICENSES_bundled.txt "
                          "does not name it")
    for stem in stems:
        if re.match(r"lib(nvrtc|cublas|cublasLt|cusolver|cufft|cusparse|"
                    r"nvJitLink|cuda|cudart|scipy_openblas|openblas.*)$", stem):
            errors.append(f"{stem}: bundled, but it is a dependency")
    by_name = {os.path.basename(r): r for r in libs}
    for rel, path in sorted(libs.items()):
        needed, runpath = dynamic(path)
        here = os.path.dirname(path)
        dirs = [os.path.normpath(e.replace("$ORIGIN", here))
                for e in runpath if e.startswith("$ORIGIN")]
        for n in needed:
            if n not in by_name:
                continue
            target = os.path.dirname(libs[by_name[n]])
            if target not in dirs:
                errors.append(f"{rel}: needs {n} (in {target}) but its "
                              f"RUNPATH is {':'.join(runpath) or 'empty'}")
        want = {"libcunumpy_cuda.so": "$ORIGIN/../nvidia/cu13/lib",
                "libcunumpy.so.0": "$ORIGIN/../scipy_openblas32/lib"}
        entry = want.get(os.path.basename(rel))
        if entry is not None and entry not in runpath:
            errors.append(f"{rel}: RUNPATH {runpath} lacks {entry}")
        print(f"{rel}: RUNPATH {':'.join(runpath) or '-'}")
if "Provides-Extra: ctk" not in metadata or "cuda-toolkit" not in metadata:
    errors.append("METADATA: no [ctk] extra naming cuda-toolkit")
if not re.search(r"^License(-Expression)?: BSD-3-Clause", metadata, re.M):
    errors.append("METADATA: no BSD-3-Clause license")
if not re.search(r"^Requires-Dist: scipy-openblas32", metadata, re.M):
    errors.append("METADATA: scipy-openblas32 is not a dependency")
for e in errors:
    print("check_wheel:", e, file=sys.stderr)
if errors:
    sys.exit(1)
print(f"check_wheel: {name}: {len(libs)} libraries, each once, "
      "all found through $ORIGIN")
