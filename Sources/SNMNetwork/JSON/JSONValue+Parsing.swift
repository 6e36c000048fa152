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
    let result = text.withUTF8 { bytes in
      Result { () throws(JSONParseError) -> JSONValue in
        var parser = JSONParser(bytes)
        return try parser.parse()
      }
    }
    self = try result.get()
  }

  /// Parses JSON from UTF-8 bytes (an HTTP body, a file).
  ///
  /// ```swift
  /// let rows = try JSONValue(parsing: response.body)
  /// ```
  ///
  /// - Throws: ``JSONParseError`` with the byte offset and what was expected there.
  public init(parsing data: Data) throws(JSONParseError) {
    let result = data.withUnsafeBytes { raw in
      Result { () throws(JSONParseError) -> JSONValue in
        var parser = JSONParser(raw.bindMemory(to: UInt8.self))
        return try parser.parse()
      }
    }
    self = try result.get()
  }

  /// Parses JSON from UTF-8 bytes.
  ///
  /// - Throws: ``JSONParseError`` with the byte offset and what was expected there.
  public init(parsing bytes: [UInt8]) throws(JSONParseError) {
    let result = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONParseError) -> JSONValue in
        var parser = JSONParser(buffer)
        return try parser.parse()
      }
    }
    self = try result.get()
  }
}
