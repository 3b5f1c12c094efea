#!/usr/bin/env bash
# ctest packaging.cli_docs: the generated bash completion completes what `symsim --help` lists,
# and the man page (when help2man made one) has every subcommand's section.
# Usage: test_cli_docs.sh SYMSIM COMPLETION [MANPAGE]
set -uo pipefail
symsim=$1 completion=$2 man=${3:-}
failures=0
# shellcheck source=/dev/null
source "$completion"

complete_line() {  # the completions bash offers after the words given (the last is the one typed)
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _symsim
  echo "${COMPREPLY[*]}"
}
expect() {
  local want=$1; shift
  local got; got=$(complete_line "$@")
  if [[ $got != "$want" ]]; then
    echo "FAIL: completing '$*': expected '$want', got '$got'"
    failures=$((failures + 1))
  fi
}
expect "list litmus launch" symsim l
expect "--version" symsim --v
expect "kernels platforms faults hazards checkers stats" symsim list ""
expect "hazards" symsim list h
expect "diff" symsim trace ""
expect "--trace --trace-pes --trace-window" symsim run x.json --tr
expect "" symsim run --out ""       # a value: left to bash's file completion
expect "--jobs" symsim sweep --j

subcommands=$("$symsim" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }')
[[ -n $subcommands ]] || { echo "FAIL: no subcommands in symsim --help"; exit 1; }
for sub in $subcommands; do
  [[ " $(complete_line symsim "") " == *" $sub "* ]] || { echo "FAIL: '$sub' not completed"; failures=$((failures + 1)); }
  if [[ -n $man ]]; then
    grep -q "^\.SS \"symsim $sub\"" "$man" || { echo "FAIL: no section for '$sub' in $man"; failures=$((failures + 1)); }
  fi
done
if [[ -n $man ]]; then
  for want in '^\.SH NAME' '^symsim \\- ' '^\.SH "EXIT STATUS"' '^\.SH ENVIRONMENT' "$("$symsim" --version | sed 's/[()]/./g')"; do
    grep -q "$want" "$man" || { echo "FAIL: '$want' not in $man"; failures=$((failures + 1)); }
  done
fi
((failures == 0)) && echo "bash completion and man page agree with symsim --help"
exit $((failures > 0))
