/// `snm completion bash|zsh`: scripts that teach those shells snm's command line.
///
/// ```sh
/// source <(snm completion bash)
/// snm completion zsh > "${fpath[1]}/_snm"
/// ```
public enum CompletionScript {
  /// The shells snm writes completion for.
  public enum Shell: String, CaseIterable, Sendable {
    case bash, zsh
  }

  /// The script for `shell`.
  public static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    }
  }

  static let options =
    "--url --key --profile --format --var --echo --quiet --continue-on-error --timeout "
    + "--cacert --no-color -c --help --version"
  static let subcommands = "explain test check local completion"
  static let formats = OutputFormat.allCases.map(\.rawValue).joined(separator: " ")

  static let bash = """
    # bash completion for snm; load with: source <(snm completion bash)
    _snm() {
      local cur prev
      cur="${COMP_WORDS[COMP_CWORD]}"
      prev="${COMP_WORDS[COMP_CWORD-1]}"
      case "$prev" in
        --format) COMPREPLY=($(compgen -W "\(formats)" -- "$cur")); return ;;
        --url|--key|--profile|--var|--timeout|-c) return ;;
        --cacert) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        completion) COMPREPLY=($(compgen -W "bash zsh" -- "$cur")); return ;;
        local) COMPREPLY=($(compgen -W "start stop status reset serve" -- "$cur")); return ;;
        explain) COMPREPLY=($(compgen -W "--json --curl" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "\(options)" -- "$cur"))
      elif [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "\(subcommands)" -- "$cur") $(compgen -f -X '!*.snm' -- "$cur") \\
          $(compgen -d -- "$cur"))
      else
        COMPREPLY=($(compgen -f -X '!*.snm' -- "$cur") $(compgen -d -- "$cur"))
      fi
    }
    complete -o filenames -F _snm snm

    """

  static let zsh = """
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
      _arguments \\
        '--url[the project URL]:url:' \\
        '--key[the project API key]:key:' \\
        '--profile[a project from config.json]:profile:' \\
        '--format[how results print]:format:(\(formats))' \\
        '*--var[set a variable]:NAME=VALUE:' \\
        '--echo[print each statement]' \\
        '--quiet[print only failures]' \\
        '--continue-on-error[keep going after a failure]' \\
        '--timeout[request timeout]:seconds:' \\
        '--cacert[CA certificates for https]:file:_files' \\
        '--no-color[never colour]' \\
        '-c[run statements]:statements:' \\
        '--help[show help]' \\
        '--version[show the version]' \\
        '*:script:_files -g "*.snm"'
    }
    _snm "$@"

    """
}
