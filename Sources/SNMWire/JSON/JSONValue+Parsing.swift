import Foundation

extension JSONValue {
  /// Parses JSON text.
  ///
  /// ```swift
  /// let value = try JSONValue(parsing: #"{"name": "Kim", "zip": 90210}"#)
  /// ```
  ///
  /// - Throws: ``JSONParseError`` with the byte offset and what was expected there.
  public init(parsing text: String) throws(JSONParseError) {
    var text = text
    self = try text.withUTF8 { Self.parse($0) }.get()
  }

  /// Parses JSON text of at most `maximumValues` values (scalars, arrays and objects), so a text
  /// from an untrusted peer cannot take many times its size in memory.
  ///
  /// - Throws: ``JSONParseError`` (`tooManyValues` past the limit).
  public init(parsing text: String, maximumValues: Int) throws(JSONParseError) {
    var text = text
    self = try text.withUTF8 { Self.parse($0, maximumValues: maximumValues) }.get()
  }

  /// Parses JSON from UTF-8 bytes (an HTTP body, a file).
  ///
  /// ```swift
  /// let rows = try JSONValue(parsing: response.body)
  /// ```
  ///
  /// - Throws: ``JSONParseError`` with the byte offset and what was expected there.
  public init(parsing data: Data) throws(JSONParseError) {
    self = try data.withUnsafeBytes { Self.parse($0.bindMemory(to: UInt8.self)) }.get()
  }

  /// Parses JSON from UTF-8 bytes.
  ///
  /// - Throws: ``JSONParseError`` with the byte offset and what was expected there.
  public init(parsing bytes: [UInt8]) throws(JSONParseError) {
    self = try bytes.withUnsafeBufferPointer { Self.parse($0) }.get()
  }

  /// Parses an answer's body as ``JSONDocument`` reads it: a surrogate's `\u` escape without its
  /// pair is taken, as U+FFFD (``JSONParser/takesLoneSurrogates``).
  ///
  /// - Throws: ``JSONParseError`` with the byte offset and what was expected there.
  init(parsingAnswer data: Data) throws(JSONParseError) {
    self = try data.withUnsafeBytes {
      Self.parse($0.bindMemory(to: UInt8.self), takesLoneSurrogates: true)
    }.get()
  }

  /// The one parse all the initializers share (a `Result`, since the buffer closures rethrow
  /// untyped errors).
  private static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, maximumValues: Int = .max,
    takesLoneSurrogates: Bool = false
  ) -> Result<JSONValue, JSONParseError> {
    Result { () throws(JSONParseError) -> JSONValue in
      var parser = JSONParser(bytes, takesLoneSurrogates: takesLoneSurrogates)
      parser.maximumValues = maximumValues
      return try parser.parse()
    }
  }
}
