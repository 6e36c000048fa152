#compdef snm
# zsh completion for snm; install with: snm completion zsh > "${fpath[1]}/_snm"
_snm() {
  local -a subcommands
  subcommands=(
    'explain:print the request, send nothing'
    'test:run .snm files as tests'
    'check:parse and check, offline'
    'local:the local project'
    'completion:print a shell completion script'
    'report:join the JSON reports of shards into one'
    'session:print the signed-in user'\''s access token'
    'listen:print Realtime events as they arrive, one a line'
    'realtime:why a table'\''s changes would not reach you'
    'gen:Swift types for the project'\''s schemas'
  )
  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
    _describe 'command' subcommands
    _files -g '*.snm'
    return
  fi
  case $words[2] in
    explain|test|check|local|completion|report|session|listen|realtime|gen)
      local command=$words[2]
      shift words
      (( CURRENT-- ))
      case $command in
        explain) _arguments \
            '--json[one spec §6 JSON object per statement]' \
            '--curl[a curl command line]' \
            '--url[the project URL]:URL:' \
            '--key[the project API key, sb_publishable_/sb_secret_ or a legacy JWT]:KEY:' \
            '--profile[a project from $XDG_CONFIG_HOME/snm/config.json]:NAME:' \
            '*--var[set $NAME for the statements]:NAME=VALUE:' \
            '--no-color[never colour the output]' \
            '--help[print this help]' \
            '-h[print this help]' \
            '*:statement: ' ;;
        test) _arguments \
            '--url[the project URL]:URL:' \
            '--key[the project API key, sb_publishable_/sb_secret_ or a legacy JWT]:KEY:' \
            '--service-key[the service key for admin ..., inbox and as service]:KEY:' \
            '--profile[a project from $XDG_CONFIG_HOME/snm/config.json]:NAME:' \
            '--local[the local project, started on first use; needed by snm test and runs under CI when nothing else names a project]' \
            '--format[table, expanded, json, ndjson or csv]:FORMAT:(table expanded json ndjson csv)' \
            '--csv-crlf[csv lines end in CRLF, not LF as psql and pandas write]' \
            '*--var[set $NAME for the statements]:NAME=VALUE:' \
            '--echo[print each statement before its result]' \
            '--quiet[print only failures]' \
            '--continue-on-error[keep going after a failed statement]' \
            '--timeout[give up on a request after this long]:SECONDS:' \
            '--cacert[trust these CA certificates for https]:FILE:_files' \
            '--no-color[never colour the output]' \
            '--jobs[run N files at a time]:N:' \
            '*--report[write a report junit, tap or json; repeatable]:KIND=PATH:(junit= tap= json=)' \
            '--verbose[print each request and answer under its file]' \
            '-v[print each request and answer under its file]' \
            '--retry[run a failed file marked '\''# snm idempotent'\'' up to N more times]:N:' \
            '--shard[run the K-th of N stable shares of the files]:K/N:' \
            '--timings[balance the shards by the times of an earlier JSON report]:REPORT:_files' \
            '--follow[walk symbolic links to folders under a named folder]' \
            '--help[print this help]' \
            '-h[print this help]' \
            '*:script:_files -g "*.snm"' ;;
        check) _arguments \
            '--url[the project URL]:URL:' \
            '--key[the project API key, sb_publishable_/sb_secret_ or a legacy JWT]:KEY:' \
            '--service-key[the service key for admin ..., inbox and as service]:KEY:' \
            '--profile[a project from $XDG_CONFIG_HOME/snm/config.json]:NAME:' \
            '--local[the local project, started on first use; needed by snm test and runs under CI when nothing else names a project]' \
            '--format[table, expanded, json, ndjson or csv]:FORMAT:(table expanded json ndjson csv)' \
            '--csv-crlf[csv lines end in CRLF, not LF as psql and pandas write]' \
            '*--var[set $NAME for the statements]:NAME=VALUE:' \
            '--echo[print each statement before its result]' \
            '--quiet[print only failures]' \
            '--continue-on-error[keep going after a failed statement]' \
            '--timeout[give up on a request after this long]:SECONDS:' \
            '--cacert[trust these CA certificates for https]:FILE:_files' \
            '--no-color[never colour the output]' \
            '--follow[walk symbolic links to folders under a named folder]' \
            '--help[print this help]' \
            '-h[print this help]' \
            '*:script:_files -g "*.snm"' ;;
        local) _arguments \
            '--dir[where the project keeps its data]:DIR:_files -/' \
            '--project[the folder holding supabase/; default the current folder when it holds one]:DIR:_files -/' \
            '--port[the gateway'\''s port on 127.0.0.1]:PORT:' \
            '--migrations[apply these *.sql files in name order instead of the demo schema]:DIR:_files -/' \
            '--jwt-expiry[access tokens last this long]:SECONDS:' \
            '--jwt-alg[sign user tokens with HS256 or a key pair ES256, RS256]:ALG:(HS256 ES256 RS256)' \
            '--signing-keys[sign user tokens with this JSON array of private JWKs]:FILE:_files' \
            '--no-signing-keys[]' \
            '--refresh-reuse-interval[a just-used refresh token still answers for this long]:SECONDS:' \
            '--auth-rate-limit[one of GoTrue'\''s per-address Auth limits, e.g. token_refresh=150 or token_verifications=30]:NAME=N:(token_refresh= sign_in_sign_ups= anonymous_users= token_verifications=)' \
            '--confirm-email[new users confirm their e-mail first]' \
            '--no-confirm-email[]' \
            '--no-signup[no new users sign up]' \
            '--signup[]' \
            '--no-anonymous[no anonymous sign-ins]' \
            '--anonymous[]' \
            '--secure-password-change[a password change needs a recent sign-in or a reauthentication code]' \
            '--no-secure-password-change[]' \
            '--phone-signup[users sign up and in with a phone number; texts go to the inbox]' \
            '--no-phone-signup[]' \
            '--confirm-phone[new phone users verify the texted code first]' \
            '--no-confirm-phone[]' \
            '--apple[users sign in with Apple by id_token, checked against the project'\''s test issuer]' \
            '--no-apple[]' \
            '--github[users sign in with GitHub'\''s OAuth redirect flow, the project'\''s test issuer standing in for GitHub]' \
            '--no-github[]' \
            '--oauth-server[the OAuth 2.1 server'\''s admin client routes answer]' \
            '--no-oauth-server[]' \
            '--provider[idp token the provider]:NAME:' \
            '--email[idp token the address the id_token names]:ADDRESS:' \
            '--nonce[idp token the raw nonce]:RAW:' \
            '--audience[]:AUD:' \
            '--issuer[]:ISS:' \
            '--subject[]:SUB:' \
            '--expires-in[]:SECONDS:' \
            '--sms-test-otp[this number is texted nothing and its code is always CODE]:PHONE=CODE:' \
            '--no-sms-test-otp[]' \
            '--file-size-limit[the most one Storage object may hold bytes, 500MB, 50MiB, 1GB]:SIZE:' \
            '--json[print one JSON object instead of the report]' \
            '--yes[destroy and list --prune delete without asking]' \
            '--prune[list delete the clusters of stopped projects whose folder is gone]' \
            '--unknown[list --prune also stopped clusters made before snm recorded their folder]' \
            '--help[print this help]' \
            '-h[print this help]' \
            '1:action:(start stop restart status reset destroy list serve inbox logs functions idp)' ;;
        completion) _arguments \
            '--help[print this help]' \
            '-h[print this help]' \
            '1:shell:(bash zsh)' ;;
        report) _arguments \
            '*--report[write a report junit, tap or json; repeatable]:KIND=PATH:(junit= tap= json=)' \
            '--junit[write the merged report as JUnit XML]:FILE:_files' \
            '--help[print this help]' \
            '-h[print this help]' \
            '1:shell:(merge)' ;;
        session) _arguments \
            '--url[the project URL]:URL:' \
            '--key[the project API key, sb_publishable_/sb_secret_ or a legacy JWT]:KEY:' \
            '--service-key[the service key for admin ..., inbox and as service]:KEY:' \
            '--profile[a project from $XDG_CONFIG_HOME/snm/config.json]:NAME:' \
            '--local[the local project, started on first use; needed by snm test and runs under CI when nothing else names a project]' \
            '--format[table, expanded, json, ndjson or csv]:FORMAT:(table expanded json ndjson csv)' \
            '--csv-crlf[csv lines end in CRLF, not LF as psql and pandas write]' \
            '*--var[set $NAME for the statements]:NAME=VALUE:' \
            '--echo[print each statement before its result]' \
            '--quiet[print only failures]' \
            '--continue-on-error[keep going after a failed statement]' \
            '--timeout[give up on a request after this long]:SECONDS:' \
            '--cacert[trust these CA certificates for https]:FILE:_files' \
            '--no-color[never colour the output]' \
            '--help[print this help]' \
            '-h[print this help]' \
            '1:shell:(token)' ;;
        listen) _arguments \
            '--url[the project URL]:URL:' \
            '--key[the project API key, sb_publishable_/sb_secret_ or a legacy JWT]:KEY:' \
            '--service-key[the service key for admin ..., inbox and as service]:KEY:' \
            '--profile[a project from $XDG_CONFIG_HOME/snm/config.json]:NAME:' \
            '--local[the local project, started on first use; needed by snm test and runs under CI when nothing else names a project]' \
            '--format[table, expanded, json, ndjson or csv]:FORMAT:(table expanded json ndjson csv)' \
            '--csv-crlf[csv lines end in CRLF, not LF as psql and pandas write]' \
            '*--var[set $NAME for the statements]:NAME=VALUE:' \
            '--echo[print each statement before its result]' \
            '--quiet[print only failures]' \
            '--continue-on-error[keep going after a failed statement]' \
            '--timeout[give up on a request after this long]:SECONDS:' \
            '--cacert[trust these CA certificates for https]:FILE:_files' \
            '--no-color[never colour the output]' \
            '--count[stop after N events]:N:' \
            '--for[stop after this long 500ms, 30s, 10m]:DURATION:' \
            '--json[one JSON object a line]' \
            '--help[print this help]' \
            '-h[print this help]' ;;
        realtime) _arguments \
            '--url[the project URL]:URL:' \
            '--key[the project API key, sb_publishable_/sb_secret_ or a legacy JWT]:KEY:' \
            '--service-key[the service key for admin ..., inbox and as service]:KEY:' \
            '--profile[a project from $XDG_CONFIG_HOME/snm/config.json]:NAME:' \
            '--local[the local project, started on first use; needed by snm test and runs under CI when nothing else names a project]' \
            '--format[table, expanded, json, ndjson or csv]:FORMAT:(table expanded json ndjson csv)' \
            '--csv-crlf[csv lines end in CRLF, not LF as psql and pandas write]' \
            '*--var[set $NAME for the statements]:NAME=VALUE:' \
            '--echo[print each statement before its result]' \
            '--quiet[print only failures]' \
            '--continue-on-error[keep going after a failed statement]' \
            '--timeout[give up on a request after this long]:SECONDS:' \
            '--cacert[trust these CA certificates for https]:FILE:_files' \
            '--no-color[never colour the output]' \
            '--dir[the local project in DIR]:DIR:_files -/' \
            '--help[print this help]' \
            '-h[print this help]' \
            '1:shell:(check)' ;;
        gen) _arguments \
            '--url[the project URL]:URL:' \
            '--key[the project API key, sb_publishable_/sb_secret_ or a legacy JWT]:KEY:' \
            '--service-key[the service key for admin ..., inbox and as service]:KEY:' \
            '--profile[a project from $XDG_CONFIG_HOME/snm/config.json]:NAME:' \
            '--local[the local project, started on first use; needed by snm test and runs under CI when nothing else names a project]' \
            '--timeout[give up on a request after this long]:SECONDS:' \
            '--cacert[trust these CA certificates for https]:FILE:_files' \
            '--schema[the schemas to write; repeatable]:S,...:' \
            '--access[the access level of the declarations]:LEVEL:(public internal)' \
            '--out[write FILE]:FILE:_files' \
            '--check[write nothing exit 1 when FILE differs from the schema'\''s]' \
            '--dir[the local project in DIR]:DIR:_files -/' \
            '--help[print this help]' \
            '-h[print this help]' \
            '1:shell:(swift)' ;;
      esac
      return
      ;;
  esac
  _arguments \
    '--url[the project URL]:URL:' \
    '--key[the project API key, sb_publishable_/sb_secret_ or a legacy JWT]:KEY:' \
    '--service-key[the service key for admin ..., inbox and as service]:KEY:' \
    '--profile[a project from $XDG_CONFIG_HOME/snm/config.json]:NAME:' \
    '--local[the local project, started on first use; needed by snm test and runs under CI when nothing else names a project]' \
    '--format[table, expanded, json, ndjson or csv]:FORMAT:(table expanded json ndjson csv)' \
    '--csv-crlf[csv lines end in CRLF, not LF as psql and pandas write]' \
    '*--var[set $NAME for the statements]:NAME=VALUE:' \
    '--echo[print each statement before its result]' \
    '--quiet[print only failures]' \
    '--continue-on-error[keep going after a failed statement]' \
    '--timeout[give up on a request after this long]:SECONDS:' \
    '--cacert[trust these CA certificates for https]:FILE:_files' \
    '--no-color[never colour the output]' \
    '*-c[run STATEMENTS and exit]:STATEMENTS:' \
    '--session[script files start signed out in a session of their own or use and keep the saved one]:MODE:(own shared)' \
    '--no-snmrc[do not read the startup file, $XDG_CONFIG_HOME/snm/snmrc]' \
    '-X[do not read the startup file, $XDG_CONFIG_HOME/snm/snmrc]' \
    '--help[print this help]' \
    '-h[print this help]' \
    '--version[print snm'\''s version]' \
    '*:script:_files -g "*.snm"'
}
_snm "$@"
