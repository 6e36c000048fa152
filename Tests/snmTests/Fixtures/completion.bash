# bash completion for snm; load with: source <(snm completion bash)
_snm() {
  local cur prev command opts
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  command=""
  if [[ $COMP_CWORD -gt 1 ]]; then
    case "${COMP_WORDS[1]}" in
      explain|test|check|local|completion|report|session|listen|realtime|gen) command="${COMP_WORDS[1]}" ;;
    esac
  fi
  case "$command:$prev" in
    :--url|explain:--url|test:--url|check:--url|session:--url|listen:--url|realtime:--url|gen:--url|:--key|explain:--key|test:--key|check:--key|session:--key|listen:--key|realtime:--key|gen:--key|:--service-key|test:--service-key|check:--service-key|session:--service-key|listen:--service-key|realtime:--service-key|gen:--service-key|:--profile|explain:--profile|test:--profile|check:--profile|session:--profile|listen:--profile|realtime:--profile|gen:--profile|:--var|explain:--var|test:--var|check:--var|session:--var|listen:--var|realtime:--var|:--timeout|test:--timeout|check:--timeout|session:--timeout|listen:--timeout|realtime:--timeout|gen:--timeout|:-c|test:--jobs|test:--retry|test:--shard|listen:--count|listen:--for|local:--port|local:--jwt-expiry|local:--refresh-reuse-interval|local:--provider|local:--email|local:--nonce|local:--audience|local:--issuer|local:--subject|local:--expires-in|local:--sms-test-otp|local:--file-size-limit|gen:--schema) return ;;
    :--format|test:--format|check:--format|session:--format|listen:--format|realtime:--format) COMPREPLY=($(compgen -W "table expanded json ndjson csv" -- "$cur")); return ;;
    :--cacert|test:--cacert|check:--cacert|session:--cacert|listen:--cacert|realtime:--cacert|gen:--cacert|test:--timings|report:--junit|local:--signing-keys|gen:--out) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    :--session) COMPREPLY=($(compgen -W "own shared" -- "$cur")); return ;;
    test:--report|report:--report) COMPREPLY=($(compgen -W "junit= tap= json=" -- "$cur")); return ;;
    realtime:--dir|local:--dir|local:--project|local:--migrations|gen:--dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    local:--jwt-alg) COMPREPLY=($(compgen -W "HS256 ES256 RS256" -- "$cur")); return ;;
    local:--auth-rate-limit) COMPREPLY=($(compgen -W "token_refresh= sign_in_sign_ups= anonymous_users= token_verifications=" -- "$cur")); return ;;
    gen:--access) COMPREPLY=($(compgen -W "public internal" -- "$cur")); return ;;
  esac
  if [[ "$cur" == -* ]]; then
    case "$command" in
      explain) opts="--json --curl --url --key --profile --var --no-color --help -h" ;;
      test) opts="--url --key --service-key --profile --local --format --csv-crlf --var --echo --quiet --continue-on-error --timeout --cacert --no-color --jobs --report --verbose -v --retry --shard --timings --follow --help -h" ;;
      check) opts="--url --key --service-key --profile --local --format --csv-crlf --var --echo --quiet --continue-on-error --timeout --cacert --no-color --follow --help -h" ;;
      local) opts="--dir --project --port --migrations --jwt-expiry --jwt-alg --signing-keys --no-signing-keys --refresh-reuse-interval --auth-rate-limit --confirm-email --no-confirm-email --no-signup --signup --no-anonymous --anonymous --secure-password-change --no-secure-password-change --phone-signup --no-phone-signup --confirm-phone --no-confirm-phone --apple --no-apple --github --no-github --oauth-server --no-oauth-server --provider --email --nonce --audience --issuer --subject --expires-in --sms-test-otp --no-sms-test-otp --file-size-limit --json --yes --prune --unknown --help -h" ;;
      completion) opts="--help -h" ;;
      report) opts="--report --junit --help -h" ;;
      session) opts="--url --key --service-key --profile --local --format --csv-crlf --var --echo --quiet --continue-on-error --timeout --cacert --no-color --help -h" ;;
      listen) opts="--url --key --service-key --profile --local --format --csv-crlf --var --echo --quiet --continue-on-error --timeout --cacert --no-color --count --for --json --help -h" ;;
      realtime) opts="--url --key --service-key --profile --local --format --csv-crlf --var --echo --quiet --continue-on-error --timeout --cacert --no-color --dir --help -h" ;;
      gen) opts="--url --key --service-key --profile --local --timeout --cacert --schema --access --out --check --dir --help -h" ;;
      *) opts="--url --key --service-key --profile --local --format --csv-crlf --var --echo --quiet --continue-on-error --timeout --cacert --no-color -c --session --no-snmrc -X --help -h --version" ;;
    esac
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  case "$command" in
    test) COMPREPLY=($(compgen -f -X '!*.snm' -- "$cur") $(compgen -d -- "$cur")) ;;
    check) COMPREPLY=($(compgen -f -X '!*.snm' -- "$cur") $(compgen -d -- "$cur")) ;;
    local)
      [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "start stop restart status reset destroy list serve inbox logs functions idp" -- "$cur")) ;;
    completion)
      [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "bash zsh" -- "$cur")) ;;
    report)
      [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "merge" -- "$cur")) ;;
    session)
      [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "token" -- "$cur")) ;;
    realtime)
      [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "check" -- "$cur")) ;;
    gen)
      [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "swift" -- "$cur")) ;;
    "")
      COMPREPLY=($(compgen -f -X '!*.snm' -- "$cur") $(compgen -d -- "$cur"))
      if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY+=($(compgen -W "explain test check local completion report session listen realtime gen" -- "$cur"))
      fi
      ;;
  esac
}
complete -o filenames -F _snm snm
