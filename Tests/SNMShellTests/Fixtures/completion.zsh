#compdef snm
# zsh completion for snm; install with: snm completion zsh > "${fpath[1]}/_snm"
_snm() {
  local -a subcommands
  subcommands=(
    'explain:print the request a statement sends'
    'test:run .snm files as tests'
    'check:parse and check .snm files offline'
    'local:run the local project'
    'completion:print a shell completion script'
  )
  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
    _describe 'command' subcommands
    _files -g '*.snm'
    return
  fi
  case $words[2] in
    local) _values 'action' start stop status reset serve; return ;;
    completion) _values 'shell' bash zsh; return ;;
    explain) _arguments '--json[print the request as JSON]' '--curl[print a curl command]'; return ;;
  esac
  _arguments \
    '--url[the project URL]:url:' \
    '--key[the project API key]:key:' \
    '--profile[a project from config.json]:profile:' \
    '--format[how results print]:format:(table expanded json ndjson csv)' \
    '*--var[set a variable]:NAME=VALUE:' \
    '--echo[print each statement]' \
    '--quiet[print only failures]' \
    '--continue-on-error[keep going after a failure]' \
    '--timeout[request timeout]:seconds:' \
    '--cacert[CA certificates for https]:file:_files' \
    '--no-color[never colour]' \
    '-c[run statements]:statements:' \
    '--help[show help]' \
    '--version[show the version]' \
    '*:script:_files -g "*.snm"'
}
_snm "$@"
