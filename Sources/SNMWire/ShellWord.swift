/// Quoting for sh: the one place snm writes a word a shell reads back unchanged (the curl
/// commands of `snm explain --curl`, DB and Storage requests alike).
///
/// ```swift
/// ShellWord.quoted("it's")   // 'it'\''s'
/// ShellWord.quoted("x\u{202E}y")   // $'x\xE2\x80\xAEy'
/// ```
/// A word holding a character ``VisibleTextLine`` escapes (a control, a bidirectional override:
/// Trojan Source) is written in bash's `$'...'` form with that character's UTF-8 bytes as `\xHH`
/// escapes, so the command reads as it runs and, pasted into bash (or zsh, ksh), is the same
/// bytes; `\u202E` would be too, but only in a UTF-8 locale (bash writes it as is in C).
public enum ShellWord {
  /// `'text'`, each `'` inside written as `'\''`; `$'text'` when `text` holds a character a
  /// reader must not be shown raw.
  public static func quoted(_ text: String) -> String {
    if text.utf8.contains(where: VisibleTextLine.mayHide), VisibleTextLine.hidesAny(text) {
      return escaped(text)
    }
    return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// `$'text'`: `\` and `'` escaped, each character ``VisibleTextLine`` escapes as its bytes.
  static func escaped(_ text: String) -> String {
    var word = "$'"
    VisibleTextLine.forEachScalar(of: text) { scalar, hidden in
      switch scalar {
      case "\\": word += #"\\"#
      case "'": word += #"\'"#
      case _ where hidden:
        for byte in String(scalar).utf8 {
          let digits = String(byte, radix: 16, uppercase: true)
          word += #"\x"# + (digits.count == 1 ? "0" : "") + digits
        }
      default: word.unicodeScalars.append(scalar)
      }
    }
    return word + "'"
  }
}
