/// The support types every generated file ends with: the coders for PostgREST's dates, a JSON
/// value, numerics with all their digits, `bytea` and ranges.
enum SwiftSupport {
  /// The support code with `access` (`public ` or ``) before each declaration.
  static func text(access: String) -> String {
    template.replacingOccurrences(of: "ACCESS ", with: access)
  }

  static let template = #"""
    // MARK: - Support (generated with the types above)

    /// The coders for what PostgREST sends and takes: `timestamptz`, `timestamp` and `date` as
    /// `Date` (with or without fractional seconds and an offset; `infinity` as `distantFuture`),
    /// `NaN` and `Infinity` as the strings Postgres writes.
    ACCESS enum PostgRESTCoding {
      ACCESS static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
          let container = try decoder.singleValueContainer()
          let text = try container.decode(String.self)
          guard let date = parseDate(text) else {
            throw DecodingError.dataCorruptedError(
              in: container, debugDescription: "not a date or timestamp PostgREST writes: \(text)")
          }
          return date
        }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
          positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
      }

      ACCESS static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
          var container = encoder.singleValueContainer()
          try container.encode(formatDate(date))
        }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
          positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
      }

      /// `2024-05-01`, `2024-05-01T12:30:00`, `2024-05-01T12:30:00.123456+02:00`, `...Z`, `infinity`.
      ACCESS static func parseDate(_ text: String) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
          guard index + count <= bytes.count else { return nil }
          var value = 0
          for byte in bytes[index..<(index + count)] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
          }
          index += count
          return value
        }
        func take(_ byte: UInt8) -> Bool {
          guard index < bytes.count, bytes[index] == byte else { return false }
          index += 1
          return true
        }
        guard let year = digits(4), take(45), let month = digits(2), take(45), let day = digits(2),
          (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = 0
        var fraction = 0.0
        var offset = 0
        if index < bytes.count {
          guard take(84) || take(32), let hour = digits(2), take(58), let minute = digits(2),
            take(58), let second = digits(2)
          else { return nil }
          seconds = hour * 3600 + minute * 60 + second
          if take(46) {
            var value = 0.0
            var scale = 1.0
            while index < bytes.count, (48...57).contains(bytes[index]) {
              value = value * 10 + Double(bytes[index] - 48)
              scale *= 10
              index += 1
            }
            guard scale > 1 else { return nil }
            fraction = value / scale
          }
          if !take(90), index < bytes.count {
            let sign: Int
            if take(43) { sign = 1 } else if take(45) { sign = -1 } else { return nil }
            guard let hours = digits(2) else { return nil }
            var total = hours * 3600
            _ = take(58)
            if let minutes = digits(2) {
              total += minutes * 60
              _ = take(58)
              if let extra = digits(2) { total += extra }
            }
            offset = sign * total
          }
        }
        guard index == bytes.count else { return nil }
        let whole = daysFromCivil(year, month, day) * 86_400 + seconds - offset
        return Date(timeIntervalSince1970: Double(whole) + fraction)
      }

      /// `2024-05-01T10:30:00.123456Z` (microseconds, as Postgres keeps them); `infinity`.
      ACCESS static func formatDate(_ date: Date) -> String {
        if date == .distantFuture { return "infinity" }
        if date == .distantPast { return "-infinity" }
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard micros.isFinite, abs(micros) < 9e18 else { return micros < 0 ? "-infinity" : "infinity" }
        var days = Int64(micros) / 86_400_000_000
        var rest = Int64(micros) % 86_400_000_000
        if rest < 0 {
          rest += 86_400_000_000
          days -= 1
        }
        let (year, month, day) = civilFromDays(Int(days))
        func padded(_ value: Int64, _ width: Int) -> String {
          let text = String(value)
          return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return padded(Int64(year), 4) + "-" + padded(Int64(month), 2) + "-" + padded(Int64(day), 2)
          + "T" + padded(rest / 3_600_000_000, 2) + ":" + padded(rest / 60_000_000 % 60, 2) + ":"
          + padded(rest / 1_000_000 % 60, 2) + "." + padded(rest % 1_000_000, 6) + "Z"
      }

      static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
      }

      static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
      }
    }

    /// A `json` or `jsonb` value.
    ACCESS enum JSONValue: Codable, Hashable, Sendable {
      case null
      case bool(Bool)
      case integer(Int64)
      case number(Double)
      case string(String)
      case array([JSONValue])
      case object([String: JSONValue])

      ACCESS init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
          self = .null
        } else if let value = try? container.decode(Bool.self) {
          self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
          self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
          self = .number(value)
        } else if let value = try? container.decode(String.self) {
          self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
          self = .array(value)
        } else {
          self = .object(try container.decode([String: JSONValue].self))
        }
      }

      ACCESS func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
      }
    }

    /// A `numeric` with all its digits: the text Postgres wrote. Select it with `::text` (each
    /// table's `Select.selectString` does) to get every digit; a JSON number of 38 or more
    /// significant digits is refused, as `Decimal` would round it.
    ACCESS struct PGNumeric: Codable, Hashable, Sendable, CustomStringConvertible {
      ACCESS var text: String

      ACCESS init(_ text: String) {
        self.text = text
      }

      ACCESS init(_ value: Decimal) {
        self.text = value.description
      }

      /// The value as a `Decimal` (38 significant digits).
      ACCESS var decimal: Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }

      ACCESS var description: String { text }

      ACCESS init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
          let allowed = Set("0123456789+-.eE")
          guard ["NaN", "Infinity", "-Infinity"].contains(text)
            || (!text.isEmpty && text.allSatisfy { allowed.contains($0) })
          else {
            throw DecodingError.dataCorruptedError(
              in: container, debugDescription: "not a numeric: \(text)")
          }
          self.text = text
          return
        }
        let value = try container.decode(Decimal.self)
        let digits = value.description.filter(\.isNumber).drop { $0 == "0" }
        guard digits.count < 38 else {
          throw DecodingError.dataCorruptedError(
            in: container,
            debugDescription: "a numeric of \(digits.count)+ digits sent as a JSON number may have "
              + "lost digits: select it with ::text (Select.selectString does)")
        }
        self.text = value.description
      }

      ACCESS func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
      }
    }

    /// A `bytea`: PostgREST sends and takes its hex form (`\x0102`).
    ACCESS struct PGBytes: Codable, Hashable, Sendable {
      ACCESS var bytes: [UInt8]

      ACCESS init(_ bytes: [UInt8]) {
        self.bytes = bytes
      }

      ACCESS init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = Array(try container.decode(String.self).utf8)
        func nibble(_ byte: UInt8) -> UInt8? {
          switch byte {
          case 48...57: byte - 48
          case 97...102: byte - 87
          case 65...70: byte - 55
          default: nil
          }
        }
        guard text.count >= 2, text[0] == 92, text[1] == 120, text.count % 2 == 0 else {
          throw DecodingError.dataCorruptedError(in: container, debugDescription: "not \\x hex")
        }
        var bytes: [UInt8] = []
        var index = 2
        while index < text.count {
          guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not \\x hex")
          }
          bytes.append(high << 4 | low)
          index += 2
        }
        self.bytes = bytes
      }

      ACCESS func encode(to encoder: any Encoder) throws {
        let digits = Array("0123456789abcdef")
        var text = "\\x"
        for byte in bytes {
          text.append(digits[Int(byte >> 4)])
          text.append(digits[Int(byte & 15)])
        }
        var container = encoder.singleValueContainer()
        try container.encode(text)
      }
    }

    /// A range (`int4range`, `tstzrange`, ...): its bounds as Postgres writes them, nil when
    /// unbounded, or `empty`.
    ACCESS struct PGRange: Codable, Hashable, Sendable, CustomStringConvertible {
      ACCESS var lower: String?
      ACCESS var upper: String?
      ACCESS var lowerInclusive: Bool
      ACCESS var upperInclusive: Bool
      ACCESS var isEmpty: Bool

      ACCESS init(
        lower: String?, upper: String?, lowerInclusive: Bool = true, upperInclusive: Bool = false
      ) {
        self.lower = lower
        self.upper = upper
        self.lowerInclusive = lowerInclusive && lower != nil
        self.upperInclusive = upperInclusive && upper != nil
        self.isEmpty = false
      }

      /// The text form: `[1,10)`, `("2024-01-01 00:00:00+00",)`, `empty`; nil when not a range.
      ACCESS init?(text: String) {
        if text == "empty" {
          self.init(lower: nil, upper: nil)
          isEmpty = true
          return
        }
        guard let open = text.first, let close = text.last, text.count >= 3,
          "[(".contains(open), "])".contains(close)
        else { return nil }
        var bounds: [String?] = []
        var current = ""
        var quoted = false
        var wasQuoted = false
        var escaped = false
        for character in text.dropFirst().dropLast() {
          if escaped {
            current.append(character)
            escaped = false
          } else if character == "\\" {
            escaped = true
          } else if character == "\"" {
            quoted.toggle()
            wasQuoted = true
          } else if character == ",", !quoted {
            bounds.append(current.isEmpty && !wasQuoted ? nil : current)
            current = ""
            wasQuoted = false
          } else {
            current.append(character)
          }
        }
        bounds.append(current.isEmpty && !wasQuoted ? nil : current)
        guard bounds.count == 2 else { return nil }
        self.init(
          lower: bounds[0], upper: bounds[1], lowerInclusive: open == "[",
          upperInclusive: close == "]")
      }

      ACCESS var description: String {
        if isEmpty { return "empty" }
        func bound(_ value: String?) -> String {
          guard let value else { return "" }
          let plain = !value.isEmpty && !value.contains { " ,\"\\()[]".contains($0) }
          if plain { return value }
          return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return (lowerInclusive ? "[" : "(") + bound(lower) + "," + bound(upper)
          + (upperInclusive ? "]" : ")")
      }

      ACCESS init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let range = PGRange(text: text) else {
          throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a range: \(text)")
        }
        self = range
      }

      ACCESS func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
      }
    }

    """#
}
