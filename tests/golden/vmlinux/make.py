#!/usr/bin/python3
"""Writes a vmlinux for the recorded kernel from its kallsyms, the way a distribution's debug
package ships one (objcopy --only-keep-debug: section headers, .symtab, the build-id note;
the code sections NOBITS), linked where an unrelocated kernel is (_text at LINK), so that
readers relocate it by the recording's `_text` as they do a KASLR kernel's.

Symbols: the table's text symbols as STT_FUNC (LOCAL for 't', GLOBAL for 'T', WEAK for 'W')
sized to the next symbol, every fifth one half as long (a gap after it, where addresses have
no symbol as in a real vmlinux); _text, _stext and __entry_text_start as zero-size NOTYPE
labels; text from SPLIT on in a section of its own (.sched.text), which perf maps as
"[kernel.kallsyms].sched.text". No DWARF.

Usage: make.py KALLSYMS OUT BUILD_ID_HEX [--no-symtab]
"""
import struct
import sys

LINK = 0xffffffff80000000
SPLIT_AT = '__schedule'

kallsyms, out, build_id = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3])
with_symtab = '--no-symtab' not in sys.argv[4:]

syms = []
for line in open(kallsyms):
    f = line.split()
    if len(f) < 3 or f[1] not in 'tTW':
        continue
    syms.append((int(f[0], 16), f[1], f[2]))
syms.sort(key=lambda s: s[0])
text = next(a for a, _, n in syms if n == '_text')
reloc = text - LINK
end = (syms[-1][0] + 0x1000) & ~0xfff
split = next(a for a, _, n in syms if n == SPLIT_AT)

# Section headers: name, type, flags, addr, size; offsets laid out below.
SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_NOBITS, SHT_NOTE = 1, 2, 3, 8, 7
SHF_ALLOC, SHF_EXECINSTR = 2, 4
sections = [
    ('', 0, 0, 0, 0),
    ('.text', SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, text - reloc, split - text),
    ('.sched.text', SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, split - reloc, end - split),
    ('.notes', SHT_NOTE, SHF_ALLOC, 0, 0),
    ('.symtab', SHT_SYMTAB, 0, 0, 0),
    ('.strtab', SHT_STRTAB, 0, 0, 0),
    ('.shstrtab', SHT_STRTAB, 0, 0, 0),
]
TEXT, SCHED, NOTES, SYMTAB, STRTAB, SHSTRTAB = 1, 2, 3, 4, 5, 6

shstrtab = b'\0'
name_off = []
for s in sections:
    name_off.append(len(shstrtab) if s[0] else 0)
    if s[0]:
        shstrtab += s[0].encode() + b'\0'

note = struct.pack('<III', 4, len(build_id), 3) + b'GNU\0' + build_id
note += b'\0' * (-len(note) % 4)

entries = []
labels = {'_text', '_stext', '__entry_text_start'}
fn = 0
for i, (addr, kind, name) in enumerate(syms):
    if addr >= end:
        continue
    shndx = SCHED if addr >= split else TEXT
    if name in labels:
        info, size = (1 << 4) | 0, 0  # GLOBAL NOTYPE
    else:
        nxt = next((a for a, _, _ in syms[i + 1:] if a > addr), end)
        size = nxt - addr
        fn += 1
        if fn % 5 == 0:
            size = max(1, size // 2)
        bind = {'t': 0, 'T': 1, 'W': 2}[kind]
        info = (bind << 4) | 2  # FUNC
    entries.append((name, info, shndx, addr - reloc, size))
# As linkers write it: the local symbols first (sh_info is the first global's index).
entries.sort(key=lambda e: (e[1] >> 4) != 0)
first_global = 1 + sum(1 for e in entries if (e[1] >> 4) == 0)
strtab = b'\0'
symtab = b'\0' * 24
for name, info, shndx, value, size in entries:
    symtab += struct.pack('<IBBHQQ', len(strtab), info, 0, shndx, value, size)
    strtab += name.encode() + b'\0'
if not with_symtab:
    symtab = b''

# File layout: header, program header (PT_NOTE), note, symtab, strtab, shstrtab, sections.
off = 64 + 56
blobs = {}
for idx, blob in ((NOTES, note), (SYMTAB, symtab), (STRTAB, strtab), (SHSTRTAB, shstrtab)):
    off = (off + 7) & ~7
    blobs[idx] = (off, blob)
    off += len(blob)
shoff = (off + 7) & ~7
# NOBITS sections sit where the full vmlinux has them: the code from 0x200000 on.
text_off = 0x200000

body = bytearray(shoff + 64 * len(sections))
struct.pack_into('<16sHHIQQQIHHHHHH', body, 0,
                 b'\x7fELF\x02\x01\x01' + b'\0' * 9, 2, 62, 1, text - reloc, 64, shoff, 0,
                 64, 56, 1, 64, len(sections), SHSTRTAB)
noff, nblob = blobs[NOTES]
struct.pack_into('<IIQQQQQQ', body, 64, 4, 4, noff, 0, 0, len(nblob), len(nblob), 4)
for idx, (o, blob) in blobs.items():
    body[o:o + len(blob)] = blob
for i, (name, typ, flags, addr, size) in enumerate(sections):
    o, link, info, align, entsize = 0, 0, 0, 0, 0
    if i in (TEXT, SCHED):
        o, align = text_off + (addr - (text - reloc)), 64
    elif i in blobs:
        o, blob = blobs[i]
        size = len(blob)
        align = 8 if i == SYMTAB else (4 if i == NOTES else 1)
    if i == NOTES:
        addr = end - reloc
    if i == SYMTAB:
        if not with_symtab:
            typ = SHT_PROGBITS
        link, info, entsize = STRTAB, first_global, 24
    struct.pack_into('<IIQQQQIIQQ', body, shoff + 64 * i, name_off[i], typ, flags, addr, o,
                     size, link, info, align, entsize)
open(out, 'wb').write(body)
