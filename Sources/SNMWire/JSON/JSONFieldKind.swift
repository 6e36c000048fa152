/// What a row's member value is, as ``JSONElements/nextRow(_:)`` hands it over with its text:
/// the decoded UTF-8 of a string, a number as written, `true`/`false`, nothing for null, and the
/// compact JSON text of an array or object.
///
/// ```swift
/// try elements.nextRow { kind, text in
///   if kind == .string { ... String(decoding: text, as: UTF8.self) ... }
/// }
/// ```
public enum JSONFieldKind: Sendable, Equatable {
  case null, bool, number, string, nested
}
