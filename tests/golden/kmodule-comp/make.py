#!/usr/bin/python3
"""Writes kmodule-comp from default/perf.data and kmodule's fakemod.ko: kmodule's recording
(../kmodule/make.py) with four compressed modules instead of one, as Debian ships them
(/lib/modules/REL/kernel/.../NAME.ko.xz):

  fakexz.ko.xz   MMAP, root/ holds it xz-compressed (`xz --check=crc32 --lzma2=dict=1MiB`, as
                 the kernel's modules_install compresses)
  fakegz.ko.gz   MMAP, root/ holds it gzip-compressed (`gzip -n`)
  fakezst.ko.zst MMAP, root/ holds it zstd-compressed: perf 6.1 reads no .ko.zst (dso.c
                 compressions[] has gz and xz), so the name is no module's
  fakebid.ko.xz  MMAP2 with a build-id (`ld -r --build-id=sha1` of fakemod.ko), found only in
                 the build-id cache perf reads under --symfs (root/.debug), xz-compressed as
                 perf record copies a module there

Every third kernel sample (the first kernel-mode sample among them) moves into a module, in
turn. root-odd/ holds damaged files: fakexz.ko.xz cut short, fakegz.ko.gz the plain ELF.
kallsyms is kmodule's with the four modules' lines in place of fakemod's.
Usage (in this folder): python3 make.py ../default/perf.data perf.data"""
import gzip
import importlib.util
import lzma
import os
import shutil
import struct
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("kmodule_make",
                                              os.path.join(here, "../kmodule/make.py"))
km = importlib.util.module_from_spec(spec)
spec.loader.exec_module(km)

REL = "lib/modules/6.18.44-fc-v657"
FAKEMOD = os.path.join(here, "../kmodule/root", REL, "kernel/fake/fakemod.ko")
MODULES = [  # name, suffix, base, with build-id
    ("fakexz", "xz", 0xffffffffc0a00000, False),
    ("fakegz", "gz", 0xffffffffc0a10000, False),
    ("fakezst", "zst", 0xffffffffc0a20000, False),
    ("fakebid", "xz", 0xffffffffc0a30000, True),
]


def module_path(name, suffix):
    return "/%s/kernel/fake/%s.ko.%s" % (REL, name, suffix)


def compress(data, suffix):
    if suffix == "xz":
        return lzma.compress(data, check=lzma.CHECK_CRC32,
                             filters=[{"id": lzma.FILTER_LZMA2, "dict_size": 1 << 20}])
    if suffix == "gz":
        return gzip.compress(data, mtime=0)
    return subprocess.run(["zstd", "-q", "-19", "-c"], input=data, check=True,
                          capture_output=True).stdout


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(data)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    plain = open(FAKEMOD, "rb").read()
    tmp = os.path.join(here, "fakebid.ko.tmp")
    subprocess.run(["ld", "-r", "--build-id=sha1", "-o", tmp, FAKEMOD], check=True)
    with_id = open(tmp, "rb").read()
    os.remove(tmp)
    # The NT_GNU_BUILD_ID note: namesz 4, descsz 20, type 3, "GNU\0", the 20 bytes.
    note = struct.pack("<III", 4, 20, 3) + b"GNU\0"
    at = with_id.index(note) + len(note)
    bid = with_id[at:at + 20]
    bid_hex = bid.hex()

    for root in ("root", "root-odd"):
        shutil.rmtree(os.path.join(here, root), ignore_errors=True)
    for name, suffix, base, has_id in MODULES:
        path = module_path(name, suffix)
        if has_id:
            cached = os.path.join(here, "root/.debug", path.lstrip("/"), bid_hex, "elf")
            write(cached, compress(with_id, suffix))
            link = os.path.join(here, "root/.debug/.build-id", bid_hex[:2], bid_hex[2:])
            os.makedirs(os.path.dirname(link))
            os.symlink(os.path.relpath(os.path.dirname(cached), os.path.dirname(link)), link)
        else:
            write(os.path.join(here, "root", path.lstrip("/")), compress(plain, suffix))
    odd = os.path.join(here, "root-odd", REL, "kernel/fake")
    write(os.path.join(odd, "fakexz.ko.xz"), compress(plain, "xz")[:300])
    write(os.path.join(odd, "fakegz.ko.gz"), plain)

    lines = open(os.path.join(here, "../kmodule/kallsyms")).read().splitlines()
    kallsyms = [l for l in lines if not l.endswith("\t[fakemod]")]
    for name, suffix, base, has_id in MODULES:
        for l in lines:
            if l.endswith("\t[fakemod]"):
                addr, rest = l.split(" ", 1)
                off = int(addr, 16) - km.MODULE_BASE
                kallsyms.append("%016x %s" % (base + off, rest.replace("[fakemod]",
                                                                        "[%s]" % name)))
    open(os.path.join(here, "kallsyms"), "w").write("\n".join(kallsyms) + "\n")

    d = bytearray(open(src, "rb").read())
    km.insert_after_kernel_mmap(d, lambda trailer: [
        km.module_mmap(module_path(n, s).encode(), base, km.MODULE_LEN, trailer,
                       bid if has_id else None) for n, s, base, has_id in MODULES])
    km.move_kernel_samples(
        d, 0, lambda n: MODULES[n % 4][2] + (n // 4 * 29) % 0x140)
    open(dst, "wb").write(d)


if __name__ == "__main__":
    main()
