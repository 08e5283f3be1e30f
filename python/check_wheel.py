"""Checks a built wheel before it ships (.ci/run): its platform tag is
manylinux2014 / manylinux_2_17 (installable on glibc 2.17 and later),
its extension module is stripped (no symbol table, no DWARF) and small,
and it carries both licence texts.

    python python/check_wheel.py target/wheels/kifu-*.whl
"""

import re
import struct
import sys
import zipfile

MAX_SO_BYTES = 16 << 20  # the stripped module is about 4 MB
LICENCES = {"LICENSE-MIT", "LICENSE-APACHE"}


def section_names(elf):
    """The section names of a 64-bit little-endian ELF image."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    def header(i):
        return struct.unpack_from("<IIQQQQ", elf, shoff + i * shentsize)
    strtab_off, strtab_size = header(shstrndx)[4:6]
    strtab = elf[strtab_off:strtab_off + strtab_size]
    names = []
    for i in range(shnum):
        name_off = header(i)[0]
        names.append(strtab[name_off:strtab.index(b"\0", name_off)].decode())
    return names


def check(path):
    problems = []
    name = path.rsplit("/", 1)[-1]
    if not re.search(r"-manylinux2014_x86_64\.manylinux_2_17_x86_64\.whl$|"
                     r"-manylinux_2_17_[a-z0-9_]+\.whl$", name):
        problems.append(f"{name}: not tagged manylinux2014 / manylinux_2_17")
    with zipfile.ZipFile(path) as z:
        sos = [i for i in z.infolist() if i.filename.endswith(".so")]
        if len(sos) != 1:
            problems.append(f"{name}: {len(sos)} extension modules, expected 1")
        for info in sos:
            if info.file_size > MAX_SO_BYTES:
                problems.append(f"{info.filename}: {info.file_size} bytes (over {MAX_SO_BYTES})")
            sections = section_names(z.read(info))
            left = [s for s in sections if s == ".symtab" or s.startswith(".debug_")]
            if left:
                problems.append(f"{info.filename}: not stripped ({', '.join(left)})")
        shipped = {n.rsplit("/", 1)[-1] for n in z.namelist() if "/licenses/" in n}
        if not LICENCES <= shipped:
            problems.append(f"{name}: licence texts missing: {sorted(LICENCES - shipped)}")
    return problems


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    problems = [p for path in paths for p in check(path)]
    for p in problems:
        print(f"check_wheel: {p}", file=sys.stderr)
    if not problems:
        print(f"check_wheel: {len(paths)} wheel(s) OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
