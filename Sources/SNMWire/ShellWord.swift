/// Quoting for sh: the one place snm writes a word a shell reads back unchanged (the curl
/// commands of `snm explain --curl`, DB and Storage requests alike).
///
/// ```swift
/// ShellWord.quoted("it's")   // 'it'\''s'
/// ```
public enum ShellWord {
  /// `'text'`, each `'` inside written as `'\''`.
  public static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
