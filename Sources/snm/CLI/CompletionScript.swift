import Foundation

/// `snm completion bash|zsh`: scripts that teach those shells snm's command line, made from
/// ``CommandLineTable`` (every command, option and value it knows).
///
/// ```sh
/// source <(snm completion bash)
/// snm completion zsh > "${fpath[1]}/_snm"
/// ```
enum CompletionScript {
  /// The shells snm writes completion for.
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh
  }

  /// The script for `shell`.
  static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    }
  }

  static let subcommands = Command.allCases.filter { $0 != .shell }

  // MARK: bash

  static var bash: String {
    var text = """
      # bash completion for snm; load with: source <(snm completion bash)
      _snm() {
        local cur prev command opts
        cur="${COMP_WORDS[COMP_CWORD]}"
        prev="${COMP_WORDS[COMP_CWORD-1]}"
        command=""
        if [[ $COMP_CWORD -gt 1 ]]; then
          case "${COMP_WORDS[1]}" in
            \(subcommands.map(\.rawValue).joined(separator: "|"))) command="${COMP_WORDS[1]}" ;;
          esac
        fi
        case "$command:$prev" in

      """
    for (patterns, action) in bashValueCases() {
      text += "    \(patterns.joined(separator: "|"))) \(action) ;;\n"
    }
    text += """
        esac
        if [[ "$cur" == -* ]]; then
          case "$command" in

      """
    for command in subcommands {
      text += "      \(command.rawValue)) opts=\"\(optionNames(command))\" ;;\n"
    }
    text += """
            *) opts="\(optionNames(.shell))" ;;
          esac
          COMPREPLY=($(compgen -W "$opts" -- "$cur"))
          return
        fi
        case "$command" in

      """
    for command in subcommands {
      let description = CommandDescription.of(command)
      if description.takesScripts {
        text += "    \(command.rawValue)) COMPREPLY=(\(scriptWords)) ;;\n"
      } else if !description.firstArgument.isEmpty {
        let words = description.firstArgument.map(\.word).joined(separator: " ")
        text += "    \(command.rawValue))\n"
        text +=
          "      [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\")) ;;\n"
      }
    }
    text += """
          "")
            COMPREPLY=(\(scriptWords))
            if [[ $COMP_CWORD -eq 1 ]]; then
              COMPREPLY+=($(compgen -W "\(subcommands.map(\.rawValue).joined(separator: " "))" -- "$cur"))
            fi
            ;;
        esac
      }
      complete -o filenames -F _snm snm

      """
    return text
  }

  static let scriptWords = #"$(compgen -f -X '!*.snm' -- "$cur") $(compgen -d -- "$cur")"#

  /// `command:--option` patterns grouped by what follows the option.
  static func bashValueCases() -> [([String], String)] {
    var cases: [(String, [String])] = []
    func add(_ action: String, _ pattern: String) {
      if let index = cases.firstIndex(where: { $0.0 == action }) {
        cases[index].1.append(pattern)
      } else {
        cases.append((action, [pattern]))
      }
    }
    for option in CommandLineTable.options where option.value != nil {
      for command in Command.allCases where option.commands.contains(command) {
        let key = (command == .shell ? "" : command.rawValue) + ":" + option.name
        let action: String
        switch option.completion {
        case .words(let words):
          action =
            "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return"
        case .files: action = "COMPREPLY=($(compgen -f -- \"$cur\")); return"
        case .directories: action = "COMPREPLY=($(compgen -d -- \"$cur\")); return"
        case .none: action = "return"
        }
        add(action, key)
      }
    }
    return cases.map { ($0.1, $0.0) }
  }

  /// Every spelling of every option `command` takes, space-separated.
  static func optionNames(_ command: Command) -> String {
    CommandLineTable.options(for: command).flatMap(\.names).joined(separator: " ")
  }

  // MARK: zsh

  static var zsh: String {
    var text = """
      #compdef snm
      # zsh completion for snm; install with: snm completion zsh > "${fpath[1]}/_snm"
      _snm() {
        local -a subcommands
        subcommands=(

      """
    for command in subcommands {
      let summary = CommandDescription.of(command).usages.first?.summary ?? ""
      text += "    '\(command.rawValue):\(zshText(summary))'\n"
    }
    text += """
        )
        if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
          _describe 'command' subcommands
          _files -g '*.snm'
          return
        fi
        case $words[2] in
          \(subcommands.map(\.rawValue).joined(separator: "|")))
            local command=$words[2]
            shift words
            (( CURRENT-- ))
            case $command in

      """
    for command in subcommands {
      text += "        \(command.rawValue)) _arguments \\\n"
      text += zshSpecs(command, indent: "            ")
    }
    text += """
            esac
            return
            ;;
        esac
        _arguments \\

      """
    text += zshSpecs(.shell, indent: "    ")
    text += """
      }
      _snm "$@"

      """
    return text
  }

  /// The `_arguments` specs of `command`'s options and arguments, one per line, the last
  /// ending the command.
  static func zshSpecs(_ command: Command, indent: String) -> String {
    var specs: [String] = []
    for option in CommandLineTable.options(for: command) {
      for name in option.names {
        var spec = "\(name)[\(zshText(option.help))]"
        if let value = option.value {
          let action: String
          switch option.completion {
          case .words(let words): action = "(\(words.joined(separator: " ")))"
          case .files: action = "_files"
          case .directories: action = "_files -/"
          case .none: action = ""
          }
          spec += ":\(zshText(value)):\(action)"
          if ["--var", "--report", "-c"].contains(name) { spec = "*" + spec }
        }
        specs.append("'\(spec)'")
      }
    }
    let description = CommandDescription.of(command)
    if description.takesScripts {
      specs.append(#"'*:script:_files -g "*.snm"'"#)
    } else if !description.firstArgument.isEmpty {
      let words = description.firstArgument.map(\.word).joined(separator: " ")
      specs.append("'1:\(command == .local ? "action" : "shell"):(\(words))'")
    } else if command == .explain {
      specs.append("'*:statement: '")
    }
    let closing = command == .shell ? "" : " ;;"
    return specs.enumerated().map { index, spec in
      indent + spec + (index == specs.count - 1 ? closing + "\n" : " \\\n")
    }.joined()
  }

  /// `text` for a zsh spec inside single quotes and brackets: no parenthesised asides, brackets
  /// and colons made harmless, quotes escaped.
  static func zshText(_ text: String) -> String {
    var plain = ""
    var depth = 0
    for character in text {
      if character == "(" { depth += 1 }
      if depth == 0 { plain.append(character) }
      if character == ")" { depth = max(0, depth - 1) }
    }
    let words = plain.replacingOccurrences(of: ":", with: " ")
      .replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
      .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    return words.replacingOccurrences(of: " ,", with: ",")
      .replacingOccurrences(of: " ;", with: ";")
      .replacingOccurrences(of: "'", with: "'\\''")
  }
}
