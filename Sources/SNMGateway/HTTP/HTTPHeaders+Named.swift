import SNMWire

extension HTTPHeaders {
  /// The value of the first field named `name`, which is given in lowercase: what
  /// `self[name]` finds (ASCII letters compared without case, other bytes exactly), with the
  /// lengths compared before any byte and no copy of a field made.
  ///
  /// ```swift
  /// request.headers.first(lowercased: "authorization")   // Authorization: Bearer ...
  /// ```
  package func first(lowercased name: StaticString) -> String? {
    let length = name.utf8CodeUnitCount
    let expected = name.utf8Start
    for index in fields.indices where fields[index].name.utf8.count == length {
      var candidate = fields[index].name
      let same = candidate.withUTF8 { bytes in
        for offset in 0..<length {
          let byte = bytes[offset]
          let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
          if lower != expected[offset] { return false }
        }
        return true
      }
      if same { return fields[index].value }
    }
    return nil
  }
}
