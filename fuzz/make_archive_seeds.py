#!/usr/bin/python3
"""Makes the seeds of fuzz/corpus/symbol_archive/: small symbol archives in each form the
reader takes.

    fuzz/make_archive_seeds.py fuzz/corpus/symbol_archive

- `framed.tar.zst`: readperf archive's layout, each tar header and each member's data a zstd
  frame of its own with its size stated (made with the zstd command, one file per frame);
- `one-frame.tar.zst`: the same tar in one frame of unknown size (`zstd` reading a pipe);
- `pax.tar`, `gnu.tar`: uncompressed, with names past 100 bytes as pax records and as GNU
  long-name members; links to directories and files, a link loop, a hard link.
Members are perf's build-id cache layout with a kallsyms excerpt and a small ELF file
(tests/data/inline_demo, cut to its first 2 KiB: the reader does not parse members).
"""
import io
import os
import subprocess
import sys
import tarfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ID = "30f110c4ba7a42424ce5a830f159053c61f21cf7"
KALLSYMS = b"ffffffff81000000 T _text\nffffffff81000100 T do_work\nffffffff81000200 t helper\n"


def members():
    elf = open(os.path.join(ROOT, "tests", "data", "inline_demo"), "rb").read()[:2048]
    cache = "tmp/gold/spin/" + ID
    out = [
        ("file", cache + "/elf", elf),
        ("link", ".build-id/30/" + ID[2:], "../../" + cache),
        ("file", "[kernel.kallsyms]/" + ID + "/kallsyms", KALLSYMS),
        ("file", "usr/lib/" + "x" * 120 + "/libdeep.so/" + ID + "/debug", elf[:512]),
        ("link", "loop/a", "b"),
        ("link", "loop/b", "a"),
        ("hard", "hard-elf", cache + "/elf"),
    ]
    return out


def tar_bytes(fmt):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for kind, name, data in members():
            info = tarfile.TarInfo(name)
            info.mtime = 0
            if kind == "file":
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            else:
                info.type = tarfile.SYMTYPE if kind == "link" else tarfile.LNKTYPE
                info.linkname = data
                t.addfile(info)
    return buf.getvalue()


def zstd(data, pipe):
    # From a pipe the zstd command cannot state the size; from a file it does.
    if pipe:
        return subprocess.run(["zstd", "-q", "-c", "-"], input=data, capture_output=True,
                              check=True).stdout
    path = "/tmp/readperf-seed-frame"
    with open(path, "wb") as f:
        f.write(data)
    out = subprocess.run(["zstd", "-q", "-c", "--check", path], capture_output=True,
                         check=True).stdout
    os.unlink(path)
    return out


def framed(tar):
    # Split the tar at member boundaries: header blocks, then data plus padding.
    out = b""
    pos = 0
    while pos < len(tar):
        header = tar[pos:pos + 512]
        if header == b"\0" * 512:
            out += zstd(tar[pos:], False)
            break
        size = int(header[124:136].rstrip(b"\0 ") or b"0", 8)
        typ = header[156:157]
        data_len = 0 if typ in (b"1", b"2", b"5") else (size + 511) // 512 * 512
        out += zstd(header, False)
        if data_len:
            out += zstd(tar[pos + 512:pos + 512 + data_len], False)
        pos += 512 + data_len
    return out


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    pax = tar_bytes(tarfile.PAX_FORMAT)
    seeds = {
        "framed.tar.zst": framed(pax),
        "one-frame.tar.zst": zstd(pax, True),
        "pax.tar": pax,
        "gnu.tar": tar_bytes(tarfile.GNU_FORMAT),
    }
    for name, data in seeds.items():
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
        print("%s: %d bytes" % (name, len(data)))


if __name__ == "__main__":
    main()
