/// A phone number as GoTrue reads one from a request.
///
/// ```swift
/// try PhoneNumber.normalized("+1 555 555 0100")   // "15555550100"
/// PhoneNumber.isE164("+0123")                     // false: starts with 0
/// ```
enum PhoneNumber {
  /// GoTrue's `validatePhone`: `+` and spaces dropped, then 2 to 15 digits not starting with 0.
  ///
  /// - Throws: `AuthFailure.invalidPhone` (400 validation_failed) for anything else.
  static func normalized(_ text: String) throws(AuthFailure) -> String {
    guard isE164(text) else { throw .invalidPhone }
    return digits(text)
  }

  /// GoTrue's phone check: `+` and spaces dropped, then 2 to 15 digits, not starting with 0.
  static func isE164(_ text: String) -> Bool {
    let digits = digits(text)
    return (2...15).contains(digits.count) && digits.first != "0"
      && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// `text` as GoTrue formats a number: a leading `+` and every space dropped.
  static func digits(_ text: String) -> String {
    (text.hasPrefix("+") ? String(text.dropFirst()) : text).filter { $0 != " " }
  }
}
