extension StringProtocol {
  /// The text without the spaces and tabs around it (HTTP's optional whitespace, RFC 9110 §5.6.3).
  ///
  /// ```swift
  /// " return=minimal\t".trimmingSpaces    // "return=minimal"
  /// ```
  /// Inlinable so each caller gets it specialised for its own string type; text that neither
  /// starts nor ends with a space or tab (nearly all) is copied at once.
  @inlinable public var trimmingSpaces: String {
    if let first, let last, first != " ", first != "\t", last != " ", last != "\t" {
      return String(self)
    }
    var view = Substring(self)
    while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
    while let last = view.last, last == " " || last == "\t" { view.removeLast() }
    return String(view)
  }
}
