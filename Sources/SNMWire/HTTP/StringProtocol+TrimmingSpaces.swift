extension StringProtocol {
  /// The text without the spaces and tabs around it (HTTP's optional whitespace, RFC 9110 §5.6.3).
  ///
  /// ```swift
  /// " return=minimal\t".trimmingSpaces    // "return=minimal"
  /// ```
  public var trimmingSpaces: String {
    var view = Substring(self)
    while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
    while let last = view.last, last == " " || last == "\t" { view.removeLast() }
    return String(view)
  }
}
