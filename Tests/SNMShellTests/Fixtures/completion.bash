# bash completion for snm; load with: source <(snm completion bash)
_snm() {
  local cur prev
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    --format) COMPREPLY=($(compgen -W "table expanded json ndjson csv" -- "$cur")); return ;;
    --url|--key|--profile|--var|--timeout|-c) return ;;
    --cacert) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    completion) COMPREPLY=($(compgen -W "bash zsh" -- "$cur")); return ;;
    local) COMPREPLY=($(compgen -W "start stop status reset serve" -- "$cur")); return ;;
    explain) COMPREPLY=($(compgen -W "--json --curl" -- "$cur")); return ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "--url --key --profile --format --var --echo --quiet --continue-on-error --timeout --cacert --no-color -c --help --version" -- "$cur"))
  elif [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "explain test check local completion" -- "$cur") $(compgen -f -X '!*.snm' -- "$cur") \
      $(compgen -d -- "$cur"))
  else
    COMPREPLY=($(compgen -f -X '!*.snm' -- "$cur") $(compgen -d -- "$cur"))
  fi
}
complete -o filenames -F _snm snm
