import SNMWire

/// A `text/csv` request body as PostgREST reads it (Payload.hs, `csvToJson` over cassava's
/// `decodeByName`): RFC 4180 records, the first the column names; each field is a string, `NULL`
/// is null; every record must have as many fields as the header. The rows become a JSON array
/// of objects, which the write then treats as any array body.
///
///     try CSVBody.rows(Array("name,age\nBori,3\nMax,NULL\n".utf8))
///     // [{"name":"Bori","age":"3"},{"name":"Max","age":null}]
enum CSVBody {
  /// Throws 400 PGRST102 for a malformed body (an unclosed quote, a record of another length).
  static func rows(_ bytes: [UInt8]) throws(RESTError) -> JSONValue {
    let records = try records(bytes)
    guard let header = records.first else {
      throw RESTError.invalidBody("Empty or invalid CSV: no header line")
    }
    var rows: [JSONValue] = []
    rows.reserveCapacity(records.count - 1)
    for (index, record) in records.dropFirst().enumerated() {
      guard record.count == header.count else {
        throw RESTError.invalidBody(
          "parse error (record \(index + 2) has \(record.count) fields, the header \(header.count))"
        )
      }
      var object = JSONObject()
      for (name, field) in zip(header, record) {
        object.append(name, field == "NULL" ? .null : .string(field))
      }
      rows.append(.object(object))
    }
    return .array(rows)
  }

  /// The records: fields split at commas, quoted fields with `""` for a quote, lines ended by LF
  /// or CRLF; a last line without its break counts; empty lines at the end do not.
  static func records(_ bytes: [UInt8]) throws(RESTError) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field: [UInt8] = []
    var index = 0
    // Whether the field being read was quoted (so `""` and `,""` are empty fields, not none).
    var quoted = false
    func endField() {
      record.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
      quoted = false
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") && field.isEmpty && !quoted {
        index += 1
        var closed = false
        while index < bytes.count {
          if bytes[index] == UInt8(ascii: "\"") {
            if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
              field.append(UInt8(ascii: "\""))
              index += 2
              continue
            }
            closed = true
            index += 1
            break
          }
          field.append(bytes[index])
          index += 1
        }
        guard closed else { throw RESTError.invalidBody("parse error (unclosed quote)") }
        quoted = true
        guard index >= bytes.count || [UInt8(ascii: ","), 0x0A, 0x0D].contains(bytes[index])
        else {
          throw RESTError.invalidBody("parse error (text after a closing quote)")
        }
        continue
      }
      switch byte {
      case UInt8(ascii: ","):
        endField()
      case 0x0D where index + 1 < bytes.count && bytes[index + 1] == 0x0A:
        index += 1
        fallthrough
      case 0x0A:
        endField()
        records.append(record)
        record = []
      default:
        field.append(byte)
      }
      index += 1
    }
    if !field.isEmpty || quoted || !record.isEmpty {
      endField()
      records.append(record)
    }
    // Blank lines (a lone empty field) are not records.
    return records.filter { !($0.count == 1 && $0[0].isEmpty) }
  }
}
