#!/usr/bin/env python3
"""Writes symsim's bash completion and the command sections of its man page from the CLI's own
help (`symsim --help`, `symsim SUBCOMMAND --help`), so neither can drift from the program.

    cli_help.py SYMSIM --completion OUT [--man-include OUT]

The man page itself is help2man's (packaging/CMakeLists.txt); --man-include is the extra text
it takes with --include: one section per subcommand, exit codes, environment, files.
"""
import argparse
import re
import subprocess
import sys


def help_text(symsim, *args):
    p = subprocess.run([symsim, *args, "--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"cli_help.py: `{symsim} {' '.join(args)} --help` failed ({p.returncode}): {p.stderr}")
    return p.stdout


def sections(text):
    """{'Options': [lines], 'Subcommands': [...], 'Positionals': [...]} of CLI11's help."""
    out, current = {}, None
    for line in text.splitlines():
        m = re.fullmatch(r"(\w+):", line)
        if m:
            current = out.setdefault(m.group(1), [])
        elif current is not None and line.strip():
            current.append(line)
    return out


def parse_command(text):
    """Options (with whether each takes a value) and positional choices ('a|b|c' in the help)."""
    s = sections(text)
    flags, valued, choices = [], [], []
    for line in s.get("Options", []):
        m = re.match(r"\s+(-\S+)(\s+[A-Z][A-Z0-9_:]*(?=\s|$))?", line)  # TEXT, INT, UINT:POSITIVE...
        if not m:
            continue  # a wrapped description line
        names = [n for n in m.group(1).split(",") if n.startswith("-")]
        (valued if m.group(2) else flags).extend(names)
    for line in s.get("Positionals", []):
        m = re.match(r"\s+\S+\s+[A-Z]\S*(?:\s+REQUIRED)?\s+(\w[\w-]*(?:\|\w[\w-]*)+)\s*$", line)
        if m:
            choices.extend(m.group(1).split("|"))
    return flags, valued, choices


def subcommands(top_help):
    return [(m.group(1), m.group(2)) for line in sections(top_help).get("Subcommands", [])
            if (m := re.match(r"\s+(\S+)\s+(.*)", line))]


def completion(symsim, top_help):
    top_flags, _, _ = parse_command(top_help)
    subs = subcommands(top_help)
    cases = []
    for name, _ in subs:
        sub_help = help_text(symsim, name)
        flags, valued, choices = parse_command(sub_help)
        choices += [n for n, _ in subcommands(sub_help)]  # `symsim trace diff`
        cases.append(f'    {name}) opts="{" ".join(flags + valued)}"; valued="{" ".join(valued)}"; '
                     f'choices="{" ".join(choices)}" ;;')
    words = " ".join([n for n, _ in subs] + top_flags)
    return f"""# bash completion for symsim. Generated from `symsim --help` by packaging/cli_help.py; do not edit.
_symsim() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} sub="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    [[ ${{COMP_WORDS[i]}} == -* ]] || {{ sub=${{COMP_WORDS[i]}}; break; }}
  done
  COMPREPLY=()
  if [[ -z $sub ]]; then
    COMPREPLY=($(compgen -W "{words}" -- "$cur"))
    return
  fi
  local opts="" valued="" choices=""
  case $sub in
{chr(10).join(cases)}
    *) return ;;
  esac
  # An option's value, or a file: bash's own completion (complete -o default).
  [[ " $valued " == *" $prev "* ]] && return
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n $choices ]]; then
    COMPREPLY=($(compgen -W "$choices" -- "$cur"))
  fi
}}
complete -o default -F _symsim symsim
"""


def roff(text):
    lines = []
    for line in text.splitlines():
        line = line.replace("\\", "\\e").replace("-", "\\-")
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def man_include(symsim, top_help):
    parts = ["[COMMANDS]"]
    for name, _ in subcommands(top_help):
        sub_help = help_text(symsim, name)
        parts += [f'.SS "symsim {name}"', ".nf", roff(sub_help.rstrip()), ".fi"]
        for nested, _ in subcommands(sub_help):  # `symsim trace diff`
            parts += [f'.SS "symsim {name} {nested}"', ".nf", roff(help_text(symsim, name, nested).rstrip()), ".fi"]
    parts += ["""[EXIT STATUS]
.TP
0
ran, and every expectation held
.TP
1
ran, and an expectation failed (including any hazard not expected)
.TP
2
invalid input: the message names the file or option, the JSON pointer and what is wrong; nothing ran
.TP
3
internal error
[ENVIRONMENT]
.TP
SYMSIM_PLATFORM_DIR
folder of platform presets (*.json), instead of the installed share/symsim/platforms
.TP
SYMSIM_FULL_TEARDOWN
1: \\fBsymsim run\\fR destroys the run's state before exiting (for leak checkers); by default it is left to the process's exit once the result is written
.TP
SYMSIM_SERVER, SYMSIM_TOKEN
the server and token that \\fBsymsim submit\\fR uses
[FILES]
.TP
\\fI<prefix>\\fR/share/symsim/platforms
platform presets, found next to the executable
.TP
\\fI<prefix>\\fR/share/symsim/scenarios, \\fI<prefix>\\fR/share/symsim/sweeps
example scenarios and sweeps
.TP
\\fI<prefix>\\fR/share/doc/symsim
documentation: scenario and result formats, hazards, service protocol, sweeps
[SEE ALSO]
\\fBsymsim\\-cxx\\fR, \\fBsymsim\\-rewrite\\fR; traces open in https://ui.perfetto.dev
"""]
    return "\n".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symsim")
    ap.add_argument("--completion", required=True)
    ap.add_argument("--man-include")
    a = ap.parse_args()
    top = help_text(a.symsim)
    with open(a.completion, "w") as f:
        f.write(completion(a.symsim, top))
    if a.man_include:
        with open(a.man_include, "w") as f:
            f.write(man_include(a.symsim, top) + "\n")


if __name__ == "__main__":
    main()
