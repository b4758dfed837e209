"""Doc test: the code blocks of README.md and docs/*.md are programs that build and run.

Each fenced block is judged by its language and by an optional marker, an HTML comment on
the line just above the fence:

  ```c / ```cpp       a complete program: compiled (C11 / C++11, warnings as errors)
                      against this build's library and run; it must exit 0.
  ```python           a complete program: run with this build's Python package.
  <!-- doc-test: fragment of PATH -->
                      a fragment (c, cpp or python): PATH must exist, and every ropekit
                      and CANN name the fragment uses (ropekit_*, ROPEKIT_*, acl*, ACL_*)
                      must be declared by the public headers.
  ```sh               a shell session: it must carry
  <!-- doc-test: covered by NAME -->
                      where NAME is a CTest test of the suite (or a file of the project)
                      that runs the same commands.
  ``` (no language)   text (diagrams, listings): not checked.

Usage: check_doc_snippets.py SOURCE_DIR LIBRARY CC CXX PYTHON
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\S*)\s*$")
MARKER = re.compile(r"^<!--\s*doc-test:\s*(fragment of|covered by)\s+(\S+)\s*-->\s*$")
NAMES = re.compile(r"\b(ropekit_\w+|ROPEKIT_\w+|acl[A-Z]\w*|ACL_\w+)\b")


def blocks(path):
    """(line number, language, marker or None, code) of every fenced block."""
    lines = path.read_text().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        marker = MARKER.match(lines[i - 1]) if i > 0 else None
        yield i + 1, m.group(1), marker, "\n".join(lines[i + 1:end]) + "\n"
        i = end + 1


def declared_names(source):
    text = "".join(p.read_text(errors="replace") for p in (source / "include").rglob("*.h"))
    return set(NAMES.findall(text))


def test_names(source):
    names = set()
    for cmake in source.rglob("CMakeLists.txt"):
        names.update(re.findall(r"add_test\(\s*NAME\s+([\w${}]+)", cmake.read_text()))
        names.update(re.findall(r"(?:ropekit_add_c_test|_rk_torch_test)\((\w+)", cmake.read_text()))
    return names


def run(cmd, where, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"{where}: `{' '.join(map(str, cmd))}` exited {r.returncode}\n"
                           f"{r.stdout}{r.stderr}")
    return r.stdout


def check_program(lang, code, where, tmp, args):
    source, library, cc, cxx, python = args
    libdir = str(pathlib.Path(library).parent)
    if lang == "python":
        env = dict(os.environ, PYTHONPATH=str(source / "python"), ROPEKIT_LIBRARY=library)
        file = tmp / "snippet.py"
        file.write_text(code)
        run([python, str(file)], where, env=env, cwd=tmp)
        return
    c = lang == "c"
    file = tmp / ("snippet.c" if c else "snippet.cpp")
    file.write_text(code)
    exe = tmp / "snippet"
    flags = ["-std=c11", "-Wpedantic"] if c else ["-std=c++11"]
    run([cc if c else cxx, *flags, "-Wall", "-Wextra", "-Werror", str(file),
         f"-I{source / 'include'}", library, f"-Wl,-rpath,{libdir}", "-lm", "-o", str(exe)],
        where)
    run([str(exe)], where, cwd=tmp)


def main():
    source = pathlib.Path(sys.argv[1])
    args = (source, *sys.argv[2:6])
    declared, tests = declared_names(source), test_names(source)
    docs = [source / "README.md", *sorted((source / "docs").glob("*.md"))]
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = pathlib.Path(tmpdir)
        for doc in docs:
            for line, lang, marker, code in blocks(doc):
                where = f"{doc.relative_to(source)}:{line}"
                kind, target = marker.groups() if marker else (None, None)
                try:
                    if not lang or lang == "text":
                        continue
                    checked += 1
                    if lang == "sh":
                        if kind != "covered by":
                            raise RuntimeError(f"{where}: a shell block needs "
                                               "<!-- doc-test: covered by TEST -->")
                        if target not in tests and not (source / target).exists():
                            raise RuntimeError(f"{where}: covered by {target}: no such test "
                                               "or file")
                    elif kind == "fragment of":
                        if not (source / target).exists():
                            raise RuntimeError(f"{where}: fragment of {target}: no such file")
                        unknown = sorted(set(NAMES.findall(code)) - declared)
                        if unknown:
                            raise RuntimeError(f"{where}: names not in the public headers: "
                                               f"{', '.join(unknown)}")
                    elif lang in ("c", "cpp", "python"):
                        check_program(lang, code, where, tmp, args)
                    else:
                        raise RuntimeError(f"{where}: unknown block language {lang!r}")
                    print(f"ok    {where} ({lang}{', ' + kind + ' ' + target if kind else ''})")
                except RuntimeError as e:
                    failures.append(str(e))
                    print(f"FAIL  {e}")
    print(f"{checked} blocks checked, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
