"""Doc test: every citation of the contract, docs/spec.md, names a section that exists.

Comments, docs and messages cite the contract by section number. The forms in use:

  SPEC §5.5          SPEC §3-§4          SPEC §3.4 / §4.3       SPEC §3.3, §4.2 and §5.4
  SPEC 6             SPEC 1 rule 4       SPEC 3.4 rows 8-9, 4.3 rows 4-5
  SPEC section 6     SPEC sections 5.2-5.4          docs/spec.md §6    spec.md section 2.3
  §4.3 row 1         (a bare section sign, in any file)

A citation may run over a comment's line break ("SPEC\\n * section 5.4") or over two
string literals of a message; after a SPEC mention, further "section N" / "§N" in the
same sentence count too ("SPEC section 3.3, bound of section 6"). A one-part number N
needs a heading `## N.` in docs/spec.md, two parts N.M a heading `### N.M`, three parts
`#### N.M.K`. "row(s) / rule(s) K" after a section needs, inside that section, a table
row `| K |` or a list item `K.`.

Files: every file git tracks in SOURCE_DIR (a walk of the tree when git or the clone is
absent), less binary files (a NUL byte), the fuzz corpora and this file (its examples).
Exits 1 when a citation points at a missing section or row, printing each; 0 otherwise.

Usage: check_spec_refs.py SOURCE_DIR [--list]   (--list prints every citation found)
"""
import os
import pathlib
import re
import subprocess
import sys

SPEC_DOC = "docs/spec.md"
SKIP_DIRS = ("tests/fuzz/corpus/", "tests/fuzz/regressions/")
WALK_PRUNE = {".git", "build", "__pycache__", ".pytest_cache", "node_modules"}

HEADING = re.compile(r"^(#{2,6})\s+(\d+(?:\.\d+)*)\.?(?=\s)")
NUM = r"\d+(?:\.\d+)*"
# A section number that is not the start of a longer word or number.
SECNUM = rf"(?<![\w.])({NUM})(?![\w§])"
ROWITEM = r"(?:\d+(?!\d)(?!\.\d)|E\b)"
ROWS = rf"(?:,?\s+(rows?|rules?)\s+({ROWITEM}(?:\s*(?:-|–|,|and)\s*{ROWITEM})*))?"
REF = rf"{SECNUM}{ROWS}"
SEP = r"\s*(?:,|;|/|-|–|\band\b|\bor\b)\s*(?:§\s*|sections?\s+)?"
# Who cites: SPEC (the word, not _SPECIAL or SPECS) or the file's own name.
CITER = r"(?:\bSPEC\b(?!_)|\bspec\.md\b)"
# A citation run right after the citer: "SPEC §5.5", "SPEC 6", "spec.md section 2.3".
AFTER_CITER = re.compile(rf"{CITER}(?:'s)?\s*(?:§\s*|sections?\s+)?(?={NUM})")
# A bare section sign or a "section N" word: the start of a run anywhere (§) or inside a
# SPEC sentence (section).
SIGN = re.compile(r"§\s*(?=\d)")
WORD = re.compile(r"\bsections?\s+(?=\d)")
REF_RE = re.compile(REF)
SEP_REF = re.compile(rf"{SEP}(?={NUM}(?![\w]))")
SENTENCE_END = re.compile(r"\.\s|\)|\n\s*\n|\"|$")
STRING_JOINT = re.compile(r'(?:\\n)?"\s+"')


def tracked_files(source):
    """Paths (relative, with '/') of the files to scan."""
    try:
        out = subprocess.run(["git", "-C", str(source), "ls-files", "-z"], capture_output=True,
                             check=True, timeout=120).stdout
        names = [n for n in out.decode("utf-8", "replace").split("\0") if n]
        if names:
            return names
    except (OSError, subprocess.SubprocessError):
        pass
    names = []
    for root, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if d not in WALK_PRUNE and not d.startswith("build")]
        for f in files:
            names.append(os.path.relpath(os.path.join(root, f), source).replace(os.sep, "/"))
    return sorted(names)


def read_text(path):
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:65536]:
        return None
    return data.decode("utf-8", "replace")


def normalize(text):
    """The text with each line break and the next line's comment leader (' * ', '// ',
    '# ', '-- ') turned into one space; returns (text, map from offset to line number)."""
    out, lines = [], []
    for n, line in enumerate(text.split("\n"), 1):
        if out:
            stripped = re.sub(r"^\s*(?:\*(?!/)|//+|#+|--|;+)?\s*", "", line)
            if not stripped:
                out.append("\n\n")  # a blank line ends a sentence
                lines.extend([n, n])
                continue
            out.append(" ")
            lines.append(n)
            line = stripped
        out.append(line)
        lines.extend([n] * len(line))
    flat = "".join(out)
    # adjacent string literals of a message ("...docs/spec.md\\n" "section 6...") read as
    # one text: blank the joint, keeping every offset
    flat = STRING_JOINT.sub(lambda m: " " * len(m.group(0)), flat)
    return flat, lines


def parse_rows(text):
    """'8-9' -> ['8', '9'], '0-16' -> every number, '1, 3 and E' -> ['1', '3', 'E']."""
    rows = []
    for part in re.split(r"\s*(?:,|and)\s*", text.strip()):
        m = re.fullmatch(r"(\d+)\s*[-–]\s*(\d+)", part)
        if m:
            rows.extend(str(k) for k in range(int(m.group(1)), int(m.group(2)) + 1))
        elif part:
            rows.append(part)
    return rows


def run_at(text, pos):
    """The references of the run starting at pos: [(number, rows, offset)], and its end."""
    refs = []
    m = REF_RE.match(text, pos)
    while m:
        rows = parse_rows(m.group(3)) if m.group(3) else []
        refs.append((m.group(1), m.group(2), rows, m.start(1)))
        s = SEP_REF.match(text, m.end())
        if not s:
            return refs, m.end()
        # "3.4 rows 8-9, 4.3 ...": a separator then a number continues the run
        m = REF_RE.match(text, s.end())
    return refs, pos


def citations(text):
    """(offset, number, row kind, rows, context) of every citation in text."""
    found, seen = [], set()

    def take(refs):
        for num, kind, rows, off in refs:
            if off not in seen:
                seen.add(off)
                found.append((off, num, kind, rows))

    for m in AFTER_CITER.finditer(text):
        refs, end = run_at(text, m.end())
        take(refs)
        # the rest of the sentence: "SPEC section 3.3, bound of section 6"
        stop = SENTENCE_END.search(text, end)
        limit = min(stop.start() if stop else len(text), end + 200)
        for w in WORD.finditer(text, end, limit):
            take(run_at(text, w.end())[0])
    for m in SIGN.finditer(text):
        take(run_at(text, m.end())[0])
    return sorted(found)


def spec_sections(spec_text):
    """{number: text of the section (its subsections included)} of docs/spec.md."""
    lines = spec_text.split("\n")
    heads = []
    for i, line in enumerate(lines):
        m = HEADING.match(line)
        if m:
            level, num = len(m.group(1)), m.group(2)
            # "## 5." is section 5, "### 5.5" section 5.5: the level must fit the number
            if level == num.count(".") + 2:
                heads.append((i, level, num))
    sections = {}
    for k, (i, level, num) in enumerate(heads):
        end = len(lines)
        for j, lv, _ in heads[k + 1:]:
            if lv <= level:
                end = j
                break
        sections[num] = "\n".join(lines[i:end])
    return sections


def has_row(section_text, row):
    esc = re.escape(row)
    return bool(re.search(rf"^\|\s*{esc}\s*\|", section_text, re.M) or
                re.search(rf"^\s*{esc}\.\s", section_text, re.M))


def main():
    source = pathlib.Path(sys.argv[1]).resolve()
    listing = "--list" in sys.argv[2:]
    spec_path = source / SPEC_DOC
    spec_text = read_text(spec_path)
    failures, count, files = [], 0, set()
    me = pathlib.Path(__file__).resolve()
    if spec_text is None:
        failures.append(f"{SPEC_DOC}: missing")
    sections = spec_sections(spec_text or "")
    for name in tracked_files(source):
        if name.startswith(SKIP_DIRS) or (source / name).resolve() == me:
            continue  # data, and this file's own examples
        text = read_text(source / name)
        if text is None or ("SPEC" not in text and "§" not in text and "spec.md" not in text):
            continue
        flat, line_of = normalize(text)
        for off, num, kind, rows in citations(flat):
            count += 1
            files.add(name)
            line = line_of[min(off, len(line_of) - 1)]
            where = f"{name}:{line}"
            cited = f"§{num}" + (f" {kind} {', '.join(rows)}" if kind else "")
            if listing:
                ctx = flat[max(0, off - 50):off + 40].replace("\n", " ")
                print(f"{where}: {cited}    ...{ctx}...")
            if num not in sections:
                want = "#" * (num.count(".") + 2) + " " + num + ("." if "." not in num else "")
                failures.append(f"{where}: cites {cited}, but {SPEC_DOC} has no heading "
                                f"`{want}`")
                continue
            missing = [r for r in rows if not has_row(sections[num], r)]
            if missing:
                failures.append(f"{where}: cites {cited}, but {SPEC_DOC} §{num} has no "
                                f"{kind.rstrip('s')} {', '.join(missing)}")
    for f in failures:
        print(f"FAIL  {f}")
    print(f"{count} citations in {len(files)} files checked against {len(sections)} sections "
          f"of {SPEC_DOC}, {len(failures)} broken")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
