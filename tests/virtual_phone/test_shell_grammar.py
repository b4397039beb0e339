"""mksh's grammar through the real adb server (adbutils shell2, shell protocol v2).

The expected output, errors and statuses are what mksh R59 prints for each line: they were
taken from mksh 59c run on the host (Debian's build, whose messages carry an "E: "/"W: "
prefix that Android's R59c does not have), and follow mksh's sources: syn.c (get_command,
c_list, thenpart, elsepart, dogroup, caselist, casepart, function_body, syntaxerr), lex.c
(COMSUB via yyrecursive, backquotes, EXPRSUB), exec.c (execute: TIF, TWHILE/TUNTIL, TFOR,
TCASE with ;& and ;|, TBRACE, TFUNCT), expr.c (32-bit arithmetic, evalerr) and funcs.c
(c_command/do_whence, c_brkcont, c_exitreturn).
"""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uihelpers import focus_editor, focused_text

SH = "/system/bin/sh"


def sh(adb_device, line: str) -> tuple[str, str, int]:
    result = adb_device.shell2(line, v2=True)
    return result.stdout, result.stderr, result.returncode


@pytest.mark.parametrize("line, out", [
    # syn.c thenpart/elsepart; exec.c TIF: no branch taken is status 0
    ("if true; then echo a; elif false; then echo b; else echo c; fi", "a\n"),
    ("if false; then echo a; elif true; then echo b; else echo c; fi", "b\n"),
    ("if false; then echo a; fi; echo $?", "0\n"),
    ("if true\nthen\n  echo multi\nfi", "multi\n"),
    # TWHILE/TUNTIL: the status of the last body run, 0 if none ran
    ("x=0; while [ $x -lt 3 ]; do echo $x; x=$((x+1)); done", "0\n1\n2\n"),
    ("x=0; until [ $x -ge 2 ]; do echo u$x; x=$((x+1)); done; echo $?", "u0\nu1\n0\n"),
    ("while false; do :; done; echo $?", "0\n"),
    # TFOR, and c_brkcont's levels
    ("for i in a b c; do echo \"[$i]\"; done", "[a]\n[b]\n[c]\n"),
    ("for i in; do echo no; done; echo $?", "0\n"),
    ("for i in 1 2 3; do [ $i = 2 ] && continue; echo $i; done; echo $i", "1\n3\n3\n"),
    ("for i in 1 2; do for j in a b; do break 2; done; done; echo $i$j", "1a\n"),
    ("for i in 1 2; do for j in a b; do continue 2; echo no; done; echo no2; done; echo $i$j", "2a\n"),
    ("for i in 1 2 3; do echo $i; done | cat", "1\n2\n3\n"),
    # TCASE: patterns glob, quoted ones are literal; ;& falls through, ;| tests on
    ("case abc in a*) echo A;& b) echo B;; c) echo C;; esac", "A\nB\n"),
    ("case abc in x) echo X;; *b*) echo B;| a*) echo A;; esac", "B\nA\n"),
    ("case '*' in \\*) echo star;; *) echo any;; esac", "star\n"),
    ("case abc in '*') echo lit;; *) echo glob;; esac", "glob\n"),
    ("case x in (x|y) echo paren;; esac", "paren\n"),
    ("case y in\n  x) echo x ;;\n  y) echo y ;;\nesac", "y\n"),
    # functions: both forms, $#, $@, return, the caller's $? kept
    ("f() { echo \"$#:$1:$2\"; return 3; }; f a \"b c\"; echo \"$? [$1]\"", "2:a:b c\n3 []\n"),
    ("function g { echo \"g $*\"; }; g 1 2", "g 1 2\n"),
    ("f() { for x in \"$@\"; do echo \"<$x>\"; done; }; f a \"b c\" \"\"", "<a>\n<b c>\n<>\n"),
    ("f() { return; }; false; f; echo $?", "1\n"),
    ("f()\n{\n  echo newline body\n}\nf", "newline body\n"),
    ("x=1; f() { x=2; }; f; echo $x", "2\n"),
    ("{ echo a; echo b; } | cat", "a\nb\n"),
    # COMSUB: a subshell, trailing newlines dropped, its status for an assignment
    ("x=$(echo hi; exit 4); echo $? $x", "4 hi\n"),
    ("echo $(echo a; echo b) \"$(echo c; echo d)\"", "a b c\nd\n"),
    ("echo `echo a` \"`echo b`\" $(echo $(echo nested))", "a b nested\n"),
    ("echo $(case x in x) echo y;; esac)", "y\n"),
    ("a=$(printf 'x\\n\\n\\n'); echo \"[$a]\"", "[x]\n"),
    # EXPRSUB: expr.c, 32-bit, decimal with a leading 0, BASE#N
    ("echo $((1+2*3)) $((7/2)) $((-7/2)) $((7%-3)) $((1<<4)) $((5>3)) $((!0)) $((~5)) $((2147483647+1))",
     "7 3 -3 1 16 1 1 -6 -2147483648\n"),
    ("x=5; echo $((x*2)) $(($x+1)) $((x+=1)) $x $((x++)) $x $((--x))", "10 6 6 6 6 7 6\n"),
    ("echo $((1 ? 2 : 3)) $((0 || 5)) $((0 && 1/0)) $((3,4)) $((010)) $((0x1f)) $((2#101))", "2 1 0 4 10 31 5\n"),
    ("y=abc; abc=7; echo $((y+1))", "8\n"),
])
def test_compound_commands_and_substitutions(adb_device, line, out):
    assert sh(adb_device, line) == (out, "", 0)


@pytest.mark.parametrize("line, out, err, code", [
    # syn.c syntaxerr(): the unexpected token, or at the end the unmatched opening one
    ("if then fi", "", "syntax error: unexpected 'fi'", 1),  # the condition may be empty, the then-part not
    ("if true; then", "", "syntax error: unmatched 'if'", 1),
    ("for i in a b; echo", "", "syntax error: unexpected 'echo'", 1),
    ("for 1 in a; do :; done", "", "for: bad identifier", 1),
    ("case x in", "", "syntax error: unmatched 'case'", 1),
    ("case x in a) echo;; b echo;; esac", "", "syntax error: unexpected 'echo'", 1),
    ("echo a;;", "", "syntax error: unexpected ';;'", 1),
    ("done", "", "syntax error: unexpected 'done'", 1),
    ("{ echo a }", "", "syntax error: unmatched '{'", 1),
    ("echo $(echo a", "", "syntax error: unmatched '('", 1),
    ("echo `echo a", "", "no closing quote", 1),
])
def test_errors_as_mksh_words_them(adb_device, line, out, err, code):
    adb_device.shell("rm -f /data/local/tmp/ran")
    assert sh(adb_device, "touch /data/local/tmp/ran; " + line) == (out, f"{SH}: {err}\n", code)
    assert sh(adb_device, "ls /data/local/tmp/ran")[2] == 1  # nothing of a bad line runs


@pytest.mark.parametrize("line, err", [
    # expr.c evalerr(): the message names the expression; the rest of the line does not run
    ("echo $((1/0)); echo after", "1/0: zero divisor"),
    ("x=$((1+)); echo after", "1+: unexpected 'end of expression'"),
    ("echo $((2**3)); echo after", "2**3: unexpected '*'"),
])
def test_arithmetic_errors_stop_the_line(adb_device, line, err):
    assert sh(adb_device, line) == ("", f"{SH}: {err}\n", 1)


@pytest.mark.parametrize("line, out, err", [
    # funcs.c c_brkcont(): a warning, status 0, the line goes on
    ("break; echo $?", "0\n", f"{SH}: break: can't break\n"),
    ("for i in 1; do break 3; done; echo $?", "0\n", f"{SH}: break: can only break 1 level(s)\n"),
    ("f() { for i in 1 2; do g; done; }; g() { break; }; f", "",
     f"{SH}: break: can't break\n{SH}: break: can't break\n"),  # exec.c: a function stops break
    # funcs.c c_exitreturn(): return outside a function leaves the shell
    ("return 4; echo no", "", ""),
])
def test_loop_control_and_return(adb_device, line, out, err):
    result = sh(adb_device, line)
    assert result[:2] == (out, err)
    assert result[2] == (4 if line.startswith("return") else 0)


@pytest.mark.parametrize("line, out, code", [
    # funcs.c do_whence(): builtins, reserved words and functions by name, programs by path;
    # -v stops at the first name it cannot find
    ("command -v echo; command -v cat; command -v if; command -v nope; echo $?",
     "echo\n/system/bin/cat\nif\n1\n", 0),
    ("command -v cat nope ls", "/system/bin/cat\n", 1),
    ("command -V echo; command -V if; command -V exit; command -V ls; command -V nope",
     "echo is a shell builtin\nif is a reserved word\nexit is a special shell builtin\n"
     "ls is a tracked alias for /system/bin/ls\nnope not found\n", 1),
    ("f() { echo fn; }; command -v f; command -V f", "f\nf is a function\n", 0),
    # exec.c comexec(): `command NAME` passes over a function of that name
    ("echo() { printf 'fn\\n'; }; echo x; command echo real", "fn\nreal\n", 0),
    ("command; echo $?", "0\n", 0),
])
def test_command_builtin(adb_device, line, out, code):
    assert sh(adb_device, line) == (out, "", code)


@pytest.mark.parametrize("line, out", [
    # funcs.c c_read(); exec.c: a compound command's body shares its stdin, `read` takes a line
    ("printf 'a b c\\nd e\\n' | while read x y; do echo \"[$x][$y]\"; done; echo $?", "[a][b c]\n[d][e]\n0\n"),
    ("printf '1\\n2\\n3\\n' | while read n; do echo \"n=$n\"; [ $n = 2 ] && break; done", "n=1\nn=2\n"),
    ("printf 'x\\ny\\nz\\n' | { read first; cat; }", "y\nz\n"),
    ("f() { while read l; do echo \"f:$l\"; done; }; printf 'a\\nb\\n' | f", "f:a\nf:b\n"),
    ("printf 'tail' | { read x; echo \"$? [$x]\"; }", "1 [tail]\n"),
    ("printf 'a\\\\ b c\\\\\\nd\\n' | { read x y; echo \"[$x][$y]\"; }", "[a b][cd]\n"),
    ("printf 'a\\\\ b\\n' | { read -r x y; echo \"[$x][$y]\"; }", "[a\\][b]\n"),
    ("printf ' x \\n' | { read; echo \"[$REPLY]\"; }", "[x]\n"),
    # funcs.c c_set()/c_shift(): the positional parameters; shift's error ends the shell
    ("set -- a b \"c d\"; echo $# \"$2\"; shift; echo $# \"$1\"; shift 2; echo $#", "3 b\n2 b\n0\n"),
    ("set -- x; f() { set -- in; echo $1; }; f; echo $1; set a b; for i; do echo \"<$i>\"; done",
     "in\nx\n<a>\n<b>\n"),
])
def test_read_and_loops_over_input(adb_device, line, out):
    assert sh(adb_device, line) == (out, "", 0)


def test_a_loop_without_end_is_stopped_and_the_phone_goes_on(adb_device):
    """A real phone loops until adb hangs up; the virtual phone, whose lines run on its event loop,
    ends such a line after MAX_COMMANDS commands with a message, and answers the next one."""
    from pytest_mobileagent.virtual_phone.shell.interpreter import MAX_COMMANDS

    assert sh(adb_device, "while :; do :; done; echo after") == (
        "", f"{SH}: the virtual phone's shell ends a line after {MAX_COMMANDS} commands "
            "(a real phone runs it until adb hangs up)\n", 1)
    assert sh(adb_device, "echo still here") == ("still here\n", "", 0)


def test_shift_past_the_end_ends_the_shell(adb_device):
    assert sh(adb_device, "set -- a; shift 2; echo after") == ("", f"{SH}: shift: nothing to shift\n", 1)


def test_command_builtin_rejects_unknown_options(adb_device):
    assert sh(adb_device, "command -x; echo $?") == ("1\n", f"{SH}: command: -x: unknown option\n", 0)


# -- the injection guard: what expansions produce is never parsed again ------------------------------
#: text that would do something if a shell ever ran it
DANGEROUS = ["$(touch /data/local/tmp/pwned)", "`touch /data/local/tmp/pwned`", "; touch /data/local/tmp/pwned",
             "&& touch /data/local/tmp/pwned", "| touch /data/local/tmp/pwned", "$((x=1))", "esac", ")", ";;",
             "done; touch /data/local/tmp/pwned; for i in", "' \" *", "\n", "{", "}", "$HOME", "${X}"]
#: every construct that expands text: substitution, for, case, arithmetic, functions, quoted and not
EXPANDERS = [
    'echo $(cat {f}) "$(cat {f})"',
    'for w in $(cat {f}); do echo "<$w>"; done',
    'for w in "$(cat {f})"; do echo "<$w>"; done',
    'case $(cat {f}) in *touch*) echo matched;; *) echo other;; esac',
    'case x in $(cat {f})) echo pattern;; esac',
    'show() {{ echo "$1" $1; }}; show "$(cat {f})"; show `cat {f}`',
    'x=$(cat {f}); if [ -n "$x" ]; then echo $x; fi; while false; do $x; done',
    'for f in /data/local/tmp/names/*; do echo "$f"; case $f in *) echo $f;; esac; done',
    'echo $(ls /data/local/tmp/names) $((0)) `ls /data/local/tmp/names`',
]


def _expand_everywhere(adb_device, text: str) -> None:
    """Put ``text`` in a file and in a file name, expand it through every construct, and check
    that nothing ran."""
    adb_device.shell("rm -rf /data/local/tmp/pwned /data/local/tmp/names /data/local/tmp/typed")
    adb_device.sync.push(text.encode(), "/data/local/tmp/typed")
    name = text.replace("/", "_").replace("\n", "_") or "_"
    adb_device.shell2("mkdir -p /data/local/tmp/names && touch /data/local/tmp/names/" + shlex.quote(name), v2=True)
    for template in EXPANDERS:
        sh(adb_device, template.format(f="/data/local/tmp/typed"))
        assert sh(adb_device, "ls /data/local/tmp/pwned")[2] == 1, (template, text)


@pytest.mark.parametrize("text", DANGEROUS)
def test_expanded_text_and_file_names_never_run(adb_device, text):
    _expand_everywhere(adb_device, text)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.lists(st.one_of(st.sampled_from(DANGEROUS), st.text(st.characters(min_codepoint=0x20,
                                                                                 max_codepoint=0x7E), max_size=6)),
                     min_size=1, max_size=5).map("".join))
def test_expanded_text_never_runs_property(adb_device, text):
    _expand_everywhere(adb_device, text)


def test_text_typed_into_an_app_never_runs_when_read_back(adb_device):
    """Text typed into an app's editor (adbutils send_keys quotes it), read back from the UI
    dump through $(...), for and case, stays text."""
    typed = "$(touch /data/local/tmp/pwned); `touch /data/local/tmp/pwned`"
    adb_device.shell("rm -f /data/local/tmp/pwned")
    focus_editor(adb_device.shell, adb_device.dump_hierarchy)
    adb_device.send_keys(typed)
    assert focused_text(adb_device.dump_hierarchy()) == typed
    adb_device.shell("uiautomator dump /data/local/tmp/ui.xml")
    lines = [
        "t=$(grep -o 'text=\"[^\"]*pwned[^\"]*\"' /data/local/tmp/ui.xml); echo $t; echo \"$t\"",
        "for w in $(cat /data/local/tmp/ui.xml); do case $w in *pwned*) echo \"$w\";; esac; done",
        "case \"$(cat /data/local/tmp/ui.xml)\" in *'$(touch'*) echo found;; esac",
    ]
    outputs = [sh(adb_device, line) for line in lines]
    assert "touch /data/local/tmp/pwned" in outputs[0][0]
    assert "pwned" in outputs[1][0] and outputs[2][0] == "found\n"
    assert sh(adb_device, "ls /data/local/tmp/pwned")[2] == 1


def test_interactive_shell_reads_a_command_over_several_lines(adb_server, phone):
    """`adb shell` with no command: a command left open at the end of a line (for, if, a quote,
    `$(`) goes on with the next, after mksh's PS2 prompt "> "."""
    import subprocess

    typed = b"for i in 1 2\ndo echo n$i\ndone\nif true\nthen echo 'two\nlines'\nfi\necho $(echo\necho sub)\nexit 5\n"
    result = subprocess.run([adb_server.binary, "-P", str(adb_server.port), "-s", phone.serial, "shell"],
                            input=typed, capture_output=True, timeout=30)
    assert result.returncode == 5
    assert b"n1\nn2\n" in result.stdout and b"two\nlines\n" in result.stdout and b"sub\n" in result.stdout
    assert result.stdout.count(b"> ") == 6
    assert b"syntax error" not in result.stdout + result.stderr
